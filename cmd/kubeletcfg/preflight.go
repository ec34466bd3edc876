package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/kubeletcfg/kubeletcfg"
	"github.com/kubeletcfg/kubeletcfg/cmd/kubeletcfg/internal/flags"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/report"
)

func newPreflightCommand() *cobra.Command {
	var in inputFlags
	var output, from, to string
	var vf verdictFlags
	cmd := &cobra.Command{
		Use:   "preflight [PATH]",
		Short: "Report what changes for a node pool when its kubelets move to another minor",
		Long: `Evaluate the same --config and --config-dir at the kubelet minor a node pool runs
(--from) and the one it moves to (--to), and report, in this order:

  blockers          the target's errors: why it would not start
  behaviour changes effective values that differ (defaults and gate defaults that
                    changed), with where the target's value comes from, and the
                    crash-loop backoff
  notes             gates the files set that are deprecated, GA and locked, or gone
                    at the target; fields deprecated at the target or gone; keys the
                    source drops and the target applies; the rollback check (does
                    the source minor still start with these files, what it drops)

The files are read once. Exit code 1 when the target has a finding at or above
--fail-on (default error: it would not start), 2 for usage and input errors.`,
		Example: `  # a pool moving from 1.33 to the default minor (the newest GA release)
  kubeletcfg preflight --from 1.33 -c config.yaml -d conf.d

  # to a given minor, for cgroup v1 hosts, machine-readable
  kubeletcfg preflight --from 1.33 --to 1.36 -c config.yaml --cgroup-version v1 -o json`,
		Args: onePath,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := in.takePath(args); err != nil {
				return err
			}
			if err := report.CheckFormat(output, "json", "text"); err != nil {
				return err
			}
			threshold, err := flags.ParseFailOn(vf.failOn)
			if err != nil {
				return err
			}
			opt := in.options()
			opt.From, opt.To = from, to
			p, err := kubeletcfg.Preflight(opt)
			if err != nil {
				return err
			}
			return vf.finish(cmd, p, output, threshold)
		},
	}
	in.registerFiles(cmd)
	in.registerDiscover(cmd)
	cmd.Flags().StringVar(&from, "from", "", "the kubelet minor the node pool runs now (required unless --discover finds it; "+strings.Join(kubelets.Supported(), ", ")+")")
	cmd.Flags().StringVar(&to, "to", "", "the kubelet minor it moves to (default "+kubelets.Default().Version+", the newest GA release)")
	outputFlag(cmd, &output, "text", "json", "text")
	vf.register(cmd, "text: the blockers and behaviour changes only, no notes")
	_ = cmd.RegisterFlagCompletionFunc("from", completeMinor)
	_ = cmd.RegisterFlagCompletionFunc("to", completeMinor)
	return cmd
}
