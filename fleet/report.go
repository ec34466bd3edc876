package fleet

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/report"
	"github.com/kubeletcfg/kubeletcfg/skew"
)

// NodeNames is how many node names a group lists before "(+K more)".
const NodeNames = report.NodeNames

// Report is a cluster run (kubeletcfg cluster lint and preflight); its JSON
// is what -o json prints.
type Report struct {
	// Server is the API server, without credentials.
	Server string `json:"server"`
	// To is preflight's target minor.
	To       string    `json:"to,omitempty"`
	Limits   []string  `json:"limits"`
	Nodes    []*Node   `json:"nodes"`
	Groups   []Group   `json:"groups"`
	Pools    []Pool    `json:"pools"`
	Results  []Result  `json:"results"`
	Failures []Failure `json:"failures"`

	target *kubelets.Minor
}

// NewReport groups the evaluated nodes (Groups: evals are Run's, one per
// node) and lists the failures by node name.
func NewReport(server string, nodes []*Node, evals []*Eval, failures []Failure, target *kubelets.Minor) *Report {
	r := &Report{Server: server, Limits: Limits(target), Nodes: nodes, Failures: failures, target: target}
	if target != nil {
		r.To = target.Version
	}
	r.Groups, r.Pools, r.Results = Groups(nodes, evals, target)
	sort.Slice(r.Failures, func(i, j int) bool { return r.Failures[i].Node < r.Failures[j].Node })
	if r.Failures == nil {
		r.Failures = []Failure{}
	}
	return r
}

// CountAtLeast is the --fail-on count: each group's findings (the target's,
// for preflight) once per node, and each node that could not be checked
// (Failures) as one error, so that a run that read no node, or not all, does
// not pass for a clean one. A negative threshold (--fail-on none) counts
// nothing.
func (r *Report) CountAtLeast(threshold finding.Severity) int {
	if threshold < 0 {
		return 0
	}
	n := len(r.Failures)
	for _, g := range r.Groups {
		if g.Eval == nil || g.Eval.Err != nil {
			continue
		}
		for _, f := range g.Eval.Findings {
			if f.Severity >= threshold {
				n += f.Count() * len(g.Nodes)
			}
		}
	}
	return n
}

// Limits are what a report built from configz cannot know.
func Limits(target *kubelets.Minor) []string {
	l := []string{"configz is the configuration each kubelet runs, merged and defaulted: it cannot show which values a file set and which are defaults, nor which drop-in set them (run 'kubeletcfg discover' on a node for file-level detail)"}
	if target != nil {
		l = append(l, "a value equal to the running minor's default is taken as not set: it follows the target's default")
	}
	return l
}

