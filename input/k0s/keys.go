package k0s

import (
	"fmt"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/kubeletcfg/kubeletcfg/input/bootstrap"
)

// decodeMode is how k0s's decoding of k0s.yaml reads a value of a Go type
// (keys_gen.go, written by internal/k0skeys from k0s's source).
type decodeMode uint8

const (
	// fieldsInherit: no UnmarshalJSON; the fields, as strictly as the
	// decoder the value is in.
	fieldsInherit decodeMode = iota
	// fieldsStrict: an UnmarshalJSON that decodes the fields with a Decoder
	// and DisallowUnknownFields (ClusterConfig): a key no field has is an error.
	fieldsStrict
	// fieldsLenient: an UnmarshalJSON that decodes the fields with
	// json.Unmarshal: a key no field has is dropped, here and below.
	fieldsLenient
	// freeForm: an UnmarshalJSON (or UnmarshalText) that reads the value its
	// own way; no key of it is checked.
	freeForm
)

// keyType is one Go type of keyTypes.
type keyType struct {
	decode decodeMode
	// method is the file and method that set decode, for messages.
	method string
	fields []keyField
}

// keyField is one JSON field: its name and its type as keyTypes spells it:
// []T, map[string]T (any key), a name of keyTypes, any, or a scalar.
type keyField struct{ name, typ string }

// strayKey is a key of the file that no field of its Go type has.
type strayKey struct {
	key  *yaml.Node
	path string // as the file spells it: spec.netwrok, spec.workerProfiles[0].nmae
	// typ is the keyTypes name of the type without the field.
	typ string
	// strict: the decoder refuses it. Else it is dropped by the lenient
	// UnmarshalJSON method of the value at lenientAt.
	strict            bool
	method, lenientAt string
}

// typeName is a keyTypes name without its package: "ClusterSpec".
func typeName(typ string) string { return typ[strings.LastIndex(typ, ".")+1:] }

// fieldNames are the JSON names of a keyTypes type's fields.
func fieldNames(typ string) []string {
	var names []string
	for _, f := range keyTypes[typ].fields {
		names = append(names, f.name)
	}
	return names
}

// strayKeys lists the keys of a k0s.yaml document that k0s's decoding into
// a ClusterConfig has no field for, in the order encoding/json meets them:
// sigs.k8s.io/yaml hands it JSON whose object keys are sorted.
func strayKeys(doc *yaml.Node) []strayKey {
	var out []strayKey
	var walk func(n *yaml.Node, typ string, strict bool, method, lenientAt, path string)
	walk = func(n *yaml.Node, typ string, strict bool, method, lenientAt, path string) {
		n = resolve(n)
		if n == nil {
			return
		}
		switch {
		case strings.HasPrefix(typ, "[]"):
			if n.Kind == yaml.SequenceNode {
				for i, v := range n.Content {
					walk(v, typ[2:], strict, method, lenientAt, fmt.Sprintf("%s[%d]", path, i))
				}
			}
			return
		case strings.HasPrefix(typ, "map[string]"):
			for _, kv := range pairs(n) {
				walk(kv[1], typ[len("map[string]"):], strict, method, lenientAt, path+"["+kv[0].Value+"]")
			}
			return
		}
		t, ok := keyTypes[typ]
		if !ok {
			return // a scalar, or any
		}
		switch t.decode {
		case freeForm:
			return
		case fieldsStrict:
			strict = true
		case fieldsLenient:
			if strict {
				strict, method, lenientAt = false, t.method, path
			}
		}
		for _, kv := range pairs(n) {
			k := kv[0]
			f := field(t, k.Value)
			p := k.Value
			if path != "" {
				p = path + "." + k.Value
			}
			if f == nil {
				out = append(out, strayKey{key: k, path: p, typ: typ, strict: strict, method: method, lenientAt: lenientAt})
				continue
			}
			walk(kv[1], f.typ, strict, method, lenientAt, p)
		}
	}
	walk(doc, rootType, true, "", "", "")
	return out
}

// field is the field of t that encoding/json decodes key into: the one of
// that name, else the first whose name equals it case-insensitively.
func field(t keyType, key string) *keyField {
	for i := range t.fields {
		if t.fields[i].name == key {
			return &t.fields[i]
		}
	}
	for i := range t.fields {
		if strings.EqualFold(t.fields[i].name, key) {
			return &t.fields[i]
		}
	}
	return nil
}

