package main

import (
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/kubeletcfg/kubeletcfg/internal/atomicfile"
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

// Placeholders in the generated pages' .TH line.
const (
	manDate   = "Jan 1970" // the header's date: cobra/doc formats it as Jan 2006
	manSource = "kubeletcfg"
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
			return writeManPages(args[0], manHeaderDate(), "kubeletcfg "+report.Version())
		},
	}
	docs.AddCommand(man)
	return docs
}

// manHeaderDate is the date cobra/doc puts in a header: SOURCE_DATE_EPOCH
// when set, else now, in the local time zone.
func manHeaderDate() time.Time {
	if epoch := os.Getenv("SOURCE_DATE_EPOCH"); epoch != "" {
		if s, err := strconv.ParseInt(epoch, 10, 64); err == nil {
			return time.Unix(s, 0)
		}
	}
	return time.Now()
}

// writeManPages writes the generated pages into dir with the header's date
// and source filled in, each atomically.
func writeManPages(dir string, date time.Time, source string) error {
	pages, err := fs.Glob(manPages, "man/*.1")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, p := range pages {
		page, err := manPages.ReadFile(p)
		if err != nil {
			return err
		}
		head, rest, _ := strings.Cut(string(page), "\n.TH ")
		th, body, _ := strings.Cut(rest, "\n")
		th = strings.Replace(th, strconv.Quote(manDate)+" "+strconv.Quote(manSource)+" ", strconv.Quote(date.Format("Jan 2006"))+" "+strconv.Quote(source)+" ", 1)
		out := head + "\n.TH " + th + "\n" + body
		if err := atomicfile.Write(filepath.Join(dir, filepath.Base(p)), []byte(out), atomicfile.Options{Overwrite: true}); err != nil {
			return fmt.Errorf("writing man pages to %s: %w", dir, err)
		}
	}
	return nil
}
