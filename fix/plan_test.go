package fix

import "testing"

// TestToOriginal maps offsets of a text with edits applied back to the
// original: before, between and after edits, at a replaced key, and inside
// inserted text (none).
func TestToOriginal(t *testing.T) {
	// original: "kind: K\nMaxPods: 1\n"; applied: a line inserted at 0 and
	// MaxPods respelt.
	applied := []edit{{Pos: 0, End: 0, NewText: "apiVersion: v\n"}, {Pos: 8, End: 15, NewText: "maxPods"}}
	for _, tc := range []struct {
		off, want int
		ok        bool
	}{
		{0, 0, false},  // the inserted line
		{5, 0, false},  // inside it
		{14, 0, true},  // "kind", just after it
		{22, 8, true},  // the respelt key's start
		{24, 0, false}, // inside the respelt key
		{29, 15, true}, // ": 1", after it
	} {
		got, ok := toOriginal(applied, tc.off)
		if ok != tc.ok || (ok && got != tc.want) {
			t.Errorf("toOriginal(%d) = %d, %t; want %d, %t", tc.off, got, ok, tc.want, tc.ok)
		}
	}
	// An edit of the new text maps back; one over the respelt key does not.
	if got, ok := rebase(applied, []edit{{Pos: 31, End: 32, NewText: "2"}}); !ok || got[0].Pos != 17 || got[0].End != 18 {
		t.Errorf("rebase of the value: %+v, %t", got, ok)
	}
	if _, ok := rebase(applied, []edit{{Pos: 22, End: 32}}); ok {
		t.Error("rebase of an edit over the respelt key succeeded")
	}
}
