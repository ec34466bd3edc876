package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/kubeletcfg/kubeletcfg/backoff"
	"github.com/kubeletcfg/kubeletcfg/matrix"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
	"github.com/kubeletcfg/kubeletcfg/skew"
	"github.com/kubeletcfg/kubeletcfg/validate"
)

func newBackoffCommand() *cobra.Command {
	var in inputFlags
	var output, versions string
	var compare []string
	cmd := &cobra.Command{
		Use:   "backoff [PATH]",
		Short: "Show the crash-loop backoff curve: how long the kubelet waits before each restart",
		Long: `Play out the crash-loop backoff the kubelet would apply with these files: the wait
before each restart of a container that keeps crashing (the first restart is
immediate, then the initial delay, doubling up to the cap), when the cap is
reached, how many restarts fit in the first 10 minutes and the first hour, and
after how long a container that runs cleanly starts again from the initial delay.

The initial delay and the cap are the kubelet's newCrashLoopBackOff for the
effective configuration (ReduceDefaultCrashLoopBackOffDecay,
KubeletCrashLoopBackOffMax, crashLoopBackOff.maxContainerRestartPeriod). The
curve assumes that the container exits as soon as it starts and that the kubelet
restarts it the moment a delay ends (sync latency ignored); it is checked against
each minor's real client-go Backoff.

The backoff is forgotten once more than the reset threshold (600s from 1.32,
twice the cap in 1.31) has passed since the last restart: a container that ran
that long restarts at once, and one that crashed a little earlier restarts when
the threshold passes (the kubelet's housekeeping, every 2s), from the initial
delay again.

--versions evaluates the files at several minors, --compare adds other --config
files (evaluated without drop-ins) at the same minors; the curves are shown side
by side, identical neighbours once.

Exit code 1 when the kubelet would not start with a file at a minor (it has no
curve then), 2 for usage and input errors.`,
		Example: `  # the curve of the newest kubelet for a node's files
  kubeletcfg backoff -c config.yaml -d conf.d

  # the default, the reduced decay and a 30s cap, side by side
  kubeletcfg backoff -c default.yaml --compare reduced.yaml --compare cap30s.yaml --kubelet-version 1.35

  # the same file at every minor of a window
  kubeletcfg backoff -c config.yaml --versions 1.33..1.37

  # machine-readable
  kubeletcfg backoff -c config.yaml -o json | jq '.curves[].curve.restartsIn1h'`,
		Args: onePath,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := in.takePath(args); err != nil {
				return err
			}
			if err := outputFormat(output); err != nil {
				return err
			}
			first, err := in.input()
			if err != nil {
				return err
			}
			minors, err := backoffMinors(in.kubeletVersion, versions)
			if err != nil {
				return err
			}
			inputs := []pipeline.Input{first}
			for _, f := range compare {
				inputs = append(inputs, pipeline.Input{Config: f, CgroupVersion: first.CgroupVersion})
			}
			entries, err := evaluateBackoff(inputs, minors, in.src.Settle)
			if err != nil {
				return err
			}
			if output == "json" {
				err = writeBackoffJSON(cmd.OutOrStdout(), entries)
			} else {
				err = writeBackoffText(cmd.OutOrStdout(), entries)
			}
			if err != nil {
				return err
			}
			n := 0
			for _, e := range entries {
				if !e.Starts {
					n++
					fmt.Fprintf(cmd.ErrOrStderr(), "kubeletcfg: kubelet %s would not start with %s; run kubeletcfg lint --kubelet-version %s for details\n", e.KubeletVersion, e.input(), e.KubeletVersion)
				}
			}
			if n > 0 {
				return &findingsError{n: n}
			}
			return nil
		},
	}
	in.register(cmd)
	cmd.Flags().StringVar(&versions, "versions", "", "evaluate at several minors: a range (1.34..1.37) or a list (1.33,1.37); supported: "+strings.Join(skew.Supported(), ", "))
	cmd.Flags().StringArrayVar(&compare, "compare", nil, "another --config file to show side by side, without drop-ins (repeatable)")
	cmd.Flags().StringVarP(&output, "output", "o", "text", "output format: json, text")
	cmd.MarkFlagsMutuallyExclusive("versions", "kubelet-version")
	_ = cmd.RegisterFlagCompletionFunc("versions", completeVersions)
	_ = cmd.RegisterFlagCompletionFunc("output", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return []string{"json", "text"}, cobra.ShellCompDirectiveNoFileComp
	})
	return cmd
}

