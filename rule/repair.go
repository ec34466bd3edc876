package rule

import (
	"fmt"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kubeletcfg/kubeletcfg/finding"
)

// The repairs the findings carry (Finding.Fixes), or why they carry none
// (Finding.NoFix), decided where the mistake is found: these helpers locate
// the key a finding names in its file's YAML and say whether an edit of it
// needs no guess. kubeletcfg fix intersects them across the target minors.

// SharedReason is why a key under a YAML anchor or merge key is not repaired.
const SharedReason = "it is inside a YAML anchor or merge (&, <<): the same text is used in other places; rename it by hand"

// KeyAt and KeyIndex locate the key a finding names (finding.KeyIndex).
type (
	KeyAt    = finding.KeyAt
	KeyIndex = finding.KeyIndex
)

// RenamingField returns f, a finding at a key that names the field path only
// case-insensitively (KC1102, KC2006, KC2007), with the repair that respells
// it as name, or with NoFix saying why renaming it would be a guess: the key
// is under an anchor or merge key, another key of its mapping names the same
// field, or it is written with escapes, a tag or across lines. t and keys are
// f's file.
func RenamingField(f finding.Finding, t *finding.Text, keys *KeyIndex, written, name string) finding.Finding {
	at, ok := keys.At(f.Line, f.Column)
	if !ok {
		return f.Renaming(t, written, name)
	}
	if at.Shared {
		f.NoFix = SharedReason
	} else if twins := keys.Twins(at, name); twins != "" {
		f.NoFix = fmt.Sprintf("%s sets %s too: renaming would make a duplicate key; keep one of them by hand", twins, f.Path)
	} else if f = f.Renaming(t, written, name); len(f.Fixes) == 0 {
		f.NoFix = "the key is written with escapes, a tag or across lines: rename it by hand"
	}
	return f
}

// RenamingGate returns f, an unknown-gate finding (KC3001) at a featureGates
// entry whose name differs only in case from the one spelling a kubelet
// registers, name, with the repair that respells it, or with NoFix saying
// why that is a guess (as RenamingField).
func RenamingGate(f finding.Finding, t *finding.Text, keys *KeyIndex, at KeyAt, name string) finding.Finding {
	k := at.Key()
	if at.Shared {
		f.NoFix = SharedReason
	} else if twins := keys.Twins(at, name); twins != "" {
		f.NoFix = fmt.Sprintf("%s sets %s too: renaming would make a duplicate key; keep one of them by hand", twins, name)
	} else if start, end, ok := t.ScalarSpan(k); ok {
		f.Fixes = append(f.Fixes[:len(f.Fixes):len(f.Fixes)], finding.SuggestedFix{
			Message: fmt.Sprintf("rename the gate %q to %q", k.Value, name),
			Edits:   []finding.TextEdit{{Pos: start, End: end, NewText: finding.QuoteLike(k.Style, name)}},
		})
	} else {
		f.NoFix = "the gate name is written with escapes, a tag or across lines: rename it by hand"
	}
	return f
}

// GateEntryAt finds the featureGates entry a gate finding points at: a key of
// the top-level featureGates mapping (spelled in any case), and that key.
func GateEntryAt(keys *KeyIndex, pos finding.Position) (at KeyAt, gatesKey *yaml.Node, ok bool) {
	at, ok = keys.At(pos.Line, pos.Column)
	if !ok {
		return KeyAt{}, nil, false
	}
	owner, top := keys.Owner(at)
	if !top || !strings.EqualFold(owner.Value, "featureGates") {
		return KeyAt{}, nil, false
	}
	return at, owner, true
}

