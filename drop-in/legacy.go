package dropin

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/source"
)

// toV1beta1Keys rewrites the accumulated 1.31 patch so that decoding it onto the
// v1beta1 type does what decoding it onto the internal type does: a key that
// matches an internal field name case-insensitively is renamed to that field's
// v1beta1 name, any other key is dropped (encoding/json ignores it). Keys keep
// their order and duplicates, which decide the last writer.
func toV1beta1Keys(patch []byte, tree *kubelets.Field, internal map[string]string) []byte {
	var v any
	dec := json.NewDecoder(bytes.NewReader(patch))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return patch // not ours to fix: the decode reports it
	}
	var b bytes.Buffer
	writeRenamed(&b, patch, tree, "", internal)
	return b.Bytes()
}

// writeRenamed copies one JSON value, renaming object keys along the tree.
func writeRenamed(b *bytes.Buffer, raw []byte, f *kubelets.Field, path string, internal map[string]string) {
	raw = bytes.TrimSpace(raw)
	if f == nil || len(raw) == 0 {
		b.Write(raw)
		return
	}
	switch {
	case raw[0] == '{' && f.Kind == kubelets.Object:
		byInternal := map[string]string{}
		for name := range f.Children {
			key := internal[kubelets.JoinPath(path, name)]
			if key == "" {
				continue
			}
			if i := strings.LastIndexAny(key, ".]"); i >= 0 {
				key = key[i+1:]
			}
			byInternal[strings.ToLower(key)] = name
		}
		b.WriteByte('{')
		n := 0
		eachMember(raw, func(key string, value []byte) {
			name, ok := byInternal[strings.ToLower(key)]
			if !ok {
				return
			}
			if n > 0 {
				b.WriteByte(',')
			}
			n++
			k, _ := json.Marshal(name)
			b.Write(k)
			b.WriteByte(':')
			writeRenamed(b, value, f.Children[name], kubelets.JoinPath(path, name), internal)
		})
		b.WriteByte('}')
	case raw[0] == '{' && f.Kind == kubelets.Map:
		b.WriteByte('{')
		n := 0
		eachMember(raw, func(key string, value []byte) {
			if n > 0 {
				b.WriteByte(',')
			}
			n++
			k, _ := json.Marshal(key)
			b.Write(k)
			b.WriteByte(':')
			writeRenamed(b, value, f.Elem, path+"[]", internal)
		})
		b.WriteByte('}')
	case raw[0] == '[' && f.Kind == kubelets.List:
		var items []json.RawMessage
		if json.Unmarshal(raw, &items) != nil {
			b.Write(raw)
			return
		}
		b.WriteByte('[')
		for i, it := range items {
			if i > 0 {
				b.WriteByte(',')
			}
			writeRenamed(b, it, f.Elem, path+"[]", internal)
		}
		b.WriteByte(']')
	default:
		b.Write(raw)
	}
}

// eachMember calls fn with each key and raw value of a JSON object, in order,
// duplicates included.
func eachMember(raw []byte, fn func(key string, value []byte)) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil { // {
		return
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return
		}
		key, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return
		}
		fn(key, v)
	}
}

// legacyKeyFindings reports what the 1.31 merge does differently with a
// drop-in's keys: a known field spelled so that it matches no internal field
// name (resolvConf is ResolverConfig there) is ignored, and a null does not reset
// the main file's value.
func legacyKeyFindings(p Patch, opt Options) []finding.Finding {
	if opt.Legacy == nil {
		return nil
	}
	var out []finding.Finding
	for _, k := range p.Keys {
		if (k.Kind != source.KeyExact && k.Kind != source.KeyCase) || k.Parent == nil || k.Parent.Kind != kubelets.Object {
			continue
		}
		if internal := legacyInternalKey(k, opt); internal != "" && !strings.EqualFold(internal, k.Written) {
			out = append(out, DropInUnknownField.Atf(k.Pos, k.Path, fmt.Sprintf("set it in the main --config file, or write %q in the drop-in for kubelet 1.31", lowerFirst(internal)),
				"kubelet 1.31 matches drop-in keys against its internal field names, where %s is %q: this key is ignored", k.Path, internal))
			continue
		}
		if k.Null {
			out = append(out, DropInNullKept.Atf(k.Pos, k.Path, "set the value you want instead of null",
				"null does not reset %s at kubelet 1.31: the main file's value (or its default) stays", k.Path))
		}
	}
	return out
}

