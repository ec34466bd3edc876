package skew

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
	"github.com/kubeletcfg/kubeletcfg/report"
)

// VersionDoc is the JSON document of one minor in kubeletcfg skew -o json: the
// lint document of that minor (report.Document, inline), the keys it silently
// drops and its effective configuration (null when it stops before it has one).
type VersionDoc struct {
	report.Document
	Dropped   []string       `json:"dropped"`
	Effective map[string]any `json:"effective"`
	// Tool and ToolRelease: the bootstrapper that ships this kubelet and its
	// release that runs it (Column); a tool without toolRelease has no release
	// ported for the minor.
	Tool        string `json:"tool,omitempty"`
	ToolRelease string `json:"toolRelease,omitempty"`
}

func versionDoc(c *Column) VersionDoc {
	return VersionDoc{Document: report.FromResult(c.Result), Dropped: nonNil(c.Result.Dropped), Effective: c.Effective,
		Tool: c.Tool, ToolRelease: c.ToolRelease}
}

// ReleaseText is c's tool release as the text reports show it: "v1.36.3+k0s.2",
// "none ported".
func (c *Column) ReleaseText() string {
	if c.ToolRelease == "" {
		return "none ported"
	}
	return c.ToolRelease
}

// WriteJSON prints {"versions":[...]}, oldest first.
func (mx *Matrix) WriteJSON(w io.Writer) error {
	docs := make([]VersionDoc, 0, len(mx.Columns))
	for _, c := range mx.Columns {
		docs = append(docs, versionDoc(c))
	}
	return report.WriteJSON(w, map[string][]VersionDoc{"versions": docs})
}

// WriteText prints the matrix (rows are aspects, columns minors), then the
// details of each minor that has any, then a verdict line.
func (mx *Matrix) WriteText(w io.Writer) error { return mx.WriteTextQuiet(w, false) }

