package main

import "testing"

// A file with three fatal mistakes, one per stage (a gate 1.38 removed panics,
// validation refuses the crash-loop cap, the run stage kubeReserved): one run
// lists them all, the later two marked behind the one before, in every format,
// with the verdict still the kubelet's (go test ./cmd/kubeletcfg -run
// TestCLIBehind -update rewrites the goldens).
func TestCLIBehind(t *testing.T) {
	const three = casesDir + "/780-behind-gate-crashloop-reserved/kubelet.yaml"
	const flagFirst = casesDir + "/783-behind-flag-then-files/kubelet.yaml"
	tests := []struct {
		name string
		args []string
	}{
		{"behind-lint-text", []string{"lint", "-c", three, "--kubelet-version", "1.38"}},
		{"behind-lint-json", []string{"lint", "-o", "json", "-c", three, "--kubelet-version", "1.38"}},
		{"behind-lint-github", []string{"lint", "-o", "github", "-c", three, "--kubelet-version", "1.38"}},
		{"behind-lint-junit", []string{"lint", "-o", "junit", "-c", three, "--kubelet-version", "1.38"}},
		{"behind-skew", []string{"skew", "-c", three, "--versions", "1.36..1.38"}},
		{"behind-preflight", []string{"preflight", "-c", three, "--from", "1.37", "--to", "1.38"}},
		{"behind-fix", []string{"fix", "--diff", "-c", three, "--kubelet-version", "1.38"}},
		{"behind-flag-then-files", []string{"lint", "-c", flagFirst, "--kubelet-flags", "--maxpods=10"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { runGolden(t, tt.name, tt.args, exitFindings) })
	}
}
