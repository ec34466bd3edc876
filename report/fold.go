package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/rule"
)

// FoldKeep is how many findings of one rule in one file are shown in full when
// Fold folds the rest: a hostile file of a few hundred bytes can repeat one
// mistake tens of thousands of times (merge keys), and nobody reads past the
// first few.
const FoldKeep = 5

// FoldAbove is the largest group Fold leaves whole.
const FoldAbove = 2 * FoldKeep

// Fold returns fs with the findings of each (file, rule, severity) past the
// first FoldKeep replaced by one summary finding of the same rule and severity,
// at the first folded finding's position, whose Folded is how many it stands
// for. Only groups of more than FoldAbove findings are folded, so that a
// summary always hides more lines than it takes. Order is kept; fs is not modified. Fold is presentation only:
// Count still counts every finding.
func Fold(fs []finding.Finding) []finding.Finding {
	type group struct {
		file, rule string
		sev        finding.Severity
	}
	n := map[group]int{}
	for _, f := range fs {
		n[group{f.File, f.Rule, f.Severity}]++
	}
	folds := false
	for _, c := range n {
		folds = folds || c > FoldAbove
	}
	if !folds {
		return fs
	}
	out := make([]finding.Finding, 0, len(fs))
	seen := map[group]int{}
	summary := map[group]int{} // index in out of the group's summary
	last := map[group]int{}    // the last line folded
	for _, f := range fs {
		g := group{f.File, f.Rule, f.Severity}
		seen[g]++
		i := seen[g]
		if n[g] <= FoldAbove || i <= FoldKeep {
			out = append(out, f)
			continue
		}
		if i == FoldKeep+1 {
			summary[g] = len(out)
			out = append(out, finding.Finding{Rule: f.Rule, Severity: f.Severity, Position: f.Position, Folded: n[g] - FoldKeep})
		}
		s := &out[summary[g]]
		s.Panics = s.Panics || f.Panics
		last[g] = max(last[g], f.Line)
	}
	for g, i := range summary {
		s := &out[i]
		what := g.rule + " findings"
		if r, ok := rule.Lookup(g.rule); ok {
			what = strings.ReplaceAll(r.Name, "-", " ") + " findings"
		}
		where := "in this file"
		switch {
		case s.File == "":
			where = "from the defaults"
		case s.Line > 0 && last[g] > s.Line:
			where = fmt.Sprintf("in this file, lines %d to %d", s.Line, last[g])
		case s.Line > 0:
			where = fmt.Sprintf("in this file, line %d", s.Line)
		}
		s.Message = fmt.Sprintf("and %s more %s %s (the first %d are shown)", thousands(s.Folded), what, where, FoldKeep)
		s.Hint = "fix the ones shown first: the rest repeat the same mistake"
	}
	return out
}

// thousands prints n with comma separators: 58,380.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
