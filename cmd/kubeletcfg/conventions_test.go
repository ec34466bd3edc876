package main

import (
	"bytes"
	"strings"
	"testing"
)

// runCLI runs a command in-process and returns its exit code, stdout and stderr.
func runCLI(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := run(args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func TestRootVersionFlag(t *testing.T) {
	code, out, _ := runCLI("--version")
	if code != exitClean || out != "kubeletcfg "+buildInfo().Version+"\n" {
		t.Errorf("kubeletcfg --version: exit %d, %q", code, out)
	}
}

func TestProfileIsCaseInsensitive(t *testing.T) {
	_, lower, _ := runCLI("lint", "-c", "../../testdata/cis/weakened/config.yaml", "-d", "../../testdata/cis/weakened/conf.d", "--profile", "cis", "-o", "json")
	code, upper, errOut := runCLI("lint", "-c", "../../testdata/cis/weakened/config.yaml", "-d", "../../testdata/cis/weakened/conf.d", "--profile", "CIS", "-o", "json")
	if code == exitUsage || upper != lower || !strings.Contains(upper, "KC8") {
		t.Errorf("--profile CIS: exit %d, stderr %q, same as cis: %v", code, errOut, upper == lower)
	}
}

func TestFailOnErrorListsEveryValue(t *testing.T) {
	for _, cmd := range [][]string{{"lint", "-c", example + "/config.yaml"}} {
		code, _, errOut := runCLI(append(cmd, "--fail-on", "fatal")...)
		if code != exitUsage {
			t.Errorf("%v --fail-on fatal: exit %d", cmd, code)
		}
		for _, v := range []string{"error", "warning", "info", "none"} {
			if !strings.Contains(errOut, v) {
				t.Errorf("%v --fail-on fatal: %q does not list %s", cmd, errOut, v)
			}
		}
	}
}

func TestColorEnv(t *testing.T) {
	for _, tt := range []struct {
		noColor, term string
		want          bool
	}{
		{"", "xterm-256color", true},
		{"1", "xterm-256color", false},
		{"", "dumb", false},
	} {
		t.Setenv("NO_COLOR", tt.noColor)
		t.Setenv("TERM", tt.term)
		if got := colorEnv(); got != tt.want {
			t.Errorf("NO_COLOR=%q TERM=%q: colour %v, want %v", tt.noColor, tt.term, got, tt.want)
		}
	}
}
