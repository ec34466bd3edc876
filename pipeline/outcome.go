package pipeline

import (
	"encoding/json"

	golden "github.com/kubeletcfg/kubeletcfg/internal/corpus"
	"github.com/kubeletcfg/kubeletcfg/validate"
)

// Outcome is the result in the terms of a conformance golden, with the case
// folder caseDir written as $CASE, for corpus.Compare (the conformance test and
// the fuzz comparer in internal/fuzzcase compare the same way).
func (r *Result) Outcome(caseDir string) (golden.Outcome, error) {
	o := golden.Outcome{Starts: r.Starts, Panics: r.Panics}
	for _, f := range r.Findings {
		switch f.Rule {
		case validate.UnknownField.ID, validate.CaseMismatch.ID, validate.DuplicateKey.ID:
			o.DroppedKeyWarning = true
		}
	}
	obj, err := r.EffectiveObject()
	if err != nil {
		return o, err
	}
	if obj != nil {
		raw, err := json.Marshal(obj)
		if err != nil {
			return o, err
		}
		o.Effective = golden.NormalizeCase(raw, caseDir)
	}
	if b := r.CrashLoopBackOff; b != nil {
		o.CrashLoopBackOff = &golden.Backoff{Initial: b.Initial.String(), Max: b.Max.String()}
	}
	return o, nil
}
