package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/kubeletcfg/kubeletcfg"
	"github.com/kubeletcfg/kubeletcfg/report"
	"github.com/kubeletcfg/kubeletcfg/skew"
	"github.com/kubeletcfg/kubeletcfg/validate"
)

// verdictFlags are --fail-on, -q/--quiet and --no-color, the same on every
// command that gives a verdict (lint, lint --nodes, skew, preflight).
type verdictFlags struct {
	failOn         string
	quiet, noColor bool
}

func (v *verdictFlags) register(cmd *cobra.Command, quiet string) {
	cmd.Flags().StringVar(&v.failOn, "fail-on", "error", "exit 1 when a finding is at or above this severity: error, warning, info or none")
	cmd.Flags().BoolVarP(&v.quiet, "quiet", "q", false, quiet)
	cmd.Flags().BoolVar(&v.noColor, "no-color", false, "never colour the text output (colour is used on terminals only; NO_COLOR and TERM=dumb are honoured)")
	_ = cmd.RegisterFlagCompletionFunc("fail-on", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return []string{"error", "warning", "info", "none"}, cobra.ShellCompDirectiveNoFileComp
	})
}

// threshold is --fail-on parsed: the lowest severity that fails, -1 for none.
func (v *verdictFlags) threshold() (validate.Severity, error) { return parseFailOn(v.failOn) }

// options are the report options for out; threshold comes from threshold().
func (v *verdictFlags) options(out io.Writer, threshold validate.Severity) report.Options {
	return report.Options{Color: !v.noColor && isTerminal(out), Quiet: v.quiet, FailOn: &threshold}
}

// lookupMinor parses --kubelet-version where one minor is expected
// (kubeletcfg.LookupMinor): a list or range gets hint ("%s": the value).
func lookupMinor(v, hint string) (*skew.Minor, error) { return kubeletcfg.LookupMinor(v, hint) }

// logTo is the report options of a verb without --fail-on: its notes go to
// the command's standard error.
func logTo(cmd *cobra.Command) report.Options { return report.Options{Log: cmd.ErrOrStderr()} }