// pairs are the key and value nodes of a mapping, merge keys (<<) expanded
// as sigs.k8s.io/yaml expands them (a key of the mapping itself wins), sorted
// by key as the JSON encoding/json decodes has them.
func pairs(n *yaml.Node) [][2]*yaml.Node {
	n = resolve(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	seen := map[string]bool{}
	var out [][2]*yaml.Node
	var merged []*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Tag == "!!merge" {
			v = resolve(v)
			if v != nil && v.Kind == yaml.SequenceNode {
				merged = append(merged, v.Content...)
			} else {
				merged = append(merged, v)
			}
			continue
		}
		seen[k.Value] = true
		out = append(out, [2]*yaml.Node{k, v})
	}
	for _, m := range merged {
		for _, kv := range pairs(m) {
			if !seen[kv[0].Value] {
				seen[kv[0].Value] = true
				out = append(out, kv)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i][0].Value < out[j][0].Value })
	return out
}

// k0s ignores the unknown-field error of two names, keys of older releases
// (clusterconfig_types.go MergedWithYAML calls
// YamlUnmarshalStrictIgnoringFields with "interval", "podSecurityPolicy"),
// in a loop that sets err to nil on a match and calls err.Error() for the
// next name: the error of interval makes k0s panic; podSecurityPolicy's,
// the last name, is ignored.
const (
	panicsOn = "interval"
	ignored  = "podSecurityPolicy"
)

const (
	sourceStrict = "k0s decodes k0s.yaml strictly: pkg/apis/k0s/v1beta1/clusterconfig_types.go ConfigFromBytes, ClusterConfig.UnmarshalJSON, " + Release
	sourceIgnore = "internal/pkg/strictyaml/strictyaml.go YamlUnmarshalStrictIgnoringFields from clusterconfig_types.go MergedWithYAML, " + Release
)

// strays reports the keys of the file k0s's decoding has no field for. The
// strict decoder refuses the first it meets (encoding/json saves the first
// error, decodes the rest and returns it): k0s names that one, and the next
// when it is fixed, so each is a refusal (KC9001) in k0s's own words, or
// k0s's panic for interval. When podSecurityPolicy comes first, k0s ignores
// the error, and with it the keys the decoder met after it: those are
// dropped (KC9003), as are the keys below a value k0s decodes leniently.
func (t *translation) strays() {
	ignoring := ""
	for _, s := range t.d.stray {
		typ := typeName(s.typ)
		hint := fmt.Sprintf("Remove it, or spell it as the %s field it means.", typ)
		if near := suggest(s.key.Value, fieldNames(s.typ)); near != "" {
			hint = fmt.Sprintf("Did you mean %s?", near)
		} else if typ == "WorkerProfile" {
			hint = "A worker profile has only name and values; put the kubelet's settings under values."
		}
		pos := t.d.pos(s.key)
		switch {
		case !s.strict:
			t.add(bootstrap.Drops, pos, "", fmt.Sprintf("k0s drops %s: %s has no such field, and k0s decodes %s with json.Unmarshal, which ignores unknown keys (pkg/apis/k0s/v1beta1/%s, %s)",
				s.path, typ, s.lenientAt, s.method, Release), hint)
		case ignoring != "":
			t.add(bootstrap.Drops, pos, "", fmt.Sprintf("k0s drops %s: %s has no such field, but the strict decoder's error names %s first, which k0s ignores (%s): k0s reads the file without %s",
				s.path, typ, ignoring, sourceIgnore, s.key.Value), hint)
		case s.key.Value == ignored:
			ignoring = s.path
			t.add(bootstrap.Drops, pos, "", fmt.Sprintf("k0s drops %s: %s has no such field, and k0s ignores the unknown-field error of a key named %s (%s), once the keys before it are fixed",
				s.path, typ, ignored, sourceIgnore), "Remove it: k0s no longer has it.")
		case s.key.Value == panicsOn:
			t.add(bootstrap.Refuses, pos, "", fmt.Sprintf("k0s panics reading the ClusterConfig (runtime error: invalid memory address or nil pointer dereference): its decoding error, json: unknown field %q (%s: %s has no such field), names %s, "+
				"whose error it means to ignore, but after setting the error to nil it calls its Error method again (%s)", s.key.Value, s.path, typ, panicsOn, sourceIgnore),
				"Remove it: k0s no longer has it.")
		default:
			t.add(bootstrap.Refuses, pos, "", fmt.Sprintf("k0s refuses the ClusterConfig: error unmarshaling JSON: while decoding JSON: json: unknown field %q (%s: %s has no such field; %s)",
				s.key.Value, s.path, typ, sourceStrict), hint)
		}
	}
}
