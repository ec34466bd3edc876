package rule_test

import (
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/rule"
)

// TestRepairList: fix's help lists every rule that declares a repair, each
// once, in lines of at most 78 columns, and no rule that declares none.
func TestRepairList(t *testing.T) {
	list := rule.RepairList()
	for _, line := range strings.Split(strings.TrimSuffix(list, "\n"), "\n") {
		if len(line) > 78 {
			t.Errorf("line of %d columns: %q", len(line), line)
		}
	}
	repairable := rule.Repairable()
	if len(repairable) == 0 {
		t.Fatal("no rule declares a repair")
	}
	for _, r := range rule.All() {
		n := strings.Count(list, "  "+r.ID+"  ")
		switch {
		case r.Repair.Kind != rule.RepairNone && n != 1:
			t.Errorf("%s declares a repair and is listed %d times", r.ID, n)
		case r.Repair.Kind == rule.RepairNone && n != 0:
			t.Errorf("%s declares no repair but is listed", r.ID)
		case r.Repair.Kind != rule.RepairNone && r.Repair.Doc == "":
			t.Errorf("%s declares a repair without saying what it writes", r.ID)
		}
	}
}
