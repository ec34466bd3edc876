package finding

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v3"
)

// KeyAt is a mapping key found by its position: the mapping that holds it,
// its index in Content, and whether the mapping's text may serve other places
// too (an anchor on it or above it, a merge key in it or above it).
type KeyAt struct {
	Mapping *yaml.Node
	Index   int
	Shared  bool
}

// Key is the key node; Value its value.
func (k KeyAt) Key() *yaml.Node   { return k.Mapping.Content[k.Index] }
func (k KeyAt) Value() *yaml.Node { return k.Mapping.Content[k.Index+1] }

// KeyIndex finds the keys of one YAML document by position, with what the
// repairs a finding carries need to know of them (the twins in their mapping,
// the path as written, the key above), in time that does not grow with the
// document: a file may have hundreds of thousands of keys, each with a
// finding. Built by one walk, read-only after: the minors evaluated in
// parallel share it.
type KeyIndex struct {
	root *yaml.Node
	keys map[[2]int]KeyAt
	// up says where each mapping and sequence sits: under a key of a mapping,
	// or as an item of a sequence.
	up map[*yaml.Node]step
	// folds groups each mapping's key indices by their case-folded name.
	folds map[*yaml.Node]map[string][]int
}

type step struct {
	parent *yaml.Node // the mapping or sequence holding the node
	key    *yaml.Node // the key whose value it is; nil for a sequence item
	item   int        // its index in the sequence
}

// NewKeyIndex indexes the scalar keys of doc (nil: an empty index).
func NewKeyIndex(doc *yaml.Node) *KeyIndex {
	x := &KeyIndex{root: doc, keys: map[[2]int]KeyAt{}, up: map[*yaml.Node]step{}, folds: map[*yaml.Node]map[string][]int{}}
	if doc != nil {
		x.walk(doc, false)
	}
	return x
}

// walk indexes n; an explicit stack would serve deeper documents, but the
// parser refuses nesting deeper than the kubelet reads long before the Go
// stack would matter.
func (x *KeyIndex) walk(n *yaml.Node, shared bool) {
	shared = shared || n.Anchor != ""
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			shared = shared || n.Content[i].Tag == "!!merge"
		}
		groups := map[string][]int{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Kind == yaml.ScalarNode {
				x.keys[[2]int{k.Line, k.Column}] = KeyAt{Mapping: n, Index: i, Shared: shared}
				if k.Tag != "!!merge" {
					f := foldKey(k.Value)
					groups[f] = append(groups[f], i)
				}
			}
			if v.Kind == yaml.MappingNode || v.Kind == yaml.SequenceNode {
				x.up[v] = step{parent: n, key: k}
				x.walk(v, shared)
			}
		}
		x.folds[n] = groups
	case yaml.SequenceNode:
		for i, item := range n.Content {
			if item.Kind == yaml.MappingNode || item.Kind == yaml.SequenceNode {
				x.up[item] = step{parent: n, item: i}
				x.walk(item, shared)
			}
		}
	}
}

// At finds the scalar key written at line and column.
func (x *KeyIndex) At(line, col int) (KeyAt, bool) {
	at, ok := x.keys[[2]int{line, col}]
	return at, ok
}

// Owner is the key whose value is the mapping of at, and whether that key is
// one of the document's top-level keys; nil for the top level or an item of
// a sequence.
func (x *KeyIndex) Owner(at KeyAt) (key *yaml.Node, top bool) {
	s, ok := x.up[at.Mapping]
	if !ok || s.key == nil {
		return nil, false
	}
	return s.key, s.parent == x.root
}

// maxTwins bounds the twins a message lists.
const maxTwins = 3

// Twins names the other scalar keys of at's mapping that name the same field
// or gate, name, as encoding/json matches names (case-insensitively), as
// `"maxPods" (line 8)`, joined by " and "; "" when there are none. A mapping
// of thousands of spellings lists three and counts the rest.
func (x *KeyIndex) Twins(at KeyAt, name string) string {
	fold := foldKey(name)
	group := x.folds[at.Mapping][fold]
	others := len(group)
	if k := at.Key(); k.Tag != "!!merge" && foldKey(k.Value) == fold {
		others-- // at is in its own group
	}
	var out []string
	for _, i := range group {
		if len(out) == maxTwins {
			break
		}
		if i != at.Index {
			o := at.Mapping.Content[i]
			out = append(out, fmt.Sprintf("%q (line %d)", o.Value, o.Line))
		}
	}
	if more := others - len(out); more == 1 {
		out = append(out, "1 more key")
	} else if more > 1 {
		out = append(out, fmt.Sprintf("%d more keys", more))
	}
	return strings.Join(out, " and ")
}

// WrittenPath is the path of at's key as the file writes it: each key as
// spelled, joined by dots, list items as [i].
func (x *KeyIndex) WrittenPath(at KeyAt) string {
	segs := []string{at.Key().Value}
	for n := at.Mapping; ; {
		s, ok := x.up[n]
		if !ok {
			break
		}
		if s.key != nil {
			segs = append(segs, s.key.Value+".")
		} else {
			segs = append(segs, "["+strconv.Itoa(s.item)+"].")
		}
		n = s.parent
	}
	var b strings.Builder
	for i := len(segs) - 1; i >= 0; i-- {
		seg := segs[i]
		if i > 0 && strings.HasPrefix(segs[i-1], "[") {
			seg = strings.TrimSuffix(seg, ".") // "list[0]", not "list.[0]"
		}
		b.WriteString(seg)
	}
	return b.String()
}

// foldKey is s with each rune replaced by the smallest rune of its simple
// case-folding orbit: two strings are equal under strings.EqualFold exactly
// when their fold keys are equal.
func foldKey(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		// An ASCII letter's orbit is itself in both cases (and, for k and
		// s, a rune above ASCII): the smallest is the upper case.
		return strings.ToUpper(s)
	}
	var b strings.Builder
	for _, r := range s {
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		b.WriteRune(least)
	}
	return b.String()
}
