package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/kubeletcfg/kubeletcfg"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/report"
)

func newExplainCommand() *cobra.Command {
	var version, output string
	cmd := &cobra.Command{
		Use:   "explain PATH",
		Short: "Describe a KubeletConfiguration field at a kubelet minor: type, default, gates, minors, rules, doc",
		Long: `Describe a field of KubeletConfiguration, in the spirit of kubectl explain: its type,
its default at the kubelet minor (computed by running an empty configuration,
apiVersion and kind only, through the same pipeline as lint), the feature gates
its +featureGate markers name with their stage and default at that minor, the
minors that have the field, the rules that check it, and its doc comment.

PATH is dotted, matched case-insensitively, with map keys and list indexes in
brackets: evictionHard[memory.available], featureGates[NodeSwap],
reservedMemory[0].limits; a dotted map key (featureGates.NodeSwap,
evictionHard.memory.available) is read as the bracket form. An object lists its
fields; KubeletConfiguration, or no PATH, lists the top-level ones. An unknown
field or gate exits 2. The rules are those that declare the field, a field
under it or an object it is part of, plus gated-field-ignored for gated fields.`,
		Example: `  kubeletcfg explain crashLoopBackOff.maxContainerRestartPeriod --kubelet-version 1.33
  kubeletcfg explain 'evictionHard[memory.available]'
  kubeletcfg explain authentication -o json
  kubeletcfg explain                # the top-level fields`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := report.CheckFormat(output, "json", "text"); err != nil {
				return err
			}
			query := ""
			if len(args) == 1 {
				query = args[0]
			}
			doc, err := kubeletcfg.Explain(kubeletcfg.Options{KubeletVersion: version}, query)
			if err != nil {
				return err
			}
			return finish(cmd, doc, output)
		},
	}
	cmd.Flags().StringVar(&version, "kubelet-version", kubelets.Default().Version, "kubelet minor ("+strings.Join(kubelets.Supported(), ", ")+"); v1.37.2 is accepted")
	outputFlag(cmd, &output, "text", "json", "text")
	_ = cmd.RegisterFlagCompletionFunc("kubelet-version", completeMinor)
	return cmd
}
