package verbtext

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/report"
	"github.com/kubeletcfg/kubeletcfg/skew"
)

// PreflightOptions shape the preflight text: --quiet, and a report that embeds
// it (kubeletcfg cluster preflight, one per group).
type PreflightOptions struct {
	// Quiet leaves out the notes (--quiet).
	Quiet bool
	// Compact leaves out the "kubelet A -> B" line (the embedding report's
	// group line says it) and the sections with nothing to say.
	Compact bool
	// Where, when set, prints a position; path is the field at it ("" for
	// none). A configz dump is one JSON line: its field path says more than
	// configz:1:1953.
	Where func(pos finding.Position, path string) string
}

// WritePreflight prints the preflight of kubeletcfg preflight: blockers, then
// behaviour changes, then notes (opt.Quiet: without the notes).
func WritePreflight(w io.Writer, p *skew.Preflight, opt PreflightOptions) error {
	t := &preflightText{p: p, opt: opt, where: opt.Where, from: p.From.Minor.Version, to: p.To.Minor.Version}
	if t.where == nil {
		t.where = func(pos finding.Position, _ string) string { return pos.String() }
	}
	t.header()
	t.blockers()
	if err := t.changes(); err != nil {
		return err
	}
	if !opt.Quiet {
		t.section("Notes", append(append(t.gateNotes(), t.fieldNotes()...), t.rollbackNotes()...))
	}
	_, err := io.WriteString(w, t.b.String())
	return err
}

// preflightText writes a Preflight as text, one method per section, in the
// order the report reads: the move, what blocks it, what changes, notes.
type preflightText struct {
	p        *skew.Preflight
	opt      PreflightOptions
	where    func(finding.Position, string) string
	from, to string
	b        strings.Builder
}

// header names the move and what a reader must know before the sections: a
// pre-release minor, and a pool whose files already fail at --from (not
// running them as given comes before anything the move changes).
func (t *preflightText) header() {
	p, b := t.p, &t.b
	if !t.opt.Compact {
		os := ""
		if p.To.Result != nil && p.To.Result.OS == kubelets.Windows {
			os = " (windows)"
		}
		fmt.Fprintf(b, "kubelet %s -> %s%s\n", t.from, t.to, os)
		if tool := p.From.Tool; tool != "" {
			fmt.Fprintf(b, "%s %s -> %s\n", tool, ReleaseText(p.From), ReleaseText(p.To))
		}
	}
	for _, m := range []*kubelets.Minor{p.From.Minor, p.To.Minor} {
		if note := kubelets.PreReleaseNote(m.Version, m.PreReleaseVersion()); note != "" {
			b.WriteString("note: " + note + "\n")
		}
	}
	if p.From != p.To && !p.From.Result.Starts {
		now := fmt.Sprintf("kubelet %s, which the pool runs now, does NOT start with these files", t.from)
		if p.From.Result.Panics {
			now = fmt.Sprintf("kubelet %s, which the pool runs now, panics at startup with these files", t.from)
		}
		if f := p.From.Stop(); f != nil {
			now += fmt.Sprintf(": %s %s (%s)", f.Rule, skew.Reason(f), t.where(f.Position, f.Path))
		}
		b.WriteString("note: " + now + "; are these the files the nodes have?\n")
	}
}

// start starts a section; Compact puts no blank line before the first.
func (t *preflightText) start(title string) {
	if !t.opt.Compact || t.b.Len() > 0 {
		t.b.WriteString("\n")
	}
	t.b.WriteString(title)
}

// section writes a section of one line per entry, or ": none" (nothing at
// all when Compact).
func (t *preflightText) section(title string, lines []string) {
	switch {
	case len(lines) == 0 && t.opt.Compact:
		return
	case len(lines) == 0:
		t.start(title)
		t.b.WriteString(": none\n")
		return
	}
	t.start(title)
	t.b.WriteString("\n")
	for _, l := range lines {
		fmt.Fprintf(&t.b, "  %s\n", l)
	}
}

// blockers is what stops the kubelet at --to, each finding with its hint and
// what it hid.
func (t *preflightText) blockers() {
	p, b := t.p, &t.b
	switch {
	case len(p.Blockers) == 0 && t.opt.Compact:
	case len(p.Blockers) == 0:
		t.start("Blockers")
		fmt.Fprintf(b, ": none, kubelet %s starts\n", t.to)
	case p.To.Result.Panics:
		t.start("Blockers")
		fmt.Fprintf(b, ": kubelet %s panics at startup\n", t.to)
	case p.To.Result.Bootstrapper() != "":
		t.start("Blockers")
		fmt.Fprintf(b, ": %s for kubelet %s, the node gets no kubelet\n", p.To.Result.Bootstrapper(), t.to)
	default:
		t.start("Blockers")
		fmt.Fprintf(b, ": kubelet %s refuses this configuration\n", t.to)
	}
	for _, f := range p.Blockers {
		fmt.Fprintf(b, "  %s: %s [%s]\n", t.where(f.Position, f.Path), f.Message, f.Rule)
		if f.Hint != "" {
			fmt.Fprintf(b, "      hint: %s\n", f.Hint)
		}
		if f.Behind != "" {
			fmt.Fprintf(b, "      behind: %s\n", report.BehindText(f))
		}
	}
}

