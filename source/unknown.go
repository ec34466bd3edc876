package source

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/kubeletcfg/kubeletcfg/internal/jsonscan"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

// Unknown returns the written paths of the main file's keys that the minor's
// kubelet does not have: the keys its strict decoding fails on and its lenient
// decoding drops. They are read off the document as the kubelet's serializer
// sees it, converted to JSON with sigs.k8s.io/yaml (last duplicate wins, merge
// keys resolved, non-string keys turned into strings), against the minor's
// field tree. ok is false when the file is not a YAML/JSON object; the walk's
// own verdict stands then.
//
// The field tree and the minor's JSON Schema (kubelets/data/<minor>/schema.json,
// every object closed as strict decoding is) are generated from the same types;
// pipeline's TestUnknownAgreesWithSchema checks on the corpus and on random
// documents that this walk names exactly the keys the schema rejects as
// additional properties. Validating with the schema at run time would link a
// JSON Schema validator whose initialisation alone costs a quarter of a run.
func Unknown(f *File, tree *kubelets.Field) (unknown map[string]bool, ok bool) {
	return (*Cache)(nil).Unknown(f, tree)
}

// Unknown is Unknown with the document's conversion done once.
func (c *Cache) Unknown(f *File, tree *kubelets.Field) (map[string]bool, bool) {
	doc, ok := c.objectJSON(f)
	if !ok {
		return nil, false
	}
	out := map[string]bool{}
	UnknownKeys(doc, tree, func(path string) { out[path] = true })
	return out, true
}

// objectJSON is the file as the kubelet's serializer converts it to JSON
// (Cache.yamlToJSON), when it is an object.
func (c *Cache) objectJSON(f *File) ([]byte, bool) {
	if f.Doc == nil || f.SyntaxErr != nil {
		return nil, false
	}
	doc, err := c.yamlToJSON(f)
	if i := jsonscan.Space(doc, 0); err != nil || i == len(doc) || doc[i] != '{' {
		return nil, false
	}
	return doc, true
}

// UnknownKeys calls unknown with the written path (a.b, m[key], l[0].x) of
// every key of doc, valid JSON as sigs.k8s.io/yaml converts a document (no key
// twice in an object), that tree does not have: a key of an object that is
// not one of its fields, spelled exactly. It descends as a closed JSON
// Schema's properties, additionalProperties and items do: into the known
// fields of an object, every value of a map and every item of a list; never
// into an unknown key, nor into a value of the wrong shape (a list where an
// object belongs has no keys to check). It reads the bytes as they are,
// without decoding the document.
func UnknownKeys(doc []byte, tree *kubelets.Field, unknown func(path string)) {
	unknownKeys(doc, jsonscan.Space(doc, 0), tree, "", unknown)
}

// unknownKeys walks the value at doc[i] and returns its end.
func unknownKeys(doc []byte, i int, f *kubelets.Field, path string, unknown func(string)) int {
	if i >= len(doc) {
		return i
	}
	switch {
	case doc[i] == '{' && f != nil && (f.Kind == kubelets.Object || f.Kind == kubelets.Map):
		i = jsonscan.Space(doc, i+1)
		for i < len(doc) && doc[i] != '}' {
			end := jsonscan.End(doc, i)
			key := jsonKey(doc[i:end])
			i = jsonscan.Space(doc, jsonscan.Space(doc, end)+1) // past the colon
			switch field, known := f.Children[key]; {
			case f.Kind == kubelets.Map:
				i = unknownKeys(doc, i, f.Elem, path+"["+key+"]", unknown)
			case !known:
				unknown(kubelets.JoinPath(path, key))
				i = jsonscan.End(doc, i)
			default:
				i = unknownKeys(doc, i, field, kubelets.JoinPath(path, key), unknown)
			}
			if i = jsonscan.Space(doc, i); i < len(doc) && doc[i] == ',' {
				i = jsonscan.Space(doc, i+1)
			}
		}
		return i + 1
	case doc[i] == '[' && f != nil && f.Kind == kubelets.List:
		i = jsonscan.Space(doc, i+1)
		for n := 0; i < len(doc) && doc[i] != ']'; n++ {
			i = jsonscan.Space(doc, unknownKeys(doc, i, f.Elem, path+"["+strconv.Itoa(n)+"]", unknown))
			if i < len(doc) && doc[i] == ',' {
				i = jsonscan.Space(doc, i+1)
			}
		}
		return i + 1
	}
	return jsonscan.End(doc, i)
}

// jsonKey is the text of a JSON string (quotes included in s).
func jsonKey(s []byte) string {
	if bytes.IndexByte(s, '\\') < 0 {
		return string(s[1 : len(s)-1])
	}
	var k string
	if err := json.Unmarshal(s, &k); err != nil {
		return string(s[1 : len(s)-1])
	}
	return k
}

// WithoutKeys returns the file's document as JSON without the keys at the given
// written paths (a.b, l[0].x): what an older kubelet's lenient decoding sees of a
// file whose keys it does not have. ok is false when the file is not an object.
func (c *Cache) WithoutKeys(f *File, paths []string) ([]byte, bool) {
	raw, ok := c.objectJSON(f)
	if !ok {
		return nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return nil, false
	}
	for _, p := range paths {
		deletePath(doc, p)
	}
	out, err := json.Marshal(doc)
	return out, err == nil
}

func deletePath(cur any, path string) {
	steps, ok := kubelets.Steps(path)
	if !ok {
		return
	}
	for i, st := range steps {
		last := i == len(steps)-1
		if st.Bracketed {
			if list, isList := cur.([]any); isList {
				if n, err := strconv.Atoi(st.Name); err == nil && n >= 0 && n < len(list) {
					cur = list[n]
					continue
				}
			}
			if m, isMap := cur.(map[string]any); isMap && last {
				delete(m, st.Name)
			} else if isMap {
				cur = m[st.Name]
			}
			continue
		}
		m, ok := cur.(map[string]any)
		if !ok {
			return
		}
		if last {
			delete(m, st.Name)
			return
		}
		cur = m[st.Name]
	}
}
