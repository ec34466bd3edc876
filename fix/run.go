package fix

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/kubeletcfg/kubeletcfg/internal/atomicfile"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

// Run carries the plan out as kubeletcfg fix does. Without diff it writes the
// repaired files (writeChanged) and reports to stdout; with diff it writes
// nothing, prints Diff on stdout (unless the repairs lint worse: it would be
// applied) and reports to stderr. The report is WriteText and a summary line.
// failures is what makes the command fail, 0 when it succeeds: the errors left
// at some target minor plus the mistakes not repaired, or 1 when the repairs
// were refused.
func (p *Plan) Run(stdout, stderr io.Writer, diff bool) (failures int, err error) {
	report := stdout
	if diff {
		report = stderr
		// A diff that lints worse is not printed: it would be applied.
		if p.Worse == nil {
			if _, err := io.WriteString(stdout, p.Diff()); err != nil {
				return 0, err
			}
		}
	}
	if err := p.WriteText(report); err != nil {
		return 0, err
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
		return 0, nil
	case p.Worse != nil:
		fmt.Fprintf(report, "nothing written: the repairs would make things worse %s\n", at)
		return 1, nil
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
		if err := p.writeChanged(); err != nil {
			return 0, err
		}
		var names []string
		for _, f := range p.Changed() {
			names = append(names, f.Path)
		}
		fmt.Fprintf(report, "%s; wrote %s\n", summary, strings.Join(names, ", "))
	default:
		fmt.Fprintf(report, "%s\n", summary)
	}
	return p.Failures(), nil
}

// Failures is what makes kubeletcfg fix fail, 0 when it succeeds: an error
// left at any target minor and the mistakes found and not repaired, counted,
// or 1 when the repairs were refused (they would lint worse).
func (p *Plan) Failures() int {
	errs, warns := p.Left()
	switch {
	case p.Fixed() == 0 && p.Skipped() == 0 && errs+warns == 0:
		return 0
	case p.Worse != nil:
		return 1
	}
	return errs + p.Skipped()
}

// writeChanged writes every changed file, each atomically and keeping its mode,
// after checking that none changed on disk since it was read: the repairs were
// computed from those bytes.
func (p *Plan) writeChanged() error {
	for _, f := range p.Changed() {
		now, err := os.ReadFile(f.Path)
		if err != nil {
			return fmt.Errorf("%s: %w; nothing written", f.Path, unwrapPath(err))
		}
		if !bytes.Equal(now, f.Original) {
			return fmt.Errorf("%s: changed on disk while kubeletcfg was fixing it; nothing written", f.Path)
		}
	}
	for _, f := range p.Changed() {
		if err := atomicfile.Write(f.Path, f.Fixed, atomicfile.Options{Overwrite: true, KeepMode: true}); err != nil {
			return fmt.Errorf("%s: %w", f.Path, unwrapPath(err))
		}
	}
	return nil
}

// unwrapPath drops the path an *os.PathError repeats.
func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
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
