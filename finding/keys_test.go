package finding

import (
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

func TestKeyIndex(t *testing.T) {
	const data = "top: 1\nlist:\n- a:\n    B: 1\n    b: 2\n    \u212a: 3\n    k: 4\nanchored: &x\n  c: 1\n"
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(data), &doc); err != nil {
		t.Fatal(err)
	}
	x := NewKeyIndex(doc.Content[0])
	b, ok := x.At(4, 5)
	if !ok || b.Key().Value != "B" {
		t.Fatalf("At(4, 5) = %+v, %t", b, ok)
	}
	if got := x.WrittenPath(b); got != "list[0].a.B" {
		t.Errorf("WrittenPath = %q", got)
	}
	if got := x.Twins(b, "b"); got != `"b" (line 5)` {
		t.Errorf("Twins(B) = %q", got)
	}
	// The Kelvin sign folds to k, as encoding/json and strings.EqualFold fold it.
	if k, _ := x.At(7, 5); x.Twins(k, "k") != "\"\u212a\" (line 6)" {
		t.Errorf("Twins(k) = %q", x.Twins(k, "k"))
	}
	if owner, top := x.Owner(b); owner == nil || owner.Value != "a" || top {
		t.Errorf("Owner(B) = %v, top %t", owner, top)
	}
	c, _ := x.At(9, 3)
	if owner, top := x.Owner(c); !c.Shared || owner.Value != "anchored" || !top {
		t.Errorf("c: shared %t, owner %v, top %t", c.Shared, owner, top)
	}
	if b.Shared {
		t.Error("B is not under an anchor")
	}
}

// TestTwinsBounded: a mapping of thousands of spellings of one name lists
// three of them and counts the rest, so that each of thousands of findings
// does not carry all the others.
func TestTwinsBounded(t *testing.T) {
	var b strings.Builder
	for _, k := range []string{"maxPods", "MaxPods", "MAxPods", "MAXPods", "MAXPOds"} {
		b.WriteString(k + ": 1\n")
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(b.String()), &doc); err != nil {
		t.Fatal(err)
	}
	x := NewKeyIndex(doc.Content[0])
	at, _ := x.At(1, 1)
	want := `"MaxPods" (line 2) and "MAxPods" (line 3) and "MAXPods" (line 4) and 1 more key`
	if got := x.Twins(at, "maxPods"); got != want {
		t.Errorf("Twins = %q, want %q", got, want)
	}
}
