package clustertext

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/fleet"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/report"
	"github.com/kubeletcfg/kubeletcfg/report/verbtext"
)

// WriteFleetReport prints a cluster run (kubeletcfg cluster lint and
// preflight) grouped by pool (a pool's Windows nodes apart from its Linux
// ones, named "(windows)"): drift, then each group (its nodes and its
// report), the pool's nodes that could not be read; then a summary line.
func WriteFleetReport(out io.Writer, r *fleet.Report) error {
	nodes, groups, pools, results, failures, target := r.Nodes, r.Groups, r.Pools, r.Results, r.Failures, r.To
	text, err := report.For("text")
	if err != nil {
		return err
	}
	poolOf := map[string]string{} // node -> its pool and OS (poolKey)
	poolNames := map[string]bool{}
	for _, n := range nodes {
		poolOf[n.Name] = poolKey(n.Pool, n.OS)
		poolNames[n.Pool] = true
	}
	var b strings.Builder
	for _, l := range r.Limits {
		fmt.Fprintf(&b, "note: %s\n", l)
	}
	if target != "" && len(pools) > 0 {
		// The verdicts first, one row per pool and running minor, as pluto
		// and kubent start; the details follow.
		b.WriteString("\n")
		if err := writeTable(&b, r); err != nil {
			return err
		}
	}
	for _, p := range pools {
		b.WriteString("\n")
		fmt.Fprintf(&b, "pool %s%s: %d %s", p.Name, osLabel(p.OS), p.Nodes, plural(p.Nodes, "node", "nodes"))
		if p.Drift {
			fmt.Fprintf(&b, ", drift: %d configurations among %d nodes", p.Configurations, p.Nodes)
		}
		b.WriteString("\n")
		configs := map[string]int{} // drift: which configuration each group has
		for _, g := range groups {
			if g.Pool != p.Name || g.OS.Or() != p.OS.Or() {
				continue
			}
			if _, ok := configs[g.Config]; !ok {
				configs[g.Config] = len(configs) + 1
			}
			names, more := g.Nodes, ""
			if len(names) > fleet.NodeNames {
				names, more = names[:fleet.NodeNames], fmt.Sprintf(" (+%d more)", len(g.Nodes)-fleet.NodeNames)
			}
			fmt.Fprintf(&b, "\n  group %s, kubelet %s%s", g.ID, g.Minor, osLabel(g.OS))
			if target != "" {
				fmt.Fprintf(&b, " -> %s", target)
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
				if err := verbtext.WritePreflight(&r, g.Eval.Preflight, verbtext.PreflightOptions{Compact: true, Where: where}); err != nil {
					return err
				}
			default:
				if err := text.Write(&r, []report.Document{withoutConfigzLines(*g.Eval.Lint)}, report.Options{Quiet: true}); err != nil {
					return err
				}
			}
			if r.Len() == 0 {
				// Compact preflight text leaves out empty sections: say it once.
				fmt.Fprintf(&r, "kubelet %s starts; nothing changes\n", target)
			}
			report.Indent(&b, r.String(), "    ")
		}
		reported := map[string][]string{} // an operatingSystem neither linux nor windows -> its nodes
		var values []string
		for _, n := range nodes {
			if n.OSReported != "" && poolOf[n.Name] == poolKey(p.Name, p.OS) {
				if reported[n.OSReported] == nil {
					values = append(values, n.OSReported)
				}
				reported[n.OSReported] = append(reported[n.OSReported], n.Name)
			}
		}
		for _, v := range values {
			names := reported[v]
			fmt.Fprintf(&b, "\n  %d %s operatingSystem %q, evaluated as linux: %s\n", len(names), plural(len(names), "node reports", "nodes report"), v, strings.Join(names, ", "))
		}
		var failed []fleet.Failure
		for _, fl := range failures {
			if poolOf[fl.Node] == poolKey(p.Name, p.OS) {
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
	var orphans []fleet.Failure // --node names that do not exist
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
	if target != "" {
		at = "at kubelet " + target
	}
	// The counts are of nodes, never of groups: say so.
	unread := len(failures) - len(orphans)
	fmt.Fprintf(&b, "\n%d %s in %d %s (%d %s); %s: %d %s would not start, %d %s could not be read\n",
		len(nodes), plural(len(nodes), "node", "nodes"), len(poolNames), plural(len(poolNames), "pool", "pools"),
		len(groups), plural(len(groups), "configuration group", "configuration groups"), at,
		refusing, plural(refusing, "node", "nodes"), unread, plural(unread, "node", "nodes"))
	_, err = io.WriteString(out, b.String())
	return err
}

// writeTable prints one row per pool's nodes of one OS and running minor
// (Results), and per pool and OS the nodes that could not be read.
func writeTable(b *strings.Builder, r *fleet.Report) error {
	poolOf := map[string]string{}
	for _, n := range r.Nodes {
		poolOf[n.Name] = poolKey(n.Pool, n.OS)
	}
	unread := map[string]int{}
	for _, fl := range r.Failures {
		if p, ok := poolOf[fl.Node]; ok {
			unread[p]++
		}
	}
	errs := map[string]string{} // pool, OS and minor -> a group's error (a node newer than --to)
	for _, g := range r.Groups {
		if g.Error != "" {
			errs[poolKey(g.Pool, g.OS)+"\x00"+g.Minor] = g.Error
		}
	}
	tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "POOL\tNODES\tKUBELET\tVERDICT\tDRIFT")
	for _, p := range r.Pools {
		drift := "none"
		if p.Drift {
			drift = fmt.Sprintf("%d configurations", p.Configurations)
		}
		key, name := poolKey(p.Name, p.OS), p.Name+osLabel(p.OS)
		for _, res := range r.Results {
			if poolKey(res.Pool, res.OS) != key {
				continue
			}
			verdict := "starts"
			switch e, ok := errs[key+"\x00"+res.Minor]; {
			case len(res.Refusing) > 0:
				verdict = fmt.Sprintf("%d of %d %s would not start", len(res.Refusing), res.Nodes, plural(res.Nodes, "node", "nodes"))
			case ok:
				verdict = e
			}
			fmt.Fprintf(tw, "%s\t%d\t%s -> %s\t%s\t%s\n", name, res.Nodes, res.Minor, res.To, verdict, drift)
		}
		if n := unread[key]; n > 0 {
			fmt.Fprintf(tw, "%s\t%d\t-\tcould not be read\t-\n", name, n)
		}
	}
	return tw.Flush()
}

// poolKey is a pool's nodes of one OS, as fleet.Groups counts them.
func poolKey(pool string, os kubelets.OS) string { return pool + "\x00" + string(os.Or()) }

// osLabel names the OS of a Windows pool or group after its name or minor,
// as the lint report does ("kubelet 1.37 (windows)"); Linux's is unnamed.
func osLabel(os kubelets.OS) string {
	if os.Or() == kubelets.Linux {
		return ""
	}
	return " (" + string(os) + ")"
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

// WriteFleet prints a cluster run over kubeconfig contexts: each context's
// report under a header line naming the context and its API server, or why it
// could not be read; then a summary line. A single context's is its report
// alone.
func WriteFleet(out io.Writer, f *fleet.Fleet) error {
	if f.Single {
		return WriteFleetReport(out, f.Contexts[f.Order[0]])
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
		if err := WriteFleetReport(out, r); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintf(out, "\n%d %s: %d read, %d could not be read\n", len(f.Order), plural(len(f.Order), "context", "contexts"), len(f.Contexts), len(f.Errors))
	return err
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
