package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestIndentJSON: indentJSON gives json.Indent's bytes for what json.Marshal
// writes: every JSON document among the command's and the corpus's goldens,
// and generated values with empty and nested objects and lists, and strings
// full of brackets, commas, colons, quotes, backslashes and non-ASCII text.
func TestIndentJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	check := func(name string, v any) {
		t.Helper()
		compact, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		if err := json.Indent(&want, compact, "", "  "); err != nil {
			t.Fatal(err)
		}
		if got := indentJSON(compact); !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("%s:\n%s\nwant\n%s", name, got, want.Bytes())
		}
		// Written in pieces cut anywhere, through a writer that takes little
		// at a time, it is the same.
		var out bytes.Buffer
		x := &indenter{w: &out}
		for rest := compact; len(rest) > 0; {
			n := min(len(rest), 1+rng.IntN(7))
			x.Write(rest[:n])
			rest = rest[n:]
		}
		if x.flush(true); !bytes.Equal(out.Bytes(), want.Bytes()) {
			t.Fatalf("%s written in pieces:\n%s\nwant\n%s", name, out.Bytes(), want.Bytes())
		}
	}
	var files []string
	for _, glob := range []string{"../cmd/kubeletcfg/testdata/*.golden", "../testdata/conformance/golden/1.37/*.json", "testdata/*"} {
		m, _ := filepath.Glob(glob)
		files = append(files, m...)
	}
	docs := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		// A golden may hold a JSON document after the command line.
		if i := bytes.IndexAny(data, "{["); i >= 0 {
			var v any
			if json.Unmarshal(data[i:], &v) == nil {
				check(f, v)
				docs++
			}
		}
	}
	if docs < 50 {
		t.Errorf("only %d JSON documents among %d goldens", docs, len(files))
	}

	texts := []string{"", "a", `"`, `\`, `{`, `}`, `[`, `]`, `,`, `:`, `\"`, `"\`, "é", "日本", "\u2028", "<&>", "\x01", " ", "a, b: [c]"}
	var gen func(depth int) any
	gen = func(depth int) any {
		switch n := rng.IntN(8); {
		case depth > 4 || n == 0:
			return strings.Repeat(texts[rng.IntN(len(texts))], rng.IntN(3)) + texts[rng.IntN(len(texts))]
		case n == 1:
			return rng.Float64() * 1000
		case n == 2:
			return n%2 == 0
		case n == 3:
			return nil
		case n < 6:
			m := map[string]any{}
			for range rng.IntN(4) {
				m[texts[rng.IntN(len(texts))]+fmt.Sprint(rng.IntN(9))] = gen(depth + 1)
			}
			return m
		default:
			l := []any{}
			for range rng.IntN(4) {
				l = append(l, gen(depth+1))
			}
			return l
		}
	}
	for i := range 3000 {
		check(fmt.Sprintf("generated value %d", i), gen(0))
	}
}

// BenchmarkIndentJSON compares indentJSON with json.Indent on a document of
// many findings-like objects.
func BenchmarkIndentJSON(b *testing.B) {
	var v []any
	for i := range 20000 {
		v = append(v, map[string]any{"rule": "KC2011", "severity": "info", "file": fmt.Sprintf("conf.d/%06d.conf", i), "line": i, "path": "maxPods",
			"message": "maxPods: 10 is overridden by conf.d/x.conf:3:1 (maxPods: 20 applies)", "fixes": []any{}})
	}
	compact, _ := json.Marshal(v)
	b.Run("indentJSON", func(b *testing.B) {
		b.SetBytes(int64(len(compact)))
		for b.Loop() {
			x := &indenter{w: io.Discard}
			x.Write(compact)
			x.flush(true)
		}
	})
	b.Run("json.Indent", func(b *testing.B) {
		b.SetBytes(int64(len(compact)))
		for b.Loop() {
			var out bytes.Buffer
			out.Grow(len(compact) * 2)
			_ = json.Indent(&out, compact, "", "  ")
			io.Discard.Write(out.Bytes())
		}
	})
}

// indentJSON is src, compact JSON, indented as the indenter indents it.
func indentJSON(src []byte) []byte {
	var out bytes.Buffer
	x := &indenter{w: &out}
	x.Write(src)
	x.flush(true)
	return out.Bytes()
}
