package dropin

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/kubeletcfg/kubeletcfg/internal/jsonscan"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

// lastWriters simulates encoding/json decoding the merged document: keys are
// applied in document order and matched case-insensitively; objects and maps merge
// into what an earlier key decoded, scalars and lists replace it. It returns, for
// every canonical leaf path, the written path of the key that set it last, and the
// set of written paths present in the document.
//
// With tops, only the values of top-level keys naming those fields are walked:
// the answers for paths under them are the same, the rest are left out.
func lastWriters(merged []byte, tree *kubelets.Field, tops map[string]bool) (map[string]string, map[string]bool) {
	w := jsonWalk{writers: map[string]string{}, present: map[string]bool{}, visited: map[string]bool{},
		setAt: map[string]int{}, cleared: map[string]int{}, tops: tops}
	if tops != nil && tree != nil && tree.Kind == kubelets.Object {
		// The document is valid JSON (it decoded before this runs): split its
		// top-level members with a byte scan and decode only the wanted ones.
		w.present[""], w.visited[""] = true, true
		if scanMembers(merged, func(key string, val []byte) {
			if c := fieldFor(tree, key); c != nil && tops[c.Name] {
				dec := json.NewDecoder(bytes.NewReader(val))
				dec.UseNumber()
				w.value(dec, c, kubelets.JoinPath("", c.Name), kubelets.JoinPath("", key))
			}
		}) {
			w.finish()
			return w.writers, w.present
		}
		w = jsonWalk{writers: map[string]string{}, present: map[string]bool{}, visited: map[string]bool{},
			setAt: map[string]int{}, cleared: map[string]int{}}
	}
	dec := json.NewDecoder(bytes.NewReader(merged))
	dec.UseNumber()
	w.value(dec, tree, "", "")
	w.finish()
	return w.writers, w.present
}

// scanMembers calls fn with the key and raw value of every member of the JSON
// object data, in document order. data must be valid JSON; false (before any
// call) when it is not an object.
func scanMembers(data []byte, fn func(key string, val []byte)) bool {
	i := jsonscan.Space(data, 0)
	if i >= len(data) || data[i] != '{' {
		return false
	}
	for i = jsonscan.Space(data, i+1); i < len(data) && data[i] != '}'; {
		end := jsonscan.End(data, i) // the key string
		key := string(data[i+1 : end-1])
		if bytes.IndexByte(data[i:end], '\\') >= 0 {
			_ = json.Unmarshal(data[i:end], &key)
		}
		i = jsonscan.Space(data, end)
		i = jsonscan.Space(data, i+1) // ':'
		end = jsonscan.End(data, i)
		fn(key, data[i:end])
		i = jsonscan.Space(data, end)
		if i < len(data) && data[i] == ',' {
			i = jsonscan.Space(data, i+1)
		}
	}
	return true
}

type jsonWalk struct {
	writers map[string]string
	present map[string]bool
	// visited holds canonical paths already decoded once: only a second decoding
	// of the same field (a case variant) can replace values below it.
	visited map[string]bool
	// A value that replaces what an earlier key decoded removes the writers below
	// it: the removals are recorded with a sequence number (seq, cleared, setAt)
	// and applied by finish in one pass, as a document with many keys would
	// otherwise take quadratic time.
	seq     int
	setAt   map[string]int
	cleared map[string]int
	// tops, when set, are the canonical top-level fields walked (see lastWriters).
	tops map[string]bool
}

func (w *jsonWalk) finish() {
	if len(w.cleared) == 0 {
		return
	}
	for p := range w.writers {
		set, gone := w.setAt[p], false
		ancestors(p, func(a string) {
			if c, ok := w.cleared[a]; ok && c > set {
				gone = true
			}
		})
		if gone {
			delete(w.writers, p)
		}
	}
}

func (w *jsonWalk) value(dec *json.Decoder, f *kubelets.Field, path, wpath string) {
	w.present[wpath] = true
	again := w.visited[path]
	w.visited[path] = true
	out := w.writers
	tok, err := dec.Token()
	if err != nil {
		return
	}
	delim, isDelim := tok.(json.Delim)
	if !isDelim || f == nil || f.Kind == kubelets.Scalar || f.Kind == kubelets.List {
		if isDelim {
			skipRest(dec, delim)
		}
		w.seq++
		if again {
			w.cleared[path] = w.seq
		}
		out[path] = wpath
		w.setAt[path] = w.seq
		return
	}
	if delim != '{' {
		skipRest(dec, delim)
		return
	}
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return
		}
		key, _ := kt.(string)
		if f.Kind == kubelets.Map {
			w.value(dec, f.Elem, path+"["+key+"]", wpath+"["+key+"]")
			continue
		}
		c := fieldFor(f, key)
		if c == nil || (path == "" && w.tops != nil && !w.tops[c.Name]) {
			skipValue(dec)
			continue
		}
		w.value(dec, c, kubelets.JoinPath(path, c.Name), kubelets.JoinPath(wpath, key))
	}
	_, _ = dec.Token() // closing brace
}

// fieldFor finds the field a key names as encoding/json matches it: exactly, else
// case-insensitively with Unicode folding ("ſ" matches "s", the Kelvin sign "k"),
// which Field.Child does not do.
func fieldFor(f *kubelets.Field, key string) *kubelets.Field {
	if c, _ := f.Child(key); c != nil || f.Kind != kubelets.Object || !hasNonASCII(key) {
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

func hasNonASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return true
		}
	}
	return false
}

// skipValue consumes one value; Decode scans it whole, much faster than
// Token by Token.
func skipValue(dec *json.Decoder) {
	var raw json.RawMessage
	_ = dec.Decode(&raw)
}

// topSegment is the first field name of a canonical path ("a" of "a.b[k]").
func topSegment(p string) string {
	if i := strings.IndexAny(p, ".["); i >= 0 {
		return p[:i]
	}
	return p
}

func skipRest(dec *json.Decoder, open json.Delim) {
	if open != '{' && open != '[' {
		return
	}
	depth := 1
	for depth > 0 {
		tok, err := dec.Token()
		if err != nil {
			return
		}
		if d, ok := tok.(json.Delim); ok {
			switch d {
			case '{', '[':
				depth++
			default:
				depth--
			}
		}
	}
}
