package kubelets

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/kubeletcfg/kubeletcfg/internal/jsonscan"
)

// KnownJSON returns the JSON object data without the keys this minor's
// KubeletConfiguration has no field for, at any depth, as encoding/json matches
// keys to fields (exactly, else case-insensitively with Unicode folding). It is
// what makes json.Unmarshal into the newest minor's types behave like the
// minor's own: encoding/json ignores a key its type does not have, whatever the
// value, while the newest types may have a field of that name whose type the
// value does not fit (tlsCurvePreferences: "x" at 1.35 is ignored there and a
// type error at 1.37). Keys keep their order and duplicates, which decide the
// last writer. data is returned as is when nothing is removed (always at the
// newest minor) or when it is not valid JSON (the decode reports that).
func (m *Minor) KnownJSON(data []byte) []byte {
	if m == Newest() || !json.Valid(data) {
		return data
	}
	var b bytes.Buffer
	if !writeKnown(&b, data, m.Fields()) {
		return data
	}
	return b.Bytes()
}

// writeKnown copies one JSON value, leaving out the object keys that match no
// field of f; it reports whether it left out any. raw is valid JSON.
func writeKnown(b *bytes.Buffer, raw []byte, f *Field) (dropped bool) {
	raw = bytes.TrimSpace(raw)
	if f == nil || len(raw) == 0 || !canDrop(f, 0) {
		b.Write(raw)
		return false
	}
	switch {
	case raw[0] == '{' && (f.Kind == Object || f.Kind == Map):
		b.WriteByte('{')
		n := 0
		eachJSONMember(raw, func(key, rawKey, value []byte) {
			child := f.Elem
			if f.Kind == Object {
				if child = jsonField(f, key); child == nil {
					dropped = true
					return
				}
			}
			if n > 0 {
				b.WriteByte(',')
			}
			n++
			b.Write(rawKey)
			b.WriteByte(':')
			if writeKnown(b, value, child) {
				dropped = true
			}
		})
		b.WriteByte('}')
	case raw[0] == '[' && f.Kind == List:
		b.WriteByte('[')
		n := 0
		eachJSONItem(raw, func(item []byte) {
			if n > 0 {
				b.WriteByte(',')
			}
			n++
			if writeKnown(b, item, f.Elem) {
				dropped = true
			}
		})
		b.WriteByte(']')
	default:
		b.Write(raw)
	}
	return dropped
}

// canDrop reports whether a value of f can hold an object key to leave out:
// f is an object, or a map or list with objects below.
func canDrop(f *Field, depth int) bool {
	switch {
	case f == nil || depth > 16:
		return false
	case f.Kind == Object:
		return true
	case f.Kind == Map || f.Kind == List:
		return canDrop(f.Elem, depth+1)
	}
	return false
}

// jsonField finds the field a key names as encoding/json matches it: exactly,
// else case-insensitively with Unicode folding ("ſ" matches "s").
func jsonField(f *Field, rawName []byte) *Field {
	if c, ok := f.Children[string(rawName)]; ok { // the usual case, without allocating
		return c
	}
	key := string(rawName)
	if bytes.IndexByte(rawName, '\\') >= 0 {
		_ = json.Unmarshal(append(append([]byte{'"'}, rawName...), '"'), &key)
	}
	if c, _ := f.Child(key); c != nil || !nonASCII(key) {
		return c
	}
	// No two field names fold to each other, so at most one matches.
	for n, c := range f.Children {
		if strings.EqualFold(n, key) {
			return c
		}
	}
	return nil
}

// eachJSONMember calls fn with each key (its characters between the quotes,
// and the quoted key) and raw value of a valid JSON object, in order,
// duplicates included.
func eachJSONMember(raw []byte, fn func(key, rawKey, value []byte)) {
	i := jsonscan.Space(raw, 1)
	for i < len(raw) && raw[i] == '"' {
		end := jsonscan.End(raw, i)
		rawKey := raw[i:end]
		i = jsonscan.Space(raw, end)
		i = jsonscan.Space(raw, i+1) // ':'
		end = jsonscan.End(raw, i)
		fn(rawKey[1:len(rawKey)-1], rawKey, raw[i:end])
		i = jsonscan.Space(raw, end)
		if i < len(raw) && raw[i] == ',' {
			i = jsonscan.Space(raw, i+1)
		}
	}
}

// eachJSONItem calls fn with each raw item of a valid JSON list.
func eachJSONItem(raw []byte, fn func(item []byte)) {
	i := jsonscan.Space(raw, 1)
	for i < len(raw) && raw[i] != ']' {
		end := jsonscan.End(raw, i)
		fn(raw[i:end])
		i = jsonscan.Space(raw, end)
		if i < len(raw) && raw[i] == ',' {
			i = jsonscan.Space(raw, i+1)
		}
	}
}

func nonASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return true
		}
	}
	return false
}
