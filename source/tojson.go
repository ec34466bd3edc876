package source

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// jsonOf is yaml.YAMLToJSON(f.Data) computed from f's node tree, for a file
// whose tree proves what go.yaml.in/yaml/v2 (the parser behind YAMLToJSON)
// decodes: a second full parse of a large file, or thousands of small ones,
// is the largest cost of a run after the first parse. ok is false when the
// proof does not hold; the caller then converts the bytes itself.
//
// The proof holds for one document of printable ASCII (no encoding, escape or
// directive subtleties: both parsers are ports of the same libyaml scanner)
// whose nodes are mappings with keys yaml/v2 reads as the string written
// (v2String), sequences, and scalars without tags, anchors or aliases that
// yaml/v2's resolve turns into a known value: quoted strings, plain words
// (strings, its booleans and nulls), decimal integers and strings starting
// with a digit that no rule of its resolve can read as a number or a time.
// Anything else (floats, timestamps, block scalars, merge keys, aliases,
// nesting past 64 levels) is left to YAMLToJSON. The value is then what
// YAMLToJSON builds from yaml/v2's (map[string]any, []any, string, int, bool,
// nil: v2Value), written as json.Marshal writes it (appendV2JSON); repeated
// keys keep the last value, as yaml/v2's non-strict decoding does. TestJSONOf
// compares it with YAMLToJSON on every testdata input, the hostile shapes and
// generated documents.
func jsonOf(f *File) ([]byte, bool) {
	if f.Doc == nil || f.SyntaxErr != nil || len(f.ExtraDocs) > 0 || !plainASCII(f.Data) {
		return nil, false
	}
	return appendV2JSON(make([]byte, 0, len(f.Data)+len(f.Data)/2), f.Doc, 0)
}

// maxJSONOfDepth bounds the recursion of v2Value; deeper files take YAMLToJSON.
const maxJSONOfDepth = 64

// plainASCII reports whether data is printable ASCII, tabs and line breaks,
// without a backslash (the escapes of double-quoted scalars), a '!' (tags:
// the non-specific "! 1" is a string to yaml/v2, an integer to yaml/v3's node
// tree) or a line starting with '%' (a directive).
func plainASCII(data []byte) bool {
	lineStart := true
	for _, c := range data {
		switch {
		case c == '\n':
			lineStart = true
			continue
		case c == '\\', c == '!', c == 0x7f, c >= 0x80, c < 0x20 && c != '\t' && c != '\r':
			return false
		case c == '%' && lineStart:
			return false
		}
		lineStart = false
	}
	return true
}

// v2Value is the value yaml/v2 decodes n to, as YAMLToJSON hands it to
// json.Marshal; ok is false where that is not proven.
func v2Value(n *yaml.Node, depth int) (any, bool) {
	if depth > maxJSONOfDepth || n.Anchor != "" || n.Style&yaml.TaggedStyle != 0 {
		return nil, false
	}
	switch n.Kind {
	case yaml.MappingNode:
		m := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if !v2String(k) || k.Anchor != "" {
				return nil, false
			}
			v, ok := v2Value(n.Content[i+1], depth+1)
			if !ok {
				return nil, false
			}
			m[k.Value] = v
		}
		return m, true
	case yaml.SequenceNode:
		l := make([]any, len(n.Content))
		for i, c := range n.Content {
			v, ok := v2Value(c, depth+1)
			if !ok {
				return nil, false
			}
			l[i] = v
		}
		return l, true
	case yaml.ScalarNode:
		switch n.Style {
		case yaml.DoubleQuotedStyle, yaml.SingleQuotedStyle:
			return n.Value, true
		case 0:
			return v2Plain(n.Value)
		}
	}
	return nil, false
}

// v2Plain resolves a plain scalar as yaml/v2's resolve does (resolve.go), for
// the forms whose outcome is certain.
func v2Plain(s string) (any, bool) {
	if v, ok := v2Resolved[s]; ok {
		return v, true
	}
	switch c := s[0]; {
	case c == '.' || c == '+' || c == '<':
		return nil, false // floats, infinities, merge keys
	case c == '-' || (c >= '0' && c <= '9'):
		if decimalInt(s) {
			i, err := strconv.Atoi(s)
			return i, err == nil
		}
		if c != '-' && digitWord(s) {
			return s, true
		}
		return nil, false
	}
	// No other first byte has a resolve hint besides the words of v2Resolved
	// (y, n, t, f, o and ~ are looked up there, and are strings otherwise).
	return s, true
}

// v2Resolved are yaml/v2's resolveMap words that are not floats or the merge
// key: booleans and nulls (the empty plain scalar is null).
var v2Resolved = func() map[string]any {
	m := map[string]any{}
	for _, w := range []string{"y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"} {
		m[w] = true
	}
	for _, w := range []string{"n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"} {
		m[w] = false
	}
	for _, w := range []string{"", "~", "null", "Null", "NULL"} {
		m[w] = nil
	}
	return m
}()

