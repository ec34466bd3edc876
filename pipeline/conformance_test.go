package pipeline_test

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/finding"
	testcorpus "github.com/kubeletcfg/kubeletcfg/internal/corpus"
	"github.com/kubeletcfg/kubeletcfg/internal/fuzzcase"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
	"github.com/kubeletcfg/kubeletcfg/source"
)

// The conformance corpus: every case under testdata/conformance/cases has, per
// kubelet minor, a golden recorded by running the real kubelet code on it
// (conformance/harness). kubeletcfg must agree with every golden, compared as
// internal/fuzzcase compares (fuzzcase.Outcome, testcorpus.Compare).

func TestConformance(t *testing.T) {
	for _, v := range kubelets.Supported() {
		minor, _ := kubelets.Lookup(v)
		t.Run(v, func(t *testing.T) { conformance(t, minor, kubelets.Linux) })
	}
}

// TestConformanceWindows: the same corpus, as the Windows kubelet (the harness
// cross-built for Windows, run under Wine: golden-windows/<minor>) does with
// it, at the minors recorded so far.
func TestConformanceWindows(t *testing.T) {
	recorded := 0
	for _, v := range kubelets.Supported() {
		minor, _ := kubelets.Lookup(v)
		if _, err := os.Stat(filepath.Join(pipeline.Corpus, "golden-windows", v)); err != nil {
			continue
		}
		recorded++
		t.Run(v, func(t *testing.T) { conformance(t, minor, kubelets.Windows) })
	}
	if recorded == 0 {
		t.Fatal("no Windows goldens (testdata/conformance/golden-windows/<minor>)")
	}
}

func conformance(t *testing.T, minor *kubelets.Minor, nodeOS kubelets.OS) {
	folder := "golden"
	if nodeOS == kubelets.Windows {
		folder = "golden-windows"
	}
	goldens, _ := filepath.Glob(filepath.Join(pipeline.Corpus, folder, minor.Version, "*.json"))
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
		dir, err := filepath.Abs(filepath.Join(pipeline.Corpus, "cases", name))
		if err != nil {
			t.Fatal(err)
		}
		ok := t.Run(name, func(t *testing.T) {
			in, meta := pipeline.CaseInput(t, dir)
			in.OS = nodeOS
			got, err := pipeline.Evaluate(minor, in)
			var o testcorpus.Outcome
			if err != nil {
				var ie *source.InputError
				if !errors.As(err, &ie) {
					t.Fatalf("input error: %v", err)
				}
				o.InputError = err
			} else if o, err = fuzzcase.Outcome(got, dir); err != nil {
				t.Fatal(err)
			}
			for _, d := range testcorpus.Compare(want, o) {
				t.Errorf("%s\ncase: %s\nkubelet: %s\nfindings:\n%s", d, meta.Description, want.Error, dumpResult(got))
			}
			if got != nil {
				checkGateQuotes(t, want.Error, got.Findings, "case: "+meta.Description+"\nkubelet: "+want.Error)
			}
		})
		if ok {
			agree++
		}
	}
	t.Logf("kubelet %s (%s): %d/%d cases agree with the real kubelet", minor.Version, nodeOS, agree, len(goldens))
}

// gateItemRE matches one item of featuregate's SetFromMap error (as in the
// harness's golden.go).
var gateItemRE = regexp.MustCompile(`[A-Za-z0-9]+ is enabled, but depends on features that are disabled: \[[A-Za-z0-9 ]*\]|` +
	`cannot set feature gate [A-Za-z0-9]+ to (?:true|false), feature is (?:locked to (?:true|false)|PreAlpha at emulated version [0-9.]+, min compatibility version [0-9.]+)|` +
	`unrecognized feature gate: [^\s,\]]+`)

