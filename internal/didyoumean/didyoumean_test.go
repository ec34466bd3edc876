package didyoumean

import "testing"

func TestNearest(t *testing.T) {
	gates := []string{"ReduceDefaultCrashLoopBackOffDecay", "KubeletCrashLoopBackOffMax", "NodeSwap", "MemoryQoS"}
	fields := []string{"maxPods", "evictionHard", "evictionSoft", "staticPodPath", "crashLoopBackOff"}
	tests := []struct {
		name       string
		candidates []string
		want       string
	}{
		{"ReduceDefaultCrashLoopbackoffDecay", gates, "ReduceDefaultCrashLoopBackOffDecay"},
		{"KubeletCrashLoopBackoffMax", gates, "KubeletCrashLoopBackOffMax"},
		{"nodeswap", gates, "NodeSwap"},
		{"NodeSwp", gates, "NodeSwap"},
		{"maxPod", fields, "maxPods"},
		{"evictionhard", fields, "evictionHard"},
		{"crashloopbackoff", fields, "crashLoopBackOff"},
		{"completelyDifferent", fields, ""},
		{"x", fields, ""},
	}
	for _, tt := range tests {
		if got := Nearest(tt.name, tt.candidates); got != tt.want {
			t.Errorf("Nearest(%q) = %q, want %q", tt.name, got, tt.want)
		}
		if got := NewIndex(tt.candidates).Nearest(tt.name); got != tt.want {
			t.Errorf("Index.Nearest(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func BenchmarkNearest(b *testing.B) {
	fields := []string{"maxPods", "evictionHard", "evictionSoft", "staticPodPath", "crashLoopBackOff", "imageGCHighThresholdPercent"}
	for b.Loop() {
		Nearest("imageGCHighTresholdPercent", fields)
	}
}

// TestBagDistanceBound: the bound never exceeds the edit distance, so Nearest
// answers as without it.
func TestBagDistanceBound(t *testing.T) {
	words := []string{"", "a", "ab", "ba", "abc", "maxpods", "maxpod", "podsmax", "evictionhard", "evictionsoft", "unknown12", "kubeletcgroups", "cgroupdriver", "aaaa", "bbbb", "abab"}
	for _, a := range words {
		for _, b := range words {
			if bd, d := bagDistance(a, b), distance(a, b, 100); bd > d {
				t.Errorf("bagDistance(%q, %q) = %d > distance %d", a, b, bd, d)
			}
		}
	}
}
