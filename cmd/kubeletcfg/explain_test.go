package main

import (
	"encoding/json"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/skew"
)

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

// The default explain reports is the pipeline's: gated defaults follow the
// gate's default at each minor.
func TestExplainDefaults(t *testing.T) {
	for _, tt := range []struct{ path, minor, want string }{
		{"crashLoopBackOff.maxContainerRestartPeriod", "1.34", "null"},
		{"crashLoopBackOff.maxContainerRestartPeriod", "1.35", `"5m0s"`},
		{"maxPods", "1.31", "110"},
		{"evictionHard[nodefs.available]", "1.37", `"10%"`},
		{"memoryThrottlingFactor", "1.36", "0.9"},
		{"memoryThrottlingFactor", "1.37", "null"},
		{"featureGates[NodeSwap]", "1.33", "true"},
		{"readOnlyPort", "1.37", "0"},
	} {
		m := mustMinor(t, tt.minor)
		doc, err := explain(m, tt.path)
		if err != nil {
			t.Fatalf("%s at %s: %v", tt.path, tt.minor, err)
		}
		got, _ := json.Marshal(doc.Default)
		if string(got) != tt.want {
			t.Errorf("%s at %s: default %s, want %s", tt.path, tt.minor, got, tt.want)
		}
	}
}

// Rules are found by the paths their summaries name, wildcards included.
func TestExplainRules(t *testing.T) {
	for _, tt := range []struct {
		path string
		want []string
	}{
		{"readOnlyPort", []string{"KC4029", "KC8004"}},
		{"logging.options.text.splitStream", []string{"KC2501", "KC4083"}},
		{"featureGates[RotateKubeletServerCertificate]", []string{}},
		{"serverTLSBootstrap", []string{"KC4034", "KC8009", "KC8011"}},
		{"memorySwap.swapBehavior", []string{"KC4046", "KC4047", "KC6002"}},
	} {
		doc, err := explain(mustMinor(t, "1.37"), tt.path)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range doc.Rules {
			got = append(got, r.ID)
		}
		if len(got) != len(tt.want) {
			t.Errorf("%s: rules %v, want %v", tt.path, got, tt.want)
			continue
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("%s: rules %v, want %v", tt.path, got, tt.want)
				break
			}
		}
	}
}

func mustMinor(t *testing.T, v string) *skew.Minor {
	t.Helper()
	m, err := skew.Lookup(v)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
