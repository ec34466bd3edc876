package main

import (
	"github.com/spf13/cobra"

	"github.com/kubeletcfg/kubeletcfg"
	"github.com/kubeletcfg/kubeletcfg/report"
)

// buildInfo is a variable so that the golden test does not depend on the Go
// toolchain that runs it.
var buildInfo = kubeletcfg.BuildInfo

func newVersionCommand() *cobra.Command {
	var output string
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print kubeletcfg's version, its Go version and the kubelet minors it knows",
		Long: `Print kubeletcfg's version (the module version of a go install, "(devel)" for a
build from a source tree), the Go version it was built with, and each kubelet
minor it reproduces with the Kubernetes release its knowledge was generated from.

'kubeletcfg versions' lists the same minors alone, one per line, for scripts.`,
		Example: `  kubeletcfg version
  kubeletcfg version -o json | jq -r '.kubeletMinors[].minor'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := report.CheckFormat(output, "json", "text"); err != nil {
				return err
			}
			return finish(cmd, buildInfo().WithMinors(), output)
		},
	}
	outputFlag(cmd, &output, "text", "json", "text")
	return cmd
}
