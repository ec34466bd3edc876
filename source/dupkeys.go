package source

import (
	"sync"

	yaml "go.yaml.in/yaml/v3"
	sigsyaml "sigs.k8s.io/yaml"
)

// dupVerdict is what the YAML node tree proves about the duplicate keys that
// yaml.YAMLToJSONStrict (go.yaml.in/yaml/v2's strict mode, decoding into
// interface{}) reports: "line N: key K already set in map".
type dupVerdict int

const (
	dupUnsure dupVerdict = iota // only YAMLToJSONStrict can tell
	dupNone                     // it reports none
	dupSome                     // it reports at least one
)

// duplicateKeys decides dupVerdict from the first document's node tree, in
// linear time, where the answer does not depend on how yaml/v2 resolves keys:
// it reports a duplicate when two keys of one mapping decode to equal values,
// and a key merged in with << over an existing one. So the proof holds only
// when every key of every mapping is a plain or quoted scalar that v2 decodes
// to the string it reads (see plainString), with no merge key anywhere: then
// v2 reports a duplicate exactly when two keys of a mapping read the same.
// The first such pair proves dupSome, whatever the rest of the file holds.
// An alias is walked where its anchor is defined: decoding it again elsewhere
// repeats the same mapping's errors, never new ones.
func duplicateKeys(doc *yaml.Node) dupVerdict {
	if doc == nil {
		return dupUnsure
	}
	verdict := dupNone
	stack := []*yaml.Node{doc}
	var seen map[string]bool
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch n.Kind {
		case yaml.SequenceNode:
			stack = append(stack, n.Content...)
		case yaml.MappingNode:
			pairs := len(n.Content) / 2
			if pairs > 8 {
				clear(seen)
				if seen == nil {
					seen = make(map[string]bool, pairs)
				}
			}
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := n.Content[i]
				if !v2String(k) {
					verdict = dupUnsure
					continue
				}
				if pairs > 8 {
					if seen[k.Value] {
						return dupSome
					}
					seen[k.Value] = true
				} else {
					for j := 0; j < i; j += 2 {
						if p := n.Content[j]; p.Value == k.Value && v2String(p) {
							return dupSome
						}
					}
				}
				stack = append(stack, n.Content[i+1])
			}
		}
	}
	return verdict
}

// v2String reports whether yaml/v2 decodes the key node k to the string
// k.Value: a quoted scalar without a tag, or a plain one that its resolve
// leaves a string. Plain scalars starting with a sign, a digit, '.' or '~' may
// be numbers, timestamps, infinities or null; the words of its resolve table
// (y, yes, on, true, n, no, off, false, null, ...) are booleans or null; "<<"
// is a merge key. go.yaml.in/yaml/v2 resolve.go.
func v2String(k *yaml.Node) bool {
	if k.Kind != yaml.ScalarNode || k.Style&yaml.TaggedStyle != 0 {
		return false
	}
	if k.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
		return true
	}
	if k.Style != 0 || k.Value == "" {
		return false // literal or folded block scalars: not worth proving
	}
	switch c := k.Value[0]; {
	case c == '+' || c == '-' || c == '.' || c == '~' || (c >= '0' && c <= '9'):
		return false
	}
	return !v2Words[k.Value]
}

// v2Words are yaml/v2's resolveMap entries that do not start with a sign, '.'
// or '~': booleans, null and the merge key.
var v2Words = func() map[string]bool {
	m := map[string]bool{"<<": true}
	for _, w := range []string{"y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON",
		"n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF", "null", "Null", "NULL"} {
		m[w] = true
	}
	return m
}()

// yamlStrictError is yaml.YAMLToJSONStrict's error for data, computed when it
// is first read: duplicateKeys has proven there is one, and the pipeline only
// asks whether the strict decoding failed, so a large file's second full parse
// is paid only when the text is shown.
type yamlStrictError struct {
	data []byte
	once sync.Once
	err  error
}

func (e *yamlStrictError) get() error {
	e.once.Do(func() { _, e.err = sigsyaml.YAMLToJSONStrict(e.data) })
	return e.err
}

func (e *yamlStrictError) Error() string {
	if err := e.get(); err != nil {
		return err.Error()
	}
	return "" // unreachable: duplicateKeys proved an error
}

func (e *yamlStrictError) Unwrap() error { return e.get() }
