package fleet

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/report"
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
}

// NewReport groups the evaluated nodes (Groups: evals are Run's, one per
// node) and lists the failures by node name.
func NewReport(server string, nodes []*Node, evals []*Eval, failures []Failure, target *kubelets.Minor) *Report {
	r := &Report{Server: server, Limits: Limits(target), Nodes: nodes, Failures: failures}
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

// CheckFormat is the error of a format the cluster run does not write (nil
// for json and text).
func CheckFormat(format string) error {
	if format == "json" || format == "text" {
		return nil
	}
	return fmt.Errorf("unknown output format %q (want json or text)", format)
}
