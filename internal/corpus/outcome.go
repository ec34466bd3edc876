package corpus

import (
	"encoding/json"
	"time"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/rule"
	"github.com/kubeletcfg/kubeletcfg/source"
)

// OutcomeOf is an evaluation in the terms of a conformance golden, with the case
// folder caseDir written as $CASE, for Compare: the verdict, the findings, the
// effective object (nil when the kubelet stops before it has one) and the
// crash-loop backoff (nil when it does not start). pipeline.Result's fields go in
// as they are, so that pipeline does not link the golden types.
func OutcomeOf(starts, panics bool, findings []finding.Finding, effective map[string]any, initial, max *time.Duration, caseDir string) (Outcome, error) {
	o := Outcome{Starts: starts, Panics: panics}
	for _, f := range findings {
		switch f.Rule {
		case source.UnknownField.ID, source.CaseMismatch.ID, source.DuplicateKey.ID:
			o.DroppedKeyWarning = true
		}
		if f.Severity == finding.Error && f.Kubelet != "" && f.Behind == "" {
			o.Quotes = append(o.Quotes, f.Kubelet) // what the kubelet stops at
		}
		if r, ok := rule.Lookup(f.Rule); ok && r.Logs && f.Behind == "" {
			o.Warnings = append(o.Warnings, f.Kubelet) // what the kubelet logs and goes on
		}
	}
	if effective != nil {
		raw, err := json.Marshal(effective)
		if err != nil {
			return o, err
		}
		o.Effective = NormalizeCase(raw, caseDir)
	}
	if initial != nil && max != nil {
		o.CrashLoopBackOff = &Backoff{Initial: initial.String(), Max: max.String()}
	}
	return o, nil
}
