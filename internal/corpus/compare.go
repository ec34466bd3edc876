package corpus

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"slices"
	"sort"

	"github.com/kubeletcfg/kubeletcfg/internal/kubeletdata"
)

// Golden is one golden file: what the real kubelet did with a case
// (testdata/conformance/README.md), as the harness writes it.
type Golden = kubeletdata.Golden

// Backoff is newCrashLoopBackOff's initial delay and cap, as time.Duration strings.
type Backoff = kubeletdata.CrashLoopBackOff

// ReadGolden reads a golden file.
func ReadGolden(path string) (Golden, error) {
	var g Golden
	raw, err := os.ReadFile(path)
	if err != nil {
		return g, err
	}
	if err := json.Unmarshal(raw, &g); err != nil {
		return g, fmt.Errorf("%s: %w", path, err)
	}
	return g, nil
}

// Outcome is what kubeletcfg predicts for a case, in the golden's terms. The
// caller builds it from a pipeline.Result (this package cannot import pipeline:
// pipeline's tests import this package).
type Outcome struct {
	// InputError is set when kubeletcfg stopped with an input error (a file it
	// cannot read or parse at all); the rest is then unset.
	InputError error
	Starts     bool
	Panics     bool
	// Effective is the effective object as JSON, the case folder written as $CASE;
	// nil when kubeletcfg has none.
	Effective []byte
	// CrashLoopBackOff is nil unless Starts.
	CrashLoopBackOff *Backoff
	// DroppedKeyWarning is set when kubeletcfg reported that the main file
	// decodes only leniently (an unknown, case-variant or duplicate key in it).
	DroppedKeyWarning bool
	// Quotes are the kubelet's words that kubeletcfg's error findings quote,
	// those Behind another error left out.
	Quotes []string
	// Warnings are the kubelet's words of the findings whose rule the kubelet
	// logs as a warning (rule.Rule.Logs), in kubeletcfg's order.
	Warnings []string
}

// Disagreement is one way kubeletcfg and the kubelet differ on a case. Class
// groups disagreements that are likely one bug (the fuzz comparer counts them
// by class); Detail says what differs on this case.
type Disagreement struct {
	Class  string
	Detail string
}

func (d Disagreement) String() string { return d.Class + ": " + d.Detail }

// Compare checks kubeletcfg's outcome against the kubelet's golden: start or
// refuse, panic, the lenient-decoding warning, the effective configuration
// (top-level field by field) and the crash-loop backoff. It returns nothing
// when they agree.
func Compare(want Golden, got Outcome) []Disagreement {
	if got.InputError != nil {
		if !want.Starts && (want.Stage == kubeletdata.StageLoad || want.Stage == kubeletdata.StageMerge) {
			// kubeletcfg stops with an input error where the kubelet stops reading: both refuse.
			return nil
		}
		return []Disagreement{{
			Class:  "input error: kubeletcfg cannot read the case, the kubelet " + verdict(want.Starts, want.Panic, want.Stage),
			Detail: got.InputError.Error(),
		}}
	}
	var out []Disagreement
	if got.Starts != want.Starts {
		out = append(out, Disagreement{
			Class:  "verdict: kubeletcfg " + verdict(got.Starts, got.Panics, "") + ", the kubelet " + verdict(want.Starts, want.Panic, want.Stage),
			Detail: fmt.Sprintf("starts = %v, kubelet %v (kubelet: %s)", got.Starts, want.Starts, want.Error),
		})
	} else if got.Panics != want.Panic {
		out = append(out, Disagreement{
			Class:  fmt.Sprintf("panic: kubeletcfg %v, the kubelet %v", got.Panics, want.Panic),
			Detail: fmt.Sprintf("panics = %v, kubelet %v (kubelet: %s)", got.Panics, want.Panic, want.Error),
		})
	}
	if want.Stage == kubeletdata.StageRun && !got.Starts && !slices.Contains(got.Quotes, want.Error) {
		// Every value the run stage refuses is a finding quoting what the kubelet
		// says when that value is the first it meets, so the kubelet's own draw
		// among several is one of them.
		out = append(out, Disagreement{
			Class:  "run stage: no finding quotes the kubelet's error",
			Detail: "kubelet: " + want.Error,
		})
	}
	out = append(out, compareWarnings(want.Warnings, got.Warnings)...)
	if want.Lenient && !got.DroppedKeyWarning {
		out = append(out, Disagreement{
			Class:  "warning missing: the kubelet decodes the main file leniently, kubeletcfg reports no dropped key",
			Detail: "no KC1101/KC1102/KC1103 on the main file",
		})
	}
	if len(want.Effective) > 0 {
		if got.Effective == nil {
			out = append(out, Disagreement{
				Class:  "effective: kubeletcfg has no effective config, the kubelet has one",
				Detail: "kubelet stage " + want.Stage,
			})
		} else {
			out = append(out, compareEffective(got.Effective, want.Effective)...)
		}
	}
	if want.CrashLoopBackOff != nil && want.Starts && got.Starts {
		switch g, w := got.CrashLoopBackOff, want.CrashLoopBackOff; {
		case g == nil:
			out = append(out, Disagreement{Class: "crash-loop backoff: none computed", Detail: "kubelet " + w.Initial + "/" + w.Max})
		case *g != *w:
			out = append(out, Disagreement{
				Class:  "crash-loop backoff differs",
				Detail: fmt.Sprintf("crashLoopBackOff = %s/%s, kubelet %s/%s", g.Initial, g.Max, w.Initial, w.Max),
			})
		}
	}
	return out
}

