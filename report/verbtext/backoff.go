package verbtext

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/kubeletcfg/kubeletcfg/backoff"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/skew"
)

// column is one curve of the text output: identical neighbouring entries
// (same input, same curve and sources at consecutive minors) share one.
type column struct {
	minors []string
	e      *backoff.Entry
}

func (c *column) title() string {
	return "kubelet " + kubelets.Span(c.minors) + " with " + c.e.Input()
}

func (c *column) values() string {
	e := c.e
	return fmt.Sprintf("initial %s%s, cap %s%s", e.Curve.Initial, paren(e.InitialFrom), e.Curve.Max, paren(e.MaxFrom))
}

func paren(s string) string {
	if s == "" {
		return ""
	}
	return " (" + s + ")"
}

// sameCurve reports whether two entries differ only in their minor.
func sameCurve(a, b *backoff.Entry) bool {
	if a.Input() != b.Input() || a.Starts != b.Starts || a.InitialFrom != b.InitialFrom || a.MaxFrom != b.MaxFrom {
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

// columns groups the entries: an entry joins the column before it when
// only the minor differs.
func columns(entries []*backoff.Entry) []*column {
	var cols []*column
	for _, e := range entries {
		if n := len(cols); n > 0 && sameCurve(cols[n-1].e, e) {
			cols[n-1].minors = append(cols[n-1].minors, e.KubeletVersion)
			continue
		}
		cols = append(cols, &column{minors: []string{e.KubeletVersion}, e: e})
	}
	return cols
}

// WriteBackoff writes the entries as `kubeletcfg backoff` prints them: a line
// for each entry that does not start, then one curve as a table with a bar
// chart, or several side by side; neighbouring entries that differ only in
// their minor share one column.
func WriteBackoff(w io.Writer, entries []*backoff.Entry) error {
	cols := columns(entries)
	var curves []*column
	for _, c := range cols {
		if !c.e.Starts {
			stop := "the kubelet refuses this configuration"
			if f := c.e.Stop; f != nil {
				stop = f.Rule + " " + skew.Reason(f) + ": " + f.Message + " (" + f.Position.String() + ")"
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
		return writeCurve(w, curves[0])
	}
	return writeCurves(w, curves)
}

// Chart widths: one curve gets a wide bar, side-by-side curves a narrow one each.
const (
	chartWidth = 40
	barWidth   = 12
)

// bar is d on a scale where full is width characters, rounded up so that every
// nonzero delay shows.
func bar(d, full time.Duration, width int) string {
	if d <= 0 || full <= 0 {
		return ""
	}
	n := int((int64(d)*int64(width) + int64(full) - 1) / int64(full))
	return strings.Repeat("#", min(n, width))
}

// axis is the chart's header: 0s at the left, full at the right end.
func axis(full time.Duration, width int) string {
	l, r := "0s", full.String()
	return l + strings.Repeat(" ", max(1, width-len(l)-len(r))) + r
}

// longest is the longest delay of the curves' steps: the chart's full scale.
func longest(cs ...*backoff.Curve) time.Duration {
	var full time.Duration
	for _, c := range cs {
		for _, s := range c.Steps {
			full = max(full, time.Duration(s.Delay))
		}
	}
	return full
}

func writeCurve(w io.Writer, col *column) error {
	c := col.e.Curve
	fmt.Fprintf(w, "%s: %s\n\n", col.title(), col.values())
	full := longest(c)
	rows := [][]string{{"restart", "delay", "at", axis(full, chartWidth)}}
	for _, s := range c.Steps {
		rows = append(rows, []string{fmt.Sprint(s.Restart), s.Delay.String(), s.At.String(), bar(time.Duration(s.Delay), full, chartWidth)})
	}
	rows = append(rows, []string{fmt.Sprintf("%d+", len(c.Steps)+1), c.Max.String(), "", "each later restart waits the cap too"})
	table(w, rows, []bool{true, true, true, false})
	last := c.Steps[len(c.Steps)-1]
	fmt.Fprintln(w)
	table(w, [][]string{
		{"cap reached after", fmt.Sprintf("%s (restart %d is the first to wait the full %s)", c.CapReachedAfter, last.Restart, c.Max)},
		{"restarts", fmt.Sprintf("%d in the first 10m, %d in the first hour", c.RestartsIn10m, c.RestartsIn1h)},
		{"backoff reset after", fmt.Sprintf("%s since the last restart (%s): a container that runs longer restarts at once, from %s again", c.ResetAfter, c.ResetRule, c.Initial)},
	}, []bool{false, false})
	return nil
}

func writeCurves(w io.Writer, cols []*column) error {
	var curves []*backoff.Curve
	for i, col := range cols {
		fmt.Fprintf(w, "%c  %s: %s\n", 'A'+i, col.title(), col.values())
		curves = append(curves, col.e.Curve)
	}
	fmt.Fprintln(w)
	full := longest(curves...)
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
			row = append(row, d.String()+mark, bar(d, full, barWidth))
		}
		rows = append(rows, row)
	}
	table(w, rows, right)
	fmt.Fprintf(w, "* the first restart that waits the full cap; every later one waits it too (bars: 0s to %s)\n\n", full)

	summary := [][]string{{"cap reached after"}, {"restarts in 10m"}, {"restarts in 1h"}, {"backoff reset after"}}
	for i, c := range curves {
		summary[0] = append(summary[0], fmt.Sprintf("%c: %s", 'A'+i, c.CapReachedAfter))
		summary[1] = append(summary[1], fmt.Sprintf("%c: %d", 'A'+i, c.RestartsIn10m))
		summary[2] = append(summary[2], fmt.Sprintf("%c: %d", 'A'+i, c.RestartsIn1h))
		summary[3] = append(summary[3], fmt.Sprintf("%c: %s", 'A'+i, c.ResetAfter))
	}
	table(w, summary, nil)
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

// table prints rows in columns two spaces apart, right-aligned where right
// says so, with no trailing spaces.
func table(w io.Writer, rows [][]string, right []bool) {
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