// GateBool reads a gate's value as the kubelet's YAML decoder does, for the
// plain booleans only (a quoted "true" is a string the kubelet refuses).
func GateBool(v *yaml.Node) (bool, bool) {
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

// RemovableGate reports whether the entry at can be removed by itself: a plain
// boolean value, its name written once in its mapping, not under an anchor or
// merge key.
func RemovableGate(keys *KeyIndex, at KeyAt) (value, ok bool) {
	if at.Shared || at.Mapping.Anchor != "" || keys.Twins(at, at.Key().Value) != "" {
		return false, false
	}
	return GateBool(at.Value())
}

// RemovingGate returns f, a finding at a featureGates entry set to the value
// its gate is locked to (or was, at the last minor that registered it), with
// the repair that removes the entry, when it can be removed by itself
// (RemovableGate) and the edit needs no guess (RemoveEntries). gatesKey is the
// featureGates key; why says why removing the entry changes nothing.
func RemovingGate(f finding.Finding, t *finding.Text, at KeyAt, gatesKey *yaml.Node, dropIn bool, why string) finding.Finding {
	edits, reason := RemoveEntries(t, at.Mapping, map[*yaml.Node]bool{at.Key(): true}, RemoveOptions{Key: gatesKey, DropIn: dropIn})
	if reason != "" {
		return f
	}
	f.Fixes = append(f.Fixes[:len(f.Fixes):len(f.Fixes)], finding.SuggestedFix{
		Message: fmt.Sprintf("remove featureGates[%s]: %s", at.Key().Value, why),
		Edits:   edits[at.Key()],
	})
	return f
}

// RemoveOptions says how RemoveEntries treats a featureGates mapping left
// empty.
type RemoveOptions struct {
	// Key is the featureGates key: when every entry goes and the key is
	// written exactly so, on a line of its own, it goes too.
	Key *yaml.Node
	// DropIn is set for a drop-in: an emptied featureGates would read as null,
	// which resets the main file's gates, so the last entry is not removed
	// unless the key goes too.
	DropIn bool
	// Adding is set when another repair adds an entry to the mapping: it is
	// not left empty then.
	Adding bool
}

// RemoveEntries is the edits that remove the entries remove of the mapping m
// (a featureGates mapping of t), by entry key: each line of a block mapping,
// each run of entries of a flow mapping ({...}, as in JSON) with its comma.
// A mapping left empty goes with its key (block style, opt.Key) or stays as {}
// (flow style). reason is why they cannot be removed without a guess.
func RemoveEntries(t *finding.Text, m *yaml.Node, remove map[*yaml.Node]bool, opt RemoveOptions) (map[*yaml.Node][]finding.TextEdit, string) {
	all := len(remove) == len(m.Content)/2
	if m.Style&yaml.FlowStyle != 0 {
		return flowRemove(t, m, remove, all)
	}
	return blockRemove(t, m, remove, all, opt)
}

func blockRemove(t *finding.Text, v *yaml.Node, removed map[*yaml.Node]bool, all bool, opt RemoveOptions) (map[*yaml.Node][]finding.TextEdit, string) {
	startsLine := func(n *yaml.Node) (int, bool) {
		at := t.Offset(n.Line, n.Column)
		ls := t.Offset(n.Line, 1)
		if at < 0 || ls < 0 || strings.Trim(string(t.Data[ls:at]), " ") != "" {
			return 0, false
		}
		return ls, true
	}
	out := map[*yaml.Node][]finding.TextEdit{}
	var owners []*yaml.Node
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := v.Content[i], v.Content[i+1]
		if !removed[k] {
			continue
		}
		ls, ok := startsLine(k)
		_, _, vok := t.ScalarSpan(val)
		if !ok || !vok || val.Line != k.Line || (i+2 < len(v.Content) && v.Content[i+2].Line == k.Line) {
			return nil, "the entry shares its line with other text: remove it by hand"
		}
		out[k] = []finding.TextEdit{{Pos: ls, End: t.LineEnd(k.Line), NewText: ""}}
		owners = append(owners, k)
	}
	if key := opt.Key; all && !opt.Adding && key != nil && key.Value == "featureGates" {
		if ls, ok := startsLine(key); ok && v.Content[0].Line > key.Line {
			last := v.Content[len(v.Content)-1]
			out = map[*yaml.Node][]finding.TextEdit{owners[0]: {{Pos: ls, End: t.LineEnd(last.Line)}}}
			for _, o := range owners[1:] {
				out[o] = nil
			}
			return out, ""
		}
	}
	if all && opt.DropIn && !opt.Adding {
		return nil, "it is the drop-in's only gate and its featureGates key cannot be removed with it"
	}
	return out, ""
}

func flowRemove(t *finding.Text, v *yaml.Node, removed map[*yaml.Node]bool, all bool) (map[*yaml.Node][]finding.TextEdit, string) {
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
	out := map[*yaml.Node][]finding.TextEdit{}
	for i := 0; i < n; i++ {
		if k := v.Content[2*i]; removed[k] {
			out[k] = nil
		}
	}
	if all {
		s, e := start(0), end(n-1)
		if s < 0 || e < 0 {
			return nil, hand
		}
		out[v.Content[0]] = []finding.TextEdit{{Pos: s, End: e}}
		return out, ""
	}
	for i := 0; i < n; {
		if !removed[v.Content[2*i]] {
			i++
			continue
		}
		j := i
		for j+1 < n && removed[v.Content[2*(j+1)]] {
			j++
		}
		var s, e int
		if j+1 < n {
			s, e = start(i), start(j+1)
		} else {
			s, e = end(i-1), end(j)
		}
		if s < 0 || e < 0 || e < s {
			return nil, hand
		}
		out[v.Content[2*i]] = []finding.TextEdit{{Pos: s, End: e}}
		i = j + 1
	}
	return out, ""
}
