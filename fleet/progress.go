package fleet

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"golang.org/x/term"
)

// Progress prints "reading nodes: done/total, failed" (of CONTEXT, with
// several contexts) on w while nodes are read, when w is a terminal; nothing
// otherwise. Update is cluster.Request.Progress; Done clears the line.
type Progress struct {
	w       io.Writer
	on      bool
	context bool
	last    time.Time
	line    string
}

// NewProgress is a Progress on w; context names the context on each line.
func NewProgress(w io.Writer, context bool) *Progress {
	f, ok := w.(*os.File)
	return &Progress{w: w, on: ok && term.IsTerminal(int(f.Fd())), context: context}
}

// Update shows the count of one context's nodes read, at most every 100ms
// (and always the last).
func (p *Progress) Update(context string, done, failed, total int) {
	if !p.on || (done < total && time.Since(p.last) < 100*time.Millisecond) {
		return
	}
	p.last = time.Now()
	of := ""
	if p.context {
		of = " of " + context
	}
	line := fmt.Sprintf("reading nodes%s: %d/%d, %d failed", of, done, total, failed)
	// Pad over a longer line of the context before.
	fmt.Fprint(p.w, "\r"+line+strings.Repeat(" ", max(0, len(p.line)-len(line))))
	p.line = line
}

// Done clears the line.
func (p *Progress) Done() {
	if p.on && p.line != "" {
		fmt.Fprint(p.w, "\r"+strings.Repeat(" ", len(p.line))+"\r")
	}
}