// decimalInt reports whether s is an integer without a leading zero, sign
// '+' or underscore, short enough for an int: yaml/v2 decodes it to an int
// with the same digits.
func decimalInt(s string) bool {
	d := s
	if d[0] == '-' {
		d = d[1:]
	}
	if d == "0" {
		return s == "0"
	}
	if d == "" || len(d) > 18 || d[0] == '0' {
		return false
	}
	for i := 0; i < len(d); i++ {
		if d[i] < '0' || d[i] > '9' {
			return false
		}
	}
	return true
}

// digitWord reports whether s, starting with a digit, is a string to yaml/v2:
// letters, digits, '.' and '%' only, with a letter, '%' or two dots (a float
// has one), no 'e' or 'E' (exponents), no 0x, 0o or 0b prefix, no '-', ':' or
// '_' (timestamps, sexagesimals, digit separators): 100Mi, 1.5Gi, 0s, 1m30s,
// 5%, 10.96.0.10.
func digitWord(s string) bool {
	if len(s) > 1 && s[0] == '0' {
		switch s[1] {
		case 'x', 'X', 'o', 'O', 'b', 'B':
			return false
		}
	}
	word, dots := false, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
		case c == '.':
			dots++
		case c == 'e' || c == 'E':
			return false
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '%':
			word = true
		default:
			return false
		}
	}
	return word || dots >= 2
}

// appendV2JSON appends the JSON json.Marshal writes for v2Value(n): objects
// with their keys sorted bytewise and the last of repeated keys, strings
// escaped as encoding/json escapes them (HTML characters included), without
// building the value (a map per mapping of a file of 150,000 list items).
func appendV2JSON(dst []byte, n *yaml.Node, depth int) ([]byte, bool) {
	if depth > maxJSONOfDepth || n.Anchor != "" || n.Style&yaml.TaggedStyle != 0 {
		return dst, false
	}
	switch n.Kind {
	case yaml.MappingNode:
		pairs := len(n.Content) / 2
		var buf [8]int
		order := buf[:0]
		if pairs > len(buf) {
			order = make([]int, 0, pairs)
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if !v2String(k) || k.Anchor != "" {
				return dst, false
			}
			order = append(order, i)
		}
		// Bytewise by key, a repeated key's occurrences in document order.
		if len(order) > 1 {
			slices.SortStableFunc(order, func(a, b int) int { return strings.Compare(n.Content[a].Value, n.Content[b].Value) })
		}
		dst = append(dst, '{')
		first := true
		for j, i := range order {
			key := n.Content[i].Value
			if j+1 < len(order) && n.Content[order[j+1]].Value == key {
				// A later occurrence wins; yaml/v2 still decodes this one.
				if _, ok := appendV2JSON(nil, n.Content[i+1], depth+1); !ok {
					return dst, false
				}
				continue
			}
			if !first {
				dst = append(dst, ',')
			}
			first = false
			dst = appendJSONString(dst, key)
			dst = append(dst, ':')
			var ok bool
			if dst, ok = appendV2JSON(dst, n.Content[i+1], depth+1); !ok {
				return dst, false
			}
		}
		return append(dst, '}'), true
	case yaml.SequenceNode:
		dst = append(dst, '[')
		for i, c := range n.Content {
			if i > 0 {
				dst = append(dst, ',')
			}
			var ok bool
			if dst, ok = appendV2JSON(dst, c, depth+1); !ok {
				return dst, false
			}
		}
		return append(dst, ']'), true
	case yaml.ScalarNode:
		var v any
		switch n.Style {
		case yaml.DoubleQuotedStyle, yaml.SingleQuotedStyle:
			v = n.Value
		case 0:
			var ok bool
			if v, ok = v2Plain(n.Value); !ok {
				return dst, false
			}
		default:
			return dst, false
		}
		switch v := v.(type) {
		case nil:
			return append(dst, "null"...), true
		case bool:
			return strconv.AppendBool(dst, v), true
		case int:
			return strconv.AppendInt(dst, int64(v), 10), true
		case string:
			return appendJSONString(dst, v), true
		}
	}
	return dst, false
}

// appendJSONString appends s as encoding/json writes it: as is between quotes
// when every byte is one it writes unescaped (printable ASCII but '"', '\\',
// '<', '>' and '&'), else through json.Marshal itself.
func appendJSONString(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&':
			out, err := json.Marshal(s)
			if err != nil {
				panic(err) // a string always marshals
			}
			return append(dst, out...)
		}
	}
	dst = append(dst, '"')
	dst = append(dst, s...)
	return append(dst, '"')
}
