package validate

import (
	"testing"

	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/rule"
)

// TestRuleFieldsExist checks that every path a rule declares is a field of at
// least one supported minor ("[*]" standing for any key or index), so a renamed
// or mistyped path cannot hide a rule from explain.
// explain's TestRuleFieldsCoverCorpus checks the other direction: every field a
// finding of the corpus names is declared by its rule.
func TestRuleFieldsExist(t *testing.T) {
	for _, r := range rule.All() {
		if r.AnyField && len(r.Fields) > 0 {
			t.Errorf("%s: AnyField with Fields %q: one or the other", r.ID, r.Fields)
		}
		for _, f := range r.Fields {
			found := false
			for _, v := range kubelets.Supported() {
				m, _ := kubelets.Lookup(v)
				if m.Fields().AtExact(f) != nil {
					found = true
					break
				}
			}
			if !found {
				t.Errorf("%s declares %q, a field no supported minor has", r.ID, f)
			}
		}
	}
}

func TestRuleChecks(t *testing.T) {
	r := &rule.Rule{Fields: []string{"maxPods", "evictionHard[*]", "reservedMemory[*].limits", "crashLoopBackOff.maxContainerRestartPeriod"}}
	for _, tc := range []struct {
		path string
		want bool
	}{
		{"maxPods", true},
		{"maxPodsPerCore", false},
		{"evictionHard[memory.available]", true},
		{"evictionHard", false}, // the map as a whole is not a key of it
		{"reservedMemory[0].limits", true},
		{"reservedMemory[1].limits[memory]", true},
		{"reservedMemory[0].numaNode", false},
		{"crashLoopBackOff.maxContainerRestartPeriod", true},
		{"crashLoopBackOff", false},
		{"", false},
	} {
		if got := r.Checks(tc.path); got != tc.want {
			t.Errorf("Checks(%q) = %v, want %v", tc.path, got, tc.want)
		}
	}
	if !(&rule.Rule{AnyField: true}).Checks("anything.at[all]") {
		t.Error("an AnyField rule checks every path")
	}
}
