package fix

import (
	dropin "github.com/kubeletcfg/kubeletcfg/drop-in"
	"github.com/kubeletcfg/kubeletcfg/rule"
	"github.com/kubeletcfg/kubeletcfg/source"
)

const apiVersion = rule.KubeletAPIVersion

// typeMeta adds the apiVersion a document leaves out when its kind says
// KubeletConfiguration (rule.AddAPIVersion decides when that is no guess).
// The edit is the one the KC1002/KC2003 finding carries (rule.AddingAPIVersion
// makes it the same way); it is made for every file, as a drop-in that no
// target minor's linter reached (after an error that stops the kubelet) gets
// no finding.
func (e *env) typeMeta(pf *parsedFile) {
	fix, kindKey, reason, ok := rule.AddAPIVersion(pf.t, pf.file.Doc)
	if !ok {
		return
	}
	rule := source.ConfigTypeMeta.ID
	if !pf.main {
		rule = dropin.DropInTypeMeta.ID
	}
	what := "kind: KubeletConfiguration without apiVersion"
	if reason != "" {
		pf.skip(rule, kindKey, what, reason+": add apiVersion: "+apiVersion+" by hand")
		return
	}
	pf.fixes = append(pf.fixes, Fix{Rule: rule, Pos: pf.pos(kindKey), Before: what, After: "apiVersion: " + apiVersion + " added",
		edits: fix.Edits, typeMeta: true})
	// The kubelet reads nothing else of the file without it: the rounds of
	// evaluation (discover) read it with the apiVersion added.
	pf.addApplied(fix.Edits)
}
