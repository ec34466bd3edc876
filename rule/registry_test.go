package rule_test

import (
	"testing"

	"github.com/kubeletcfg/kubeletcfg/rule"
)

// TestLookupFoldsCase: a rule is found by its ID or its name in any case, as
// policies, ignore comments and `kubeletcfg rules` take them.
func TestLookupFoldsCase(t *testing.T) {
	for _, q := range []string{"KC3001", "kc3001", "gate-unknown", "Gate-Unknown", "GATE-UNKNOWN"} {
		if r, ok := rule.Lookup(q); !ok || r.ID != "KC3001" {
			t.Errorf("Lookup(%q) = %v, %v; want KC3001", q, r, ok)
		}
	}
	for _, q := range []string{"", "KC0000", "gate unknown", "kc3001x"} {
		if r, ok := rule.Lookup(q); ok {
			t.Errorf("Lookup(%q) = %s, want none", q, r.ID)
		}
	}
}
