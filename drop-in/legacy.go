package dropin

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/kubeletcfg/kubeletcfg/skew"
)

// toV1beta1Keys rewrites the accumulated 1.31 patch so that decoding it onto the
// v1beta1 type does what decoding it onto the internal type does: a key that
// matches an internal field name case-insensitively is renamed to that field's
// v1beta1 name, any other key is dropped (encoding/json ignores it). Keys keep
// their order and duplicates, which decide the last writer.
func toV1beta1Keys(patch []byte, tree *skew.Field, internal map[string]string) []byte {
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
func writeRenamed(b *bytes.Buffer, raw []byte, f *skew.Field, path string, internal map[string]string) {
	raw = bytes.TrimSpace(raw)
	if f == nil || len(raw) == 0 {
		b.Write(raw)
		return
	}
	switch {
	case raw[0] == '{' && f.Kind == skew.Object:
		byInternal := map[string]string{}
		for name := range f.Children {
			key := internal[skew.JoinPath(path, name)]
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
			writeRenamed(b, value, f.Children[name], skew.JoinPath(path, name), internal)
		})
		b.WriteByte('}')
	case raw[0] == '{' && f.Kind == skew.Map:
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
	case raw[0] == '[' && f.Kind == skew.List:
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
