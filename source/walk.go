package source

import (
	"strconv"
	"strings"
	"sync"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/internal/didyoumean"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

// Mode is how a decoder matches keys to fields.
type Mode int

const (
	// Strict is the main --config file: keys match field names exactly; anything
	// else is a strict-decoding error and is dropped by the lenient retry.
	Strict Mode = iota
	// Fold is a drop-in: the merged JSON is decoded by encoding/json, which matches
	// keys case-insensitively.
	Fold
)

// KeyKind classifies one key of a file against the field tree.
type KeyKind int

const (
	KeyExact     KeyKind = iota // names a field exactly (or a map key)
	KeyCase                     // names a field only case-insensitively
	KeyUnknown                  // names no field
	KeyDuplicate                // an earlier occurrence of a key repeated later in the same mapping
)

// Key is one key in a file, with what the kubelet makes of it.
type Key struct {
	Kind KeyKind
	// Path is the canonical field path (names as the kubelet spells them; map keys
	// and list indexes in brackets). For unknown keys it is the parent's path plus
	// the key as written.
	Path string
	// Written is the key as written in the file; WrittenPath is the path of keys as
	// written (it differs from Path where a key matched only case-insensitively).
	Written     string
	WrittenPath string
	Pos         finding.Position
	// Field is the matched field; nil for unknown keys.
	Field *kubelets.Field
	// Suggest is the nearest known field name at that level, for unknown keys.
	Suggest string
	// Winner is the position of the occurrence that wins, for duplicates.
	Winner finding.Position
	// Null is true when the value is YAML/JSON null.
	Null bool
	// Value is a short rendering of a scalar value ("" for objects and lists).
	Value string
	// Parent is the field owning the key (an Object or Map).
	Parent *kubelets.Field
}

// Walk checks every key of the file's first document against the field tree rooted
// at root and returns them in document order. It never recurses into a subtree that
// the kubelet would drop.
func Walk(f *File, root *kubelets.Field, mode Mode) []Key {
	if f.Doc == nil {
		return nil
	}
	w := walker{file: f.Path, mode: mode, keys: make([]Key, 0, keyCount(f.Doc, root))}
	w.node(f.Doc, root, "", "", 0)
	return w.keys
}

// keyCount is about how many keys a walk of n against f reports: every pair
// of the mappings it may enter (under a field, matched in any case), not those
// reached through aliases or merge keys. Walk starts with that capacity: the
// keys of a large file (176 bytes each) would otherwise be copied a dozen
// times as the slice grows, and a small drop-in's four times.
func keyCount(n *yaml.Node, f *kubelets.Field) int {
	if n == nil || f == nil {
		return 0
	}
	count := 0
	switch {
	case n.Kind == yaml.MappingNode && (f.Kind == kubelets.Object || f.Kind == kubelets.Map):
		count = len(n.Content) / 2
		for i := 0; i+1 < len(n.Content); i += 2 {
			c := f.Elem
			if f.Kind == kubelets.Object {
				c, _ = f.Child(n.Content[i].Value)
			}
			count += keyCount(n.Content[i+1], c)
		}
	case n.Kind == yaml.SequenceNode && f.Kind == kubelets.List:
		for _, item := range n.Content {
			count += keyCount(item, f.Elem)
		}
	}
	return count
}

type walker struct {
	file string
	mode Mode
	keys []Key
	// aliasDepth is > 0 while walking a subtree reached through an alias or a
	// merge key; aliased counts the nodes and pairs visited there.
	aliasDepth int
	aliased    int
	// names caches each Object's sorted field names (for the Unicode case
	// folding of field); suggested counts the did-you-mean searches made.
	names     map[*kubelets.Field][]string
	suggested int
	// walked holds the keys met through an alias or a merge key: the same key
	// node reached again under the same path says nothing new (its subtree
	// walks the same), so it is reported and entered once. Without it, ten
	// merges of a map that merges ten maps report one key 10^n times.
	walked map[walkedKey]bool
}

// walkedKey identifies a Key by what it reports.
type walkedKey struct {
	pos, winner finding.Position
	path        string
	kind        KeyKind
}

// again reports whether k was met before through an alias or a merge key, and
// records it. Keys outside aliases are met once by construction.
func (w *walker) again(k *Key, merged bool) bool {
	if w.aliasDepth == 0 && !merged {
		return false
	}
	id := walkedKey{pos: k.Pos, winner: k.Winner, path: k.Path, kind: k.Kind}
	if w.walked[id] {
		return true
	}
	if w.walked == nil {
		w.walked = map[walkedKey]bool{}
	}
	w.walked[id] = true
	return false
}

// maxWalkDepth bounds recursion: the field tree is shallow, and anything deeper is
// under a free-form value the kubelet does not look into.
const maxWalkDepth = 64

// maxSuggestions bounds the did-you-mean searches of one Walk: each costs an edit
// distance against every field name of the level, and a hostile file of a few MiB
// holds hundreds of thousands of unknown keys. Unknown keys past the bound are
// still reported, without a suggestion.
const maxSuggestions = 1000

// maxMergeDepth bounds how deep merge keys (<<) are followed into merge keys.
const maxMergeDepth = 8

// maxAliasNodes bounds the nodes and key/value pairs Walk visits through YAML
// aliases and merge keys. Aliases make a few hundred bytes expand exponentially
// ("billion laughs"); the kubelet's YAML decoder refuses such documents
// ("document contains excessive aliasing"), which DecodeMain and DecodeDropIn
// report. Past the bound Walk stops expanding aliases and merge keys: keys under
// them are not reported. Real configurations stay orders of magnitude below it.
const maxAliasNodes = 1 << 16

func (w *walker) pos(n *yaml.Node) finding.Position {
	return finding.Position{File: w.file, Line: n.Line, Column: n.Column}
}

// suggest returns the nearest field name of f to name, within maxSuggestions.
func (w *walker) suggest(name string, f *kubelets.Field) string {
	if w.suggested >= maxSuggestions {
		return ""
	}
	w.suggested++
	return suggestIndex(f).Nearest(name)
}

// suggestIndexes holds each Object's child names lowercased for did-you-mean,
// shared by every walk: the bound above is per file, and ten thousand drop-ins
// with an unknown key each search the top-level names once per file (a third
// of such a run's CPU when every search lowercased every name). Field trees
// are built whole once per minor (kubelets.Minor.Fields) and never change.
var suggestIndexes sync.Map // *kubelets.Field -> *didyoumean.Index

func suggestIndex(f *kubelets.Field) *didyoumean.Index {
	if x, ok := suggestIndexes.Load(f); ok {
		return x.(*didyoumean.Index)
	}
	x, _ := suggestIndexes.LoadOrStore(f, didyoumean.NewIndex(f.ChildNames()))
	return x.(*didyoumean.Index)
}

func (w *walker) childNames(f *kubelets.Field) []string {
	names, ok := w.names[f]
	if !ok {
		if w.names == nil {
			w.names = map[*kubelets.Field][]string{}
		}
		names = f.ChildNames()
		w.names[f] = names
	}
	return names
}

// field finds the field a key names as encoding/json matches it: exactly, else
// case-insensitively. Field.Child folds case with strings.ToLower; encoding/json
// folds Unicode too, so that "ſ" (U+017F) matches "s" and the Kelvin sign (U+212A)
// matches "k".
func (w *walker) field(f *kubelets.Field, name string) (*kubelets.Field, bool) {
	c, exact := f.Child(name)
	if c != nil || f == nil || f.Kind != kubelets.Object || isASCII(name) {
		return c, exact
	}
	for _, n := range w.childNames(f) {
		if strings.EqualFold(n, name) {
			return f.Children[n], false
		}
	}
	return nil, false
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// exhausted reports whether the alias budget is spent.
func (w *walker) exhausted() bool { return w.aliased >= maxAliasNodes }

func deref(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 100; i++ {
		n = n.Alias
	}
	return n
}

// pair is one key/value of a mapping; merged is set for pairs brought in by a
// merge key.
type pair struct {
	k, v   *yaml.Node
	merged bool
}

// pairs returns the key/value pairs of a mapping with YAML merge keys (<<) expanded
// in place, as YAML-to-JSON conversion does. Expanding merge keys spends the alias
// budget.
func (w *walker) pairs(n *yaml.Node) []pair {
	var out []pair
	w.appendPairs(&out, n, 0)
	return out
}

func (w *walker) appendPairs(out *[]pair, n *yaml.Node, depth int) {
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind == yaml.ScalarNode && k.Tag == "!!merge" {
			if depth >= maxMergeDepth || w.exhausted() {
				continue
			}
			w.aliased++
			v = deref(v)
			if v == nil {
				continue
			}
			switch v.Kind {
			case yaml.MappingNode:
				w.appendPairs(out, v, depth+1)
			case yaml.SequenceNode:
				for _, m := range v.Content {
					if w.exhausted() {
						break
					}
					w.aliased++
					if m = deref(m); m != nil && m.Kind == yaml.MappingNode {
						w.appendPairs(out, m, depth+1)
					}
				}
			}
			continue
		}
		if depth > 0 {
			if w.exhausted() {
				return
			}
			w.aliased++
		}
		*out = append(*out, pair{k: k, v: v, merged: depth > 0})
	}
}

func (w *walker) node(n *yaml.Node, f *kubelets.Field, path, wpath string, depth int) {
	if n == nil || f == nil || depth > maxWalkDepth {
		return
	}
	if n.Kind == yaml.AliasNode {
		if w.exhausted() {
			return
		}
		w.aliasDepth++
		defer func() { w.aliasDepth-- }()
		n = deref(n)
		if n == nil {
			return
		}
	}
	if w.aliasDepth > 0 {
		if w.exhausted() {
			return
		}
		w.aliased++
	}
	switch f.Kind {
	case kubelets.Object:
		if n.Kind != yaml.MappingNode {
			return
		}
		w.eachPair(n, func(p pair, v, winner *yaml.Node) {
			k := p.k
			key := Key{Written: k.Value, WrittenPath: kubelets.JoinPath(wpath, k.Value), Pos: w.pos(k), Null: isNull(v), Value: scalar(v), Parent: f}
			if winner != nil {
				key.Kind = KeyDuplicate
				key.Path = kubelets.JoinPath(path, k.Value)
				key.Winner = w.pos(winner)
				if c, exact := w.field(f, k.Value); c != nil && (exact || w.mode == Fold) {
					key.Path, key.Field = kubelets.JoinPath(path, c.Name), c
				}
				if !w.again(&key, p.merged) {
					w.keys = append(w.keys, key)
				}
				return
			}
			c, exact := w.field(f, k.Value)
			switch {
			case c == nil:
				key.Kind = KeyUnknown
				key.Path = kubelets.JoinPath(path, k.Value)
				key.Suggest = w.suggest(k.Value, f)
			case exact:
				key.Kind, key.Path, key.Field = KeyExact, kubelets.JoinPath(path, c.Name), c
			default:
				key.Kind, key.Path, key.Field = KeyCase, kubelets.JoinPath(path, c.Name), c
				key.Suggest = c.Name
			}
			if w.again(&key, p.merged) {
				return
			}
			w.keys = append(w.keys, key)
			if c != nil && (exact || w.mode == Fold) {
				w.child(p, c, key.Path, key.WrittenPath, depth+1)
			}
		})
	case kubelets.Map:
		if n.Kind != yaml.MappingNode {
			return
		}
		w.eachPair(n, func(p pair, v, winner *yaml.Node) {
			k := p.k
			key := Key{Kind: KeyExact, Written: k.Value, Path: path + "[" + k.Value + "]", WrittenPath: wpath + "[" + k.Value + "]",
				Pos: w.pos(k), Field: f.Elem, Null: isNull(v), Value: scalar(v), Parent: f}
			if winner != nil {
				key.Kind, key.Winner = KeyDuplicate, w.pos(winner)
				if !w.again(&key, p.merged) {
					w.keys = append(w.keys, key)
				}
				return
			}
			if w.again(&key, p.merged) {
				return
			}
			w.keys = append(w.keys, key)
			w.child(p, f.Elem, key.Path, key.WrittenPath, depth+1)
		})
	case kubelets.List:
		if n.Kind != yaml.SequenceNode {
			return
		}
		for i, item := range n.Content {
			if w.aliasDepth > 0 && w.exhausted() {
				break
			}
			idx := "[" + strconv.Itoa(i) + "]"
			w.node(item, f.Elem, path+idx, wpath+idx, depth+1)
		}
	}
}

// eachPair visits the pairs of the mapping n as object and map fields both read
// them: paying for each pair reached through an alias (merged pairs were paid
// for by pairs), v the value with aliases followed, and for a key that a later
// one of the same text overrides, winner, that later key (the decoders keep it).
func (w *walker) eachPair(n *yaml.Node, visit func(p pair, v, winner *yaml.Node)) {
	ps := w.pairs(n)
	last := make(map[string]int, len(ps))
	for i, p := range ps {
		last[p.k.Value] = i
	}
	for i, p := range ps {
		if w.aliasDepth > 0 {
			if w.exhausted() {
				break
			}
			w.aliased++
		}
		var winner *yaml.Node
		if j := last[p.k.Value]; j != i {
			winner = ps[j].k
		}
		visit(p, deref(p.v), winner)
	}
}

// child walks the value of a pair; values brought in by a merge key count as
// reached through an alias.
func (w *walker) child(p pair, f *kubelets.Field, path, wpath string, depth int) {
	if p.merged {
		w.aliasDepth++
		defer func() { w.aliasDepth-- }()
	}
	w.node(p.v, f, path, wpath, depth)
}

func isNull(n *yaml.Node) bool {
	return n != nil && n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}

func scalar(n *yaml.Node) string {
	if n == nil || n.Kind != yaml.ScalarNode {
		return ""
	}
	v := n.Value
	if len(v) > 80 {
		v = v[:77] + "..."
	}
	return strings.ReplaceAll(v, "\n", `\n`)
}

// Positions indexes the position of every key path in keys that the decoder keeps
// (exact keys, and case-folded keys in Fold mode).
func Positions(keys []Key, mode Mode) map[string]finding.Position {
	out := make(map[string]finding.Position, len(keys))
	for _, k := range keys {
		if k.Kind == KeyExact || (k.Kind == KeyCase && mode == Fold) {
			out[k.Path] = k.Pos
		}
	}
	return out
}
