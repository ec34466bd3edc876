package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kubeletcfg/kubeletcfg/input"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
	"github.com/kubeletcfg/kubeletcfg/report"
	"github.com/kubeletcfg/kubeletcfg/skew"
	"github.com/kubeletcfg/kubeletcfg/validate"
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
	root.AddCommand(newLintCommand(), newEffectiveCommand(), newRulesCommand(), newVersionsCommand(), newSchemaCommand())
	root.AddCommand(newSkewCommand(), newPreflightCommand())
	root.AddCommand(newExplainCommand())
	root.AddCommand(newVersionCommand(), newDocsCommand())
	root.AddCommand(newFixCommand())
	root.AddCommand(newBackoffCommand())
	root.AddCommand(newDropinCommand())
	root.AddCommand(newDiscoverCommand())
	root.AddCommand(newClusterCommand())
	// Installed as kubectl-kubeletcfg (krew), kubectl runs it for
	// "kubectl kubeletcfg ...": usage lines say so.
	if strings.HasPrefix(filepath.Base(os.Args[0]), "kubectl-kubeletcfg") {
		root.Annotations = map[string]string{cobra.CommandDisplayNameAnnotation: "kubectl kubeletcfg"}
	}
	return root
}

// inputFlags are the flags every evaluating command shares.
type inputFlags struct {
	config, configDir string
	kubeletVersion    string
	cgroupVersion     string
	// inputFormat and nodes are --input-format and lint's --nodes; src is
	// --config as recognised (inputs.go), cmd the command registered with.
	inputFormat, nodes string
	src                *input.Source
	cmd                *cobra.Command
	// read is --as-written, --kind-node and --systemd-resolved (inputs.go).
	read input.Options
	// kubeletFlags and kubeletFlagsFile are --kubelet-flags and
	// --kubelet-flags-file, kc --discover and its flags (kubeletflags.go).
	kubeletFlags, kubeletFlagsFile string
	kc                             kubeletCmdFlags
	// versions is lint --nodes --versions: the minors to evaluate the nodes at.
	versions string
}

func (f *inputFlags) register(cmd *cobra.Command) {
	f.registerFiles(cmd)
	cmd.Flags().StringVar(&f.kubeletVersion, "kubelet-version", skew.Newest().Version, "kubelet minor to evaluate ("+strings.Join(skew.Supported(), ", ")+"); v1.37.2 is accepted")
	_ = cmd.RegisterFlagCompletionFunc("kubelet-version", completeMinor)
}

