package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/kubeletcfg/kubeletcfg"
	"github.com/kubeletcfg/kubeletcfg/validate"
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
			if output != "yaml" && output != "json" {
				return fmt.Errorf("unknown output format %q (want yaml or json)", output)
			}
			if showOrigin && output == "json" {
				return fmt.Errorf("--show-origin needs -o yaml (JSON has no comments)")
			}
			e, err := kubeletcfg.Effective(in.options())
			if err != nil {
				return err
			}
			out, err := e.Render(output, showOrigin)
			if err != nil {
				return err
			}
			if _, err := cmd.OutOrStdout().Write(out); err != nil {
				return err
			}
			res := e.Result
			if !res.Starts {
				n := kubeletcfg.CountAtLeast(res.Findings, validate.Error)
				fmt.Fprintf(cmd.ErrOrStderr(), "kubeletcfg: kubelet %s would not start with this configuration (%d %s); run kubeletcfg lint for details\n", res.Minor.Version, n, plural(n, "error", "errors"))
				return &findingsError{N: n}
			}
			return nil
		},
	}
	in.register(cmd)
	in.registerDiscover(cmd)
	cmd.Flags().StringVarP(&output, "output", "o", "yaml", "output format: yaml or json")
	cmd.Flags().BoolVar(&showOrigin, "show-origin", false, "annotate each field with the file:line that set it, or (default)")
	_ = cmd.RegisterFlagCompletionFunc("output", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return []string{"yaml", "json"}, cobra.ShellCompDirectiveNoFileComp
	})
	return cmd
}