// WriteTextQuiet is WriteText; quiet (--quiet) leaves out the closing summary line.
func (mx *Matrix) WriteTextQuiet(w io.Writer, quiet bool) error {
	var b strings.Builder
	ref := mx.Reference()
	tw := tabwriter.NewWriter(&b, 0, 0, 3, ' ', 0)
	row := func(label string, cell func(*Column) string) {
		cells := []string{label}
		for _, c := range mx.Columns {
			cells = append(cells, cell(c))
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	row("kubelet", func(c *Column) string { return c.Minor.Version })
	if tool := mx.Columns[0].Tool; tool != "" {
		row(tool, (*Column).ReleaseText)
	}
	row("starts", func(c *Column) string {
		f := c.Stop()
		switch {
		case c.Result.Panics && f != nil:
			return "panics: " + f.Rule
		case c.Result.Panics:
			return "panics"
		case f != nil:
			return "no: " + f.Rule
		case !c.Result.Starts:
			return "no"
		}
		return "yes"
	})
	row("keys dropped", func(c *Column) string { return count(len(c.Result.Dropped)) })
	row("gates unknown/locked", func(c *Column) string { return count(len(c.GateProblems())) })
	row("differs from "+ref.Minor.Version, func(c *Column) string {
		switch {
		case c == ref:
			return "(newest)"
		case c.Effective == nil || ref.Effective == nil:
			return "n/a"
		}
		return count(len(c.Differs))
	})
	row("crash-loop backoff", func(c *Column) string { return FormatBackoff(c.Result.CrashLoopBackOff) })
	if err := tw.Flush(); err != nil {
		return err
	}

	// Details per minor; consecutive minors with the same details share them.
	type block struct {
		minors  []string
		details string
	}
	var blocks []block
	for _, c := range mx.Columns {
		d, err := details(c, ref)
		if err != nil {
			return err
		}
		if d == "" {
			continue
		}
		if n := len(blocks); n > 0 && blocks[n-1].details == d && adjacent(mx, blocks[n-1].minors[len(blocks[n-1].minors)-1], c.Minor.Version) {
			blocks[n-1].minors = append(blocks[n-1].minors, c.Minor.Version)
			continue
		}
		blocks = append(blocks, block{[]string{c.Minor.Version}, d})
	}
	for _, bl := range blocks {
		fmt.Fprintf(&b, "\nkubelet %s\n%s", strings.Join(bl.minors, ", "), bl.details)
	}

	var stops []string
	for _, c := range mx.Columns {
		if !c.Result.Starts {
			stops = append(stops, c.Minor.Version)
		}
	}
	if quiet {
		_, err := io.WriteString(w, b.String())
		return err
	}
	b.WriteString("\n")
	switch {
	case len(stops) == 0:
		fmt.Fprintf(&b, "every kubelet minor in the window starts (%s)\n", versions(mx.Columns))
	default:
		fmt.Fprintf(&b, "kubelet %s would NOT start; run kubeletcfg lint --kubelet-version %s for every finding\n", strings.Join(stops, ", "), stops[0])
	}
	for _, c := range mx.Columns {
		if note := kubelets.PreReleaseNote(c.Minor.Version, c.Minor.PreReleaseVersion()); note != "" {
			b.WriteString("note: " + note + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// details are the lines of one minor below the table: why it does not start,
// what it drops, its gate problems and its differences from the reference.
func details(c, ref *Column) (string, error) {
	var d strings.Builder
	if f := c.Stop(); f != nil {
		verb := "does NOT start"
		if c.Result.Panics {
			verb = "does NOT start: panics"
		}
		fmt.Fprintf(&d, "  %s: %s %s: %s (%s)\n", verb, f.Rule, Reason(f), f.Message, f.Position)
		for _, b := range c.Result.Findings {
			if b.Severity == finding.Error && b.Behind != "" {
				fmt.Fprintf(&d, "  once %s is fixed: %s %s: %s (%s)\n", b.Behind, b.Rule, Reason(&b), b.Message, b.Position)
			}
		}
	}
	if len(c.Result.Dropped) > 0 {
		fmt.Fprintf(&d, "  keys dropped: %s\n", strings.Join(c.Result.Dropped, ", "))
	}
	for _, f := range c.GateProblems() {
		fmt.Fprintf(&d, "  gate %s: %s [%s] (%s)\n", GateName(f.Path), Reason(&f), f.Rule, f.Position)
	}
	if len(c.Differs) > 0 {
		fmt.Fprintf(&d, "  differs from %s:\n", ref.Minor.Version)
		dw := tabwriter.NewWriter(&d, 0, 0, 2, ' ', 0)
		for _, ch := range c.Differs {
			fmt.Fprintf(dw, "    %s\t%s\t(%s: %s)\n", ch.Path, kubelets.Format(ch.From), ref.Minor.Version, kubelets.Format(ch.To))
		}
		if err := dw.Flush(); err != nil {
			return "", err
		}
	}
	return d.String(), nil
}

// adjacent reports whether minor b directly follows a in the matrix.
func adjacent(mx *Matrix, a, b string) bool {
	for i := 1; i < len(mx.Columns); i++ {
		if mx.Columns[i-1].Minor.Version == a {
			return mx.Columns[i].Minor.Version == b
		}
	}
	return false
}

func versions(cs []*Column) string {
	vs := make([]string, len(cs))
	for i, c := range cs {
		vs[i] = c.Minor.Version
	}
	return strings.Join(vs, ", ")
}

func count(n int) string {
	if n == 0 {
		return "-"
	}
	return strconv.Itoa(n)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// preflightDoc is the JSON document of kubeletcfg preflight -o json.
type preflightDoc struct {
	From string `json:"from"`
	To   string `json:"to"`
	// Tool, for a bootstrapper that ships its own kubelet, and its releases
	// that run at from and at to ("" when none ported does).
	Tool     string `json:"tool,omitempty"`
	Releases *struct {
		From string `json:"from"`
		To   string `json:"to"`
	} `json:"toolReleases,omitempty"`
	// Verdict is the target minor's (starts, panics, refusedBy, kubeletVerdict).
	pipeline.Verdict
	Blockers         []finding.Finding `json:"blockers"`
	Comparable       bool              `json:"comparable"`
	Changes          []BehaviourChange `json:"changes"`
	CrashLoopBackOff struct {
		From *pipeline.Backoff `json:"from"`
		To   *pipeline.Backoff `json:"to"`
	} `json:"crashLoopBackOff"`
	CgroupV1     string      `json:"cgroupV1,omitempty"`
	Gates        []GateNote  `json:"gates"`
	Fields       []FieldNote `json:"fields"`
	NewlyApplied []string    `json:"newlyApplied"`
	Rollback     struct {
		report.Document
		Dropped []string `json:"dropped"`
	} `json:"rollback"`
}

// WriteJSON prints the preflight as one JSON document.
func (p *Preflight) WriteJSON(w io.Writer) error {
	d := preflightDoc{
		From: p.From.Minor.Version, To: p.To.Minor.Version,
		Verdict:  p.To.Result.Verdict,
		Blockers: p.Blockers, Comparable: p.Comparable, Changes: p.Changes,
		CgroupV1: p.CgroupV1, Gates: p.Gates, Fields: p.Fields, NewlyApplied: nonNil(p.NewlyApplied),
	}
	if d.Changes == nil {
		d.Changes = []BehaviourChange{}
	}
	if d.Gates == nil {
		d.Gates = []GateNote{}
	}
	if d.Fields == nil {
		d.Fields = []FieldNote{}
	}
	if d.Tool = p.From.Tool; d.Tool != "" {
		d.Releases = &struct {
			From string `json:"from"`
			To   string `json:"to"`
		}{p.From.ToolRelease, p.To.ToolRelease}
	}
	d.CrashLoopBackOff.From = p.From.Result.CrashLoopBackOff
	d.CrashLoopBackOff.To = p.To.Result.CrashLoopBackOff
	d.Rollback.Document = report.FromResult(p.From.Result)
	d.Rollback.Dropped = nonNil(p.From.Result.Dropped)
	return report.WriteJSON(w, d)
}

// WriteText prints the preflight: blockers, then behaviour changes, then notes.
func (p *Preflight) WriteText(w io.Writer) error { return p.WriteTextQuiet(w, false) }

// WriteTextQuiet is WriteText; quiet (--quiet) stops after the blockers and the
// behaviour changes, without the notes.
func (p *Preflight) WriteTextQuiet(w io.Writer, quiet bool) error {
	return p.WriteTextWith(w, TextOptions{Quiet: quiet})
}

// TextOptions shape the preflight text for a report that embeds it (kubeletcfg
// cluster preflight, one per group).
type TextOptions struct {
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

// WriteTextWith is WriteText with options.
func (p *Preflight) WriteTextWith(w io.Writer, opt TextOptions) error {
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
	p        *Preflight
	opt      TextOptions
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
		fmt.Fprintf(b, "kubelet %s -> %s\n", t.from, t.to)
		if tool := p.From.Tool; tool != "" {
			fmt.Fprintf(b, "%s %s -> %s\n", tool, p.From.ReleaseText(), p.To.ReleaseText())
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
			now += fmt.Sprintf(": %s %s (%s)", f.Rule, Reason(f), t.where(f.Position, f.Path))
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
		case GateRemoved:
			fix := ""
			if g.LockedAtSource != nil && g.Value != nil && *g.Value == *g.LockedAtSource {
				// The entry changes nothing at the source: fix's gate repair proves it.
				fix = fmt.Sprintf(" (%s locks it to %t, so kubeletcfg fix --versions %s..%s removes it)", t.from, *g.LockedAtSource, t.from, t.to)
			}
			notes = append(notes, fmt.Sprintf("gate %s%s%s: not registered at %s (at %s: %s), the kubelet panics on an unknown gate; remove the entry%s", g.Name, set, at, t.to, t.from, g.AtSource, fix))
		case GateGALocked:
			notes = append(notes, fmt.Sprintf("gate %s%s%s: at %s GA and locked to %t since %s (at %s: %s); remove the entry before the gate is removed", g.Name, set, at, t.to, *g.Default, g.Since, t.from, g.AtSource))
		case GateDeprecated:
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
		case FieldRemoved:
			notes = append(notes, fmt.Sprintf("field %s%s: kubelet %s does not have it and drops it (%s applies it)", f.Path, at, t.to, t.from))
		case FieldDeprecated:
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
		rb += fmt.Sprintf("panics: %s %s (%s)", f.Rule, Reason(f), t.where(f.Position, f.Path))
	case f != nil:
		rb += fmt.Sprintf("does NOT start: %s %s (%s)", f.Rule, Reason(f), t.where(f.Position, f.Path))
	case !p.From.Result.Starts:
		rb += "does NOT start"
	default:
		rb += "starts; crash-loop backoff " + FormatBackoff(p.From.Result.CrashLoopBackOff)
	}
	if d := p.From.Result.Dropped; len(d) > 0 {
		rb += "; keys dropped: " + strings.Join(d, ", ")
	} else {
		rb += "; no keys dropped"
	}
	return []string{rb}
}

func backoffText(c *Column) string {
	if c.Result.CrashLoopBackOff == nil {
		return "- (does not start)"
	}
	return FormatBackoff(c.Result.CrashLoopBackOff)
}

// Write prints the preflight as `kubeletcfg preflight -o FORMAT` does: json, or
// text (opt.Quiet: without the notes).
func (p *Preflight) Write(w io.Writer, format string, opt report.Options) error {
	switch format {
	case "json":
		return p.WriteJSON(w)
	case "text":
		return p.WriteTextQuiet(w, opt.Quiet)
	}
	return report.CheckFormat(format, "json", "text")
}

// CountAtLeast is the --fail-on count of a preflight: the target minor's findings.
func (p *Preflight) CountAtLeast(threshold finding.Severity) int {
	return finding.CountAtLeast(p.To.Result.Findings, threshold)
}