// legacyInternalKey is the internal type's JSON key of the field a key matched
// ("" when unknown or not at 1.31).
func legacyInternalKey(k source.Key, opt Options) string {
	if opt.Legacy == nil {
		return ""
	}
	internal := opt.Legacy.InternalKeys[canonicalStructPath(k.Path)]
	if i := strings.LastIndexAny(internal, ".]"); i >= 0 {
		internal = internal[i+1:]
	}
	return internal
}

// legacyIgnored reports whether kubelet 1.31 ignores a known field's key: it
// matches no internal field name (see legacyKeyFindings).
func legacyIgnored(k source.Key, opt Options) bool {
	if opt.Legacy == nil || k.Parent == nil || k.Parent.Kind != kubelets.Object {
		return false
	}
	internal := legacyInternalKey(k, opt)
	return internal != "" && !strings.EqualFold(internal, k.Written)
}

// canonicalStructPath turns list indexes into "[]" (the generated tables' syntax).
func canonicalStructPath(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if p[i] == '[' {
			if j := strings.IndexByte(p[i:], ']'); j >= 0 {
				b.WriteString("[]")
				i += j
				continue
			}
		}
		b.WriteByte(p[i])
	}
	return b.String()
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// legacyInternalName reports whether an unknown key matches, case-insensitively,
// the internal name of a field at its level, which the 1.31 merge applies
// (resolverConfig sets resolvConf).
func legacyInternalName(k source.Key, opt Options) bool {
	if opt.Legacy == nil || k.Parent == nil || k.Parent.Kind != kubelets.Object {
		return false
	}
	parent := canonicalStructPath(k.Path)
	if i := strings.LastIndexAny(parent, ".]"); i >= 0 && parent[i] == '.' {
		parent = parent[:i]
	} else {
		parent = ""
	}
	for name := range k.Parent.Children {
		internal := opt.Legacy.InternalKeys[kubelets.JoinPath(parent, name)]
		if i := strings.LastIndexAny(internal, ".]"); i >= 0 {
			internal = internal[i+1:]
		}
		if internal != "" && strings.EqualFold(internal, k.Written) {
			return true
		}
	}
	return false
}

// typeErrorText is encoding/json's type error as kubelet 1.31 prints it: it
// decodes into the internal type, so the field path is made of the internal
// type's JSON keys (KubeletConfiguration.MaxPods, not .maxPods) and a type of the
// v1beta1 package is the internal package's (config.X).
func (l *Legacy) typeErrorText(ute *json.UnmarshalTypeError, tree *kubelets.Field) string {
	e := *ute
	if internal := l.internalField(ute.Field, tree); internal != "" {
		e.Field = internal
	}
	text := e.Error()
	if t := ute.Type.String(); strings.Contains(t, "v1beta1.") {
		text = strings.TrimSuffix(text, t) + strings.ReplaceAll(t, "v1beta1.", "config.")
	}
	return text
}

// internalField maps encoding/json's field path ("a.b", struct fields only, no
// list indexes or map keys) of the v1beta1 type to the internal type's; "" when
// a segment is not in the tables.
func (l *Legacy) internalField(field string, tree *kubelets.Field) string {
	if field == "" {
		return ""
	}
	canonical, f := "", tree
	for _, seg := range strings.Split(field, ".") {
		for f != nil && (f.Kind == kubelets.List || f.Kind == kubelets.Map) {
			if f.Kind == kubelets.List {
				canonical += "[]"
			}
			f = f.Elem
		}
		if f == nil || f.Children[seg] == nil {
			return ""
		}
		canonical, f = kubelets.JoinPath(canonical, seg), f.Children[seg]
	}
	internal := l.InternalKeys[canonical]
	return strings.ReplaceAll(internal, "[]", "")
}
