package main

import "testing"

const backoffFiles = "../../testdata/backoff/"

// TestCLIBackoff is TestCLI for kubeletcfg backoff: whole commands against golden
// files (go test ./cmd/kubeletcfg -run Backoff -update rewrites them).
func TestCLIBackoff(t *testing.T) {
	def, reduced, cap30s := backoffFiles+"default.yaml", backoffFiles+"reduced.yaml", backoffFiles+"cap30s.yaml"
	tests := []struct {
		name string
		args []string
		exit int
	}{
		{"backoff-default", []string{"backoff", "-c", def}, exitClean},
		// The default, the reduced decay and a 30s cap side by side: at 1.37
		// KubeletCrashLoopBackOffMax is on and defaults the reduced cap to 5m0s, at
		// 1.34 it is alpha (cap30s.yaml turns it on) and the reduced cap is 1m0s.
		{"backoff-compare", []string{"backoff", "-c", def, "--compare", reduced, "--compare", cap30s}, exitClean},
		{"backoff-compare-1.34", []string{"backoff", "-c", def, "--compare", reduced, "--compare", cap30s, "--kubelet-version", "1.34"}, exitClean},
		// 1.31 and 1.32 do not know the gate: no curve there.
		{"backoff-window", []string{"backoff", "-c", reduced, "--versions", "1.31..1.37"}, exitFindings},
		{"backoff-window-default", []string{"backoff", "-c", def, "--versions", "1.31..1.37"}, exitClean},
		{"backoff-cap1s-json", []string{"backoff", "-c", backoffFiles + "cap1s.yaml", "--kubelet-version", "v1.35.4", "-o", "json"}, exitClean},
		{"backoff-json", []string{"backoff", "-c", def, "--compare", cap30s, "--versions", "1.31,1.37", "-o", "json"}, exitFindings},
		// Drop-ins: the example node's 50-crashloop.conf turns the gate off, which
		// 1.35 refuses; 1.34 starts.
		{"backoff-dropins", []string{"backoff", "-c", example + "/config.yaml", "-d", example + "/conf.d", "--versions", "1.34..1.35"}, exitFindings},
		{"backoff-refused", []string{"backoff", "-c", backoffFiles + "cap10m.yaml"}, exitFindings},
		{"backoff-refused-json", []string{"backoff", "-c", backoffFiles + "cap10m.yaml", "-o", "json"}, exitFindings},
		{"backoff-bad-versions", []string{"backoff", "-c", def, "--versions", "1.12"}, exitUsage},
		{"backoff-reversed-versions", []string{"backoff", "-c", def, "--versions", "1.37..1.34"}, exitUsage},
		{"backoff-bad-kubelet-version", []string{"backoff", "-c", def, "--kubelet-version", "1.40"}, exitUsage},
		{"backoff-both-versions", []string{"backoff", "-c", def, "--versions", "1.37", "--kubelet-version", "1.37"}, exitUsage},
		{"backoff-missing-compare", []string{"backoff", "-c", def, "--compare", "does/not/exist.yaml"}, exitUsage},
		{"backoff-bad-output", []string{"backoff", "-c", def, "-o", "xml"}, exitUsage},
		{"backoff-no-input", []string{"backoff"}, exitUsage},
		{"backoff-help", []string{"backoff", "--help"}, exitClean},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runGolden(t, tt.name, tt.args, tt.exit)
		})
	}
}
