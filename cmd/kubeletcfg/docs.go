package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"

	"github.com/kubeletcfg/kubeletcfg/report"
)

// newDocsCommand is hidden: it is for packagers (man pages in a release
// archive or a distribution package), not for checking configurations.
func newDocsCommand() *cobra.Command {
	docs := &cobra.Command{
		Use:    "docs",
		Short:  "Generate documentation for packaging",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return cmd.Help()
		},
	}
	man := &cobra.Command{
		Use:   "man DIR",
		Short: "Write one man page (section 1) per command into DIR",
		Long: `Write one man page per kubeletcfg command into DIR (created if missing), named
kubeletcfg.1, kubeletcfg-lint.1, ... The date in the header is
SOURCE_DATE_EPOCH when set, for reproducible builds, else today.`,
		Example: `  kubeletcfg docs man ./man && man -l man/kubeletcfg-lint.1`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := args[0]
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
			root := cmd.Root()
			// The generated-by footer carries the date again; the header has it.
			root.DisableAutoGenTag = true
			header := &doc.GenManHeader{
				Section: "1",
				Source:  "kubeletcfg " + report.Version(),
				Manual:  "kubeletcfg manual",
			}
			if err := doc.GenManTree(root, header, dir); err != nil {
				return fmt.Errorf("writing man pages to %s: %w", dir, err)
			}
			return nil
		},
	}
	docs.AddCommand(man)
	return docs
}
