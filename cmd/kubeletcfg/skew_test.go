package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

const cases = "../../testdata/conformance/cases/"

// TestCLISkewPreflight is TestCLI for kubeletcfg skew and preflight: whole
// commands against golden files (go test ./cmd/kubeletcfg -update rewrites them).
func TestCLISkewPreflight(t *testing.T) {
	gke := []string{"-c", cases + "400-real-gke-stale-locked-gate/kubelet.yaml", "-d", cases + "400-real-gke-stale-locked-gate/conf.d"}
	kubeadm := []string{"-c", cases + "393-real-kubeadm-with-dropins/kubelet.yaml", "-d", cases + "393-real-kubeadm-with-dropins/conf.d"}
	tests := []struct {
		name string
		args []string
		exit int
	}{
		{"skew-example", []string{"skew", "--config", example + "/config.yaml", "--config-dir", example + "/conf.d"}, exitFindings},
		{"skew-example-json", []string{"skew", "-c", example + "/config.yaml", "-d", example + "/conf.d", "-o", "json"}, exitFindings},
		{"skew-main-only", []string{"skew", "-c", example + "/config.yaml"}, exitClean},
		{"skew-control-plane", []string{"skew", "-c", example + "/config.yaml", "--control-plane", "1.35"}, exitClean},
		{"skew-versions-list", []string{"skew", "-c", example + "/config.yaml", "--versions", "1.37,v1.33.4"}, exitClean},
		{"skew-crashloop", []string{"skew", "-c", cases + "070-crashloop-gate-true-30s-main/kubelet.yaml", "--versions", "1.31..1.37"}, exitFindings},
		{"skew-locked-gate", append([]string{"skew"}, gke...), exitFindings},
		{"skew-unknown-gate", []string{"skew", "-c", cases + "181-gate-unknown-main/kubelet.yaml", "--versions", "1.37"}, exitFindings},
		{"skew-bad-version", []string{"skew", "-c", example + "/config.yaml", "--versions", "1.12"}, exitUsage},
		{"skew-reversed-range", []string{"skew", "-c", example + "/config.yaml", "--versions", "1.37..1.34"}, exitUsage},
		{"skew-bad-control-plane", []string{"skew", "-c", example + "/config.yaml", "--control-plane", "1.40"}, exitUsage},
		{"skew-both-windows", []string{"skew", "-c", example + "/config.yaml", "--versions", "1.37", "--control-plane", "1.37"}, exitUsage},
		{"skew-kubelet-version", []string{"skew", "-c", example + "/config.yaml", "--kubelet-version", "1.37"}, exitUsage},
		{"skew-no-input", []string{"skew"}, exitUsage},
		{"skew-missing-file", []string{"skew", "-c", "does/not/exist.yaml"}, exitUsage},
		{"skew-bad-output", []string{"skew", "-c", example + "/config.yaml", "-o", "xml"}, exitUsage},
		{"preflight-1.38-removed-gate", []string{"preflight", "--from", "1.37", "--to", "1.38", "-c", cases + "492-gate-removed-1.38-nodeswap/kubelet.yaml"}, exitFindings},
		{"preflight-1.38-removed-gate-json", []string{"preflight", "--from", "1.37", "--to", "1.38", "-c", cases + "493-gate-removed-1.38-nodeadm-dra/kubelet.yaml", "-o", "json"}, exitFindings},
		{"skew-windows-capz", []string{"skew", "-c", "../../testdata/bootstrappers/capi/capz-windows-md.yaml", "--versions", "1.37,1.38"}, exitClean},
		{"preflight-windows-capz", []string{"preflight", "--from", "1.37", "--to", "1.38", "-c", "../../testdata/bootstrappers/capi/capz-windows-md.yaml"}, exitClean},
		{"preflight-1.38-new-fields", []string{"preflight", "--from", "1.37", "--to", "1.38", "-c", cases + "498-val-mldsa-tls13/kubelet.yaml"}, exitClean},
		{"skew-1.38", []string{"skew", "-c", cases + "497-val-mldsa-tls12/kubelet.yaml", "--versions", "1.35..1.38"}, exitFindings},
		{"lint-1.38-locked-gates", []string{"lint", "-c", cases + "494-gate-locked-1.38-dropin/kubelet.yaml", "-d", cases + "494-gate-locked-1.38-dropin/conf.d", "--kubelet-version", "v1.38.0-beta.0"}, exitFindings},
		{"preflight-example", []string{"preflight", "--from", "1.33", "--to", "1.37", "--config", example + "/config.yaml", "--config-dir", example + "/conf.d"}, exitFindings},
		{"preflight-example-json", []string{"preflight", "--from", "1.33", "-c", example + "/config.yaml", "-d", example + "/conf.d", "-o", "json"}, exitFindings},
		{"preflight-main-only", []string{"preflight", "--from", "1.33", "-c", example + "/config.yaml"}, exitClean},
		{"preflight-cgroup-v1", []string{"preflight", "--from", "1.33", "-c", example + "/config.yaml", "--cgroup-version", "v1"}, exitFindings},
		{"preflight-same-minor", []string{"preflight", "--from", "1.37", "--to", "1.37", "-c", example + "/config.yaml"}, exitClean},
		{"preflight-from-default-no-to", []string{"preflight", "--from", "1.37", "-c", example + "/config.yaml"}, exitUsage},
		{"preflight-fails-at-from", []string{"preflight", "--from", "1.31", "-c", "../../testdata/preflight/gate-newer-than-from.yaml"}, exitClean},
		{"preflight-locked-gate", append([]string{"preflight", "--from", "1.33"}, gke...), exitFindings},
		{"preflight-kubeadm", append([]string{"preflight", "--from", "1.31"}, kubeadm...), exitClean},
		{"preflight-deprecated-gate", []string{"preflight", "--from", "1.36", "-c", cases + "192-gate-deprecated/kubelet.yaml"}, exitClean},
		{"preflight-unknown-gate", []string{"preflight", "--from", "1.33", "-c", cases + "181-gate-unknown-main/kubelet.yaml"}, exitFindings},
		{"preflight-reversed", []string{"preflight", "--from", "1.37", "--to", "1.33", "-c", example + "/config.yaml"}, exitUsage},
		{"preflight-no-from", []string{"preflight", "-c", example + "/config.yaml"}, exitUsage},
		{"preflight-bad-to", []string{"preflight", "--from", "1.33", "--to", "1.12", "-c", example + "/config.yaml"}, exitUsage},
		{"skew-help", []string{"skew", "--help"}, exitClean},
		{"preflight-help", []string{"preflight", "--help"}, exitClean},
		{"preflight-missing-dir", []string{"preflight", "--from", "1.36", "-c", example + "/config.yaml", "-d", "no/such/dir"}, exitUsage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runGolden(t, tt.name, tt.args, tt.exit)
		})
	}
}