// WriteText prints the run grouped by pool: drift, then each group (its
// nodes and its report), the pool's nodes that could not be read; then a
// summary line.
func (r *Report) WriteText(out io.Writer) error {
	nodes, groups, pools, results, failures, target := r.Nodes, r.Groups, r.Pools, r.Results, r.Failures, r.target
	text, err := report.For("text")
	if err != nil {
		return err
	}
	poolOf := map[string]string{}
	for _, n := range nodes {
		poolOf[n.Name] = n.Pool
	}
	var b strings.Builder
	for _, l := range Limits(target) {
		fmt.Fprintf(&b, "note: %s\n", l)
	}
	if target != nil && len(pools) > 0 {
		// The verdicts first, one row per pool and running minor, as pluto
		// and kubent start; the details follow.
		b.WriteString("\n")
		if err := r.writeTable(&b); err != nil {
			return err
		}
	}
	for _, p := range pools {
		b.WriteString("\n")
		fmt.Fprintf(&b, "pool %s: %d %s", p.Name, p.Nodes, plural(p.Nodes, "node", "nodes"))
		if p.Drift {
			fmt.Fprintf(&b, ", drift: %d configurations among %d nodes", p.Configurations, p.Nodes)
		}
		b.WriteString("\n")
		configs := map[string]int{} // drift: which configuration each group has
		for _, g := range groups {
			if g.Pool != p.Name {
				continue
			}
			if _, ok := configs[g.Config]; !ok {
				configs[g.Config] = len(configs) + 1
			}
			names, more := g.Nodes, ""
			if len(names) > NodeNames {
				names, more = names[:NodeNames], fmt.Sprintf(" (+%d more)", len(g.Nodes)-NodeNames)
			}
			fmt.Fprintf(&b, "\n  group %s, kubelet %s", g.ID, g.Minor)
			if target != nil {
				fmt.Fprintf(&b, " -> %s", target.Version)
			}
			if p.Drift {
				fmt.Fprintf(&b, ", configuration %d of %d", configs[g.Config], p.Configurations)
			}
			fmt.Fprintf(&b, ", flags %s: %d %s: %s%s\n", g.Flags, len(g.Nodes), plural(len(g.Nodes), "node", "nodes"), strings.Join(names, ", "), more)
			var r strings.Builder
			switch {
			case g.Eval.Err != nil:
				fmt.Fprintf(&r, "error: %s\n", g.Error)
			case g.Eval.Preflight != nil:
				if err := g.Eval.Preflight.WriteTextWith(&r, skew.TextOptions{Compact: true, Where: where}); err != nil {
					return err
				}
			default:
				if err := text.Write(&r, []report.Document{withoutConfigzLines(*g.Eval.Lint)}, report.Options{Quiet: true}); err != nil {
					return err
				}
			}
			if r.Len() == 0 {
				// Compact preflight text leaves out empty sections: say it once.
				fmt.Fprintf(&r, "kubelet %s starts; nothing changes\n", target.Version)
			}
			report.Indent(&b, r.String(), "    ")
		}
		var failed []Failure
		for _, fl := range failures {
			if poolOf[fl.Node] == p.Name {
				failed = append(failed, fl)
			}
		}
		if len(failed) > 0 {
			fmt.Fprintf(&b, "\n  %d %s could not be read:\n", len(failed), plural(len(failed), "node", "nodes"))
			for _, fl := range failed {
				fmt.Fprintf(&b, "    %s: %s: %s\n", fl.Node, fl.Reason, fl.Message)
			}
		}
	}
	var orphans []Failure // --node names that do not exist
	for _, fl := range failures {
		if _, ok := poolOf[fl.Node]; !ok {
			orphans = append(orphans, fl)
		}
	}
	if len(orphans) > 0 {
		fmt.Fprintf(&b, "\n%d %s not found:\n", len(orphans), plural(len(orphans), "node", "nodes"))
		for _, fl := range orphans {
			fmt.Fprintf(&b, "  %s: %s\n", fl.Node, fl.Message)
		}
	}
	refusing := 0
	for _, r := range results {
		refusing += len(r.Refusing)
	}
	at := "at the minor each runs"
	if target != nil {
		at = "at kubelet " + target.Version
	}
	// The counts are of nodes, never of groups: say so.
	unread := len(failures) - len(orphans)
	fmt.Fprintf(&b, "\n%d %s in %d %s (%d %s); %s: %d %s would not start, %d %s could not be read\n",
		len(nodes), plural(len(nodes), "node", "nodes"), len(pools), plural(len(pools), "pool", "pools"),
		len(groups), plural(len(groups), "configuration group", "configuration groups"), at,
		refusing, plural(refusing, "node", "nodes"), unread, plural(unread, "node", "nodes"))
	_, err = io.WriteString(out, b.String())
	return err
}

// writeTable prints one row per pool and running minor (Results), and per
// pool the nodes that could not be read.
func (r *Report) writeTable(b *strings.Builder) error {
	poolOf := map[string]string{}
	for _, n := range r.Nodes {
		poolOf[n.Name] = n.Pool
	}
	unread := map[string]int{}
	for _, fl := range r.Failures {
		if p, ok := poolOf[fl.Node]; ok {
			unread[p]++
		}
	}
	errs := map[string]string{} // pool and minor -> a group's error (a node newer than --to)
	for _, g := range r.Groups {
		if g.Error != "" {
			errs[g.Pool+"\x00"+g.Minor] = g.Error
		}
	}
	tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "POOL\tNODES\tKUBELET\tVERDICT\tDRIFT")
	for _, p := range r.Pools {
		drift := "none"
		if p.Drift {
			drift = fmt.Sprintf("%d configurations", p.Configurations)
		}
		for _, res := range r.Results {
			if res.Pool != p.Name {
				continue
			}
			verdict := "starts"
			switch e, ok := errs[res.Pool+"\x00"+res.Minor]; {
			case len(res.Refusing) > 0:
				verdict = fmt.Sprintf("%d of %d %s would not start", len(res.Refusing), res.Nodes, plural(res.Nodes, "node", "nodes"))
			case ok:
				verdict = e
			}
			fmt.Fprintf(tw, "%s\t%d\t%s -> %s\t%s\t%s\n", p.Name, res.Nodes, res.Minor, res.To, verdict, drift)
		}
		if n := unread[p.Name]; n > 0 {
			fmt.Fprintf(tw, "%s\t%d\t-\tcould not be read\t-\n", p.Name, n)
		}
	}
	return tw.Flush()
}

