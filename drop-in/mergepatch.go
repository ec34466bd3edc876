package dropin

import (
	"bytes"
	"encoding/json"
	"reflect"
	"sort"
	"unicode/utf8"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"

	"github.com/kubeletcfg/kubeletcfg/internal/jsonscan"
)

// patcher applies merge patches in turn as mergeKubeletConfigurations does,
// jsonpatch.MergePatch(merged, dropIn) for each drop-in, but keeps the merged
// document parsed between them. MergePatch parses its document, merges and
// marshals it again; the kubelet's loop therefore costs the square of the
// number of drop-ins when each adds keys (10,000 drop-ins of 100 bytes: minutes).
// The merge below is json-patch v4's mergeDocs, merge (mergeNode) and pruneNulls on the same
// lazily parsed nodes, so the document is the one the loop of MergePatch calls
// builds, byte for byte (TestPatcherIsMergePatch checks it against the library).
// A patch that is not a JSON object (never a decoded drop-in) goes through
// MergePatch itself, errors included.
type patcher struct {
	doc  partialDoc
	data []byte // the document as bytes, when doc is not parsed
}

type partialDoc map[string]*lazyNode

// lazyNode is json-patch v4's: the raw JSON until it is needed as an object or
// a list.
type lazyNode struct {
	raw   json.RawMessage
	doc   partialDoc
	ary   []*lazyNode
	which int
}

const (
	eRaw = iota
	eDoc
	eAry
)

func (n *lazyNode) MarshalJSON() ([]byte, error) {
	return n.appendJSON(nil)
}

func (n *lazyNode) UnmarshalJSON(data []byte) error {
	n.raw = append(json.RawMessage(nil), data...)
	n.which = eRaw
	return nil
}

func (n *lazyNode) intoDoc() (partialDoc, bool) {
	if n.which == eDoc {
		return n.doc, true
	}
	d, ok := parseDoc(n.raw)
	if !ok {
		return nil, false
	}
	n.doc, n.which = d, eDoc
	return n.doc, true
}

func (n *lazyNode) intoAry() ([]*lazyNode, bool) {
	if n.which == eAry {
		return n.ary, true
	}
	a, ok := parseAry(n.raw)
	if !ok {
		return nil, false
	}
	n.ary, n.which = a, eAry
	return n.ary, true
}

// parseDoc is json.Unmarshal(data, &doc) for data already known to be valid
// JSON (a document json.Valid accepted, or a value inside one), without
// reflection: keys decoded (the last of duplicates wins), null members nil,
// other values kept raw. The raw values alias data, which is never written.
// ok is false when data is not an object, as json.Unmarshal's error.
func parseDoc(data []byte) (partialDoc, bool) {
	i := jsonscan.Space(data, 0)
	if i >= len(data) || data[i] != '{' {
		return nil, false
	}
	doc := partialDoc{}
	i = jsonscan.Space(data, i+1)
	for i < len(data) && data[i] == '"' {
		end := jsonscan.End(data, i)
		key := decodeKey(data[i:end])
		i = jsonscan.Space(data, end)
		i = jsonscan.Space(data, i+1) // ':'
		end = jsonscan.End(data, i)
		doc[key] = rawNode(data[i:end])
		i = jsonscan.Space(data, end)
		if i < len(data) && data[i] == ',' {
			i = jsonscan.Space(data, i+1)
		}
	}
	return doc, true
}

// parseAry is parseDoc for a list: ok is false when data is not a list.
func parseAry(data []byte) ([]*lazyNode, bool) {
	i := jsonscan.Space(data, 0)
	if i >= len(data) || data[i] != '[' {
		return nil, false
	}
	ary := []*lazyNode{}
	i = jsonscan.Space(data, i+1)
	for i < len(data) && data[i] != ']' {
		end := jsonscan.End(data, i)
		ary = append(ary, rawNode(data[i:end]))
		i = jsonscan.Space(data, end)
		if i < len(data) && data[i] == ',' {
			i = jsonscan.Space(data, i+1)
		}
	}
	return ary, true
}

// rawNode is the node json.Unmarshal makes of a value: nil for null.
func rawNode(raw []byte) *lazyNode {
	if string(raw) == "null" {
		return nil
	}
	return &lazyNode{raw: raw, which: eRaw}
}

// decodeKey is the string a quoted JSON key decodes to; encoding/json itself
// handles escapes and invalid UTF-8 (which it replaces).
func decodeKey(quoted []byte) string {
	inner := quoted[1 : len(quoted)-1]
	if bytes.IndexByte(inner, '\\') < 0 && utf8.Valid(inner) {
		return string(inner)
	}
	var k string
	_ = json.Unmarshal(quoted, &k)
	return k
}

