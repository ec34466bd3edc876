package main

import (
	"github.com/spf13/cobra"

	"github.com/kubeletcfg/kubeletcfg"
	"github.com/kubeletcfg/kubeletcfg/cmd/kubeletcfg/internal/flags"
)

func newEffectiveCommand() *cobra.Command {
	var in inputFlags
	var output string
	var showOrigin bool
	cmd := &cobra.Command{
		Use:   "effective [PATH]",
		Short: "Print the configuration the kubelet would run with (merged and defaulted)",
		Long: `Print the KubeletConfiguration the kubelet holds after reading --config, merging the
--config-dir drop-ins and applying its defaults: every field, including the ones no
file sets. With --show-origin each field says where its value came from.

If the kubelet would not start, the configuration is still printed when it exists,
a note goes to stderr and the exit code is 1.`,
		Example: `  kubeletcfg effective -c config.yaml -d conf.d
  kubeletcfg effective -c config.yaml -d conf.d --show-origin
  kubeletcfg effective -c config.yaml -o json | jq .crashLoopBackOff`,
		Args: onePath,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := in.takePath(args); err != nil {
				return err
			}
			if err := flags.CheckEffectiveFormat(output, showOrigin); err != nil {
				return err
			}
			e, err := kubeletcfg.Effective(in.options())
			if err != nil {
				return err
			}
			e.ShowOrigin = showOrigin
			return finish(cmd, e, output)
		},
	}
	in.register(cmd)
	in.registerDiscover(cmd)
	cmd.Flags().StringVarP(&output, "output", "o", "yaml", "output format: yaml or json")
	completeWith(cmd, "output", "yaml", "json")
	cmd.Flags().BoolVar(&showOrigin, "show-origin", false, "annotate each field with the file:line that set it, or # default where the kubelet's default applies")
	return cmd
}
