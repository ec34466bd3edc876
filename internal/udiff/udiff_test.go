package udiff

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

func TestUnified(t *testing.T) {
	tests := []struct {
		name string
		a, b string
		want string
	}{
		{"equal", "a\nb\n", "a\nb\n", ""},
		{
			name: "one line changed in the middle, 3 lines of context",
			a:    "1\n2\n3\n4\n5\n6\n7\n8\n9\n",
			b:    "1\n2\n3\n4\nfive\n6\n7\n8\n9\n",
			want: "--- a/f\n+++ b/f\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n",
		},
		{
			name: "two changes far apart make two hunks",
			a:    "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n",
			b:    "one\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\ntwelve\n",
			want: "--- a/f\n+++ b/f\n@@ -1,4 +1,4 @@\n-1\n+one\n 2\n 3\n 4\n@@ -9,4 +9,4 @@\n 9\n 10\n 11\n-12\n+twelve\n",
		},
		{
			name: "changes whose context touches share a hunk",
			a:    "1\n2\n3\n4\n5\n6\n7\n8\n",
			b:    "1\nB\n3\n4\n5\n6\nG\n8\n",
			want: "--- a/f\n+++ b/f\n@@ -1,8 +1,8 @@\n 1\n-2\n+B\n 3\n 4\n 5\n 6\n-7\n+G\n 8\n",
		},
		{
			name: "insertion only",
			a:    "a\nb\n",
			b:    "a\nnew\nb\n",
			want: "--- a/f\n+++ b/f\n@@ -1,2 +1,3 @@\n a\n+new\n b\n",
		},
		{
			name: "into an empty file",
			a:    "",
			b:    "x\n",
			want: "--- a/f\n+++ b/f\n@@ -0,0 +1 @@\n+x\n",
		},
		{
			name: "everything deleted",
			a:    "x\ny\n",
			b:    "",
			want: "--- a/f\n+++ b/f\n@@ -1,2 +0,0 @@\n-x\n-y\n",
		},
		{
			name: "no newline at the end",
			a:    "a\nb",
			b:    "a\nc",
			want: "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n",
		},
		{
			name: "newline added at the end",
			a:    "a\nb",
			b:    "a\nb\n",
			want: "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Unified("a/f", "b/f", []byte(tt.a), []byte(tt.b)); got != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

// Applying the edit script of random inputs gives b back, and the script is
// no longer than the trivial one (delete all, insert all).
func TestDiffRoundTrip(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	gen := func() []string {
		n := r.Intn(30)
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprint(r.Intn(5))
		}
		return out
	}
	for i := 0; i < 2000; i++ {
		a, b := gen(), gen()
		ops := Diff(a, b)
		var got, fromA []string
		changes := 0
		for _, op := range ops {
			switch op.Kind {
			case Equal:
				if a[op.A] != b[op.B] {
					t.Fatalf("%v -> %v: equal op on different lines", a, b)
				}
				got = append(got, a[op.A])
				fromA = append(fromA, a[op.A])
			case Delete:
				fromA = append(fromA, a[op.A])
				changes++
			case Insert:
				got = append(got, b[op.B])
				changes++
			}
		}
		if strings.Join(got, ",") != strings.Join(b, ",") || strings.Join(fromA, ",") != strings.Join(a, ",") {
			t.Fatalf("%v -> %v: script gives %v (from a: %v)", a, b, got, fromA)
		}
		if changes > len(a)+len(b) {
			t.Fatalf("%v -> %v: %d changes", a, b, changes)
		}
	}
}

// Two unrelated large inputs stay cheap: past maxSteps the middle is replaced whole.
func TestDiffBounded(t *testing.T) {
	var a, b []string
	for i := 0; i < 5000; i++ {
		a = append(a, fmt.Sprintf("a%d\n", i))
		b = append(b, fmt.Sprintf("b%d\n", i))
	}
	ops := Diff(a, b)
	if len(ops) != 10000 {
		t.Fatalf("%d ops, want 10000", len(ops))
	}
}

// A minimal script: one changed line in a long file is one delete and one insert.
func TestDiffMinimal(t *testing.T) {
	a := Lines(strings.Repeat("x\n", 50) + "old\n" + strings.Repeat("y\n", 50))
	b := Lines(strings.Repeat("x\n", 50) + "new\n" + strings.Repeat("y\n", 50))
	n := 0
	for _, op := range Diff(a, b) {
		if op.Kind != Equal {
			n++
		}
	}
	if n != 2 {
		t.Errorf("%d changes, want 2", n)
	}
}
