package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kubeletcfg/kubeletcfg"
	"github.com/kubeletcfg/kubeletcfg/cmd/kubeletcfg/internal/flags"
	"github.com/kubeletcfg/kubeletcfg/input"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/report"
)

func newRootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:   "kubeletcfg",
		Short: "Know what a kubelet will do with its config before the node boots",
		Long: `kubeletcfg reproduces the kubelet's configuration start-up (strict then lenient
decoding of --config, the --config-dir drop-in merge, defaulting, feature gates
and ValidateKubeletConfiguration) for a given kubelet minor, and reports whether
the kubelet would start, what it silently drops, and the configuration it would
really run with.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       buildInfo().Version,
	}
	// --version prints what the first line of `kubeletcfg version` does.
	root.SetVersionTemplate("kubeletcfg {{.Version}}\n")
	root.AddCommand(newLintCommand(), newEffectiveCommand(), newRulesCommand(), newVersionsCommand(), newSchemaCommand(),
		newSkewCommand(), newPreflightCommand(), newExplainCommand(), newVersionCommand(), newDocsCommand(),
		newFixCommand(), newBackoffCommand(), newDropinCommand(), newDiscoverCommand(), newClusterCommand(), newWebhookCommand())
	// Installed as kubectl-kubeletcfg (krew), kubectl runs it for
	// "kubectl kubeletcfg ...": usage lines say so.
	if strings.HasPrefix(filepath.Base(os.Args[0]), "kubectl-kubeletcfg") {
		root.Annotations = map[string]string{cobra.CommandDisplayNameAnnotation: "kubectl kubeletcfg"}
	}
	return root
}

// inputFlags are the flags every evaluating command shares; options() makes
// them the library's kubeletcfg.Options.
type inputFlags struct {
	config, configDir string
	kubeletVersion    string
	// policyVersion: the policy file set kubeletVersion (policyTargets).
	policyVersion bool
	cgroupVersion string
	// nodeOS is --os: the operating system the kubelet runs on.
	nodeOS string
	// inputFormat and nodes are --input-format and lint's --nodes; cmd the
	// command registered with.
	inputFormat, nodes string
	cmd                *cobra.Command
	// read is --as-written, --kind-node and --systemd-resolved (inputs.go);
	// atBoot is --set, values only a bootstrapped instance knows.
	read   input.Options
	atBoot []string
	// kubeletFlags and kubeletFlagsFile are --kubelet-flags and
	// --kubelet-flags-file, kc --discover and its flags (kubeletflags.go).
	kubeletFlags, kubeletFlagsFile string
	kc                             kubeletCmdFlags
	// versions is lint --nodes --versions: the minors to evaluate the nodes at.
	versions string
}

func (f *inputFlags) register(cmd *cobra.Command) {
	f.registerFiles(cmd)
	cmd.Flags().StringVar(&f.kubeletVersion, "kubelet-version", kubelets.Default().Version, "kubelet minor to evaluate ("+strings.Join(kubelets.Supported(), ", ")+"); a release (v1.37.3) is accepted, and is the binary --version=vX.Y.Z must match")
	_ = cmd.RegisterFlagCompletionFunc("kubelet-version", completeMinor)
}

func newLintCommand() *cobra.Command {
	var in inputFlags
	var output string
	var vf verdictFlags
	var pol policyFlags
	var prof profileFlag
	cmd := &cobra.Command{
		Use:   "lint [PATH...]",
		Short: "Report whether the kubelet starts with these files and what it ignores",
		Example: `  # the main file and its drop-ins, as the default kubelet (the newest GA release) sees them
  kubeletcfg lint --config /var/lib/kubelet/config.yaml --config-dir /etc/kubernetes/kubelet.conf.d

  # a node pool on cgroup v1, machine-readable
  kubeletcfg lint -c config.yaml --cgroup-version v1 -o json

  # fail CI on warnings too (silently dropped keys, ...)
  kubeletcfg lint -c config.yaml --fail-on warning

  # several files, each its own node: one report each, then a summary
  kubeletcfg lint nodes/*.yaml`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if _, err := report.For(output); err != nil {
				return err
			}
			threshold, err := flags.ParseFailOn(vf.failOn)
			if err != nil {
				return err
			}
			if in.versions != "" && (in.nodes == "" || cmd.Flags().Changed("kubelet-version")) {
				return fmt.Errorf("--versions evaluates --nodes at several minors, in place of --kubelet-version")
			}
			if err := in.takePath(args); err != nil {
				return err
			}
			opt := in.options()
			opt.Profile, opt.Policy = prof.name, pol.policy
			if in.nodes != "" {
				opt.Versions = in.versions
				fleetMemoryLimit()
			}
			if len(args) > 1 {
				opt.Paths = args
			}
			opt.Nodes = in.nodes
			v, err := kubeletcfg.Lint(opt)
			if err != nil {
				return err
			}
			return vf.finish(cmd, v, output, threshold)
		},
	}
	in.register(cmd)
	in.registerDiscover(cmd)
	pol.register(cmd, flags.PolicyTargets{KubeletVersion: &in.kubeletVersion, KubeletVersionSet: &in.policyVersion, FailOn: &vf.failOn})
	prof.register(cmd)
	outputFlag(cmd, &output, "text", report.Formats()...)
	vf.register(cmd, "print findings and the verdict only, no summary line")
	cmd.Flags().StringVar(&in.nodes, "nodes", "", "lint many nodes at once: a folder with a folder per node (its config file, drop-in folder: conf.d, config.d, kubelet.conf.d, config.json.d or <config>.d, and kubelet flags files: kubeadm-flags.env, a systemd unit, a saved cmdline) or a configuration file (a configz dump) per node; identical nodes are grouped; any -o format")
	cmd.Flags().StringVar(&in.versions, "versions", "", "with --nodes: evaluate the nodes at these minors, a range (1.31..1.37) or a list (1.33,1.37), each node's files read once")
	return cmd
}

func newVersionsCommand() *cobra.Command {
	var output string
	cmd := &cobra.Command{
		Use:   "versions",
		Short: "List the kubelet minors kubeletcfg knows, one per line (for scripts)",
		Long: `List the kubelet minors kubeletcfg knows, one per line: the minor, a tab, and
the Kubernetes release its knowledge was generated from; the default minor and
pre-releases are marked. The first field is what --kubelet-version, --versions,
--from and --to take. -o name prints the minors alone; -o json an array of
{minor, kubernetes, preRelease, default}.

'kubeletcfg version' prints the same minors after kubeletcfg's own version, Go
version and platform.`,
		Example: `  kubeletcfg versions
  kubeletcfg skew -c config.yaml --versions $(kubeletcfg versions -o name | head -1)..1.37
  kubeletcfg versions -o json | jq -r '.[] | select(.default) | .minor'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := report.CheckFormat(output, "json", "name", "text"); err != nil {
				return err
			}
			return finish(cmd, kubeletcfg.KubeletMinors(), output)
		},
	}
	outputFlag(cmd, &output, "text", "json", "name", "text")
	return cmd
}
