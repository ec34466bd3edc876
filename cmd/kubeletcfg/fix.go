package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/kubeletcfg/kubeletcfg"
	"github.com/kubeletcfg/kubeletcfg/fix"
	"github.com/kubeletcfg/kubeletcfg/skew"
)

func newFixCommand() *cobra.Command {
	var in inputFlags
	var versions string
	var diff bool
	cmd := &cobra.Command{
		Use:   "fix [PATH]",
		Short: "Repair the mistakes that need no guess, in place or as a diff",
		Long:  fix.Doc(),
		Example: `  # review the repairs for the kubelets of the n-3 window, then apply them
  kubeletcfg fix -c config.yaml -d conf.d --diff
  kubeletcfg fix -c config.yaml -d conf.d

  # the main file as a path, as lint and effective take it
  kubeletcfg fix config.yaml --diff

  # repair for one kubelet minor only, or for a range
  kubeletcfg fix -c config.yaml --kubelet-version 1.37
  kubeletcfg fix -c config.yaml --versions 1.32..1.37 --diff > fix.patch`,
		Args: onePath,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := in.takePath(args); err != nil {
				return err
			}
			opt := in.options()
			opt.Versions = versions
			f, err := kubeletcfg.Fix(opt)
			if err != nil {
				return err
			}
			format := "text"
			if diff {
				format = "diff"
			}
			return finish(cmd, f, format)
		},
	}
	in.registerFiles(cmd)
	cmd.Flags().StringVar(&in.kubeletVersion, "kubelet-version", "", "repair for this kubelet minor only ("+strings.Join(skew.Supported(), ", ")+")")
	cmd.Flags().StringVar(&versions, "versions", "", "repair for these minors: a range (1.34..1.37) or a list (1.33,1.37)")
	cmd.Flags().BoolVar(&diff, "diff", false, "print a unified diff and write nothing")
	cmd.MarkFlagsMutuallyExclusive("kubelet-version", "versions")
	_ = cmd.RegisterFlagCompletionFunc("kubelet-version", completeMinor)
	_ = cmd.RegisterFlagCompletionFunc("versions", completeVersions)
	return cmd
}