// appendJSON appends the node as json.Marshal writes it: objects with sorted
// keys, nil nodes as null, raw values compacted with <, > and & escaped (what
// encoding/json does to a Marshaler's output).
func (n *lazyNode) appendJSON(b []byte) ([]byte, error) {
	switch {
	case n == nil:
		return append(b, "null"...), nil
	case n.which == eDoc:
		return n.doc.appendJSON(b)
	case n.which == eAry:
		if n.ary == nil {
			return append(b, "null"...), nil
		}
		b = append(b, '[')
		for i, item := range n.ary {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = item.appendJSON(b); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	}
	return appendRaw(b, n.raw)
}

func (d partialDoc) appendJSON(b []byte) ([]byte, error) {
	if d == nil {
		return append(b, "null"...), nil
	}
	keys := make([]string, 0, len(d))
	for k := range d {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendKey(b, k)
		b = append(b, ':')
		var err error
		if b, err = d[k].appendJSON(b); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

// appendKey writes a key as encoding/json does: plain printable ASCII as is,
// anything else through json.Marshal.
func appendKey(b []byte, k string) []byte {
	for i := 0; i < len(k); i++ {
		if c := k[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(k)
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, k...)
	return append(b, '"')
}

// needsCompact reports whether raw holds a byte that json.Marshal would
// change: white space, <, >, &, or 0xE2 (the first byte of U+2028 and U+2029).
func needsCompact(raw []byte) bool {
	for _, c := range raw {
		switch c {
		case ' ', '\t', '\n', '\r', '<', '>', '&', 0xe2:
			return true
		}
	}
	return false
}

// appendRaw writes a raw value as json.Marshal writes a json.RawMessage:
// compacted, with <, >, &, U+2028 and U+2029 escaped. Values without white
// space or those bytes (all of what encoding/json itself produced) are copied.
func appendRaw(b []byte, raw []byte) ([]byte, error) {
	if raw == nil {
		return append(b, "null"...), nil
	}
	if !needsCompact(raw) {
		return append(b, raw...), nil
	}
	var c bytes.Buffer
	if err := json.Compact(&c, raw); err != nil {
		return nil, &json.MarshalerError{Type: reflect.TypeFor[json.RawMessage](), Err: err}
	}
	var e bytes.Buffer
	json.HTMLEscape(&e, c.Bytes())
	return append(b, e.Bytes()...), nil
}

func newPatcher(base []byte) *patcher { return &patcher{data: base} }

// apply merges one patch over the document.
func (p *patcher) apply(patch []byte) error {
	if p.doc == nil {
		d, ok := parseValid(p.data)
		if !ok {
			return p.viaLibrary(patch)
		}
		p.doc = d
	}
	pd, ok := parseValid(patch)
	if !ok {
		return p.viaLibrary(patch)
	}
	mergeDocs(p.doc, pd)
	return nil
}

// parseValid is json.Unmarshal(data, &doc) with a non-nil doc: data is valid
// JSON and an object.
func parseValid(data []byte) (partialDoc, bool) {
	if !json.Valid(data) {
		return nil, false
	}
	return parseDoc(data)
}

// viaLibrary is MergePatch itself, for what a drop-in never is.
func (p *patcher) viaLibrary(patch []byte) error {
	cur, err := p.bytes()
	if err != nil {
		return err
	}
	out, err := jsonpatch.MergePatch(cur, patch)
	if err != nil {
		return err
	}
	p.doc, p.data = nil, out
	return nil
}

// bytes is the merged document as MergePatch returns it.
func (p *patcher) bytes() ([]byte, error) {
	if p.doc == nil {
		return p.data, nil
	}
	return p.doc.appendJSON(nil)
}

func mergeDocs(doc, patch partialDoc) {
	for k, v := range patch {
		if v == nil {
			delete(doc, k)
			continue
		}
		if cur, ok := doc[k]; !ok || cur == nil {
			pruneNulls(v)
			doc[k] = v
		} else {
			doc[k] = mergeNode(cur, v)
		}
	}
}

func mergeNode(cur, patch *lazyNode) *lazyNode {
	curDoc, ok := cur.intoDoc()
	if !ok {
		pruneNulls(patch)
		return patch
	}
	patchDoc, ok := patch.intoDoc()
	if !ok {
		return patch
	}
	mergeDocs(curDoc, patchDoc)
	return cur
}

func pruneNulls(n *lazyNode) {
	if sub, ok := n.intoDoc(); ok {
		for k, v := range sub {
			if v == nil {
				delete(sub, k)
			} else {
				pruneNulls(v)
			}
		}
	} else if ary, ok := n.intoAry(); ok {
		for _, v := range ary {
			if v != nil {
				pruneNulls(v)
			}
		}
	}
}
