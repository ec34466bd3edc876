package dropin

import (
	"encoding/json"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
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
	switch n.which {
	case eDoc:
		return json.Marshal(n.doc)
	case eAry:
		return json.Marshal(n.ary)
	}
	return json.Marshal(n.raw)
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
	if n.raw == nil || json.Unmarshal(n.raw, &n.doc) != nil {
		return nil, false
	}
	n.which = eDoc
	return n.doc, true
}

func (n *lazyNode) intoAry() ([]*lazyNode, bool) {
	if n.which == eAry {
		return n.ary, true
	}
	if n.raw == nil || json.Unmarshal(n.raw, &n.ary) != nil {
		return nil, false
	}
	n.which = eAry
	return n.ary, true
}

func newPatcher(base []byte) *patcher { return &patcher{data: base} }

// apply merges one patch over the document.
func (p *patcher) apply(patch []byte) error {
	var pd partialDoc
	if p.doc == nil {
		var d partialDoc
		if json.Unmarshal(p.data, &d) != nil || d == nil {
			return p.viaLibrary(patch)
		}
		p.doc = d
	}
	if json.Unmarshal(patch, &pd) != nil || pd == nil {
		return p.viaLibrary(patch)
	}
	mergeDocs(p.doc, pd)
	return nil
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
	return json.Marshal(p.doc)
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
