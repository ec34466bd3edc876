package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

const policies = "../../testdata/policy"

// TestCLIPolicy is TestCLI for the policy file and inline suppressions (go test
// ./cmd/kubeletcfg -run Policy -update rewrites these goldens). The package
// folder has no .kubeletcfg.yaml up to the repository root, so cases without
// --policy see none; discovery cases run in testdata/policy/repo.
func TestCLIPolicy(t *testing.T) {
	repo := []string{"-c", policies + "/repo/config.yaml", "-d", policies + "/repo/conf.d"}
	webhook := []string{"webhook", "--tls-cert-file", "no/tls.crt", "--tls-private-key-file", "no/tls.key", "--control-plane", "1.37"}
	tests := []struct {
		name string
		args []string
		exit int
	}{
		{"policy-suppress", []string{"lint", "-c", policies + "/suppress/config.yaml"}, exitClean},
		{"policy-suppress-refused", []string{"lint", "-c", policies + "/refused/config.yaml"}, exitFindings},
		{"policy-explicit", append([]string{"lint", "--policy", policies + "/quiet.yaml"}, repo...), exitClean},
		{"policy-explicit-json", append([]string{"lint", "--policy", policies + "/quiet.yaml", "-o", "json"}, repo...), exitClean},
		{"policy-unknown-key", []string{"lint", "--policy", policies + "/bad/unknown-key.yaml", "-c", policies + "/suppress/config.yaml"}, exitUsage},
		{"policy-unknown-rule", []string{"lint", "--policy", policies + "/bad/unknown-rule.yaml", "-c", policies + "/suppress/config.yaml"}, exitUsage},
		{"policy-lower-error", []string{"lint", "--policy", policies + "/bad/lower-error.yaml", "-c", policies + "/refused/config.yaml"}, exitUsage},
		{"policy-bad-kubelet-version", []string{"lint", "--policy", policies + "/bad/kubelet-version.yaml", "-c", policies + "/suppress/config.yaml"}, exitUsage},
		{"policy-missing", []string{"lint", "--policy", "no/such/policy.yaml", "-c", policies + "/suppress/config.yaml"}, exitUsage},
		{"policy-and-no-policy", []string{"lint", "--policy", policies + "/quiet.yaml", "--no-policy", "-c", policies + "/suppress/config.yaml"}, exitUsage},
		{"policy-skew-explicit", append([]string{"skew", "--policy", policies + "/bad/unknown-key.yaml"}, repo...), exitUsage},
		// The webhook reads --policy before it serves (and before it asks the API server anything).
		{"policy-webhook-missing", append(webhook, "--policy", "no/such/policy.yaml"), exitUsage},
		{"policy-webhook-unknown-rule", append(webhook, "--policy", policies+"/bad/unknown-rule.yaml"), exitUsage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { runGolden(t, tt.name, tt.args, tt.exit) })
	}
}

// The policy found by walking up from the working folder, its defaults, and
// the flags that override them.
func TestCLIPolicyDiscovered(t *testing.T) {
	files := []string{"-c", "config.yaml", "-d", "conf.d"}
	tests := []struct {
		name string
		dir  string
		args []string
		exit int
	}{
		// kubeletVersion 1.35 and failOn warning from the policy; KC3005 off,
		// KC2001 and KC2006 raised, conf.d/90-vendor.conf excluded.
		{"policy-discovered", "repo", append([]string{"lint"}, files...), exitFindings},
		{"policy-discovered-json", "repo", append([]string{"lint", "-o", "json"}, files...), exitFindings},
		// Flags on the command line win over the policy's defaults.
		{"policy-flags-win", "repo", append([]string{"lint", "--kubelet-version", "1.37", "--fail-on", "none"}, files...), exitClean},
		{"policy-no-policy", "repo", append([]string{"lint", "--no-policy"}, files...), exitClean},
		// From a subfolder: the policy one folder up (exclude stays relative to it).
		{"policy-discovered-subfolder", "repo/conf.d", []string{"lint", "-c", "../config.yaml", "-d", "."}, exitFindings},
		// skew takes the policy's versions window (--control-plane replaces it)
		// and its failOn: warning.
		{"policy-skew", "repo", append([]string{"skew"}, files...), exitFindings},
		{"policy-skew-control-plane", "repo", append([]string{"skew", "--control-plane", "1.36"}, files...), exitFindings},
		{"policy-skew-fail-on-none", "repo", append([]string{"skew", "--fail-on", "none", "-q"}, files...), exitClean},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			here, err := os.Getwd()
			if err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			t.Chdir(policies + "/" + tt.dir)
			code := run(tt.args, &stdout, &stderr)
			t.Chdir(here)
			if code != tt.exit {
				t.Errorf("exit code %d, want %d\nstderr: %s", code, tt.exit, stderr.String())
			}
			got := "$ cd testdata/policy/" + tt.dir + " && kubeletcfg " + strings.Join(tt.args, " ") + "\n" + stdout.String()
			if stderr.Len() > 0 {
				got += "--- stderr\n" + stderr.String()
			}
			checkGolden(t, tt.name, got)
		})
	}
}

// Policy errors are one line naming the file and line, never a stack trace,
// from lint and from the webhook.
func TestPolicyErrorsAreOneLine(t *testing.T) {
	for _, bad := range []string{"unknown-key", "unknown-rule", "lower-error", "kubelet-version"} {
		file := policies + "/bad/" + bad + ".yaml"
		for _, args := range [][]string{
			{"lint", "--policy", file, "-c", policies + "/suppress/config.yaml"},
			{"webhook", "--policy", file, "--tls-cert-file", "tls.crt", "--tls-private-key-file", "tls.key", "--control-plane", "1.37"},
		} {
			var stdout, stderr bytes.Buffer
			if code := run(args, &stdout, &stderr); code != exitUsage {
				t.Errorf("%s %s: exit %d, want %d", args[0], bad, code, exitUsage)
			}
			msg := stderr.String()
			if strings.Count(msg, "\n") != 1 || !strings.HasPrefix(msg, "kubeletcfg: "+file+":") || stdout.Len() > 0 {
				t.Errorf("%s %s: want one line naming %s:LINE, got %q", args[0], bad, file, msg)
			}
		}
	}
}
