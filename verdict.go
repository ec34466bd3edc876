package kubeletcfg

import (
	"fmt"
	"io"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/report"
)

// Verdict is the contract between a verb's result and a front end: the result
// written in one of the verb's output formats, and the --fail-on count, how many
// findings are at or above a threshold (a negative threshold counts none). The
// command's exit code is 1 exactly when that count is not zero.
type Verdict interface {
	Write(w io.Writer, format string, opt report.Options) error
	CountAtLeast(threshold finding.Severity) int
}

var (
	_ Verdict = (*Linted)(nil)
	_ Verdict = (*LintedPaths)(nil)
	_ Verdict = (*LintedNodes)(nil)
	_ Verdict = (*Skewed)(nil)
	_ Verdict = (*PreflightReport)(nil)
	_ Verdict = (*EffectiveConfig)(nil)
	_ Verdict = (*BackoffCurves)(nil)
	_ Verdict = (*Fixed)(nil)
	_ Verdict = (*Authored)(nil)
	_ Verdict = (*Diffed)(nil)
	_ Verdict = (*Explained)(nil)
	_ Verdict = (*RunningKubelet)(nil)
	_ Verdict = (*VersionInfo)(nil)
)

// CountAtLeast is the --fail-on count of the one-minor lint.
func (l *Linted) CountAtLeast(threshold finding.Severity) int {
	if l.Several != nil {
		return l.Several.CountAtLeast(threshold)
	}
	return CountAtLeast(l.Report.Findings, threshold)
}

// FailOn writes v and returns a *FindingsError when findings are at or above
// threshold: the one place a front end turns a result into its exit code.
func FailOn(w io.Writer, v Verdict, format string, opt report.Options, threshold finding.Severity) error {
	if err := v.Write(w, format, opt); err != nil {
		return err
	}
	if u, ok := v.(Unreadable); ok {
		if err := u.Unreadable(); err != nil {
			return err
		}
	}
	if n := v.CountAtLeast(threshold); n > 0 {
		return &FindingsError{N: n}
	}
	return nil
}

// FindingsError says that a verdict has N findings at or above --fail-on (exit code 1).
type FindingsError struct{ N int }

func (e *FindingsError) Error() string { return fmt.Sprintf("%d findings at or above --fail-on", e.N) }

// Unreadable is implemented by the verdicts over several inputs: an error naming
// the inputs that could not be read (listed in the output), or nil. FailOn
// returns it after the output and before the findings' count.
type Unreadable interface {
	Unreadable() error
}

// Unreadable names the paths that could not be read.
func (l *LintedPaths) Unreadable() error {
	if u := l.Unread(); u != "" {
		return fmt.Errorf("%s could not be read (above)", u)
	}
	return nil
}

// Unreadable counts the nodes that could not be read.
func (l *LintedNodes) Unreadable() error {
	n, total := l.Unread(), l.Total()
	if n == 0 {
		return nil
	}
	return fmt.Errorf("%d of %d %s could not be read (listed above)", n, total, plural(total, "node", "nodes"))
}

// Unreadable says how many of several nodes could not be read (Several's);
// nil for one node.
func (l *Linted) Unreadable() error {
	if u, ok := l.Several.(Unreadable); ok {
		return u.Unreadable()
	}
	return nil
}