// where prints a position of a cluster report: a configz dump is one JSON
// line, so its line and column say nothing and the field path says what;
// other files (kubelet flags) keep theirs.
func where(pos finding.Position, path string) string {
	if !strings.HasPrefix(pos.File, "configz") {
		return pos.String()
	}
	if path != "" {
		return path
	}
	return "configz"
}

// withoutConfigzLines is d with its findings in a configz dump at the dump
// without line and column (one JSON line: the finding's field says where).
func withoutConfigzLines(d report.Document) report.Document {
	fs := make([]finding.Finding, len(d.Findings))
	for i, f := range d.Findings {
		if strings.HasPrefix(f.File, "configz") {
			f.Line, f.Column = 0, 0
		}
		fs[i] = f
	}
	d.Findings = fs
	return d
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Fleet is a cluster run over kubeconfig contexts. With one context asked
// (Single) its JSON and text are that cluster's Report alone; with several,
// its JSON is {"contexts": {CONTEXT: Report, ...}, "errors": {CONTEXT:
// message, ...}} (objects keyed by context, sorted), and its text one section
// per context, in Order.
type Fleet struct {
	// Contexts are the reports of the clusters that were read.
	Contexts map[string]*Report `json:"contexts"`
	// Errors are the contexts whose cluster could not be read, with why.
	Errors map[string]string `json:"errors"`
	// Order is the contexts as asked (--context) or sorted (--all-contexts).
	Order  []string `json:"-"`
	Single bool     `json:"-"`
}

// Reword writes each group's error (Group.Error, from its Eval.Err) with
// words: Error's are the library's (Request.Target), the command's name its
// flags (kubeletcfg.CommandWords: --to).
func (f *Fleet) Reword(words func(error) string) {
	for _, r := range f.Contexts {
		for i, g := range r.Groups {
			if g.Eval != nil && g.Eval.Err != nil {
				r.Groups[i].Error = words(g.Eval.Err)
			}
		}
	}
}

// MarshalJSON is the one report's for a single context.
func (f *Fleet) MarshalJSON() ([]byte, error) {
	if f.Single {
		return json.Marshal(f.Contexts[f.Order[0]])
	}
	type plain Fleet
	return json.Marshal((*plain)(f))
}

// CountAtLeast is the --fail-on count over every cluster (Report's), each
// cluster that could not be read counting as one error, as a node that could
// not be read does.
func (f *Fleet) CountAtLeast(threshold finding.Severity) int {
	if threshold < 0 {
		return 0
	}
	n := len(f.Errors)
	for _, r := range f.Contexts {
		n += r.CountAtLeast(threshold)
	}
	return n
}

// WriteText prints each context's report under a header line naming the
// context and its API server, or why it could not be read; then a summary
// line. A single context's is its report alone.
func (f *Fleet) WriteText(out io.Writer) error {
	if f.Single {
		return f.Contexts[f.Order[0]].WriteText(out)
	}
	for i, name := range f.Order {
		if i > 0 {
			if _, err := io.WriteString(out, "\n"); err != nil {
				return err
			}
		}
		r, ok := f.Contexts[name]
		if !ok {
			if _, err := fmt.Fprintf(out, "=== context %s: could not be read: %s\n", name, f.Errors[name]); err != nil {
				return err
			}
			continue
		}
		if _, err := fmt.Fprintf(out, "=== context %s: %s\n\n", name, r.Server); err != nil {
			return err
		}
		if err := r.WriteText(out); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintf(out, "\n%d %s: %d read, %d could not be read\n", len(f.Order), plural(len(f.Order), "context", "contexts"), len(f.Contexts), len(f.Errors))
	return err
}

// Write prints the run as `kubeletcfg cluster -o FORMAT` does: json, or text.
func (f *Fleet) Write(out io.Writer, format string, _ report.Options) error {
	switch format {
	case "json":
		return report.WriteJSON(out, f)
	case "text":
		return f.WriteText(out)
	}
	return CheckFormat(format)
}

// CheckFormat is the error of a format the cluster run does not write (nil
// for json and text).
func CheckFormat(format string) error {
	if format == "json" || format == "text" {
		return nil
	}
	return fmt.Errorf("unknown output format %q (want json or text)", format)
}
