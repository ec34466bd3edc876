package main

import (
	"embed"

	"github.com/spf13/cobra"

	"github.com/kubeletcfg/kubeletcfg/internal/manpage"
	"github.com/kubeletcfg/kubeletcfg/report"
)

// manPages are the man pages of every command, generated from the command
// tree by cobra/doc (go test ./cmd/kubeletcfg -run TestManPagesFresh -update
// rewrites them; the test fails when they are stale). They are generated ahead
// rather than by `docs man` so that cobra/doc and the Markdown renderer it
// brings are not linked: their initialisation cost about 0.4 ms of every run.
// The header's date and source are placeholders, filled in when written.
//
//go:embed man/*.1
var manPages embed.FS

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
			// the generated pages with the header's date and source filled in, each atomically
			return manpage.Write(manPages, args[0], manpage.HeaderDate(), "kubeletcfg "+report.Version())
		},
	}
	docs.AddCommand(man)
	return docs
}
