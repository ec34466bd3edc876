package skew

import (
	"bytes"
	"encoding/json"
	"strings"
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
// field of f; it reports whether it left out any.
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
		eachJSONMember(raw, func(key string, value []byte) {
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
			k, _ := json.Marshal(key) // the decoded key: encoding/json matches that
			b.Write(k)
			b.WriteByte(':')
			if writeKnown(b, value, child) {
				dropped = true
			}
		})
		b.WriteByte('}')
	case raw[0] == '[' && f.Kind == List:
		var items []json.RawMessage
		if json.Unmarshal(raw, &items) != nil {
			b.Write(raw)
			return false
		}
		b.WriteByte('[')
		for i, it := range items {
			if i > 0 {
				b.WriteByte(',')
			}
			if writeKnown(b, it, f.Elem) {
				dropped = true
			}
		}
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
func jsonField(f *Field, key string) *Field {
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

// eachJSONMember calls fn with each key and raw value of a valid JSON object, in
// order, duplicates included.
func eachJSONMember(raw []byte, fn func(key string, value []byte)) {
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

func nonASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return true
		}
	}
	return false
}
