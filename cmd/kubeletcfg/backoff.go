package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/kubeletcfg/kubeletcfg"
	"github.com/kubeletcfg/kubeletcfg/backoff"
	"github.com/kubeletcfg/kubeletcfg/report"
	"github.com/kubeletcfg/kubeletcfg/skew"
)

func newBackoffCommand() *cobra.Command {
	var in inputFlags
	var output, versions string
	var compare []string
	cmd := &cobra.Command{
		Use:   "backoff [PATH]",
		Short: "Show the crash-loop backoff curve: how long the kubelet waits before each restart",
		Long:  backoff.Doc,
		Example: `  # the curve of the newest kubelet for a node's files
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
	cmd.Flags().StringVar(&versions, "versions", "", "evaluate at several minors: a range (1.34..1.37) or a list (1.33,1.37); supported: "+strings.Join(skew.Supported(), ", "))
	cmd.Flags().StringArrayVar(&compare, "compare", nil, "another --config file to show side by side, without drop-ins (repeatable)")
	outputFlag(cmd, &output, "text", "json", "text")
	cmd.MarkFlagsMutuallyExclusive("versions", "kubelet-version")
	_ = cmd.RegisterFlagCompletionFunc("versions", completeVersions)
	return cmd
}
