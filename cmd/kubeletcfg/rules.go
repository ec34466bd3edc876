package main

import (
	"github.com/kubeletcfg/kubeletcfg/rule"
	"github.com/spf13/cobra"
)

func newRulesCommand() *cobra.Command {
	var output string
	cmd := &cobra.Command{
		Use:   "rules [ID|NAME...]",
		Short: "List the rules kubeletcfg checks, or explain some",
		// -o markdown prints the registry's part of docs/rules.md; the file
		// itself, with examples from the conformance corpus, is written by
		// go run ./internal/rulesdoc/cmd, since the binary carries no corpus.
		Example: `  kubeletcfg rules
  kubeletcfg rules KC3001 KC2007
  kubeletcfg rules gate-unknown
  kubeletcfg rules -o markdown > rules.md`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return rule.WriteRules(cmd.OutOrStdout(), output, args)
		},
	}
	cmd.Flags().StringVarP(&output, "output", "o", "text", "output format: text or markdown")
	return cmd
}
