package kubeletcfg

import (
	"fmt"
	"io"

	"github.com/kubeletcfg/kubeletcfg/report"
	"github.com/kubeletcfg/kubeletcfg/validate"
)

// Verdict is the contract between a verb's result and a front end: the result
// written in one of the verb's output formats, and the --fail-on count, how many
// findings are at or above a threshold (a negative threshold counts none). The
// command's exit code is 1 exactly when that count is not zero.
type Verdict interface {
	Write(w io.Writer, format string, opt report.Options) error
	CountAtLeast(threshold validate.Severity) int
}

var (
	_ Verdict = (*Linted)(nil)
	_ Verdict = (*LintedPaths)(nil)
	_ Verdict = (*LintedNodes)(nil)
	_ Verdict = (*Skewed)(nil)
	_ Verdict = (*PreflightReport)(nil)
)

// CountAtLeast is the --fail-on count of the one-minor lint.
func (l *Linted) CountAtLeast(threshold validate.Severity) int {
	return CountAtLeast(l.Report.Findings, threshold)
}

// FailOn writes v and returns a *FindingsError when findings are at or above
// threshold: the one place a front end turns a result into its exit code.
func FailOn(w io.Writer, v Verdict, format string, opt report.Options, threshold validate.Severity) error {
	if err := v.Write(w, format, opt); err != nil {
		return err
	}
	if n := v.CountAtLeast(threshold); n > 0 {
		return &FindingsError{N: n}
	}
	return nil
}

// FindingsError says that a verdict has N findings at or above --fail-on (exit code 1).
type FindingsError struct{ N int }

func (e *FindingsError) Error() string { return fmt.Sprintf("%d findings at or above --fail-on", e.N) }
