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

// --fail-on, -q/--quiet and --no-color on every command that gives a verdict.
func TestVerdictFlagsEverywhere(t *testing.T) {
	files := []string{"-c", example + "/config.yaml", "-d", example + "/conf.d"}
	for _, cmd := range [][]string{
		{"lint"},
		{"lint", "--nodes", det + "/nodes"},
		{"skew", "--versions", "1.36..1.37"},
		{"preflight", "--from", "1.36"},
	} {
		args := cmd
		if len(cmd) == 1 || cmd[1] != "--nodes" {
			args = append(append([]string{}, cmd...), files...)
		}
		// The example does not start at 1.37: exit 1 by default, 0 with --fail-on none.
		if code, _, errOut := runCLI(append(args, "--no-color")...); code != exitFindings {
			t.Errorf("%v --no-color: exit %d, want %d (%s)", cmd, code, exitFindings, errOut)
		}
		if code, _, errOut := runCLI(append(args, "--fail-on", "none", "-q")...); code != exitClean {
			t.Errorf("%v --fail-on none -q: exit %d, want %d (%s)", cmd, code, exitClean, errOut)
		}
		if code, _, _ := runCLI(append(args, "--fail-on", "fatal")...); code != exitUsage {
			t.Errorf("%v --fail-on fatal: exit %d, want %d", cmd, code, exitUsage)
		}
	}
}

// --quiet leaves out the summary: lint's count line, skew's closing line,
// preflight's notes.
func TestQuiet(t *testing.T) {
	files := []string{"-c", example + "/config.yaml", "-d", example + "/conf.d", "--fail-on", "none"}
	for _, tt := range []struct {
		cmd  []string
		gone string
	}{
		{[]string{"lint"}, "kubelet minor\n"},
		{[]string{"skew", "--versions", "1.36..1.37"}, "would NOT start; run kubeletcfg lint"},
		{[]string{"preflight", "--from", "1.36"}, "\nNotes"},
	} {
		_, loud, _ := runCLI(append(tt.cmd, files...)...)
		_, quiet, _ := runCLI(append(append(tt.cmd, files...), "-q")...)
		if !strings.Contains(loud, tt.gone) || strings.Contains(quiet, tt.gone) || !strings.HasPrefix(loud, quiet) {
			t.Errorf("%v -q: %q should drop %q from\n%s", tt.cmd, quiet, tt.gone, loud)
		}
	}
}

// A preflight fails at --fail-on warning when the target has a warning only.
func TestPreflightFailOnWarning(t *testing.T) {
	args := []string{"preflight", "--from", "1.36", "-c", example + "/config.yaml"}
	if code, _, _ := runCLI(args...); code != exitClean {
		t.Fatalf("%v: exit %d, want %d (the main file alone starts)", args, code, exitClean)
	}
	if code, _, _ := runCLI(append(args, "--fail-on", "warning")...); code != exitFindings {
		t.Errorf("%v --fail-on warning: exit %d, want %d (maxPod is dropped)", args, code, exitFindings)
	}
}

// --kubelet-version takes the same forms on every command that takes one
// minor, and a list gets a hint to what takes several.
func TestKubeletVersionForms(t *testing.T) {
	for _, cmd := range [][]string{
		{"lint", "-c", example + "/config.yaml", "--fail-on", "none"},
		{"effective", "-c", example + "/config.yaml"},
		{"explain", "maxPods"},
		{"schema"},
		{"fix", "--diff", "-c", "../../testdata/fix/node/config.yaml"},
		{"backoff", "-c", "../../testdata/backoff/default.yaml"},
		{"lint", "--nodes", det + "/nodes", "--fail-on", "none"},
	} {
		var want string
		for _, v := range []string{"1.36", "v1.36", "1.36.3", "v1.36.3"} {
			code, out, errOut := runCLI(append(cmd, "--kubelet-version", v)...)
			if code != exitClean {
				t.Errorf("%v --kubelet-version %s: exit %d: %s", cmd, v, code, errOut)
			}
			if want == "" {
				want = out
			} else if out != want {
				t.Errorf("%v --kubelet-version %s: output differs from 1.36", cmd, v)
			}
		}
		for _, list := range []string{"1.36,1.37", "1.34..1.37"} {
			code, _, errOut := runCLI(append(cmd, "--kubelet-version", list)...)
			if code != exitUsage || !strings.Contains(errOut, "takes one minor") || !strings.Contains(errOut, "skew") && !strings.Contains(errOut, "--versions") && !strings.Contains(errOut, "--kubeconform") {
				t.Errorf("%v --kubelet-version %s: exit %d, %q", cmd, list, code, errOut)
			}
		}
	}
}

// An unknown path or gate is a usage error (exit 2) everywhere one is named.
func TestUnknownPathOrGateExits2(t *testing.T) {
	dropin := []string{"dropin", "new", "60-x.conf", "-c", "../../testdata/dropin/node/config.yaml", "-d", "../../testdata/dropin/node/conf.d", "--dry-run"}
	for _, args := range [][]string{
		{"explain", "maxPod"},
		{"explain", "featureGates[NodeSwp]"},
		{"explain", "featureGates.NodeSwp", "-o", "json"},
		append(append([]string{}, dropin...), "--set", "maxPod=10"),
		append(append([]string{}, dropin...), "--feature-gate", "NodeSwp=true"),
		append(append([]string{}, dropin...), "--set", "featureGates[NodeSwp]=true"),
	} {
		if code, _, errOut := runCLI(args...); code != exitUsage || !strings.Contains(errOut, "did you mean") {
			t.Errorf("%v: exit %d, %q; want %d with did-you-mean", args, code, errOut, exitUsage)
		}
	}
}
