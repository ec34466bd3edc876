package fix

import (
	"github.com/kubeletcfg/kubeletcfg/finding"
)

// An edit replaces the bytes [Pos, End) of the original file with NewText;
// an insertion has Pos == End. Edits are carried by the findings
// (validate.SuggestedFix) or computed from node positions, and applied to the
// original bytes, so every byte they do not cover (comments, quoting,
// indentation, key order) stays as it was.
type edit = finding.TextEdit

// apply applies edits to data (validate.ApplyEdits).
func apply(data []byte, edits []edit) ([]byte, error) { return finding.ApplyEdits(data, edits) }