// changes is the effective values that differ between the two minors, as a
// table, then the crash-loop backoff and the cgroup v1 note.
func (t *preflightText) changes() error {
	p, b := t.p, &t.b
	title := fmt.Sprintf("Behaviour changes (effective values, %s -> %s)", t.from, t.to)
	switch {
	case !p.Comparable:
		stopped := p.From
		if p.To.Effective == nil {
			stopped = p.To
		}
		t.start(title)
		fmt.Fprintf(b, ": not computed, kubelet %s stops before it has a configuration\n", stopped.Minor.Version)
	case len(p.Changes) == 0 && !p.BackoffChanged() && t.opt.Compact:
	case len(p.Changes) == 0 && !p.BackoffChanged():
		t.start(title)
		b.WriteString(": none\n")
	default:
		t.start(title)
		b.WriteString("\n")
	}
	tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
	for _, c := range p.Changes {
		origin := "default"
		if c.SetBy != nil {
			origin = "from " + t.where(*c.SetBy, "")
		}
		was := kubelets.Format(c.From)
		if c.NewField {
			was = "(not in " + t.from + ")"
		}
		fmt.Fprintf(tw, "  %s\t%s -> %s\t%s\n", c.Path, was, kubelets.Format(c.To), origin)
	}
	if p.BackoffChanged() {
		fmt.Fprintf(tw, "  crash-loop backoff (initial/cap)\t%s -> %s\n", backoffText(p.From), backoffText(p.To))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if p.CgroupV1 != "" {
		fmt.Fprintf(b, "  cgroup v1: %s\n", p.CgroupV1)
	}
	return nil
}

// gateNotes says, for each gate the files set, what --to does with it.
func (t *preflightText) gateNotes() []string {
	var notes []string
	for _, g := range t.p.Gates {
		set := ""
		if g.Value != nil {
			set = fmt.Sprintf("=%t", *g.Value)
		}
		at := ""
		if g.SetBy != nil {
			at = " (" + t.where(*g.SetBy, "") + ")"
		}
		switch g.Status {
		case skew.GateRemoved:
			fix := ""
			if g.LockedAtSource != nil && g.Value != nil && *g.Value == *g.LockedAtSource {
				// The entry changes nothing at the source: fix's gate repair proves it.
				fix = fmt.Sprintf(" (%s locks it to %t, so kubeletcfg fix --versions %s..%s removes it)", t.from, *g.LockedAtSource, t.from, t.to)
			}
			notes = append(notes, fmt.Sprintf("gate %s%s%s: not registered at %s (at %s: %s), the kubelet panics on an unknown gate; remove the entry%s", g.Name, set, at, t.to, t.from, g.AtSource, fix))
		case skew.GateGALocked:
			notes = append(notes, fmt.Sprintf("gate %s%s%s: at %s GA and locked to %t since %s (at %s: %s); remove the entry before the gate is removed", g.Name, set, at, t.to, *g.Default, g.Since, t.from, g.AtSource))
		case skew.GateDeprecated:
			notes = append(notes, fmt.Sprintf("gate %s%s%s: at %s deprecated since %s (at %s: %s); it will be removed", g.Name, set, at, t.to, g.Since, t.from, g.AtSource))
		}
	}
	return notes
}

// fieldNotes is the fields --to drops or deprecates, and those only --to applies.
func (t *preflightText) fieldNotes() []string {
	var notes []string
	for _, f := range t.p.Fields {
		at := ""
		if f.SetBy != nil {
			at = " (" + t.where(*f.SetBy, "") + ")"
		}
		switch f.Status {
		case skew.FieldRemoved:
			notes = append(notes, fmt.Sprintf("field %s%s: kubelet %s does not have it and drops it (%s applies it)", f.Path, at, t.to, t.from))
		case skew.FieldDeprecated:
			notes = append(notes, fmt.Sprintf("field %s%s: deprecated at %s: %s", f.Path, at, t.to, f.Doc))
		}
	}
	if len(t.p.NewlyApplied) > 0 {
		notes = append(notes, fmt.Sprintf("applied from %s (kubelet %s drops them): %s", t.to, t.from, strings.Join(t.p.NewlyApplied, ", ")))
	}
	return notes
}

// rollbackNotes is the rollback check: the same files at --from.
func (t *preflightText) rollbackNotes() []string {
	p := t.p
	if p.From == p.To {
		return nil
	}
	rb := fmt.Sprintf("rollback to %s: ", t.from)
	switch f := p.From.Stop(); {
	case p.From.Result.Panics && f != nil:
		rb += fmt.Sprintf("panics: %s %s (%s)", f.Rule, skew.Reason(f), t.where(f.Position, f.Path))
	case f != nil:
		rb += fmt.Sprintf("does NOT start: %s %s (%s)", f.Rule, skew.Reason(f), t.where(f.Position, f.Path))
	case !p.From.Result.Starts:
		rb += "does NOT start"
	default:
		rb += "starts; crash-loop backoff " + skew.FormatBackoff(p.From.Result.CrashLoopBackOff)
	}
	if d := p.From.Result.Dropped; len(d) > 0 {
		rb += "; keys dropped: " + strings.Join(d, ", ")
	} else {
		rb += "; no keys dropped"
	}
	return []string{rb}
}

func backoffText(c *skew.Column) string {
	if c.Result.CrashLoopBackOff == nil {
		return "- (does not start)"
	}
	return skew.FormatBackoff(c.Result.CrashLoopBackOff)
}
