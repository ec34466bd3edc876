package nodeadm

import (
	"strings"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/input/bootstrap"
)

// findingWith is the first finding of rule whose message contains text.
func findingWith(out *bootstrap.Output, rule, text string) *finding.Finding {
	for i := range out.Findings {
		if f := &out.Findings[i]; f.Rule == rule && strings.Contains(f.Message, text) {
			return f
		}
	}
	return nil
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
