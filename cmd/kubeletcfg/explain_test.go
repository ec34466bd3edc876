package main

import "testing"

// TestCLIExplain runs kubeletcfg explain against golden files
// (go test ./cmd/kubeletcfg -run TestCLIExplain -update rewrites them).
func TestCLIExplain(t *testing.T) {
	tests := []struct {
		name string
		args []string
		exit int
	}{
		{"explain-crashloop-1.33", []string{"explain", "crashLoopBackOff.maxContainerRestartPeriod", "--kubelet-version", "1.33"}, exitClean},
		{"explain-crashloop-1.37", []string{"explain", "crashLoopBackOff.maxContainerRestartPeriod", "--kubelet-version", "1.37"}, exitClean},
		{"explain-crashloop-1.31", []string{"explain", "crashLoopBackOff.maxContainerRestartPeriod", "--kubelet-version", "1.31"}, exitClean},
		{"explain-draft-name", []string{"explain", "crashloopbackoff.maxSeconds"}, exitClean},
		{"explain-max-pods", []string{"explain", "maxPods"}, exitClean},
		{"explain-1.38-key-algorithm", []string{"explain", "serverCertificateKeyAlgorithm", "--kubelet-version", "1.38"}, exitClean},
		{"explain-1.38-removed-gate", []string{"explain", "featureGates.NodeSwap", "--kubelet-version", "1.38"}, exitClean},
		{"explain-max-pods-case", []string{"explain", "MAXPODS", "--kubelet-version", "v1.34.2"}, exitClean},
		{"explain-eviction-hard", []string{"explain", "evictionHard"}, exitClean},
		{"explain-eviction-hard-key", []string{"explain", "evictionHard[memory.available]"}, exitClean},
		{"explain-feature-gate", []string{"explain", "featureGates[KubeletCrashLoopBackOffMax]", "--kubelet-version", "1.34"}, exitClean},
		{"explain-object", []string{"explain", "authentication"}, exitClean},
		{"explain-object-json", []string{"explain", "crashLoopBackOff", "-o", "json"}, exitClean},
		{"explain-list-item", []string{"explain", "shutdownGracePeriodByPodPriority[0].priority"}, exitClean},
		{"explain-wildcard-rule", []string{"explain", "logging.options.json.splitStream"}, exitClean},
		{"explain-unknown", []string{"explain", "maxPod"}, exitUsage},
		{"explain-unknown-nested", []string{"explain", "authentication.anonymus.enabled"}, exitUsage},
		{"explain-bad-version", []string{"explain", "maxPods", "--kubelet-version", "1.12"}, exitUsage},
		{"explain-no-path", []string{"explain"}, exitClean},
		{"explain-dotted-gate", []string{"explain", "featureGates.NodeSwap"}, exitClean},
		{"explain-dotted-signal", []string{"explain", "evictionHard.memory.available", "-o", "json"}, exitClean},
		{"explain-unknown-gate", []string{"explain", "featureGates[NodeSwp]"}, exitUsage},
		{"explain-unknown-gate-json", []string{"explain", "featureGates.NoSuchGate", "-o", "json"}, exitUsage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runGolden(t, tt.name, tt.args, tt.exit)
		})
	}
}
