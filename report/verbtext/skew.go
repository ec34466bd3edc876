package verbtext

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/skew"
	"github.com/kubeletcfg/kubeletcfg/validate"
)

// ReleaseText is c's tool release as the text reports show it: "v1.36.3+k0s.2",
// "none ported".
func ReleaseText(c *skew.Column) string {
	if c.ToolRelease == "" {
		return "none ported"
	}
	return c.ToolRelease
}

// WriteMatrix prints the matrix of kubeletcfg skew (rows are aspects, columns
// minors), then the details of each minor that has any, then a verdict line;
// quiet (--quiet) leaves out the closing summary line.
func WriteMatrix(w io.Writer, mx *skew.Matrix, quiet bool) error {
	var b strings.Builder
	ref := mx.Reference()
	tw := tabwriter.NewWriter(&b, 0, 0, 3, ' ', 0)
	row := func(label string, cell func(*skew.Column) string) {
		cells := []string{label}
		for _, c := range mx.Columns {
			cells = append(cells, cell(c))
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	label := "kubelet"
	if r := mx.Columns[0].Result; r != nil && r.OS == kubelets.Windows {
		label += " (windows)"
	}
	row(label, func(c *skew.Column) string { return c.Minor.Version })
	if tool := mx.Columns[0].Tool; tool != "" {
		row(tool, ReleaseText)
	}
	row("starts", func(c *skew.Column) string {
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
	row("keys dropped", func(c *skew.Column) string { return count(len(c.Result.Dropped)) })
	row("gates unknown/locked", func(c *skew.Column) string { return count(len(c.GateProblems())) })
	row("differs from "+ref.Minor.Version, func(c *skew.Column) string {
		switch {
		case c == ref:
			return "(newest)"
		case c.Effective == nil || ref.Effective == nil:
			return "n/a"
		}
		return count(len(c.Differs))
	})
	row("crash-loop backoff", func(c *skew.Column) string { return skew.FormatBackoff(c.Result.CrashLoopBackOff) })
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
func details(c, ref *skew.Column) (string, error) {
	var d strings.Builder
	if f := c.Stop(); f != nil {
		verb := "does NOT start"
		if c.Result.Panics {
			verb = "does NOT start: panics"
		}
		fmt.Fprintf(&d, "  %s: %s %s: %s (%s)\n", verb, f.Rule, skew.Reason(f), f.Message, f.Position)
		for _, b := range c.Result.Findings {
			if b.Severity == finding.Error && b.Behind != "" {
				fmt.Fprintf(&d, "  once %s is fixed: %s %s: %s (%s)\n", b.Behind, b.Rule, skew.Reason(&b), b.Message, b.Position)
			}
		}
	}
	if len(c.Result.Dropped) > 0 {
		fmt.Fprintf(&d, "  keys dropped: %s\n", strings.Join(c.Result.Dropped, ", "))
	}
	for _, f := range c.GateProblems() {
		fmt.Fprintf(&d, "  gate %s: %s [%s] (%s)\n", skew.GateName(f.Path), skew.Reason(&f), f.Rule, f.Position)
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
func adjacent(mx *skew.Matrix, a, b string) bool {
	for i := 1; i < len(mx.Columns); i++ {
		if mx.Columns[i-1].Minor.Version == a {
			return mx.Columns[i].Minor.Version == b
		}
	}
	return false
}

func versions(cs []*skew.Column) string {
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

// WriteProfile prints, after the matrix, the findings of the --profile rules
// (what the policy left of them) in a section of their own, minors with the
// same findings shown once.
func WriteProfile(w io.Writer, mx *skew.Matrix, profile string) error {
	rules, _ := validate.ProfileRules(profile)
	ofProfile := map[string]bool{}
	for _, r := range rules {
		ofProfile[r.ID] = true
	}
	perMinor := make([][]finding.Finding, len(mx.Columns))
	for i, c := range mx.Columns {
		for _, f := range c.Result.Findings {
			if ofProfile[f.Rule] {
				perMinor[i] = append(perMinor[i], f)
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n--profile %s: findings on the effective configuration of each minor\n", profile)
	for i := 0; i < len(mx.Columns); {
		j := i + 1
		for j < len(mx.Columns) && sameFindings(perMinor[i], perMinor[j]) &&
			(mx.Columns[i].Result.Effective == nil) == (mx.Columns[j].Result.Effective == nil) {
			j++
		}
		var names []string
		for _, c := range mx.Columns[i:j] {
			names = append(names, c.Minor.Version)
		}
		fmt.Fprintf(&b, "\nkubelet %s\n", strings.Join(names, ", "))
		switch {
		case mx.Columns[i].Result.Effective == nil:
			b.WriteString("  not checked: the kubelet stops before it has a configuration\n")
		case len(perMinor[i]) == 0:
			b.WriteString("  no findings\n")
		}
		for _, f := range perMinor[i] {
			fmt.Fprintf(&b, "  %s: %s [%s]\n", f.Position, f.Message, f.Rule)
		}
		i = j
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func sameFindings(a, b []finding.Finding) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Rule != b[i].Rule || a[i].Position != b[i].Position || a[i].Message != b[i].Message {
			return false
		}
	}
	return true
}
