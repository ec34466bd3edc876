package rule

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/kubeletcfg/kubeletcfg/finding"
	yaml "go.yaml.in/yaml/v3"
)

// The kubelet accepts crashLoopBackOff.maxContainerRestartPeriod between 1s and
// 300s (KC4049).
const minCrashLoopCap, maxCrashLoopCap = 1, 300

// ReplacingDraft returns f, a KC6001 finding, with the repair that writes the
// KEP-4603 draft key as the shipped field, maxSeconds: N as
// maxContainerRestartPeriod: Ns (quoted in a flow mapping), when that needs no
// guess: N a whole number of seconds the kubelet accepts (1..300), key and
// value written plainly or quoted without escapes, no twin key or cap beside
// it, no anchor or merge key above it (the text would serve other places too).
// Otherwise NoFix says which. t and keys are f's file's. The gate the shipped
// field needs is not part of the repair: whether it is on depends on the minor
// and on every file, which kubeletcfg fix weighs.
func ReplacingDraft(f finding.Finding, t *finding.Text, keys *KeyIndex) finding.Finding {
	at, ok := keys.At(f.Line, f.Column)
	if !ok {
		return f
	}
	parent, i := at.Mapping, at.Index
	key, value := parent.Content[i], parent.Content[i+1]
	if at.Shared {
		f.NoFix = SharedReason
		return f
	}
	for j := 0; j+1 < len(parent.Content); j += 2 {
		k := parent.Content[j]
		if j == i || k.Kind != yaml.ScalarNode {
			continue
		}
		switch {
		case strings.EqualFold(k.Value, "maxSeconds"):
			f.NoFix = fmt.Sprintf("%q (line %d) is the same draft key: keep one of them by hand", k.Value, k.Line)
			return f
		case strings.EqualFold(k.Value, "maxContainerRestartPeriod"):
			f.NoFix = fmt.Sprintf("%q (line %d) already sets the cap: delete one of the two by hand", k.Value, k.Line)
			return f
		}
	}
	n, reason := draftSeconds(value)
	if reason != "" {
		f.NoFix = reason
		return f
	}
	ks, ke, kok := t.ScalarSpan(key)
	vs, ve, vok := t.ScalarSpan(value)
	if !kok || !vok {
		f.NoFix = "the key or value is written with escapes, a tag or across lines: rewrite it by hand"
		return f
	}
	seconds := strconv.Itoa(n) + "s"
	if parent.Style&yaml.FlowStyle != 0 {
		seconds = `"` + seconds + `"` // JSON, or a YAML {...}
	}
	f.Fixes = append(f.Fixes[:len(f.Fixes):len(f.Fixes)], finding.SuggestedFix{
		Message: "write crashLoopBackOff.maxContainerRestartPeriod: " + strconv.Itoa(n) + "s",
		Edits: []finding.TextEdit{
			{Pos: ks, End: ke, NewText: finding.QuoteLike(key.Style, "maxContainerRestartPeriod")},
			{Pos: vs, End: ve, NewText: seconds},
		},
	})
	return f
}

// draftSeconds reads the draft's value: a whole number of seconds the kubelet
// accepts as a cap. Anything else would be a guess, or a refusal (KC4049).
func draftSeconds(v *yaml.Node) (int, string) {
	if v.Kind != yaml.ScalarNode || v.Tag != "!!int" {
		return 0, "the value is not a whole number of seconds: write crashLoopBackOff.maxContainerRestartPeriod (a duration between 1s and 300s) by hand"
	}
	n, err := strconv.Atoi(v.Value)
	if err != nil {
		return 0, "the value is not a decimal whole number of seconds: write crashLoopBackOff.maxContainerRestartPeriod by hand"
	}
	if n < minCrashLoopCap || n > maxCrashLoopCap {
		return 0, fmt.Sprintf("%ds is outside the %ds..%ds the kubelet accepts: maxContainerRestartPeriod: %ds would stop it (KC4049); choose a cap by hand",
			n, minCrashLoopCap, maxCrashLoopCap, n)
	}
	return n, ""
}
