package source

import (
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kubeletcfg/kubeletcfg/internal/didyoumean"
	"github.com/kubeletcfg/kubeletcfg/skew"
	"github.com/kubeletcfg/kubeletcfg/validate"
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
	Pos         validate.Position
	// Field is the matched field; nil for unknown keys.
	Field *skew.Field
	// Suggest is the nearest known field name at that level, for unknown keys.
	Suggest string
	// Winner is the position of the occurrence that wins, for duplicates.
	Winner validate.Position
	// Null is true when the value is YAML/JSON null.
	Null bool
	// Value is a short rendering of a scalar value ("" for objects and lists).
	Value string
	// Parent is the field owning the key (an Object or Map).
	Parent *skew.Field
}

// Walk checks every key of the file's first document against the field tree rooted
// at root and returns them in document order. It never recurses into a subtree that
// the kubelet would drop.
func Walk(f *File, root *skew.Field, mode Mode) []Key {
	if f.Doc == nil {
		return nil
	}
	w := walker{file: f.Path, mode: mode}
	w.node(f.Doc, root, "", "", 0)
	return w.keys
}

type walker struct {
	file string
	mode Mode
	keys []Key
}

// maxWalkDepth bounds recursion: the field tree is shallow, and anything deeper is
// under a free-form value the kubelet does not look into.
const maxWalkDepth = 64

func (w *walker) pos(n *yaml.Node) validate.Position {
	return validate.Position{File: w.file, Line: n.Line, Column: n.Column}
}

func deref(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 100; i++ {
		n = n.Alias
	}
	return n
}

func join(parent, name string) string {
	if parent == "" {
		return name
	}
	return parent + "." + name
}

// pairs returns the key/value pairs of a mapping with YAML merge keys (<<) expanded
// in place, as YAML-to-JSON conversion does.
func pairs(n *yaml.Node, depth int) [][2]*yaml.Node {
	var out [][2]*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind == yaml.ScalarNode && k.Tag == "!!merge" && depth < 8 {
			v = deref(v)
			switch v.Kind {
			case yaml.MappingNode:
				out = append(out, pairs(v, depth+1)...)
			case yaml.SequenceNode:
				for _, m := range v.Content {
					if m = deref(m); m.Kind == yaml.MappingNode {
						out = append(out, pairs(m, depth+1)...)
					}
				}
			}
			continue
		}
		out = append(out, [2]*yaml.Node{k, v})
	}
	return out
}

func (w *walker) node(n *yaml.Node, f *skew.Field, path, wpath string, depth int) {
	n = deref(n)
	if n == nil || f == nil || depth > maxWalkDepth {
		return
	}
	switch f.Kind {
	case skew.Object:
		if n.Kind != yaml.MappingNode {
			return
		}
		ps := pairs(n, 0)
		last := map[string]int{}
		for i, p := range ps {
			last[p[0].Value] = i
		}
		for i, p := range ps {
			k, v := p[0], deref(p[1])
			key := Key{Written: k.Value, WrittenPath: join(wpath, k.Value), Pos: w.pos(k), Null: isNull(v), Value: scalar(v), Parent: f}
			if j := last[k.Value]; j != i {
				key.Kind = KeyDuplicate
				key.Path = join(path, k.Value)
				key.Winner = w.pos(ps[j][0])
				if c, exact := f.Child(k.Value); c != nil && (exact || w.mode == Fold) {
					key.Path, key.Field = join(path, c.Name), c
				}
				w.keys = append(w.keys, key)
				continue
			}
			c, exact := f.Child(k.Value)
			switch {
			case c == nil:
				key.Kind = KeyUnknown
				key.Path = join(path, k.Value)
				key.Suggest = didyoumean.Nearest(k.Value, f.ChildNames())
			case exact:
				key.Kind, key.Path, key.Field = KeyExact, join(path, c.Name), c
			default:
				key.Kind, key.Path, key.Field = KeyCase, join(path, c.Name), c
				key.Suggest = c.Name
			}
			w.keys = append(w.keys, key)
			if c != nil && (exact || w.mode == Fold) {
				w.node(v, c, key.Path, key.WrittenPath, depth+1)
			}
		}
	case skew.Map:
		if n.Kind != yaml.MappingNode {
			return
		}
		ps := pairs(n, 0)
		last := map[string]int{}
		for i, p := range ps {
			last[p[0].Value] = i
		}
		for i, p := range ps {
			k, v := p[0], deref(p[1])
			key := Key{Kind: KeyExact, Written: k.Value, Path: path + "[" + k.Value + "]", WrittenPath: wpath + "[" + k.Value + "]",
				Pos: w.pos(k), Field: f.Elem, Null: isNull(v), Value: scalar(v), Parent: f}
			if j := last[k.Value]; j != i {
				key.Kind, key.Winner = KeyDuplicate, w.pos(ps[j][0])
				w.keys = append(w.keys, key)
				continue
			}
			w.keys = append(w.keys, key)
			w.node(v, f.Elem, key.Path, key.WrittenPath, depth+1)
		}
	case skew.List:
		if n.Kind != yaml.SequenceNode {
			return
		}
		for i, item := range n.Content {
			idx := "[" + strconv.Itoa(i) + "]"
			w.node(item, f.Elem, path+idx, wpath+idx, depth+1)
		}
	}
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
func Positions(keys []Key, mode Mode) map[string]validate.Position {
	out := make(map[string]validate.Position, len(keys))
	for _, k := range keys {
		if k.Kind == KeyExact || (k.Kind == KeyCase && mode == Fold) {
			out[k.Path] = k.Pos
		}
	}
	return out
}
