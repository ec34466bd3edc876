package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kubeletcfg/kubeletcfg"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/rule"
)

func newFixCommand() *cobra.Command {
	var in inputFlags
	var versions string
	var diff bool
	cmd := &cobra.Command{
		Use:   "fix [PATH]",
		Short: "Repair the mistakes that need no guess, in place or as a diff",
		Long: fmt.Sprintf(`Repair, in the --config file and the .conf drop-ins of --config-dir, the
mistakes kubeletcfg can repair without guessing:

%s
A gate entry is removed only when the effective configuration and the verdict
stay the same at every target minor; a gate set to the opposite of its lock is
a decision, not a repair.

Everything else in the files stays byte for byte: comments, quoting,
indentation, key order. The repaired files are evaluated at every target minor
(--kubelet-version M, or --versions; default: the default minor, the newest GA
release, and the %d before it, since the same files usually serve a node pool
mid-upgrade) and nothing is written if they would lint worse at any of them:
more errors, a kubelet that no longer starts, or more warnings with as many
errors. A mistake found but not repaired is listed with the reason, and every
error and warning the files still have afterwards (or have now, when nothing
is written) is listed with the target minors that report it: "nothing to fix"
means nothing is wrong either.

PATH is the --config file, as for effective, skew, preflight and backoff.

Files are rewritten in place, each atomically and keeping its mode; a symbolic
link is never written through. --diff writes nothing and prints a unified diff
(patch -p1 and git apply read it) on stdout, the list of repairs on stderr.

Exit codes (with or without --diff):
  0  nothing left, or only warnings fix cannot repair
  1  an error left at some target minor, a mistake found but not repaired, or
     repairs that would lint worse (nothing is written then)
  2  usage and input errors`, rule.RepairList(), kubelets.Skew),
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
	cmd.Flags().StringVar(&in.kubeletVersion, "kubelet-version", "", "repair for this kubelet minor only ("+strings.Join(kubelets.Supported(), ", ")+")")
	cmd.Flags().StringVar(&versions, "versions", "", "repair for these minors: a range (1.34..1.37) or a list (1.33,1.37)")
	cmd.Flags().BoolVar(&diff, "diff", false, "print a unified diff and write nothing")
	cmd.MarkFlagsMutuallyExclusive("kubelet-version", "versions")
	_ = cmd.RegisterFlagCompletionFunc("kubelet-version", completeMinor)
	_ = cmd.RegisterFlagCompletionFunc("versions", completeVersions)
	return cmd
}