// runGolden runs a command and compares its output and exit code with
// testdata/<name>.golden, as TestCLI does.
func runGolden(t *testing.T, name string, args []string, exit int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(args, &stdout, &stderr)
	if code != exit {
		t.Errorf("exit code %d, want %d\nstderr: %s", code, exit, stderr.String())
	}
	got := "$ kubeletcfg " + strings.Join(args, " ") + "\n" + stdout.String()
	if stderr.Len() > 0 {
		got += "--- stderr\n" + stderr.String()
	}
	checkGolden(t, name, got)
}

// Usage and input errors of skew and preflight are one line, never a stack trace.
func TestSkewPreflightErrorsAreOneLine(t *testing.T) {
	for _, args := range [][]string{
		{"skew", "-c", "does/not/exist.yaml"},
		{"skew", "-c", example + "/config.yaml", "--versions", "1.12"},
		{"preflight", "--from", "1.36", "-c", example + "/config.yaml", "-d", "no/such/dir"},
		{"preflight", "--from", "1.12", "-c", example + "/config.yaml"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
		msg := stderr.String()
		if strings.Count(msg, "\n") != 1 || !strings.HasPrefix(msg, "kubeletcfg: ") || strings.Contains(msg, "goroutine") || stdout.Len() > 0 {
			t.Errorf("%v: want one line on stderr, got %q (stdout %q)", args, msg, stdout.String())
		}
	}
}

// TestSkewPreflightCompletion checks the shell completion of the minor flags.
func TestSkewPreflightCompletion(t *testing.T) {
	cmd := &cobra.Command{}
	got, _ := completeVersions(cmd, nil, "")
	if strings.Join(got, ",") != strings.Join(supportedForTest(), ",") {
		t.Errorf("--versions completes %v", got)
	}
	newest := supportedForTest()[len(supportedForTest())-1]
	got, _ = completeVersions(cmd, nil, newest+"..")
	if len(got) != 1 || got[0] != newest+".."+newest {
		t.Errorf("--versions %s.. completes %v", newest, got)
	}
	got, _ = completeVersions(cmd, nil, newest+",")
	for _, g := range got {
		if !strings.HasPrefix(g, newest+",") || g == newest+","+newest {
			t.Errorf("--versions %s, completes %v", newest, got)
		}
	}
	for _, name := range []string{"skew", "preflight"} {
		for _, flag := range map[string][]string{"skew": {"versions", "control-plane", "output", "cgroup-version"}, "preflight": {"from", "to", "output", "cgroup-version"}}[name] {
			var stdout, stderr bytes.Buffer
			run([]string{cobra.ShellCompRequestCmd, name, "--" + flag, ""}, &stdout, &stderr)
			if !strings.Contains(stdout.String(), ":4") && !strings.Contains(stdout.String(), ":6") {
				t.Errorf("%s --%s: no completion directive in %q", name, flag, stdout.String())
			}
			if flag != "output" && flag != "cgroup-version" && !strings.Contains(stdout.String(), newest) {
				t.Errorf("%s --%s does not complete %s: %q", name, flag, newest, stdout.String())
			}
		}
	}
}

func supportedForTest() []string {
	got, _ := completeMinor(nil, nil, "")
	return got
}
