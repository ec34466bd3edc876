package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/kubeletcfg/kubeletcfg"
	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/report"
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
	completeWith(cmd, "fail-on", "error", "warning", "info", "none")
}

// finish writes a verdict with the flags' report options (colour on a
// terminal, -q, --fail-on) and returns its exit code's error (kubeletcfg.FailOn).
func (v *verdictFlags) finish(cmd *cobra.Command, res kubeletcfg.Verdict, format string, threshold finding.Severity) error {
	out := cmd.OutOrStdout()
	opt := report.Options{Color: !v.noColor && report.Colorful(out), Quiet: v.quiet, FailOn: &threshold, Log: cmd.ErrOrStderr()}
	return kubeletcfg.FailOn(out, res, format, opt, threshold)
}

// finish writes the result of a verb without --fail-on, its notes on standard
// error, and returns its exit code's error (kubeletcfg.FailOn at error: a
// kubelet that would not start, a drop-in refused, fix's failures).
func finish(cmd *cobra.Command, res kubeletcfg.Verdict, format string) error {
	return kubeletcfg.FailOn(cmd.OutOrStdout(), res, format, report.Options{Log: cmd.ErrOrStderr()}, finding.Error)
}

// outputFlag registers -o/--output, "output format: " and its formats, which
// complete it.
func outputFlag(cmd *cobra.Command, p *string, def string, formats ...string) {
	cmd.Flags().StringVarP(p, "output", "o", def, "output format: "+strings.Join(formats, ", "))
	completeWith(cmd, "output", formats...)
}

// completeWith completes a flag with these values (and no file names).
func completeWith(cmd *cobra.Command, flag string, values ...string) {
	_ = cmd.RegisterFlagCompletionFunc(flag, func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return values, cobra.ShellCompDirectiveNoFileComp
	})
}
