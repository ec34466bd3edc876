package fuzzcase

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// obj is a YAML mapping in the order written; keys may repeat (duplicate keys
// are one of the inputs).
type obj []kv

type kv struct {
	k string
	v any
}

// raw is a scalar written as is, unquoted (yes, ~, 1e3, an out-of-range integer).
type raw string

// emitDocument writes a mapping as block YAML; scalars are JSON (a subset of
// YAML's flow style) unless raw, so every string is quoted and survives.
func emitDocument(doc obj) []byte {
	var b strings.Builder
	emitMap(&b, doc, 0)
	return []byte(b.String())
}

func emitMap(b *strings.Builder, m obj, indent int) {
	pad := strings.Repeat("  ", indent)
	for _, e := range m {
		b.WriteString(pad + key(e.k) + ":")
		emitValue(b, e.v, indent)
	}
}

// emitValue writes what follows "key:" or "-": a space and a scalar or flow
// value, or a newline and a nested block.
func emitValue(b *strings.Builder, v any, indent int) {
	switch x := v.(type) {
	case obj:
		if len(x) == 0 {
			b.WriteString(" {}\n")
			return
		}
		b.WriteString("\n")
		emitMap(b, x, indent+1)
	case []any:
		if len(x) == 0 {
			b.WriteString(" []\n")
			return
		}
		b.WriteString("\n")
		pad := strings.Repeat("  ", indent+1)
		for _, item := range x {
			if o, ok := item.(obj); ok && len(o) > 0 {
				// "- k: v" with the other keys aligned under k.
				b.WriteString(pad + "- ")
				var sub strings.Builder
				emitMap(&sub, o, indent+2)
				b.WriteString(strings.TrimPrefix(sub.String(), pad+"  "))
				continue
			}
			b.WriteString(pad + "-")
			emitValue(b, item, indent+1)
		}
	default:
		b.WriteString(" " + scalar(v) + "\n")
	}
}

var bareKey = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9._/-]*$`)

// key writes a mapping key bare, as people do, unless YAML would read it as
// something other than that string.
func key(k string) string {
	switch strings.ToLower(k) {
	case "y", "n", "yes", "no", "on", "off", "true", "false", "null":
	default:
		if bareKey.MatchString(k) {
			return k
		}
	}
	return scalar(k)
}

func scalar(v any) string {
	switch x := v.(type) {
	case raw:
		return string(x)
	case nil:
		return "null"
	case string, bool, int, float64:
		out, _ := json.Marshal(x)
		return string(out)
	}
	panic(fmt.Sprintf("fuzzcase: cannot write %T", v))
}

// emitJSON writes a mapping as one JSON object (raw scalars that are not JSON
// quoted).
func emitJSON(doc obj) []byte {
	var b strings.Builder
	writeJSON(&b, doc)
	b.WriteString("\n")
	return []byte(b.String())
}

func writeJSON(b *strings.Builder, v any) {
	switch x := v.(type) {
	case obj:
		b.WriteString("{")
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(scalar(e.k) + ": ")
			writeJSON(b, e.v)
		}
		b.WriteString("}")
	case []any:
		b.WriteString("[")
		for i, item := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			writeJSON(b, item)
		}
		b.WriteString("]")
	case raw:
		if json.Valid([]byte(x)) {
			b.WriteString(string(x))
		} else {
			b.WriteString(scalar(string(x)))
		}
	default:
		b.WriteString(scalar(v))
	}
}
