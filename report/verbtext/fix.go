package verbtext

import (
	"fmt"
	"io"
	"strings"

	"github.com/kubeletcfg/kubeletcfg/fix"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/report"
)

// WriteFix is kubeletcfg fix's output, with the plan carried out as it goes.
// Without diff it reports to stdout and, before the last line, which names
// them, has the repaired files written (apply: fix.Plan.Apply); with diff it
// writes nothing, prints Plan.Diff on stdout (unless the repairs lint worse:
// it would be applied) and reports to stderr. The report is every repair and
// what is left, then a summary line.
func WriteFix(stdout, stderr io.Writer, p *fix.Plan, diff bool, apply func() error) error {
	report := stdout
	if diff {
		report = stderr
		// A diff that lints worse is not printed: it would be applied.
		if p.Worse == nil {
			if _, err := io.WriteString(stdout, p.Diff()); err != nil {
				return err
			}
		}
	}
	if err := writeFixReport(report, p); err != nil {
		return err
	}
	at := "at kubelet " + minorSpan(p.Minors)
	errs, warns := p.Left()
	left := "nothing left"
	if errs+warns > 0 {
		left = fmt.Sprintf("%s and %s left", plural(errs, "error"), plural(warns, "warning"))
	}
	var summary string
	switch {
	case p.Fixed() == 0 && p.Skipped() == 0 && errs+warns == 0:
		fmt.Fprintf(report, "nothing to fix %s\n", at)
		return nil
	case p.Worse != nil:
		fmt.Fprintf(report, "nothing written: the repairs would make things worse %s\n", at)
		return nil
	case p.Fixed() == 0 && p.Skipped() == 0:
		fmt.Fprintf(report, "nothing fix can repair; %s %s\n", left, at)
	default:
		summary = fmt.Sprintf("%d fixed", p.Fixed())
		if p.Skipped() > 0 {
			summary += fmt.Sprintf(", %d skipped", p.Skipped())
		}
		summary += "; " + left + " " + at
	}
	switch {
	case summary == "":
	case diff:
		fmt.Fprintf(report, "%s; nothing written (--diff)\n", summary)
	case len(p.Changed()) > 0:
		if err := apply(); err != nil {
			return err
		}
		var names []string
		for _, f := range p.Changed() {
			names = append(names, f.Path)
		}
		fmt.Fprintf(report, "%s; wrote %s\n", summary, strings.Join(names, ", "))
	default:
		fmt.Fprintf(report, "%s\n", summary)
	}
	return nil
}

// writeFixReport prints every repair (file:line:col, rule, before -> after),
// every mistake left with its reason, and the check at each minor.
func writeFixReport(w io.Writer, p *fix.Plan) error {
	var sb strings.Builder
	for _, f := range p.Files {
		for _, fx := range f.Fixes {
			fmt.Fprintf(&sb, "%s: fixed %s: %s -> %s\n", fx.Pos, fx.Rule, fx.Before, fx.After)
			if fx.Also != "" {
				fmt.Fprintf(&sb, "    %s\n", fx.Also)
			}
		}
		for _, s := range f.Skips {
			fmt.Fprintf(&sb, "%s: skipped %s: %s\n    %s\n", s.Pos, s.Rule, s.What, s.Reason)
		}
	}
	// Sections (repairs, checks, what is left) are separated by a blank line.
	sep := func() {
		if sb.Len() > 0 {
			sb.WriteString("\n")
		}
	}
	if len(p.Checks) > 0 || p.Worse != nil {
		sep()
	}
	for _, c := range p.Checks {
		fmt.Fprintf(&sb, "kubelet %s: %s -> %s\n", c.Minor, c.Before, c.After)
	}
	if p.Worse != nil {
		fmt.Fprintf(&sb, "the fixed files lint worse at kubelet %s: %s", p.Worse.Minor, p.Worse.Why)
		if f := p.Worse.Finding; f.Rule != "" {
			fmt.Fprintf(&sb, "; new: %s [%s] %s", f.Position, f.Rule, f.Message)
		}
		sb.WriteString("\n")
	}
	if len(p.Remaining) > 0 {
		sep()
		head := "left, not repaired:"
		if len(p.Changed()) > 0 && p.Worse == nil {
			head = "left after the repairs (lines of the repaired files):"
		}
		fmt.Fprintf(&sb, "%s\n", head)
		for _, r := range p.Remaining {
			fmt.Fprintf(&sb, "%s: %s: %s [%s] at kubelet %s\n", r.Position, r.Severity, r.Message, r.Rule, kubelets.Span(r.Minors))
			if r.Hint != "" {
				fmt.Fprintf(&sb, "    hint: %s\n", r.Hint)
			}
			if r.Behind != "" {
				fmt.Fprintf(&sb, "    behind: %s\n", report.BehindText(r.Finding))
			}
		}
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

// minorSpan prints minors as 1.34..1.37 when they are consecutive, else as a list.
func minorSpan(ms []*kubelets.Minor) string {
	vs := make([]string, len(ms))
	for i, m := range ms {
		vs[i] = m.Version
	}
	return kubelets.Span(vs)
}

// plural is "1 error", "2 errors".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
