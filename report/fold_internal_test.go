package report

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/rule"
)

// ruleByID is a rule declared outside validate (the read rules are in package
// source), registered for these tests by emitters_gen_test.go.
func ruleByID(id string) *rule.Rule {
	r, ok := rule.Lookup(id)
	if !ok {
		panic(id + " is not registered")
	}
	return r
}

func dupAt(file string, line int) finding.Finding {
	DuplicateKey := ruleByID("KC1103")
	return DuplicateKey.Atf(finding.Position{File: file, Line: line, Column: 3}, fmt.Sprintf("k%d", line), "hint", "duplicate %d", line)
}

func TestFold(t *testing.T) {
	many := func(file string, n int) []finding.Finding {
		var fs []finding.Finding
		for i := 1; i <= n; i++ {
			fs = append(fs, dupAt(file, 10+i))
		}
		return fs
	}
	t.Run("a group of FoldAbove is left whole", func(t *testing.T) {
		fs := many("a.yaml", FoldAbove)
		if got := Fold(fs); !reflect.DeepEqual(got, fs) {
			t.Errorf("Fold changed %d findings:\n%v", len(fs), got)
		}
	})
	t.Run("a larger group keeps FoldKeep and one summary", func(t *testing.T) {
		fs := many("a.yaml", 58388)
		got := Fold(fs)
		if len(got) != FoldKeep+1 {
			t.Fatalf("got %d findings, want %d", len(got), FoldKeep+1)
		}
		if !reflect.DeepEqual(got[:FoldKeep], fs[:FoldKeep]) {
			t.Errorf("the first %d are not kept as they were", FoldKeep)
		}
		s := got[FoldKeep]
		DuplicateKey := ruleByID("KC1103")
		if s.Rule != DuplicateKey.ID || s.Severity != DuplicateKey.Severity || s.Position != fs[FoldKeep].Position || s.Folded != 58388-FoldKeep {
			t.Errorf("summary %+v: want rule %s, severity %s, position %v, folded %d", s, DuplicateKey.ID, DuplicateKey.Severity, fs[FoldKeep].Position, 58388-FoldKeep)
		}
		want := "and 58,383 more duplicate key findings in this file, lines 16 to 58398 (the first 5 are shown)"
		if s.Message != want {
			t.Errorf("message %q, want %q", s.Message, want)
		}
		if n := countAll(got); n != len(fs) {
			t.Errorf("Count sums to %d, want %d", n, len(fs))
		}
	})
	t.Run("groups are per file, rule and severity, order kept", func(t *testing.T) {
		a, b := many("a.yaml", 13), many("b.yaml", 11)
		other := ruleByID("KC1101").At(finding.Position{File: "a.yaml", Line: 1, Column: 1}, "x", "unknown", "")
		regraded := dupAt("a.yaml", 100)
		regraded.Severity = finding.Error
		var fs []finding.Finding
		fs = append(fs, other)
		fs = append(fs, a...)
		fs = append(fs, regraded)
		fs = append(fs, b...)
		got := Fold(fs)
		var lines []string
		for _, f := range got {
			lines = append(lines, fmt.Sprintf("%s:%d %s %s %d", f.File, f.Line, f.Rule, f.Severity, f.Folded))
		}
		want := []string{
			"a.yaml:1 KC1101 warning 0",
			"a.yaml:11 KC1103 warning 0", "a.yaml:12 KC1103 warning 0", "a.yaml:13 KC1103 warning 0", "a.yaml:14 KC1103 warning 0", "a.yaml:15 KC1103 warning 0",
			"a.yaml:16 KC1103 warning 8",
			"a.yaml:100 KC1103 error 0",
			"b.yaml:11 KC1103 warning 0", "b.yaml:12 KC1103 warning 0", "b.yaml:13 KC1103 warning 0", "b.yaml:14 KC1103 warning 0", "b.yaml:15 KC1103 warning 0",
			"b.yaml:16 KC1103 warning 6",
		}
		if strings.Join(lines, "\n") != strings.Join(want, "\n") {
			t.Errorf("got\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
		}
		if n := countAll(got); n != len(fs) {
			t.Errorf("Count sums to %d, want %d", n, len(fs))
		}
		if fs[6].Folded != 0 || len(fs) != 26 {
			t.Errorf("Fold modified its input")
		}
	})
	t.Run("panics are kept on the summary", func(t *testing.T) {
		fs := many("a.yaml", 12)
		fs[9].Panics = true
		if s := Fold(fs)[FoldKeep]; !s.Panics {
			t.Errorf("summary %+v lost Panics", s)
		}
	})
}

func countAll(fs []finding.Finding) int {
	n := 0
	for i := range fs {
		n += fs[i].Count()
	}
	return n
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 7: "7", 999: "999", 1000: "1,000", 58380: "58,380", 1234567: "1,234,567"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}