// backoffMinors is --versions' window, else the one --kubelet-version names.
func backoffMinors(kubeletVersion, versions string) ([]*skew.Minor, error) {
	if versions != "" {
		return matrix.Window(versions, "")
	}
	m, err := lookupMinor(kubeletVersion, "use --versions %s")
	if err != nil {
		return nil, err
	}
	return []*skew.Minor{m}, nil
}

// backoffEntry is one input at one minor.
type backoffEntry struct {
	KubeletVersion string `json:"kubeletVersion"`
	Config         string `json:"config,omitempty"`
	ConfigDir      string `json:"configDir,omitempty"`
	Starts         bool   `json:"starts"`
	// Stop is the first error when the kubelet does not start.
	Stop *validate.Finding `json:"stop,omitempty"`
	// InitialFrom and MaxFrom say where the initial delay and the cap come from.
	InitialFrom string         `json:"initialFrom,omitempty"`
	MaxFrom     string         `json:"maxFrom,omitempty"`
	Curve       *backoff.Curve `json:"curve,omitempty"`
}

func (e *backoffEntry) input() string {
	switch {
	case e.Config != "" && e.ConfigDir != "":
		return e.Config + " + " + e.ConfigDir
	case e.Config != "":
		return e.Config
	}
	return e.ConfigDir
}

// evaluateBackoff evaluates each input (loaded once) at each minor; settle is
// applied to the results of the first (--config as converted: input.Source.Settle).
func evaluateBackoff(inputs []pipeline.Input, minors []*skew.Minor, settle func(*pipeline.Result) error) ([]*backoffEntry, error) {
	loaded := make([]*pipeline.Loaded, len(inputs))
	for i, in := range inputs {
		l, err := pipeline.Load(in)
		if err != nil {
			return nil, err
		}
		loaded[i] = l
	}
	var out []*backoffEntry
	for i, l := range loaded {
		for _, m := range minors {
			r, err := l.Evaluate(m)
			if err != nil {
				return nil, err
			}
			if i == 0 && settle != nil {
				if err := settle(r); err != nil {
					return nil, err
				}
			}
			e := &backoffEntry{KubeletVersion: m.Version, Config: inputs[i].Config, ConfigDir: inputs[i].ConfigDir, Starts: r.Starts}
			if b := r.CrashLoopBackOff; r.Starts && b != nil {
				if e.Curve, err = backoff.Compute(m.Version, b.Initial, b.Max); err != nil {
					return nil, err
				}
				e.InitialFrom, e.MaxFrom = backoffSources(r)
			} else {
				e.Starts = false
				e.Stop = backoffStop(r)
			}
			out = append(out, e)
		}
	}
	return out, nil
}

func backoffStop(r *pipeline.Result) *validate.Finding {
	for i := range r.Findings {
		if r.Findings[i].Severity == validate.Error {
			return &r.Findings[i]
		}
	}
	return nil
}

const backoffCapPath = "crashLoopBackOff.maxContainerRestartPeriod"

// backoffSources names where the initial delay and the cap of a started kubelet
// come from. It reads them off the values newCrashLoopBackOff returned, which
// are unambiguous: the field is set in the effective configuration only when
// KubeletCrashLoopBackOffMax is on (validation refuses it otherwise), and then it
// is the cap; 1s initial or a 60s cap without it come only from
// ReduceDefaultCrashLoopBackOffDecay; the kubelet lowers initial to the cap.
func backoffSources(r *pipeline.Result) (initial, max string) {
	b := r.CrashLoopBackOff
	switch {
	case r.Effective != nil && r.Effective.CrashLoopBackOff.MaxContainerRestartPeriod != nil &&
		r.Effective.CrashLoopBackOff.MaxContainerRestartPeriod.Duration == b.Max:
		if pos, ok := r.Origins[backoffCapPath]; ok && pos.File != "" {
			max = backoffCapPath + ", " + pos.String()
		} else {
			max = backoffCapPath + ", defaulted"
		}
	case b.Max == 300*time.Second:
		max = "kubelet default"
	case b.Max == 60*time.Second:
		max = "ReduceDefaultCrashLoopBackOffDecay"
	}
	switch {
	case b.Initial == b.Max:
		initial = "= the cap"
	case b.Initial == 10*time.Second:
		initial = "kubelet default"
	case b.Initial == time.Second:
		initial = "ReduceDefaultCrashLoopBackOffDecay"
	}
	return initial, max
}

