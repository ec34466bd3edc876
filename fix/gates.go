package fix

import (
	"fmt"
	"strings"

	yaml "go.yaml.in/yaml/v3"
	"k8s.io/component-base/featuregate"

	"github.com/kubeletcfg/kubeletcfg/pipeline"
	"github.com/kubeletcfg/kubeletcfg/skew"
)

// lockable is a featureGates entry with a boolean value and a name written
// once in its mapping: removing it is a repair when the value is the one the
// gate is locked to.
type lockable struct {
	k, v  *yaml.Node
	name  string
	value bool
}

// boolValue reads a gate's value as the kubelet's YAML decoder does, for the
// plain booleans only (a quoted "true" is a string the kubelet refuses).
func boolValue(v *yaml.Node) (bool, bool) {
	if v.Kind != yaml.ScalarNode || v.Tag != "!!bool" || v.Style != 0 {
		return false, false
	}
	switch strings.ToLower(v.Value) {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	return false, false
}

// lockedTo says whether setting the gate to value is a no-op at every target
// minor: the minor registers the gate locked to that value, or no longer
// registers it and the last supported minor that did had it locked to that
// value (the entry then only makes the kubelet panic, KC3001). why says so in
// words.
func (e *env) lockedTo(name string, value bool) (why string, unregistered bool, ok bool) {
	var locked, gone []string
	var lastAt []string
	for i, t := range e.tables {
		m := e.minors[i]
		if g, ok := t.Lookup(name); ok {
			s := t.At(g)
			// AllAlpha and AllBeta set the alpha and beta gates a file leaves
			// out: only a GA or deprecated lock holds whatever the file says.
			stage := s.PreRelease
			if g.Special || !s.LockToDefault || s.Default != value || (stage != string(featuregate.GA) && stage != string(featuregate.Deprecated)) {
				return "", false, false
			}
			locked = append(locked, m.Version)
			continue
		}
		last := ""
		for j := e.index[m.Version] - 1; j >= 0 && last == ""; j-- {
			if g, ok := e.all[j].Lookup(name); ok {
				s := e.all[j].At(g)
				if g.Special || !s.LockToDefault || s.Default != value {
					return "", false, false
				}
				last = e.versions[j]
			}
		}
		if last == "" {
			return "", false, false // never registered before: nothing says what it was
		}
		gone = append(gone, m.Version)
		if !containsString(lastAt, last) {
			lastAt = append(lastAt, last)
		}
	}
	var parts []string
	if len(locked) > 0 {
		parts = append(parts, fmt.Sprintf("%s is locked to %t at kubelet %s", name, value, skew.Span(locked)))
	}
	if len(gone) > 0 {
		parts = append(parts, fmt.Sprintf("kubelet %s no longer %s it (locked to %t at %s, the last minor that registered it)",
			skew.Span(gone), verb(len(gone), "registers", "register"), value, versionList(lastAt)))
	}
	return strings.Join(parts, "; ") + ": removing the entry changes nothing", len(gone) > 0, true
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// lockedGates removes the featureGates entries set to the value their gate is
// locked to at every target minor. A mapping left empty goes with its key
// (block style) or stays as {} (flow style, as in JSON): a drop-in's null
// featureGates would reset the main file's gates.
func (e *env) lockedGates(pf *parsedFile) {
	v := pf.gatesValue
	if len(pf.lockable) == 0 || pf.gatesShared || !pf.gatesApply() || v == nil || v.Kind != yaml.MappingNode || v.Anchor != "" {
		return
	}
	flow := v.Style&yaml.FlowStyle != 0
	if flow && pf.gateAdded {
		return // the crash-loop repair inserts before the first entry
	}
	removed := map[*yaml.Node]*Fix{}
	var fixes []Fix
	for _, c := range pf.lockable {
		why, gone, ok := e.lockedTo(c.name, c.value)
		if !ok {
			continue
		}
		rule := e.gateRules[pf.pos(c.k)]
		if gone || rule == "" {
			rule = pipeline.GateUnknown.ID
			if !gone {
				rule = pipeline.GateGA.ID
			}
		}
		fixes = append(fixes, Fix{Rule: rule, Pos: pf.pos(c.k), Before: fmt.Sprintf("featureGates[%s]: %t", c.name, c.value),
			After: "entry removed", Also: why, gate: c.name})
	}
	if len(fixes) == 0 {
		return
	}
	for i := range fixes {
		for _, c := range pf.lockable {
			if pf.pos(c.k) == fixes[i].Pos {
				removed[c.k] = &fixes[i]
			}
		}
	}
	all := len(fixes) == len(v.Content)/2
	var reason string
	if flow {
		reason = pf.flowRemove(v, removed, all)
	} else {
		reason = pf.blockRemove(v, removed, all)
	}
	if reason != "" {
		for _, fx := range fixes {
			pf.skips = append(pf.skips, Skip{Rule: fx.Rule, Pos: fx.Pos, What: fx.Before, Reason: fx.Also + "; but " + reason})
		}
		return
	}
	pf.fixes = append(pf.fixes, fixes...)
}

// blockRemove gives each removed entry of a block mapping the edit that
// deletes its line; when every entry goes, the featureGates key goes too.
func (pf *parsedFile) blockRemove(v *yaml.Node, removed map[*yaml.Node]*Fix, all bool) string {
	t := pf.t
	startsLine := func(n *yaml.Node) (int, bool) {
		at := t.Offset(n.Line, n.Column)
		ls := t.Offset(n.Line, 1)
		if at < 0 || ls < 0 || strings.Trim(string(t.Data[ls:at]), " ") != "" {
			return 0, false
		}
		return ls, true
	}
	var edits []edit
	var owners []*Fix
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := v.Content[i], v.Content[i+1]
		fx, ok := removed[k]
		if !ok {
			continue
		}
		ls, ok := startsLine(k)
		_, _, vok := t.ScalarSpan(val)
		if !ok || !vok || val.Line != k.Line || (i+2 < len(v.Content) && v.Content[i+2].Line == k.Line) {
			return "the entry shares its line with other text: remove it by hand"
		}
		edits = append(edits, edit{Pos: ls, End: t.LineEnd(k.Line), NewText: ""})
		owners = append(owners, fx)
	}
	key := pf.gatesKey
	if all && !pf.gateAdded && key.Value == "featureGates" {
		if ls, ok := startsLine(key); ok && v.Content[0].Line > key.Line {
			last := v.Content[len(v.Content)-1]
			owners[0].edits = []edit{{Pos: ls, End: t.LineEnd(last.Line)}}
			return ""
		}
	}
	if all && !pf.main && !pf.gateAdded {
		// An emptied drop-in featureGates reads as null, which resets the
		// main file's gates.
		return "it is the drop-in's only gate and its featureGates key cannot be removed with it"
	}
	for i, fx := range owners {
		fx.edits = []edit{edits[i]}
	}
	return ""
}

// flowRemove gives each run of removed entries of a flow mapping ({...}, as
// in JSON) the edit that deletes it with its comma.
func (pf *parsedFile) flowRemove(v *yaml.Node, removed map[*yaml.Node]*Fix, all bool) string {
	t := pf.t
	n := len(v.Content) / 2
	start := func(i int) int { k := v.Content[2*i]; return t.Offset(k.Line, k.Column) }
	end := func(i int) int {
		_, e, ok := t.ScalarSpan(v.Content[2*i+1])
		if !ok {
			return -1
		}
		return e
	}
	const hand = "the mapping is written in a way kubeletcfg does not edit: remove the entry by hand"
	if all {
		s, e := start(0), end(n-1)
		if s < 0 || e < 0 {
			return hand
		}
		removed[v.Content[0]].edits = []edit{{Pos: s, End: e}}
		return ""
	}
	for i := 0; i < n; {
		fx, ok := removed[v.Content[2*i]]
		if !ok {
			i++
			continue
		}
		j := i
		for j+1 < n && removed[v.Content[2*(j+1)]] != nil {
			j++
		}
		var s, e int
		if j+1 < n {
			s, e = start(i), start(j+1)
		} else {
			s, e = end(i-1), end(j)
		}
		if s < 0 || e < 0 || e < s {
			return hand
		}
		fx.edits = []edit{{Pos: s, End: e}}
		i = j + 1
	}
	return ""
}
