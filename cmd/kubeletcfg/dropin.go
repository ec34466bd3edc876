package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kubeletcfg/kubeletcfg"
	"github.com/kubeletcfg/kubeletcfg/author"
	"github.com/kubeletcfg/kubeletcfg/cmd/kubeletcfg/internal/flags"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/report"
)

func newDropinCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "dropin",
		Short: "Write --config-dir drop-in files that are checked against the kubelet before they exist",
		Long: `Write kubelet drop-in files (--config-dir, *.conf) from the command line or from the
difference between two configurations. Every file is evaluated with the existing
files at each kubelet minor named before a byte is written.`,
		Example: `  kubeletcfg dropin new 50-crashloop.conf -d conf.d -c config.yaml --set crashLoopBackOff.maxContainerRestartPeriod=30s
  kubeletcfg dropin diff --from config.yaml --from conf.d --to golden.yaml --output-file conf.d/90-golden.conf`,
	}
	cmd.AddCommand(newDropinNewCommand(), newDropinDiffCommand())
	return cmd
}

// minorsFlags are --kubelet-version (one minor, as in every command) and
// --versions (a range or list). none: with neither, check the n-3 window fix
// and skew default to (dropin new: the same files usually serve a pool
// mid-upgrade) or the default minor alone (dropin diff, which computes at one).
type minorsFlags struct {
	kubeletVersion, versions string
	nodeOS                   string // --os
	none                     kubeletcfg.MinorChoice
}

func (f *minorsFlags) register(cmd *cobra.Command) {
	def := "the default minor, " + kubelets.Default().Version
	if f.none == kubeletcfg.DefaultWindow {
		def = fmt.Sprintf("the default minor, %s, and the %d before it, as fix and skew", kubelets.Default().Version, kubelets.Skew)
	}
	cmd.Flags().StringVar(&f.kubeletVersion, "kubelet-version", "", "check this kubelet minor only ("+strings.Join(kubelets.Supported(), ", ")+"; several: --versions); default: "+def)
	cmd.Flags().StringVar(&f.versions, "versions", "", "kubelet minors to check: a range (1.34..1.37) or a list (1.33,1.37)")
	cmd.MarkFlagsMutuallyExclusive("kubelet-version", "versions")
	cmd.Flags().StringVar(&f.nodeOS, "os", "", "the node's operating system: linux (default) or windows (the Windows kubelet's OS checks and defaults)")
	completeWith(cmd, "os", kubelets.OSes()...)
	_ = cmd.RegisterFlagCompletionFunc("kubelet-version", completeMinor)
	_ = cmd.RegisterFlagCompletionFunc("versions", completeVersions)
}

// options are the library's options of a drop-in verb.
func (f *minorsFlags) options(config, configDir, cgroup string) kubeletcfg.Options {
	return kubeletcfg.Options{Config: config, ConfigDir: configDir, CgroupVersion: cgroup, OS: f.nodeOS, KubeletVersion: f.kubeletVersion, Versions: f.versions}
}

func newDropinNewCommand() *cobra.Command {
	var (
		configFile, configDir, cgroup, mode, output string
		sets, gates                                 []string
		mf                                          = minorsFlags{none: kubeletcfg.DefaultWindow}
		dryRun, force, allowOverride                bool
	)
	cmd := &cobra.Command{
		Use:   "new NAME.conf --config-dir DIR --set PATH=VALUE... [--feature-gate NAME=BOOL...]",
		Short: "Write a minimal drop-in, refused unless every named kubelet applies all of it",
		Long: `Write a minimal drop-in into --config-dir: apiVersion, kind and only the keys asked
for, with the field names and value types of the kubelet's schema.

Before writing, the kubelet's start-up is evaluated with the new file in place
(after the main file and the drop-ins that sort before it, before those that sort
after it) at every kubelet minor named (default: the n-3 window ending at the
default minor, as fix and skew check, since a drop-in usually serves a node pool
mid-upgrade). Nothing is written, and the exit code is
1, if any minor would not start, would drop or ignore a key of the new file, or
would run with another value than the one written (a later drop-in overrides it;
--allow-override accepts that).

--set takes a dotted path, map keys in brackets and a YAML value:
  crashLoopBackOff.maxContainerRestartPeriod=30s
  evictionHard[memory.available]=200Mi
  clusterDNS=[10.0.0.10]          (lists are replaced whole)
  kubeReserved=null               (null deletes the key: kubelet 1.32+)

The file is written atomically (a temporary file in the same folder, fsync,
rename), with mode 0644 unless --mode, and never over an existing file without
--force. A symlink at the target is replaced, never followed.`,
		Example: `  # cap crash-loop backoff at 30s on kubelets 1.34 to 1.37
  kubeletcfg dropin new 50-crashloop.conf -d /etc/kubernetes/kubelet.conf.d -c /var/lib/kubelet/config.yaml \
    --set crashLoopBackOff.maxContainerRestartPeriod=30s --versions 1.34..1.37

  # see the file and the verdicts, write nothing
  kubeletcfg dropin new 60-eviction.conf -d conf.d --set 'evictionHard[memory.available]=200Mi' --dry-run`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := author.CheckDropInName(args[0]); err != nil {
				return err
			}
			if err := report.CheckFormat(output, "json", "text"); err != nil {
				return err
			}
			req := author.NewRequest{
				Name: args[0], ConfigDir: configDir, Config: configFile, Sets: sets, Gates: gates,
				DryRun: dryRun, Force: force, AllowOverride: allowOverride,
			}
			if err := req.Validate(); err != nil {
				return err
			}
			var err error
			if req.Mode, err = author.ParseMode(mode); err != nil {
				return err
			}
			rep, err := kubeletcfg.DropInNew(mf.options(configFile, configDir, cgroup), req)
			if err != nil {
				return err
			}
			return finish(cmd, rep, output)
		},
	}
	fl := cmd.Flags()
	flags.OnceStringVarP(fl, &configDir, "config-dir", "d", "", "the kubelet's --config-dir folder the drop-in goes into (required)")
	flags.OnceStringVarP(fl, &configFile, "config", "c", "", "the kubelet's --config file, so the check sees what the node sees")
	fl.StringArrayVar(&sets, "set", nil, "PATH=VALUE to write (repeatable): a.b=v, map[key]=v, list=[a,b], path=null")
	fl.StringArrayVar(&gates, "feature-gate", nil, "NAME=true|false to write under featureGates (repeatable)")
	fl.BoolVar(&dryRun, "dry-run", false, "print the file and the verdicts, write nothing")
	fl.BoolVar(&force, "force", false, "replace an existing file of that name")
	fl.BoolVar(&allowOverride, "allow-override", false, "write even when a later drop-in overrides some of its keys")
	fl.StringVar(&mode, "mode", "0644", "permission bits of the new file (octal)")
	fl.StringVar(&cgroup, "cgroup-version", "v2", "cgroup version of the node, for host checks: v1 or v2")
	outputFlag(cmd, &output, "text", "json", "text")
	mf.register(cmd)
	_ = cmd.MarkFlagDirname("config-dir")
	_ = cmd.RegisterFlagCompletionFunc("set", completeSetPath)
	return cmd
}

// completeSetPath completes field paths of the default minor (author.CompleteSet).
func completeSetPath(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	out, err := author.CompleteSet(toComplete)
	if err != nil {
		return nil, cobra.ShellCompDirectiveError
	}
	return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
}
