package source

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// TestJSONOf: wherever jsonOf answers, its JSON is yaml.YAMLToJSON's, byte for
// byte, on every testdata input, the hostile shapes and generated documents
// full of the scalars yaml/v2 resolves to something else than a string.
func TestJSONOf(t *testing.T) {
	inputs := append(corpusInputs(t), hostileInputs()...)
	corpus := len(inputs)
	inputs = append(inputs, generatedDocuments(20000)...)
	proven, provenCorpus := 0, 0
	for i, data := range inputs {
		got, ok := jsonOf(Parse("x.yaml", data))
		if !ok {
			continue
		}
		proven++
		if i < corpus {
			provenCorpus++
		}
		want, err := yaml.YAMLToJSON(data)
		if err != nil || string(got) != string(want) {
			t.Errorf("%.300q:\ngot  %s\nwant %s (%v)", data, got, want, err)
		}
	}
	if provenCorpus < corpus/2 {
		t.Errorf("jsonOf answers for only %d of %d testdata inputs", provenCorpus, corpus)
	}
	if proven-provenCorpus < 500 {
		t.Errorf("jsonOf answers for only %d generated documents", proven-provenCorpus)
	}
}

// trickyScalars are scalars yaml/v2 reads as booleans, nulls, integers in
// other bases, floats, timestamps or strings, next to their look-alikes.
var trickyScalars = []string{
	"yes", "Yes", "no", "NO", "on", "Off", "y", "Y", "n", "o", "true", "True", "tRue", "FALSE", "~", "null", "Null", "nULL", "",
	"0", "00", "007", "08", "0x1F", "0X1F", "0o17", "0O17", "0b101", "0B1", "-0b1", "1e3", "1E3", "1e", "1.5", "1.", ".5", "-1", "+1", "-0",
	"1_000", "1__0", "123456789012345678", "1234567890123456789", "9223372036854775807", "18446744073709551616", "-9223372036854775808",
	"100Mi", "1.5Gi", "1Ei", "0s", "1m30s", "4h0m0s", "5%", "10.96.0.10", "1..2", "0.0.0", "2001-12-14", "2001-12-14T21:59:43.10-05:00",
	"12:30", "1:20", ".inf", "-.inf", "+.INF", ".nan", "<<", "a b", "a:b", "unix:///run/x.sock", "/var/lib/kubelet", "'q'", "'it''s'",
	"\"dq\"", "\"<&>\"", "'a\tb'", "\"a\tb\"", "'a\n\nb'", "a\n\nb", "'x\"y'", "'1'", "\"yes\"", "\"\"", "''", "!!str 1", "!!int \"1\"", "! 1", "! yes", "&a x", "|\n  lit", ">\n  fold", "x y\n  z",
}

var trickyKeys = []string{"a", "b", "A", "maxPods", "x.y", "yes", "on", "1", "\"q\"", "'a'", "\"a\"", "<<", "~", "-1", ".a", "a b"}

// generatedDocuments are n documents of mappings, lists and trickyScalars, in
// block and flow style, a fixed seed.
func generatedDocuments(n int) [][]byte {
	r := rand.New(rand.NewPCG(10, 2))
	var gen func(b *strings.Builder, depth int, indent string)
	scalar := func() string { return trickyScalars[r.IntN(len(trickyScalars))] }
	flow := func() string {
		switch r.IntN(3) {
		case 0:
			return "[" + strings.Join([]string{flowScalar(r), flowScalar(r)}, ", ") + "]"
		case 1:
			return "{" + trickyKeys[r.IntN(len(trickyKeys))] + ": " + flowScalar(r) + ", " + trickyKeys[r.IntN(len(trickyKeys))] + ": " + flowScalar(r) + "}"
		}
		return flowScalar(r)
	}
	gen = func(b *strings.Builder, depth int, indent string) {
		for range 1 + r.IntN(4) {
			key := trickyKeys[r.IntN(len(trickyKeys))]
			switch c := r.IntN(5); {
			case c == 0 && depth < 3:
				fmt.Fprintf(b, "%s%s:\n", indent, key)
				gen(b, depth+1, indent+"  ")
			case c == 1 && depth < 3:
				fmt.Fprintf(b, "%s%s:\n%s- %s\n%s- %s\n", indent, key, indent, flow(), indent, strings.ReplaceAll(scalar(), "\n", "\n"+indent+"  "))
			case c == 2:
				fmt.Fprintf(b, "%s%s: %s\n", indent, key, flow())
			default:
				fmt.Fprintf(b, "%s%s: %s\n", indent, key, strings.ReplaceAll(scalar(), "\n", "\n"+indent+"  "))
			}
		}
	}
	out := make([][]byte, 0, n)
	for range n {
		var b strings.Builder
		gen(&b, 0, "")
		out = append(out, []byte(b.String()))
	}
	return out
}

// flowScalar is a trickyScalar that fits inside a flow collection.
func flowScalar(r *rand.Rand) string {
	for {
		s := trickyScalars[r.IntN(len(trickyScalars))]
		if !strings.ContainsAny(s, "\n|>:") && !strings.HasPrefix(s, "&") {
			return s
		}
	}
}

// TestJSONOfEdgeScalars: scalars at the edges of yaml/v2's resolve rules either take
// YAMLToJSON or give its bytes (integers past int64, octal, hex, sexagesimal,
// timestamps, the many spellings of booleans and nulls, non-string keys).
func TestJSONOfEdgeScalars(t *testing.T) {
	for _, doc := range []string{
		"a: 9223372036854775808\n", "a: 9223372036854775807\n", "a: -9223372036854775808\n", "a: -9223372036854775809\n",
		"a: 0777\n", "a: 0x1F\n", "a: -0\n", "a: +5\n", "a: 1_000\n", "a: 00\n", "a: 0o17\n", "a: 0b101\n",
		"a: 123456789012345678901234567890\n", "a: 1.0\n", "a: .5\n", "a: 1e3\n", "a: 2001-12-14\n", "a: 12:30:00\n",
		"a: 190:20:30\n", "a: ~\n", "a: Null\n", "a: NULL\n", "a: nUll\n", "a: yes\n", "a: Yes\n", "a: on\n", "a: y\n", "a: n\n", "a: off\n",
		"a: .inf\n", "a: -.Inf\n", "a: .nan\n", "1: a\n", "true: a\n", "null: a\n", "~: a\n", "a: 0.\n", "a: 1:2\n", "a: 08\n", "a: 09.5\n",
		"a: - b\n", "a: [1, 2]\n", "a: {b: 1}\n", "a: 'x'\n", "a: \"x\\u0041\"\n", "a: 1 # c\n", "a: 01:02\n", "a: 1_0:2\n",
	} {
		want, werr := yaml.YAMLToJSON([]byte(doc))
		f := Parse("f.yaml", []byte(doc))
		got, ok := jsonOf(f)
		if ok && (werr != nil || string(got) != string(want)) {
			t.Errorf("%q: jsonOf %s, YAMLToJSON %s (%v)", doc, got, want, werr)
		}
	}
}