func writeBackoffJSON(w io.Writer, entries []*backoffEntry) error {
	doc := struct {
		Curves []*backoffEntry `json:"curves"`
	}{entries}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// backoffColumn is one curve of the text output: identical neighbouring entries
// (same input, same curve and sources at consecutive minors) share one.
type backoffColumn struct {
	minors []string
	e      *backoffEntry
}

func (c *backoffColumn) title() string {
	return "kubelet " + backoffMinorList(c.minors) + " with " + c.e.input()
}

// backoffMinorList is "1.32..1.37" for consecutive minors (as --versions writes it),
// else "1.33, 1.37".
func backoffMinorList(ms []string) string {
	if len(ms) > 2 {
		consecutive := true
		for i := 1; i < len(ms); i++ {
			consecutive = consecutive && skew.VersionOf(ms[i]) == skew.VersionOf(ms[i-1]).Add(1)
		}
		if consecutive {
			return ms[0] + ".." + ms[len(ms)-1]
		}
	}
	return strings.Join(ms, ", ")
}

func (c *backoffColumn) values() string {
	e := c.e
	return fmt.Sprintf("initial %s%s, cap %s%s", e.Curve.Initial, backoffParen(e.InitialFrom), e.Curve.Max, backoffParen(e.MaxFrom))
}

func backoffParen(s string) string {
	if s == "" {
		return ""
	}
	return " (" + s + ")"
}

// sameBackoff reports whether two entries differ only in their minor.
func sameBackoff(a, b *backoffEntry) bool {
	if a.input() != b.input() || a.Starts != b.Starts || a.InitialFrom != b.InitialFrom || a.MaxFrom != b.MaxFrom {
		return false
	}
	if !a.Starts {
		return false // each refusal is its own line
	}
	ca, cb := *a.Curve, *b.Curve
	ca.KubeletVersion, cb.KubeletVersion = "", ""
	ja, _ := json.Marshal(ca)
	jb, _ := json.Marshal(cb)
	return string(ja) == string(jb)
}

// backoffColumns groups the entries: an entry joins the column before it when
// only the minor differs.
func backoffColumns(entries []*backoffEntry) []*backoffColumn {
	var cols []*backoffColumn
	for _, e := range entries {
		if n := len(cols); n > 0 && sameBackoff(cols[n-1].e, e) {
			cols[n-1].minors = append(cols[n-1].minors, e.KubeletVersion)
			continue
		}
		cols = append(cols, &backoffColumn{minors: []string{e.KubeletVersion}, e: e})
	}
	return cols
}

func writeBackoffText(w io.Writer, entries []*backoffEntry) error {
	cols := backoffColumns(entries)
	var curves []*backoffColumn
	for _, c := range cols {
		if !c.e.Starts {
			stop := "the kubelet refuses this configuration"
			if f := c.e.Stop; f != nil {
				stop = f.Rule + " " + matrix.Reason(f) + ": " + f.Message + " (" + f.Position.String() + ")"
			}
			fmt.Fprintf(w, "%s: does NOT start, no curve: %s\n", c.title(), stop)
			continue
		}
		curves = append(curves, c)
	}
	if len(curves) == 0 {
		return nil
	}
	if len(curves) < len(cols) {
		fmt.Fprintln(w)
	}
	if len(curves) == 1 {
		return writeBackoffCurve(w, curves[0])
	}
	return writeBackoffCurves(w, curves)
}

// Chart widths: one curve gets a wide backoffBar, side-by-side curves a narrow one each.
const (
	backoffChartWidth = 40
	backoffBarWidth   = 12
)

// backoffBar is d on a scale where full is width characters, rounded up so that every
// nonzero delay shows.
func backoffBar(d, full time.Duration, width int) string {
	if d <= 0 || full <= 0 {
		return ""
	}
	n := int((int64(d)*int64(width) + int64(full) - 1) / int64(full))
	return strings.Repeat("#", min(n, width))
}

// backoffAxis is the chart's header: 0s at the left, full at the right end.
func backoffAxis(full time.Duration, width int) string {
	l, r := "0s", full.String()
	return l + strings.Repeat(" ", max(1, width-len(l)-len(r))) + r
}

// backoffLongest is the backoffLongest delay of the curves' steps: the chart's full scale.
func backoffLongest(cs ...*backoff.Curve) time.Duration {
	var full time.Duration
	for _, c := range cs {
		for _, s := range c.Steps {
			full = max(full, time.Duration(s.Delay))
		}
	}
	return full
}

func writeBackoffCurve(w io.Writer, col *backoffColumn) error {
	c := col.e.Curve
	fmt.Fprintf(w, "%s: %s\n\n", col.title(), col.values())
	full := backoffLongest(c)
	rows := [][]string{{"restart", "delay", "at", backoffAxis(full, backoffChartWidth)}}
	for _, s := range c.Steps {
		rows = append(rows, []string{fmt.Sprint(s.Restart), s.Delay.String(), s.At.String(), backoffBar(time.Duration(s.Delay), full, backoffChartWidth)})
	}
	rows = append(rows, []string{fmt.Sprintf("%d+", len(c.Steps)+1), c.Max.String(), "", "each later restart waits the cap too"})
	backoffTable(w, rows, []bool{true, true, true, false})
	last := c.Steps[len(c.Steps)-1]
	fmt.Fprintln(w)
	backoffTable(w, [][]string{
		{"cap reached after", fmt.Sprintf("%s (restart %d is the first to wait the full %s)", c.CapReachedAfter, last.Restart, c.Max)},
		{"restarts", fmt.Sprintf("%d in the first 10m, %d in the first hour", c.RestartsIn10m, c.RestartsIn1h)},
		{"backoff reset after", fmt.Sprintf("%s since the last restart (%s): a container that runs longer restarts at once, from %s again", c.ResetAfter, c.ResetRule, c.Initial)},
	}, []bool{false, false})
	return nil
}

func writeBackoffCurves(w io.Writer, cols []*backoffColumn) error {
	var curves []*backoff.Curve
	for i, col := range cols {
		fmt.Fprintf(w, "%c  %s: %s\n", 'A'+i, col.title(), col.values())
		curves = append(curves, col.e.Curve)
	}
	fmt.Fprintln(w)
	full := backoffLongest(curves...)
	steps := 0
	for _, c := range curves {
		steps = max(steps, len(c.Steps))
	}
	head := []string{"restart"}
	right := []bool{true}
	for i := range curves {
		head = append(head, string(rune('A'+i)), "")
		right = append(right, true, false)
	}
	rows := [][]string{head}
	for k := 1; k <= steps; k++ {
		row := []string{fmt.Sprint(k)}
		for _, c := range curves {
			d := c.Delay(k)
			mark := " "
			if k == len(c.Steps) {
				mark = "*"
			}
			row = append(row, d.String()+mark, backoffBar(d, full, backoffBarWidth))
		}
		rows = append(rows, row)
	}
	backoffTable(w, rows, right)
	fmt.Fprintf(w, "* the first restart that waits the full cap; every later one waits it too (bars: 0s to %s)\n\n", full)

	summary := [][]string{{"cap reached after"}, {"restarts in 10m"}, {"restarts in 1h"}, {"backoff reset after"}}
	for i, c := range curves {
		summary[0] = append(summary[0], fmt.Sprintf("%c: %s", 'A'+i, c.CapReachedAfter))
		summary[1] = append(summary[1], fmt.Sprintf("%c: %d", 'A'+i, c.RestartsIn10m))
		summary[2] = append(summary[2], fmt.Sprintf("%c: %d", 'A'+i, c.RestartsIn1h))
		summary[3] = append(summary[3], fmt.Sprintf("%c: %s", 'A'+i, c.ResetAfter))
	}
	backoffTable(w, summary, nil)
	rules := map[string][]string{}
	var order []string
	for i, c := range curves {
		if rules[c.ResetRule] == nil {
			order = append(order, c.ResetRule)
		}
		rules[c.ResetRule] = append(rules[c.ResetRule], string(rune('A'+i)))
	}
	for _, r := range order {
		fmt.Fprintf(w, "reset rule of %s: %s\n", strings.Join(rules[r], ", "), r)
	}
	return nil
}

// backoffTable prints rows in backoffColumns two spaces apart, right-aligned where right
// says so, with no trailing spaces.
func backoffTable(w io.Writer, rows [][]string, right []bool) {
	var widths []int
	for _, row := range rows {
		for i, cell := range row {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], len(cell))
		}
	}
	for _, row := range rows {
		var b strings.Builder
		for i, cell := range row {
			if i > 0 {
				b.WriteString("  ")
			}
			pad := strings.Repeat(" ", widths[i]-len(cell))
			if i < len(right) && right[i] {
				b.WriteString(pad + cell)
			} else {
				b.WriteString(cell + pad)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}