// compareWarnings: every warning the kubelet logged is a finding, and no
// finding says the kubelet logs one it did not (compared as sets: the order
// of findings is kubeletcfg's).
func compareWarnings(want, got []string) []Disagreement {
	var out []Disagreement
	for _, w := range want {
		if !slices.Contains(got, w) {
			out = append(out, Disagreement{Class: "warning missing: the kubelet logs a warning no finding quotes", Detail: "kubelet: " + w})
		}
	}
	for _, g := range got {
		if !slices.Contains(want, g) {
			out = append(out, Disagreement{Class: "warning extra: a finding quotes a warning the kubelet does not log", Detail: "finding: " + g})
		}
	}
	return out
}

func verdict(starts, panics bool, stage string) string {
	switch {
	case starts:
		return "starts"
	case panics:
		return "panics"
	case stage != "":
		return "refuses at " + stage
	}
	return "refuses"
}

// compareEffective compares two effective objects top-level field by field;
// each differing field is its own class.
func compareEffective(got, want []byte) []Disagreement {
	var g, w map[string]any
	if err := json.Unmarshal(got, &g); err != nil {
		return []Disagreement{{Class: "effective: kubeletcfg's is not a JSON object", Detail: err.Error()}}
	}
	_ = json.Unmarshal(want, &w)
	if reflect.DeepEqual(g, w) {
		return nil
	}
	keys := map[string]bool{}
	for k := range g {
		keys[k] = true
	}
	for k := range w {
		keys[k] = true
	}
	names := make([]string, 0, len(keys))
	for k := range keys {
		names = append(names, k)
	}
	sort.Strings(names)
	var out []Disagreement
	for _, k := range names {
		if reflect.DeepEqual(g[k], w[k]) {
			continue
		}
		gj, _ := json.Marshal(g[k])
		wj, _ := json.Marshal(w[k])
		out = append(out, Disagreement{
			Class:  "effective: " + k + " differs",
			Detail: k + ": kubeletcfg " + string(gj) + ", kubelet " + string(wj),
		})
	}
	return out
}

// NormalizeCase writes the case folder as $CASE in an effective object's JSON,
// as the harness does.
func NormalizeCase(doc []byte, dir string) []byte {
	return bytes.ReplaceAll(doc, []byte(dir), []byte("$CASE"))
}
