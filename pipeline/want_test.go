package pipeline

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/kubeletcfg/kubeletcfg/skew"
	"github.com/kubeletcfg/kubeletcfg/source"
	"github.com/kubeletcfg/kubeletcfg/validate"
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
// A case carries expectations when it has at least one `# want` comment or a
// want list (even an empty one). The test fails when an expectation has no
// matching finding and, in a case that carries expectations, when an error or
// warning finding has no matching expectation. Info findings are never
// unexpected. Matching is by (file, line, rule); several findings of one rule
// on one line are covered by one expectation.

var (
	// wantCommentRE finds `# want KC1234 [KC5678...]` at the end of a line.
	wantCommentRE = regexp.MustCompile(`#\s*want\s+((KC\d{4}\s*)+)$`)
	// wantListCommentRE finds the commented want list in case.yaml.
	wantListCommentRE = regexp.MustCompile(`^\s*#\s*(want\s*:.*)$`)
	// wantEntryRE parses one want list entry.
	wantEntryRE = regexp.MustCompile(`^\s*(.+?)(?::(\d+))?:\s*((?:KC\d{4}\s*)+)$`)
	ruleIDRE    = regexp.MustCompile(`KC\d{4}`)
)

// defaultsFile is the pseudo path of findings that point at no file.
const defaultsFile = "(defaults)"

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

// caseExpectations collects the expectations of one case folder. annotated is
// true when the case states its expectations (even "none").
func caseExpectations(dir string) (exps []expectation, annotated bool, err error) {
	// case.yaml: the want list, as a comment or as a key.
	if raw, rerr := os.ReadFile(filepath.Join(dir, "case.yaml")); rerr == nil {
		var key struct {
			Want *[]string `json:"want"`
		}
		if err := yaml.Unmarshal(raw, &key); err != nil {
			return nil, false, fmt.Errorf("case.yaml: %w", err)
		}
		var lists [][]string
		if key.Want != nil {
			lists = append(lists, *key.Want)
		}
		for i, line := range splitLines(raw) {
			m := wantListCommentRE.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			var c struct {
				Want *[]string `json:"want"`
			}
			if err := yaml.Unmarshal([]byte(m[1]), &c); err != nil || c.Want == nil {
				return nil, false, fmt.Errorf("case.yaml:%d: bad want list %q: %v", i+1, m[1], err)
			}
			lists = append(lists, *c.Want)
		}
		for _, list := range lists {
			annotated = true
			for _, entry := range list {
				m := wantEntryRE.FindStringSubmatch(entry)
				if m == nil {
					return nil, false, fmt.Errorf("case.yaml: bad want entry %q (want \"path[:line]: KCxxxx\")", entry)
				}
				line := 0
				if m[2] != "" {
					line, _ = strconv.Atoi(m[2])
				}
				for _, rule := range ruleIDRE.FindAllString(m[3], -1) {
					exps = append(exps, expectation{File: filepath.ToSlash(filepath.Clean(m[1])), Line: line, Rule: rule, From: "case.yaml"})
				}
			}
		}
	} else if !errors.Is(rerr, fs.ErrNotExist) {
		return nil, false, rerr
	}

	// `# want` comments in every other regular file of the case (symlinks are
	// not followed: a comment belongs to the file that holds it).
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() || path == filepath.Join(dir, "case.yaml") {
			return nil
		}
		raw, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		for i, line := range splitLines(raw) {
			m := wantCommentRE.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			annotated = true
			for _, rule := range ruleIDRE.FindAllString(m[1], -1) {
				exps = append(exps, expectation{File: rel, Line: i + 1, Rule: rule, From: fmt.Sprintf("%s:%d", rel, i+1)})
			}
		}
		return nil
	})
	return exps, annotated, err
}

// splitLines splits on \n and drops a trailing \r, so that line numbers are the
// ones a YAML parser reports for LF and CRLF files alike.
func splitLines(raw []byte) []string {
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	for sc.Scan() {
		out = append(out, strings.TrimSuffix(sc.Text(), "\r"))
	}
	return out
}

// findingFile is the finding's file relative to the case folder.
func findingFile(dir string, f validate.Finding) string {
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
	minor := skew.Newest()
	for _, name := range wantCases(t) {
		dir, err := filepath.Abs(filepath.Join(corpus, "cases", name))
		if err != nil {
			t.Fatal(err)
		}
		t.Run(name, func(t *testing.T) {
			exps, annotated, err := caseExpectations(dir)
			if err != nil {
				t.Fatalf("reading expectations: %v", err)
			}
			in, meta := caseInput(t, dir)
			got, err := Evaluate(minor, in)
			if err != nil {
				var ie *source.InputError
				if !annotated && errors.As(err, &ie) {
					t.Skipf("input error, no expectations: %v", err)
				}
				t.Fatalf("Evaluate: %v", err)
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
					if f.Severity == validate.Info {
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
				t.Errorf("case: %s\n  %s\nall findings:\n%s", meta.Description, strings.Join(problems, "\n  "), dumpRel(dir, got.Findings))
			}
		})
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

func dumpRel(dir string, fs []validate.Finding) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "  %s:%d:%d %s %s %s\n", findingFile(dir, f), f.Line, f.Column, f.Severity, f.Rule, f.Message)
	}
	return b.String()
}
