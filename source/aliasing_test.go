package source

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"sigs.k8s.io/yaml"
)

// TestExcessiveAliasing: wherever excessiveAliasing says so, yaml.YAMLToJSON
// fails with exactly its error, on every testdata input, the hostile shapes
// and generated alias and merge bombs on both sides of yaml/v2's limits; and
// it says so for most of the bombs YAMLToJSON refuses.
func TestExcessiveAliasing(t *testing.T) {
	inputs := append(corpusInputs(t), hostileInputs()...)
	inputs = append(inputs, aliasBombs()...)
	edges := aliasEdges(t)
	inputs = append(inputs, edges...)
	said, refused := 0, 0
	for i, data := range inputs {
		got := excessiveAliasing(Parse("x.yaml", data))
		_, err := yaml.YAMLToJSON(data)
		isExcessive := err != nil && err.Error() == errExcessiveAliasing.Error()
		if got && !isExcessive {
			t.Errorf("%.300q: excessive aliasing, yet YAMLToJSON says %v", data, err)
		}
		if i >= len(inputs)-len(edges) && got != isExcessive {
			t.Errorf("%.300q: at the limit, excessive aliasing is %v, YAMLToJSON says %v", data, got, err)
		}
		if got {
			said++
		}
		if isExcessive {
			refused++
		}
	}
	if refused < 50 || said < refused*9/10 {
		t.Errorf("excessiveAliasing finds %d of the %d documents YAMLToJSON refuses for aliasing", said, refused)
	}
}

// aliasBombs are documents of anchored maps and lists aliased and merged at
// random widths and depths, from far below yaml/v2's alias limits to far above.
func aliasBombs() [][]byte {
	r := rand.New(rand.NewPCG(7, 3))
	var out [][]byte
	for range 150 {
		var b strings.Builder
		b.WriteString(header)
		width, levels := 1+r.IntN(12), 1+r.IntN(6)
		fmt.Fprintf(&b, "a0: &a0 {")
		for j := range 1 + r.IntN(20) {
			fmt.Fprintf(&b, "k%d: %d, ", j, j)
		}
		b.WriteString("z: x}\n")
		merge := r.IntN(3) == 0
		for l := 1; l <= levels; l++ {
			refs := strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*a%d, ", l-1), width), ", ")
			switch {
			case merge && r.IntN(2) == 0:
				fmt.Fprintf(&b, "a%d: &a%d {<<: [%s], own%d: 1}\n", l, l, refs, l)
			case merge:
				fmt.Fprintf(&b, "a%d: &a%d {<<: *a%d, x%d: [%s]}\n", l, l, l-1, l, refs)
			default:
				fmt.Fprintf(&b, "a%d: &a%d [%s]\n", l, l, refs)
			}
		}
		b.WriteString("reservedMemory:\n")
		for range r.IntN(2000) {
			fmt.Fprintf(&b, "- *a%d\n", r.IntN(levels+1))
		}
		if r.IntN(4) == 0 {
			b.WriteString("tail: {t0: 1, t1: [1, 2, 3]}\n")
		}
		out = append(out, []byte(b.String()))
	}
	return out
}

// aliasEdges are bombs at yaml/v2's limit: for each shape, the documents with
// one plain key fewer and more than the fewest that YAMLToJSON still accepts,
// so that a replay that counts one node more or less than yaml/v2 disagrees.
func aliasEdges(t *testing.T) [][]byte {
	t.Helper()
	docs, err := aliasEdgeDocs()
	if err != nil {
		t.Fatal(err)
	}
	return docs
}

// aliasEdgeDocs finds the documents of aliasEdges once for the tests that use them.
var aliasEdgeDocs = sync.OnceValues(func() ([][]byte, error) {
	shapes := []func(plain int) string{
		// a list of lists aliased
		func(plain int) string {
			return plainKeys(plain) + "a: &a [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
		},
		// merge keys over a list of aliases, a single alias and an inline map
		func(plain int) string {
			return plainKeys(plain) + "a: &a {k0: 1, k1: 2, k2: 3, k3: 4, k4: 5, k5: 6, k6: 7, k7: 8, k8: 9, k9: 0}\nb: &b {<<: [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a], own: 1}\nc: &c {<<: *b, x: {<<: {y: 1}}}\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\n"
		},
		// maps of maps aliased under keys
		func(plain int) string {
			return plainKeys(plain) + "a: &a {k0: {x: 1, y: [1, 2]}, k1: {x: 2}, k2: 3}\nb: &b {p: *a, q: *a, r: *a, s: *a, t: *a, u: *a, v: *a, w: *a}\nc: &c {p: *b, q: *b, r: *b, s: *b, t: *b, u: *b, v: *b, w: *b, z: *b}\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
		},
	}
	refused := func(doc string) bool {
		_, err := yaml.YAMLToJSON([]byte(doc))
		return err != nil && err.Error() == errExcessiveAliasing.Error()
	}
	var out [][]byte
	for i, shape := range shapes {
		lo, hi := 0, 4000 // refused with lo plain keys, accepted with hi
		if !refused(shape(lo)) || refused(shape(hi)) {
			return nil, fmt.Errorf("shape %d: not refused with %d plain keys or refused with %d", i, lo, hi)
		}
		for hi-lo > 1 {
			mid := (lo + hi) / 2
			if refused(shape(mid)) {
				lo = mid
			} else {
				hi = mid
			}
		}
		for _, n := range []int{lo - 1, lo, hi, hi + 1} {
			out = append(out, []byte(shape(n)))
		}
	}
	return out, nil
})

// plainKeys is n keys of a map at the top of a document, decoded without aliases.
func plainKeys(n int) string {
	var b strings.Builder
	b.WriteString("p: {")
	for i := range n {
		fmt.Fprintf(&b, "p%d: 1, ", i)
	}
	b.WriteString("z: 1}\n")
	return b.String()
}
