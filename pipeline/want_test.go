package pipeline

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/finding"
	testcorpus "github.com/kubeletcfg/kubeletcfg/internal/corpus"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/source"
)

// TestWant checks WHICH rule fires WHERE, in the spirit of
// golang.org/x/tools/go/analysis/analysistest. Expectations live next to the
// input they are about:
//
//   - a YAML comment at the end of a line of a config file (main file or
//     drop-in):
//
//     maxPods: -1 # want KC4025
//     maxSeconds: 30 # want KC1101 KC6001
//
//     means: a finding of each rule is reported on that line of that file.
//
//   - a list in case.yaml, for files that cannot carry comments (JSON, BOM,
//     CRLF, tabs, deliberately broken syntax) and for findings with no sensible
//     line (an empty file, an ignored non-.conf file). The conformance harness
//     decodes case.yaml strictly, so the list is written as a comment:
//
//     # want: ["kubelet.json:1: KC1101", "conf.d/README: KC2001"]
//
//     Each entry is "<path relative to the case folder>[:<line>]: KCxxxx [KCyyyy...]".
//     Without a line the entry matches a finding of that rule anywhere in that
//     file. "(defaults)" as the path names findings that point at no file.
//     A plain `want:` key is accepted as well, should the harness learn it.
//
//     "# want: []" marks a case that expects no error or warning at all.
//
//   - the same for the Windows kubelet: `# want-windows KC5102` at the end of
//     a line (after a `# want` on the same line, or before it), and
//     `# want-windows: [...]` in case.yaml. A case that states them is
//     evaluated again as a Windows node (Input.OS) and checked the same way;
//     `# want` and `# want-windows` are independent (either may be absent).
//
// A case carries expectations when it has at least one `# want` comment or a
// want list (even an empty one). The test fails when an expectation has no
// matching finding and, in a case that carries expectations, when an error or
// warning finding has no matching expectation. Info findings are never
// unexpected. Matching is by (file, line, rule); several findings of one rule
// on one line are covered by one expectation.

// defaultsFile is the pseudo path of findings that point at no file.
const defaultsFile = testcorpus.Defaults

type expectation struct {
	File string // relative to the case folder, slash-separated
	Line int    // 0: anywhere in File
	Rule string
	From string // where the expectation was written, for messages
}

func (e expectation) String() string {
	if e.Line == 0 {
		return fmt.Sprintf("%s: %s", e.File, e.Rule)
	}
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Rule)
}

func (e expectation) matches(file string, line int, rule string) bool {
	return e.Rule == rule && e.File == file && (e.Line == 0 || e.Line == line)
}

// caseExpectations collects the Linux kubelet's expectations of one case
// folder (read by internal/corpus, one per rule). annotated is true when the
// case states its expectations (even "none").
func caseExpectations(dir string) (exps []expectation, annotated bool, err error) {
	return caseExpectationsOn(dir, kubelets.Linux)
}

// caseExpectationsOn is caseExpectations for the kubelet of one OS.
func caseExpectationsOn(dir string, nodeOS kubelets.OS) (exps []expectation, annotated bool, err error) {
	wants, annotated, err := testcorpus.WantsOn(dir, nodeOS == kubelets.Windows)
	if err != nil {
		return nil, false, err
	}
	for _, w := range wants {
		from := "case.yaml"
		if !w.InCaseYAML {
			from = fmt.Sprintf("%s:%d", w.File, w.Line)
		}
		for _, rule := range w.Rules {
			exps = append(exps, expectation{File: w.File, Line: w.Line, Rule: rule, From: from})
		}
	}
	return exps, annotated, nil
}

// findingFile is the finding's file relative to the case folder.
func findingFile(dir string, f finding.Finding) string {
	if f.File == "" {
		return defaultsFile
	}
	if rel, err := filepath.Rel(dir, f.File); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(f.File)
}

func wantCases(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(corpus, "cases"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	if len(names) == 0 {
		t.Fatal("no conformance cases")
	}
	return names
}

func TestWant(t *testing.T) {
	minor := kubelets.Default()
	windows := 0
	for _, name := range wantCases(t) {
		dir, err := filepath.Abs(filepath.Join(corpus, "cases", name))
		if err != nil {
			t.Fatal(err)
		}
		t.Run(name, func(t *testing.T) {
			checkWants(t, minor, dir, kubelets.Linux)
			if _, annotated, _ := caseExpectationsOn(dir, kubelets.Windows); annotated {
				windows++
				checkWants(t, minor, dir, kubelets.Windows)
			}
		})
	}
	t.Logf("%d cases state the Windows kubelet's expectations", windows)
}

// checkWants checks a case's expectations for the kubelet of one OS: the case
// evaluated as a node of that OS reports each, and, where the case states them,
// no other error or warning.
func checkWants(t *testing.T, minor *kubelets.Minor, dir string, nodeOS kubelets.OS) {
	t.Helper()
	exps, annotated, err := caseExpectationsOn(dir, nodeOS)
	if err != nil {
		t.Fatalf("reading expectations: %v", err)
	}
	in, meta := caseInput(t, dir)
	in.OS = nodeOS
	on := ""
	if nodeOS == kubelets.Windows {
		on = " (windows)"
	}
	got, err := Evaluate(minor, in)
	if err != nil {
		var ie *source.InputError
		if !annotated && errors.As(err, &ie) {
			t.Skipf("input error, no expectations: %v", err)
		}
		t.Fatalf("Evaluate%s: %v", on, err)
	}
	var problems []string
	for _, e := range exps {
		found := false
		for _, f := range got.Findings {
			if e.matches(findingFile(dir, f), f.Line, f.Rule) {
				found = true
				break
			}
		}
		if !found {
			problems = append(problems, fmt.Sprintf("missing:    %s (expected at %s)", e, e.From))
		}
	}
	if annotated {
		for _, f := range got.Findings {
			if f.Severity == finding.Info {
				continue
			}
			file := findingFile(dir, f)
			expected := false
			for _, e := range exps {
				if e.matches(file, f.Line, f.Rule) {
					expected = true
					break
				}
			}
			if !expected {
				problems = append(problems, fmt.Sprintf("unexpected: %s:%d: %s %s %s", file, f.Line, f.Severity, f.Rule, f.Message))
			}
		}
	}
	if len(problems) > 0 {
		t.Errorf("case%s: %s\n  %s\nall findings:\n%s", on, meta.Description, strings.Join(problems, "\n  "), dumpRel(dir, got.Findings))
	}
}

// TestWantCoverage keeps the corpus annotated: at least 90% of the cases must
// state their expectations.
func TestWantCoverage(t *testing.T) {
	names := wantCases(t)
	annotated, expectations := 0, 0
	var missing []string
	for _, name := range names {
		exps, ok, err := caseExpectations(filepath.Join(corpus, "cases", name))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		expectations += len(exps)
		if ok {
			annotated++
		} else {
			missing = append(missing, name)
		}
	}
	t.Logf("%d/%d cases carry expectations (%d expectations); without: %s", annotated, len(names), expectations, strings.Join(missing, ", "))
	if annotated*10 < len(names)*9 {
		t.Errorf("only %d of %d cases carry expectations; at least 90%% must", annotated, len(names))
	}
}

func dumpRel(dir string, fs []finding.Finding) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "  %s:%d:%d %s %s %s\n", findingFile(dir, f), f.Line, f.Column, f.Severity, f.Rule, f.Message)
	}
	return b.String()
}