// evaluate validates the flags and runs the pipeline.
func (f *inputFlags) evaluate() (*pipeline.Result, error) {
	in, err := f.input()
	if err != nil {
		return nil, err
	}
	minor, err := lookupMinor(f.kubeletVersion, "compare several minors with kubeletcfg skew --versions %s")
	if err != nil {
		return nil, err
	}
	res, err := pipeline.Evaluate(minor, in)
	if err != nil {
		return nil, err
	}
	if err := f.src.Settle(res); err != nil {
		return nil, err
	}
	return res, nil
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
		Example: `  # the main file and its drop-ins, as the newest kubelet sees them
  kubeletcfg lint --config /var/lib/kubelet/config.yaml --config-dir /etc/kubernetes/kubelet.conf.d

  # a node pool on cgroup v1, machine-readable
  kubeletcfg lint -c config.yaml --cgroup-version v1 -o json

  # fail CI on warnings too (silently dropped keys, ...)
  kubeletcfg lint -c config.yaml --fail-on warning

  # several files, each its own node: one report each, then a summary
  kubeletcfg lint nodes/*.yaml`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			w, err := report.For(output)
			if err != nil {
				return err
			}
			threshold, err := vf.threshold()
			if err != nil {
				return err
			}
			if in.versions != "" && (in.nodes == "" || cmd.Flags().Changed("kubelet-version")) {
				return fmt.Errorf("--versions evaluates --nodes at several minors, in place of --kubelet-version")
			}
			opt := vf.options(cmd.OutOrStdout(), threshold)
			if err := checkPaths(&in, args); err != nil {
				return err
			}
			if len(args) > 1 {
				return lintPaths(cmd, &in, args, w, output, threshold, opt, func(res *pipeline.Result, mainFile string) {
					prof.apply(res, mainFile)
					pol.apply(res)
				})
			}
			if len(args) == 1 {
				in.config = args[0] // exactly as -c PATH
			}
			if in.nodes != "" {
				return lintNodes(cmd, &in, output, threshold, opt, func(res *pipeline.Result, mainFile string) {
					prof.apply(res, mainFile)
					pol.apply(res)
				}, pol.policy != nil && len(pol.policy.Exclude) > 0)
			}
			res, err := in.evaluate()
			if err != nil {
				return err
			}
			prof.apply(res, in.config) // profile findings first, so policy covers them too
			pol.apply(res)
			doc := report.FromResult(res)
			if err := in.writeLint(cmd.OutOrStdout(), w, output, doc, opt); err != nil {
				return err
			}
			if n := countAtLeast(doc.Findings, threshold); n > 0 {
				return &findingsError{n: n}
			}
			return nil
		},
	}
	in.register(cmd)
	in.registerDiscover(cmd)
	pol.register(cmd, policyTargets{kubeletVersion: &in.kubeletVersion, failOn: &vf.failOn})
	prof.register(cmd)
	cmd.Flags().StringVarP(&output, "output", "o", "text", "output format: "+strings.Join(report.Formats(), ", "))
	vf.register(cmd, "print findings and the verdict only, no summary line")
	cmd.Flags().StringVar(&in.nodes, "nodes", "", "lint many nodes at once: a folder with a folder per node (its config file, drop-in folder: conf.d, config.d, kubelet.conf.d, config.json.d or <config>.d, and kubelet flags files: kubeadm-flags.env, a systemd unit, a saved cmdline) or a configuration file (a configz dump) per node; identical nodes are grouped; any -o format")
	cmd.Flags().StringVar(&in.versions, "versions", "", "with --nodes: evaluate the nodes at these minors, a range (1.31..1.37) or a list (1.33,1.37), each node's files read once")
	_ = cmd.RegisterFlagCompletionFunc("output", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return report.Formats(), cobra.ShellCompDirectiveNoFileComp
	})
	return cmd
}

// parseFailOn returns the lowest severity that fails, or -1 for none.
func parseFailOn(s string) (validate.Severity, error) {
	if s == "none" {
		return -1, nil
	}
	sev, err := validate.ParseSeverity(s)
	if err != nil {
		return 0, fmt.Errorf("--fail-on: unknown severity %q (want error, warning, info or none)", s)
	}
	return sev, nil
}

func countAtLeast(fs []validate.Finding, threshold validate.Severity) int {
	if threshold < 0 {
		return 0
	}
	n := 0
	for _, f := range fs {
		if f.Severity >= threshold {
			n += f.Count() // a folded summary counts every finding it stands for
		}
	}
	return n
}

// colorEnv reports whether the environment allows colour: NO_COLOR unset
// (no-color.org) and a terminal that is not TERM=dumb.
func colorEnv() bool {
	return os.Getenv("NO_COLOR") == "" && os.Getenv("TERM") != "dumb"
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok || !colorEnv() {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

func newVersionsCommand() *cobra.Command {
	return &cobra.Command{
		Use:     "versions",
		Short:   "List the kubelet minors kubeletcfg knows",
		Example: "  kubeletcfg versions\n  kubeletcfg skew -c config.yaml --versions $(kubeletcfg versions | head -1 | cut -f1)..1.37",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			for _, v := range skew.Supported() {
				m, _ := skew.Lookup(v)
				fmt.Fprintf(cmd.OutOrStdout(), "%s\t(generated from k8s.io/kubernetes %s)\n", v, m.Patch)
			}
			return nil
		},
	}
}
