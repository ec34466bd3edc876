package fuzzcase

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/internal/corpus"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

func generator(t *testing.T, v string) *Generator {
	t.Helper()
	m, err := kubelets.Lookup(v)
	if err != nil {
		t.Fatal(err)
	}
	g, err := New(m)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestDeterministic(t *testing.T) {
	g := generator(t, "1.37")
	same, differ := 0, 0
	for i := 0; i < 50; i++ {
		a, b := g.Case(7, i), g.Case(7, i)
		if !equalFiles(a, b) {
			t.Fatalf("case %d of seed 7 differs between two runs", i)
		}
		if equalFiles(a, g.Case(8, i)) {
			same++
		} else {
			differ++
		}
	}
	if differ < 45 {
		t.Errorf("seeds 7 and 8 wrote the same case %d times out of 50", same)
	}
}

func equalFiles(a, b []File) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || !bytes.Equal(a[i].Data, b[i].Data) {
			return false
		}
	}
	return true
}

var topKey = regexp.MustCompile(`(?m)^([A-Za-z][A-Za-z0-9]*):`)

// TestCoverage checks that the cases contain what the issue asks for: valid and
// wrongly typed values, case variants of keys, nulls, unknown, locked and
// removed gates, 0-3 drop-ins with and without a header, fields only some
// minors have, values at and past a bound.
func TestCoverage(t *testing.T) {
	for _, v := range []string{"1.31", "1.37"} {
		t.Run(v, func(t *testing.T) {
			g := generator(t, v)
			tree := g.minor.Fields()
			seen := map[string]bool{}
			for i := 0; i < 400; i++ {
				dropins := 0
				for _, f := range g.Case(1, i) {
					text := string(f.Data)
					if strings.HasPrefix(f.Name, "conf.d/") {
						dropins++
						if !strings.Contains(text, "kind:") {
							seen["drop-in without a header"] = true
						}
					}
					if f.Name == "case.yaml" {
						continue
					}
					for _, m := range topKey.FindAllStringSubmatch(text, -1) {
						switch c, exact := tree.Child(m[1]); {
						case c != nil && !exact:
							seen["case variant of a key"] = true
						case c == nil && g.others[""][m[1]] != nil:
							seen["a field only other minors have"] = true
						case c == nil:
							seen["unknown key"] = true
						}
					}
					for _, want := range []struct{ name, re string }{
						{"null", `: (null|~)\n`},
						{"int32 maximum", `: 2147483647\n`},
						{"past the int32 maximum", `: 2147483648\n`},
						{"negative duration", `: "-1s"\n`},
						{"unknown gate", `NoSuchGate:`},
						{"wrongly typed boolean", `(?m)^  [A-Za-z]+: "true"\n`},
					} {
						if regexp.MustCompile(want.re).MatchString(text) {
							seen[want.name] = true
						}
					}
					for _, set := range []struct {
						name  string
						gates []string
					}{{"locked gate", g.locked}, {"gate this minor does not register", g.foreign}} {
						for _, gate := range set.gates {
							if strings.Contains(text, "\n  "+gate+":") {
								seen[set.name] = true
							}
						}
					}
				}
				seen[[]string{"0 drop-ins", "1 drop-in", "2 drop-ins", "3 drop-ins"}[dropins]] = true
			}
			want := []string{"0 drop-ins", "1 drop-in", "2 drop-ins", "3 drop-ins", "drop-in without a header",
				"case variant of a key", "unknown key", "null", "int32 maximum", "past the int32 maximum",
				"negative duration", "unknown gate", "wrongly typed boolean", "locked gate", "gate this minor does not register"}
			if len(g.others[""]) > 0 {
				want = append(want, "a field only other minors have")
			}
			for _, w := range want {
				if !seen[w] {
					t.Errorf("400 cases have no %s", w)
				}
			}
		})
	}
}

// TestCasesRun checks that every generated case is a case folder the corpus
// reader accepts and that kubeletcfg evaluates without crashing.
func TestCasesRun(t *testing.T) {
	for _, v := range []string{"1.31", "1.37"} {
		g := generator(t, v)
		dir := t.TempDir()
		if err := g.Write(dir, 3, 100); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 100; i++ {
			cdir := filepath.Join(dir, fmt.Sprintf("%04d", i))
			for _, d := range CompareCase(g.minor, "", cdir, corpus.Golden{}) {
				switch d.Class {
				case "kubeletcfg crashed", "unreadable case", "kubeletcfg failed":
					t.Errorf("%s case %d: %s", v, i, d)
				}
			}
		}
	}
}

// TestCompare checks the comparer on a corpus case: its own golden agrees, a
// golden that says otherwise is a disagreement of the right class.
func TestCompare(t *testing.T) {
	m := kubelets.Default()
	src := filepath.Join("..", "..", "testdata", "conformance")
	dir := t.TempDir()
	cases, golden := filepath.Join(dir, "cases"), filepath.Join(dir, "golden")
	for _, name := range []string{"001-minimal-valid", "002-json-main-file"} {
		if err := os.CopyFS(filepath.Join(cases, name), os.DirFS(filepath.Join(src, "cases", name))); err != nil {
			t.Fatal(err)
		}
		raw, err := os.ReadFile(filepath.Join(src, "golden", m.Version, name+".json"))
		if err != nil {
			t.Fatal(err)
		}
		if name == "002-json-main-file" {
			// The kubelet, says this golden, refuses.
			raw = bytes.Replace(raw, []byte(`"starts": true`), []byte(`"starts": false`), 1)
		}
		if err := os.MkdirAll(golden, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(golden, name+".json"), raw, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rep, err := Compare(m, "", cases, golden)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Cases != 2 || rep.Disagreeing != 1 || len(rep.Classes) != 1 {
		t.Fatalf("report %+v, want 2 cases, 1 disagreeing, 1 class", rep)
	}
	c := rep.Classes[0]
	if c.Name != "verdict: kubeletcfg starts, the kubelet refuses at ok" || len(c.Cases) != 1 || c.Cases[0] != "002-json-main-file" {
		t.Errorf("class %q cases %v", c.Name, c.Cases)
	}
	var out bytes.Buffer
	rep.Write(&out)
	if !strings.Contains(out.String(), "1 × verdict: kubeletcfg starts") || !strings.Contains(out.String(), "2 cases, 1 agree, 1 disagree") {
		t.Errorf("report text:\n%s", out.String())
	}
}
