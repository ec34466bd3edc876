package pipeline

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	testcorpus "github.com/kubeletcfg/kubeletcfg/internal/corpus"
	"github.com/kubeletcfg/kubeletcfg/skew"
	"github.com/kubeletcfg/kubeletcfg/source"
	"github.com/kubeletcfg/kubeletcfg/validate"
)

// The conformance corpus: every case under testdata/conformance/cases has, per
// kubelet minor, a golden recorded by running the real kubelet code on it
// (conformance/harness). kubeletcfg must agree with every golden.

const corpus = "../testdata/conformance"

// caseInput reads a case folder as the harness does (internal/corpus).
func caseInput(t testing.TB, dir string) (Input, testcorpus.Case) {
	t.Helper()
	c, err := testcorpus.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	return Input{Config: c.Config, ConfigDir: c.ConfigDir, CgroupVersion: c.CgroupVersion, Flags: c.Flags}, c
}

func TestConformance(t *testing.T) {
	for _, v := range skew.Supported() {
		minor, _ := skew.Lookup(v)
		t.Run(v, func(t *testing.T) { conformance(t, minor) })
	}
}

func conformance(t *testing.T, minor *skew.Minor) {
	goldens, _ := filepath.Glob(filepath.Join(corpus, "golden", minor.Version, "*.json"))
	if len(goldens) == 0 {
		t.Fatalf("no goldens for %s", minor.Version)
	}
	agree := 0
	for _, gpath := range goldens {
		name := strings.TrimSuffix(filepath.Base(gpath), ".json")
		want, err := testcorpus.ReadGolden(gpath)
		if err != nil {
			t.Fatal(err)
		}
		dir, err := filepath.Abs(filepath.Join(corpus, "cases", name))
		if err != nil {
			t.Fatal(err)
		}
		ok := t.Run(name, func(t *testing.T) {
			in, meta := caseInput(t, dir)
			got, err := Evaluate(minor, in)
			var o testcorpus.Outcome
			if err != nil {
				var ie *source.InputError
				if !errors.As(err, &ie) {
					t.Fatalf("input error: %v", err)
				}
				o.InputError = err
			} else if o, err = got.Outcome(dir); err != nil {
				t.Fatal(err)
			}
			for _, d := range testcorpus.Compare(want, o) {
				t.Errorf("%s\ncase: %s\nkubelet: %s\nfindings:\n%s", d, meta.Description, want.Error, dumpResult(got))
			}
		})
		if ok {
			agree++
		}
	}
	t.Logf("kubelet %s: %d/%d cases agree with the real kubelet", minor.Version, agree, len(goldens))
}

func dumpResult(r *Result) string {
	if r == nil {
		return ""
	}
	return dump(r.Findings)
}

func dump(fs []validate.Finding) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString("  " + f.Position.String() + " " + f.Severity.String() + " " + f.Rule + " " + f.Message + "\n")
	}
	return b.String()
}
