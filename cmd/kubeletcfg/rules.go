package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/kubeletcfg/kubeletcfg/validate"
)

func newRulesCommand() *cobra.Command {
	var output string
	cmd := &cobra.Command{
		Use:   "rules [ID...]",
		Short: "List the rules kubeletcfg checks, or explain some",
		// -o markdown prints the registry's part of docs/rules.md; the file
		// itself, with examples from the conformance corpus, is written by
		// go run ./internal/rulesdoc/cmd, since the binary carries no corpus.
		Example: `  kubeletcfg rules
  kubeletcfg rules KC3001 KC2007
  kubeletcfg rules -o markdown > rules.md`,
		RunE: func(cmd *cobra.Command, args []string) error {
			out := cmd.OutOrStdout()
			switch output {
			case "markdown":
				return validate.WriteMarkdown(out)
			case "text":
			default:
				return fmt.Errorf("unknown output format %q (want text or markdown)", output)
			}
			if len(args) > 0 {
				for _, id := range args {
					r, ok := validate.Lookup(id)
					if !ok {
						return fmt.Errorf("no rule %q (kubeletcfg rules lists them)", id)
					}
					fmt.Fprintf(out, "%s %s (%s, stage %s)\n  %s\n\n  %s\n", r.ID, r.Name, r.Severity, r.Stage, r.Summary, r.Doc)
					if fix := r.Fix(); fix != "" {
						fmt.Fprintf(out, "\n  fix: %s\n", fix)
					}
					if r.Kubelet != "" {
						fmt.Fprintf(out, "\n  mirrors: %s\n", r.Kubelet)
					}
					fmt.Fprintln(out)
				}
				return nil
			}
			tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tSEVERITY\tSTAGE\tNAME")
			for _, r := range validate.Rules() {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.ID, r.Severity, r.Stage, r.Name)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().StringVarP(&output, "output", "o", "text", "output format: text or markdown")
	return cmd
}