// checkGateQuotes: every feature-gate item of the kubelet's error is quoted, with
// the kubelet's own prefix, by exactly the finding for that gate, so no finding
// quotes another gate's error (the kubelet names gates in map order).
func checkGateQuotes(t *testing.T, kubelet string, fs []finding.Finding, ctx string) {
	t.Helper()
	locs := gateItemRE.FindAllStringIndex(kubelet, -1)
	if len(locs) == 0 {
		return
	}
	prefix := strings.TrimSuffix(kubelet[:locs[0][0]], "[")
	for _, loc := range locs {
		item := kubelet[loc[0]:loc[1]]
		found := false
		for _, f := range fs {
			if f.Kubelet == prefix+item {
				found = true
			}
		}
		if !found {
			t.Errorf("no finding quotes the kubelet's %q\n%s\nfindings:\n%s", prefix+item, ctx, dumpQuotes(fs))
		}
	}
	for _, f := range fs {
		if strings.HasPrefix(f.Path, "featureGates[") && f.Kubelet != "" && !strings.Contains(f.Kubelet, strings.TrimSuffix(strings.TrimPrefix(f.Path, "featureGates["), "]")) &&
			f.Rule != pipeline.GateDependency.ID {
			t.Errorf("the finding for %s quotes another gate: %s", f.Path, f.Kubelet)
		}
	}
}

func dumpQuotes(fs []finding.Finding) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString("  " + f.Rule + " " + f.Path + ": " + f.Kubelet + "\n")
	}
	return b.String()
}

func dumpResult(r *pipeline.Result) string {
	if r == nil {
		return ""
	}
	return pipeline.Dump(r.Findings)
}

// fixesRE is a case.yaml comment naming the case this one is with its first
// fatal mistake removed.
var fixesRE = regexp.MustCompile(`(?m)^# fixes: (\S+)\s*$`)

// TestBehindIsNext checks the order of kubeletcfg's Behind findings against the
// real kubelet: a case marked "# fixes: X" is X with the mistake the kubelet
// stops at removed, so where the kubelet's error changes, the golden of the
// fixed case names one of the findings that were Behind X's first error, or
// one that was not behind anything (the kubelet names one of several errors at
// random, or several at once); or it starts, and X had nothing behind.
func TestBehindIsNext(t *testing.T) {
	cases, _ := filepath.Glob(filepath.Join(pipeline.Corpus, "cases", "*", "case.yaml"))
	pairs, checked := 0, 0
	for _, meta := range cases {
		raw, err := os.ReadFile(meta)
		if err != nil {
			t.Fatal(err)
		}
		m := fixesRE.FindSubmatch(raw)
		if m == nil {
			continue
		}
		fixed, orig := filepath.Base(filepath.Dir(meta)), string(m[1])
		pairs++
		for _, v := range kubelets.Supported() {
			minor, _ := kubelets.Lookup(v)
			t.Run(fixed+"/"+v, func(t *testing.T) {
				wantOrig, err := testcorpus.ReadGolden(filepath.Join(pipeline.Corpus, "golden", v, orig+".json"))
				if err != nil {
					t.Fatal(err)
				}
				wantFixed, err := testcorpus.ReadGolden(filepath.Join(pipeline.Corpus, "golden", v, fixed+".json"))
				if err != nil {
					t.Fatal(err)
				}
				if wantOrig.Starts || wantFixed.Error == wantOrig.Error {
					return // the removed mistake is not what stops this kubelet
				}
				checked++
				dir, _ := filepath.Abs(filepath.Join(pipeline.Corpus, "cases", orig))
				in, _ := pipeline.CaseInput(t, dir)
				got, err := pipeline.Evaluate(minor, in)
				if err != nil {
					t.Fatal(err)
				}
				front := ""
				for _, f := range got.Findings {
					if f.Severity == finding.Error && f.Behind == "" {
						front = f.Rule
						break
					}
				}
				var next, behind []finding.Finding
				for _, f := range got.Findings {
					if f.Severity == finding.Error && (f.Behind == front || f.Behind == "") {
						next = append(next, f)
					}
					if f.Severity == finding.Error && f.Behind != "" {
						behind = append(behind, f)
					}
				}
				if wantFixed.Starts {
					if len(behind) > 0 {
						t.Errorf("%s without its first mistake starts, but kubeletcfg lists errors behind %s:\n%s", orig, front, dumpQuotes(behind))
					}
					return
				}
				for _, f := range next {
					if f.Kubelet != "" && strings.Contains(wantFixed.Error, f.Kubelet) {
						return
					}
				}
				t.Errorf("%s without its first mistake (%s): the kubelet reports\n  %s\nwhich none of the errors behind %s quotes:\n%s", orig, fixed, wantFixed.Error, front, dumpQuotes(next))
			})
		}
	}
	t.Logf("%d pairs of cases, %d (pair, minor) where the removed mistake stopped the kubelet", pairs, checked)
	if checked < pairs {
		t.Fatalf("only %d of %d pairs compared at any minor", checked, pairs)
	}
}
