package fix

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/kubeletcfg/kubeletcfg/internal/udiff"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/report"
)

// Diff is the unified diff of every file the repairs change, with the paths
// as given prefixed by a/ and b/ (patch -p1 and git apply read it).
func (p *Plan) Diff() string {
	var sb strings.Builder
	for _, f := range p.Changed() {
		name := strings.TrimLeft(strings.TrimPrefix(filepath.ToSlash(f.Path), "./"), "/")
		sb.WriteString(udiff.Unified("a/"+name, "b/"+name, f.Original, f.Fixed))
	}
	return sb.String()
}

// WriteText prints every repair (file:line:col, rule, before -> after), every
// mistake left with its reason, and the check at each minor.
func (p *Plan) WriteText(w io.Writer) error {
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

// String prints a count as "starts, 0 errors, 1 warning".
func (c Count) String() string {
	start := "starts"
	if !c.Starts {
		start = "does NOT start"
	}
	return fmt.Sprintf("%s, %s, %s", start, plural(c.Errors, "error"), plural(c.Warnings, "warning"))
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
