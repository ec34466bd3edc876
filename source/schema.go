package source

import (
	"bytes"
	"encoding/json"
	"errors"
	"regexp"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"
	"sigs.k8s.io/yaml"

	"github.com/kubeletcfg/kubeletcfg/skew"
)

// SchemaUnknown returns the written paths of the main file's keys that the
// minor's generated JSON Schema rejects as additional properties: the keys the
// kubelet's strict decoding fails on and its lenient decoding drops. The
// document is converted to JSON with sigs.k8s.io/yaml, as the kubelet's
// serializer converts it (last duplicate wins, merge keys resolved). ok is false
// when the file is not a YAML/JSON object; the walk's own verdict stands then.
func SchemaUnknown(f *File, schema *jsonschema.Schema, tree *skew.Field) (unknown map[string]bool, ok bool) {
	return schemaUnknown(f, schema, tree, nil)
}

// SchemaUnknown is SchemaUnknown with the document's conversion done once.
func (c *Cache) SchemaUnknown(f *File, schema *jsonschema.Schema, tree *skew.Field) (map[string]bool, bool) {
	return schemaUnknown(f, schema, tree, c)
}

func schemaUnknown(f *File, schema *jsonschema.Schema, tree *skew.Field, c *Cache) (map[string]bool, bool) {
	doc, ok := c.instance(f)
	if !ok {
		return nil, false
	}
	err := schema.Validate(doc)
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return map[string]bool{}, true
	}
	out := map[string]bool{}
	collectUnknown(ve, doc, tree, out)
	return out, true
}

// instance is the file as the JSON value the schema validates, once per file.
func (c *Cache) instance(f *File) (any, bool) {
	if c == nil {
		return toInstance(f)
	}
	v := c.instances.get(f, func() cachedInstance {
		v, ok := toInstanceOf(f, c.yamlToJSON)
		return cachedInstance{v, ok}
	})
	return v.v, v.ok
}

type cachedInstance struct {
	v  any
	ok bool
}

func toInstance(f *File) (any, bool) {
	return toInstanceOf(f, func(f *File) ([]byte, error) { return yaml.YAMLToJSON(f.Data) })
}

func toInstanceOf(f *File, convert func(*File) ([]byte, error)) (any, bool) {
	if f.Doc == nil || f.SyntaxErr != nil {
		return nil, false
	}
	raw, err := convert(f)
	if err != nil {
		return nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, false
	}
	if _, isObject := v.(map[string]any); !isObject {
		return nil, false
	}
	return v, true
}

// quotedName matches one of the names in jsonschema's message
// "additionalProperties 'a', 'b' not allowed" (see its quote function).
var quotedName = regexp.MustCompile(`'((?:[^'\\]|\\.)*)'`)

func collectUnknown(ve *jsonschema.ValidationError, doc any, tree *skew.Field, out map[string]bool) {
	if strings.HasSuffix(ve.KeywordLocation, "/additionalProperties") {
		base, ok := writtenPath(doc, tree, ve.InstanceLocation)
		if ok {
			for _, m := range quotedName.FindAllStringSubmatch(strings.TrimPrefix(ve.Message, "additionalProperties "), -1) {
				out[skew.JoinPath(base, unquote(m[1]))] = true
			}
		}
	}
	for _, cause := range ve.Causes {
		collectUnknown(cause, doc, tree, out)
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

// writtenPath turns a JSON pointer into instance into the walk's written path
// syntax (a.b, m[key], l[0].x).
func writtenPath(doc any, tree *skew.Field, pointer string) (string, bool) {
	if pointer == "" {
		return "", true
	}
	path, cur, f := "", doc, tree
	for _, seg := range strings.Split(strings.TrimPrefix(pointer, "/"), "/") {
		seg = strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~")
		switch v := cur.(type) {
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(v) {
				return "", false
			}
			path, cur = path+"["+seg+"]", v[i]
			if f != nil {
				f = f.Elem
			}
		case map[string]any:
			cur = v[seg]
			if f != nil && f.Kind == skew.Map {
				path, f = path+"["+seg+"]", f.Elem
				continue
			}
			path = skew.JoinPath(path, seg)
			if f != nil {
				f, _ = f.Child(seg)
			}
		default:
			return "", false
		}
	}
	return path, true
}

// WithoutKeys returns the file's document as JSON without the keys at the given
// written paths (a.b, l[0].x): what an older kubelet's lenient decoding sees of a
// file whose keys it does not have. ok is false when the file is not an object.
func WithoutKeys(f *File, paths []string) ([]byte, bool) {
	doc, ok := toInstance(f)
	if !ok {
		return nil, false
	}
	for _, p := range paths {
		deletePath(doc, p)
	}
	out, err := json.Marshal(doc)
	return out, err == nil
}

func deletePath(cur any, path string) {
	for path != "" {
		var seg string
		if path[0] == '[' {
			end := strings.IndexByte(path, ']')
			if end < 0 {
				return
			}
			seg, path = path[1:end], strings.TrimPrefix(path[end+1:], ".")
			list, ok := cur.([]any)
			i, err := strconv.Atoi(seg)
			if !ok || err != nil || i < 0 || i >= len(list) {
				if m, isMap := cur.(map[string]any); isMap && path == "" {
					delete(m, seg)
				} else if isMap {
					cur = m[seg]
				}
				continue
			}
			cur = list[i]
			continue
		}
		end := strings.IndexAny(path, ".[")
		if end < 0 {
			end = len(path)
		}
		seg, path = path[:end], strings.TrimPrefix(path[end:], ".")
		m, ok := cur.(map[string]any)
		if !ok {
			return
		}
		if path == "" {
			delete(m, seg)
			return
		}
		cur = m[seg]
	}
}
