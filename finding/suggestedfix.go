package finding

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
)

// SuggestedFix is a repair that needs no guess, carried by the finding whose
// mistake it repairs, as golang.org/x/tools/go/analysis's SuggestedFix: text
// edits of the finding's file. Edits are of the bytes as written, so every byte
// they do not cover (comments, quoting, indentation, key order) stays.
type SuggestedFix struct {
	Message string
	Edits   []TextEdit
}

// TextEdit replaces the bytes [Pos, End) of a file as the pipeline read it
// (source.File.Data) with NewText; Pos == End inserts.
type TextEdit struct {
	Pos, End int
	NewText  string
}

// RenameKey is the fix that respells the key written at pos as name, in the
// key's own quoting: plain, or quoted without escapes. ok is false when the key
// is written any other way (an escape, a line break, a tag, an anchor), which
// is renamed by hand.
func RenameKey(t *Text, pos Position, written, name string) (SuggestedFix, bool) {
	if strings.ContainsAny(written, "\n\r\\") {
		return SuggestedFix{}, false
	}
	start := t.Offset(pos.Line, pos.Column)
	if start < 0 {
		return SuggestedFix{}, false
	}
	rest := t.Data[start:]
	var span int
	var newText string
	switch {
	case bytes.HasPrefix(rest, []byte(`"`+written+`"`)):
		span, newText = len(written)+2, `"`+name+`"`
	case bytes.HasPrefix(rest, []byte("'"+written+"'")) && !strings.Contains(written, "'"):
		span, newText = len(written)+2, "'"+name+"'"
	case bytes.HasPrefix(rest, []byte(written)) && written != "" && !strings.ContainsAny(written[:1], `"'&*!`):
		span, newText = len(written), name
	default:
		return SuggestedFix{}, false
	}
	return SuggestedFix{
		Message: fmt.Sprintf("rename %q to %q", written, name),
		Edits:   []TextEdit{{Pos: start, End: start + span, NewText: newText}},
	}, true
}

// ApplyEdits applies edits to data. Edits must not overlap; two insertions at
// the same offset keep their order, and an insertion goes before a replacement
// that starts where it does (a line added before a key that is renamed).
func ApplyEdits(data []byte, edits []TextEdit) ([]byte, error) {
	sorted := append([]TextEdit(nil), edits...)
	sort.SliceStable(sorted, func(i, j int) bool {
		a, b := sorted[i], sorted[j]
		if a.Pos != b.Pos {
			return a.Pos < b.Pos
		}
		return a.End == a.Pos && b.End != b.Pos
	})
	var out []byte
	at := 0
	for _, e := range sorted {
		if e.Pos < at || e.End < e.Pos || e.End > len(data) {
			return nil, fmt.Errorf("overlapping or out-of-range edit at byte %d", e.Pos)
		}
		out = append(out, data[at:e.Pos]...)
		out = append(out, e.NewText...)
		at = e.End
	}
	return append(out, data[at:]...), nil
}

// Renaming is f with the fix that respells the key written at f's position
// (written, in t, f's file) as name, when that needs no guess
// (RenameKey); f unchanged otherwise. The case rules (KC1102, KC2006, KC2007)
// set it where they detect the key.
func (f Finding) Renaming(t *Text, written, name string) Finding {
	if fix, ok := RenameKey(t, f.Position, written, name); ok {
		f.Fixes = append(f.Fixes[:len(f.Fixes):len(f.Fixes)], fix)
	}
	return f
}
