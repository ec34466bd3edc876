// Package schemacheck validates documents against a minor's generated JSON
// Schema (kubelets/data/<minor>/schema.json) with santhosh-tekuri/jsonschema, for
// tests: it is the oracle that the run-time unknown-key walk (source.Unknown)
// and the published schema are checked against. The command never links it;
// the validator's initialisation alone would cost a quarter of a lint run.
package schemacheck

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// Compile compiles a schema.json (draft 2020-12, formats asserted) under its
// own $id.
func Compile(raw []byte) (*jsonschema.Schema, error) {
	var head struct {
		ID string `json:"$id"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		return nil, err
	}
	if head.ID == "" {
		return nil, errors.New("schema has no $id")
	}
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	c.AssertFormat = true
	if err := c.AddResource(head.ID, bytes.NewReader(raw)); err != nil {
		return nil, err
	}
	return c.Compile(head.ID)
}

// Decode decodes JSON as the schema validates it: numbers kept as json.Number.
func Decode(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("decoding: %w", err)
	}
	return v, nil
}

// Additional is one object's keys that the schema rejects as additional
// properties.
type Additional struct {
	Pointer string   // JSON pointer to the object in the instance
	Names   []string // the rejected keys, as jsonschema lists them
}

// AdditionalProperties validates doc and returns every additionalProperties
// failure, ordered by pointer; nil when doc is valid or fails otherwise.
func AdditionalProperties(s *jsonschema.Schema, doc any) []Additional {
	var ve *jsonschema.ValidationError
	if !errors.As(s.Validate(doc), &ve) {
		return nil
	}
	var out []Additional
	collect(ve, &out)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Pointer < out[j].Pointer })
	return out
}

// quotedName matches one of the names in jsonschema's message
// "additionalProperties 'a', 'b' not allowed" (see its quote function).
var quotedName = regexp.MustCompile(`'((?:[^'\\]|\\.)*)'`)

func collect(ve *jsonschema.ValidationError, out *[]Additional) {
	if strings.HasSuffix(ve.KeywordLocation, "/additionalProperties") && strings.HasPrefix(ve.Message, "additionalProperties ") {
		a := Additional{Pointer: ve.InstanceLocation}
		for _, m := range quotedName.FindAllStringSubmatch(strings.TrimPrefix(ve.Message, "additionalProperties "), -1) {
			a.Names = append(a.Names, unquote(m[1]))
		}
		*out = append(*out, a)
	}
	for _, cause := range ve.Causes {
		collect(cause, out)
	}
}

// unquote reverses jsonschema's quote: %q, then \" back to ", then ' escaped.
func unquote(s string) string {
	s = strings.ReplaceAll(s, `\'`, `'`)
	s = strings.ReplaceAll(s, `"`, `\"`)
	if u, err := strconv.Unquote(`"` + s + `"`); err == nil {
		return u
	}
	return s
}
