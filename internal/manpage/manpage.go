// Package manpage writes the man pages that cobra/doc generated ahead of time
// (cmd/kubeletcfg/man, embedded in the binary) with the header's date and
// source filled in, so that `kubeletcfg docs man` does not link cobra/doc.
package manpage

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/kubeletcfg/kubeletcfg/internal/atomicfile"
)

// Placeholders in the generated pages' .TH line.
const (
	Date   = "Jan 1970" // the header's date: cobra/doc formats it as Jan 2006
	Source = "kubeletcfg"
)

// HeaderDate is the date cobra/doc puts in a header: SOURCE_DATE_EPOCH when
// set (reproducible builds), else now, in the local time zone.
func HeaderDate() time.Time {
	if epoch := os.Getenv("SOURCE_DATE_EPOCH"); epoch != "" {
		if s, err := strconv.ParseInt(epoch, 10, 64); err == nil {
			return time.Unix(s, 0)
		}
	}
	return time.Now()
}

// Write writes the pages man/*.1 of pages into dir (created if missing) with
// the header's date and source filled in, each atomically.
func Write(pages fs.FS, dir string, date time.Time, source string) error {
	names, err := fs.Glob(pages, "man/*.1")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, p := range names {
		page, err := fs.ReadFile(pages, p)
		if err != nil {
			return err
		}
		head, rest, _ := strings.Cut(string(page), "\n.TH ")
		th, body, _ := strings.Cut(rest, "\n")
		th = strings.Replace(th, strconv.Quote(Date)+" "+strconv.Quote(Source)+" ", strconv.Quote(date.Format("Jan 2006"))+" "+strconv.Quote(source)+" ", 1)
		out := head + "\n.TH " + th + "\n" + body
		if err := atomicfile.Write(filepath.Join(dir, filepath.Base(p)), []byte(out), atomicfile.Options{Overwrite: true}); err != nil {
			return fmt.Errorf("writing man pages to %s: %w", dir, err)
		}
	}
	return nil
}
