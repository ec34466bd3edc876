package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/kubeletcfg/kubeletcfg"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/report"
)

func newBackoffCommand() *cobra.Command {
	var in inputFlags
	var output, versions string
	var compare []string
	cmd := &cobra.Command{
		Use:   "backoff [PATH]",
		Short: "Show the crash-loop backoff curve: how long the kubelet waits before each restart",
		Long: `Play out the crash-loop backoff the kubelet would apply with these files: the wait
before each restart of a container that keeps crashing (the first restart is
immediate, then the initial delay, doubling up to the cap), when the cap is
reached, how many restarts fit in the first 10 minutes and the first hour, and
after how long a container that runs cleanly starts again from the initial delay.

The initial delay and the cap are the kubelet's newCrashLoopBackOff for the
effective configuration (ReduceDefaultCrashLoopBackOffDecay,
KubeletCrashLoopBackOffMax, crashLoopBackOff.maxContainerRestartPeriod). The
curve assumes that the container exits as soon as it starts and that the kubelet
restarts it the moment a delay ends (sync latency ignored); it is checked against
each minor's real client-go Backoff.

The backoff is forgotten once more than the reset threshold (600s from 1.32,
twice the cap in 1.31) has passed since the last restart: a container that ran
that long restarts at once, and one that crashed a little earlier restarts when
the threshold passes (the kubelet's housekeeping, every 2s), from the initial
delay again.

--versions evaluates the files at several minors, --compare adds other --config
files (evaluated without drop-ins) at the same minors; the curves are shown side
by side, identical neighbours once.

Exit code 1 when the kubelet would not start with a file at a minor (it has no
curve then), 2 for usage and input errors.`,
		Example: `  # the curve of the default kubelet (the newest GA release) for a node's files
  kubeletcfg backoff -c config.yaml -d conf.d

  # the default, the reduced decay and a 30s cap, side by side
  kubeletcfg backoff -c default.yaml --compare reduced.yaml --compare cap30s.yaml --kubelet-version 1.35

  # the same file at every minor of a window
  kubeletcfg backoff -c config.yaml --versions 1.33..1.37

  # machine-readable
  kubeletcfg backoff -c config.yaml -o json | jq '.curves[].curve.restartsIn1h'`,
		Args: onePath,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := in.takePath(args); err != nil {
				return err
			}
			if err := report.CheckFormat(output, "json", "text"); err != nil {
				return err
			}
			opt := in.options()
			opt.Versions = versions
			b, err := kubeletcfg.Backoff(opt, compare)
			if err != nil {
				return err
			}
			return finish(cmd, b, output)
		},
	}
	in.register(cmd)
	cmd.Flags().StringVar(&versions, "versions", "", "evaluate at several minors: a range (1.34..1.37) or a list (1.33,1.37); supported: "+strings.Join(kubelets.Supported(), ", "))
	cmd.Flags().StringArrayVar(&compare, "compare", nil, "another --config file to show side by side, without drop-ins (repeatable)")
	outputFlag(cmd, &output, "text", "json", "text")
	cmd.MarkFlagsMutuallyExclusive("versions", "kubelet-version")
	_ = cmd.RegisterFlagCompletionFunc("versions", completeVersions)
	return cmd
}
