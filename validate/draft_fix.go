package validate

import (
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// ReplacingDraft returns f, a KC6001 finding, with the repair that writes the
// KEP-4603 draft key as the shipped field, maxSeconds: N as
// maxContainerRestartPeriod: Ns (quoted in a flow mapping), when that needs no
// guess: N a whole number of seconds the kubelet accepts (1..300), key and
// value written plainly or quoted without escapes, no twin key or cap beside
// it, no anchor or merge key above it (the text would serve other places too).
// t and doc are f's file. The gate the shipped field needs is not part of
// the repair: whether it is on depends on the minor and on every file, which
// kubeletcfg fix weighs.
func ReplacingDraft(f Finding, t *Text, doc *yaml.Node) Finding {
	parent, i := keyIn(doc, f.Line, f.Column, false)
	if parent == nil {
		return f
	}
	key, value := parent.Content[i], parent.Content[i+1]
	for j := 0; j+1 < len(parent.Content); j += 2 {
		if k := parent.Content[j]; j != i && (strings.EqualFold(k.Value, "maxSeconds") || strings.EqualFold(k.Value, "maxContainerRestartPeriod")) {
			return f
		}
	}
	n, err := strconv.Atoi(value.Value)
	if value.Kind != yaml.ScalarNode || value.Tag != "!!int" || err != nil || n < 1 || n > 300 {
		return f
	}
	ks, ke, kok := t.ScalarSpan(key)
	vs, ve, vok := t.ScalarSpan(value)
	if !kok || !vok {
		return f
	}
	seconds := strconv.Itoa(n) + "s"
	if parent.Style&yaml.FlowStyle != 0 {
		seconds = `"` + seconds + `"` // JSON, or a YAML {...}
	}
	f.Fixes = append(f.Fixes[:len(f.Fixes):len(f.Fixes)], SuggestedFix{
		Message: "write crashLoopBackOff.maxContainerRestartPeriod: " + strconv.Itoa(n) + "s",
		Edits: []TextEdit{
			{Pos: ks, End: ke, NewText: QuoteLike(key.Style, "maxContainerRestartPeriod")},
			{Pos: vs, End: ve, NewText: seconds},
		},
	})
	return f
}

// keyIn finds the mapping holding the key at line and column and the key's
// index in it, nil when there is none or it sits under an anchor or a merge
// key (shared says one was met above).
func keyIn(n *yaml.Node, line, col int, shared bool) (*yaml.Node, int) {
	if n == nil {
		return nil, 0
	}
	shared = shared || n.Anchor != ""
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Tag == "!!merge" {
				shared = true
			}
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			if k := n.Content[i]; k.Line == line && k.Column == col && k.Kind == yaml.ScalarNode {
				if shared {
					return nil, 0
				}
				return n, i
			}
		}
	}
	for _, c := range n.Content {
		if m, i := keyIn(c, line, col, shared); m != nil {
			return m, i
		}
	}
	return nil, 0
}
