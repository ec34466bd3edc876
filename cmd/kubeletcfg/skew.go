package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kubeletcfg/kubeletcfg"
	"github.com/kubeletcfg/kubeletcfg/cmd/kubeletcfg/internal/flags"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/report"
)

// The commands that compare minors (skew, preflight) choose the minors with
// their own flags, so they register the input flags without --kubelet-version.

// registerFiles registers --config, --config-dir, --cgroup-version and --os as
// inputFlags.register does.
func (f *inputFlags) registerFiles(cmd *cobra.Command) {
	fl := cmd.Flags()
	flags.OnceStringVarP(fl, &f.config, "config", "c", "", "the kubelet's --config file (YAML or JSON)")
	flags.OnceStringVarP(fl, &f.configDir, "config-dir", "d", "", "the kubelet's --config-dir drop-in folder")
	fl.StringVar(&f.cgroupVersion, "cgroup-version", "v2", "cgroup version of the node, for host checks: v1 or v2")
	completeWith(cmd, "cgroup-version", "v1", "v2")
	fl.StringVar(&f.nodeOS, "os", "", "the node's operating system, whose kubelet is evaluated: linux or windows (its own OS checks and defaults; --cgroup-version does not apply); default: the input's own (a named-pipe criSocket, a Windows AMI family or osType), else linux")
	completeWith(cmd, "os", kubelets.OSes()...)
	_ = cmd.MarkFlagDirname("config-dir")
	f.registerInput(cmd)
	f.registerKubeletFlags(cmd)
}

// completeMinor completes one supported minor.
func completeMinor(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return kubelets.Supported(), cobra.ShellCompDirectiveNoFileComp
}

// completeVersions completes --versions (kubelets.CompleteVersions): no space
// after a minor or a list, which go on.
func completeVersions(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	out, done := kubelets.CompleteVersions(toComplete)
	if done {
		return out, cobra.ShellCompDirectiveNoFileComp
	}
	return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
}

func newSkewCommand() *cobra.Command {
	var in inputFlags
	var output, versions, controlPlane string
	var vf verdictFlags
	var pol policyFlags
	var prof profileFlag
	cmd := &cobra.Command{
		Use:   "skew [PATH]",
		Short: "Compare what each kubelet minor of a version-skew window does with the same files",
		Long: fmt.Sprintf(`Evaluate the same --config and --config-dir at several kubelet minors and compare
them: whether each starts (and if not, the first error), the keys it silently
drops, the feature gates it does not know or has locked, the effective values
that differ from the newest minor of the window, and the crash-loop backoff.

The window is the default minor (the newest GA release) and the %d before it (the kubelet
version-skew policy), or --control-plane X: X and the %d before it, or the minors
named by --versions. The files are read once.

Exit code 1 when a minor in the window has a finding at or above --fail-on
(default error: a minor would not start), 2 for usage and input errors.`, kubelets.Skew, kubelets.Skew),
		Example: `  # the n-3 window of the default minor
  kubeletcfg skew -c config.yaml -d conf.d

  # the kubelets a 1.36 control plane supports
  kubeletcfg skew -c config.yaml --control-plane 1.36

  # a range, or a list of minors
  kubeletcfg skew -c config.yaml --versions 1.34..1.37
  kubeletcfg skew -c config.yaml --versions 1.33,1.37 -o json | jq '.versions[].dropped'`,
		Args: onePath,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := in.takePath(args); err != nil {
				return err
			}
			if _, err := report.For(output); err != nil {
				return err
			}
			threshold, err := flags.ParseFailOn(vf.failOn)
			if err != nil {
				return err
			}
			opt := in.options()
			opt.Versions, opt.ControlPlane = versions, controlPlane
			opt.Profile, opt.Policy = prof.name, pol.policy
			s, err := kubeletcfg.Skew(opt)
			if err != nil {
				return err
			}
			// A minor that does not start has an error finding; --fail-on none
			// is the only way to exit 0 then.
			return vf.finish(cmd, s, output, threshold)
		},
	}
	in.registerFiles(cmd)
	in.registerDiscover(cmd)
	pol.register(cmd, flags.PolicyTargets{Versions: &versions, FailOn: &vf.failOn})
	prof.register(cmd)
	cmd.Flags().StringVar(&versions, "versions", "", "the minors to compare: a range (1.34..1.37) or a list (1.33,1.37); supported: "+strings.Join(kubelets.Supported(), ", "))
	cmd.Flags().StringVar(&controlPlane, "control-plane", "", fmt.Sprintf("compare the minors a control plane of this minor supports (it and the %d before it)", kubelets.Skew))
	outputFlag(cmd, &output, "text", report.Formats()...)
	vf.register(cmd, "text: leave out the closing summary line")
	cmd.MarkFlagsMutuallyExclusive("versions", "control-plane")
	_ = cmd.RegisterFlagCompletionFunc("versions", completeVersions)
	_ = cmd.RegisterFlagCompletionFunc("control-plane", completeMinor)
	return cmd
}
