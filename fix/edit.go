package fix

import (
	"github.com/kubeletcfg/kubeletcfg/validate"
	yaml "go.yaml.in/yaml/v3"
)

// An edit replaces the bytes [Pos, End) of the original file with NewText;
// an insertion has Pos == End. Edits are computed from node positions (or
// carried by the findings, validate.SuggestedFix) and applied to the original
// bytes, so every byte they do not cover (comments, quoting, indentation, key
// order) stays as it was.
type edit = validate.TextEdit

// rename is the edit that respells a key (a one-line scalar) as name, in the
// key's own quoting style.
func rename(t *validate.Text, k *yaml.Node, name string) (edit, bool) {
	start, end, ok := t.ScalarSpan(k)
	if !ok {
		return edit{}, false
	}
	return edit{Pos: start, End: end, NewText: validate.QuoteLike(k.Style, name)}, true
}

// apply applies edits to data (validate.ApplyEdits).
func apply(data []byte, edits []edit) ([]byte, error) { return validate.ApplyEdits(data, edits) }
