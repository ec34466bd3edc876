package kubeletcfg

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/input"
	"github.com/kubeletcfg/kubeletcfg/report"
)

// PathsReport is the JSON document of `kubeletcfg lint PATH PATH...`: one
// lint report per path, in the order given, and the paths that could not be
// read.
type PathsReport struct {
	Reports []PathReport `json:"reports"`
	Errors  []PathError  `json:"errors"`
}

// PathReport is one path's lint report; for a kind cluster configuration of
// several nodes, one node's (or the nodes' that get the same configuration).
type PathReport struct {
	Path string `json:"path"`
	// KindNodes are the kind nodes the report is for, by kind's names.
	KindNodes []string `json:"kindNodes,omitempty"`
	// Object is, for a file of several node groups (a Cluster API cluster
	// template), the object the report is for ("KubeadmConfigTemplate/name").
	Object string `json:"object,omitempty"`
	LintReport
}

// weight is how many files or nodes the report is for.
func (r PathReport) weight() int { return max(1, len(r.KindNodes)) }

// subject names the report: the path, and the kind nodes it is for.
func (r PathReport) subject() string {
	switch len(r.KindNodes) {
	case 0:
		if r.Object != "" {
			return r.Path + ": " + r.Object
		}
		return r.Path
	case 1:
		return r.Path + ": node " + r.KindNodes[0]
	}
	return r.Path + ": nodes " + strings.Join(r.KindNodes, ", ")
}

// PathError is a path that could not be read, and why.
type PathError struct {
	Path  string `json:"path"`
	Error string `json:"error"`
}

// LintedPaths is what Lint found for several nodes (Options.Paths, a kind
// file of nodes that differ): Linted.Several.
type LintedPaths struct {
	Report PathsReport
	// Linted are the paths' results, in the order of Report.Reports.
	Linted []*Linted
	// Objects are, for a file of several node groups (input.Source.Objects),
	// the objects linted, in order, those in Report.Errors too.
	Objects []string
	// nodes: some path was a kind cluster of several nodes, so the summary
	// counts nodes rather than files.
	nodes bool
	// unread counts the files (or kind nodes) in Report.Errors.
	unread int
}

// lintPaths lints each path as its own node: Lint with the path as
// Options.Config and the other options as they are. A kind cluster
// configuration of several nodes is linted node by node (lintKindNodes). A
// path that cannot be read is listed in Report.Errors (and Options.Log) and
// the others go on.
func lintPaths(opt Options, paths []string) (*LintedPaths, error) {
	if err := opt.checkProfile(); err != nil {
		return nil, err
	}
	out := &LintedPaths{Report: PathsReport{Reports: []PathReport{}, Errors: []PathError{}}}
	for _, path := range paths {
		one := opt
		one.Config, one.Paths = path, nil
		l, err := lintOne(one)
		var several *KindNodesError
		if errors.As(err, &several) {
			out.lintKindNodes(opt, several)
			continue
		}
		if objects := severalObjects(one, l); objects != nil {
			out.lintObjects(one, path, objects)
			continue
		}
		out.add(opt, path, nil, l, err)
	}
	return out, nil
}

// lintKindNodes lints the kind cluster configuration that Prepare refused
// with e, node by node: one report per group of nodes that get the same
// kubelet configuration (input.Source.KindNodes), Read.KindNode set to the
// group's first node, as lintPaths reports several paths.
func lintKindNodes(opt Options, e *KindNodesError) (*LintedPaths, error) {
	if err := opt.checkProfile(); err != nil {
		return nil, err
	}
	out := &LintedPaths{Report: PathsReport{Reports: []PathReport{}, Errors: []PathError{}}}
	out.lintKindNodes(opt, e)
	return out, nil
}

func (out *LintedPaths) lintKindNodes(opt Options, e *KindNodesError) {
	out.nodes = true
	for _, g := range e.Groups {
		one := opt
		one.Config, one.Read.KindNode = e.Path, g[0]
		if e.Path == input.Stdin {
			one.Stdin = bytes.NewReader(e.stdin)
		}
		l, err := lintOne(one)
		out.add(opt, e.Path, g, l, err)
	}
}

// severalObjects are the objects of a file of several node groups that l
// read the first of (input.Source.Objects), nil for any other: Lint checks
// each. Standard input is read once: its first object alone is checked.
func severalObjects(opt Options, l *Linted) []string {
	if l == nil || l.Source == nil || len(l.Source.Objects) < 2 || opt.Read.Object != "" || opt.Config == input.Stdin {
		return nil
	}
	return l.Source.Objects
}

// lintObjects lints a file of several node groups object by object (a
// Cluster API cluster template: its control plane, its Linux and its
// Windows workers), as lintKindNodes does a kind file's nodes.
func (out *LintedPaths) lintObjects(opt Options, path string, objects []string) {
	out.nodes = true
	for _, o := range objects {
		out.Objects = append(out.Objects, o)
		one := opt
		one.Config, one.Read.Object = path, o
		l, err := lintOne(one)
		out.addObject(opt, path, o, l, err)
	}
}

// add records one report, or the error that stopped it.
func (out *LintedPaths) add(opt Options, path string, nodes []string, l *Linted, err error) {
	out.addReport(opt, PathReport{Path: path, KindNodes: nodes}, l, err)
}

// addObject is add for one object of a file of several node groups.
func (out *LintedPaths) addObject(opt Options, path, object string, l *Linted, err error) {
	out.addReport(opt, PathReport{Path: path, Object: object}, l, err)
}

func (out *LintedPaths) addReport(opt Options, r PathReport, l *Linted, err error) {
	if err != nil {
		if opt.Log != nil {
			fmt.Fprintf(opt.Log, "kubeletcfg: %s\n", opt.errorText(err))
		}
		out.Report.Errors = append(out.Report.Errors, PathError{Path: r.subject(), Error: opt.errorText(err)})
		out.unread += r.weight()
		return
	}
	r.LintReport = l.Report
	out.Linted = append(out.Linted, l)
	out.Report.Reports = append(out.Report.Reports, r)
}

// KindNodesError is Prepare's error for a kind cluster configuration whose
// nodes get different kubelet configurations when Read.KindNode picks none:
// the commands that check one kubelet need one; Lint
// checks each.
type KindNodesError struct {
	// Path is the --config given; Name names it in findings.
	Path, Name string
	// Groups are the nodes by kind's names, grouped by the kubelet
	// configuration they get (input.Source.KindNodes).
	Groups [][]string
	// stdin is what Path "-" read.
	stdin []byte
}

func (e *KindNodesError) Error() string { return e.Unwrap().Error() }

// Unwrap is the error in Options words (Options.Read.KindNode), an
// OptionError, so that the command names its flag (CommandWords).
func (e *KindNodesError) Unwrap() error {
	var names []string
	for _, g := range e.Groups {
		names = append(names, g...)
	}
	return optionErrorf("%s is a kind cluster of %d nodes whose kubelets get different configurations (%s): pick one with {Read.KindNode} NAME (kubeletcfg lint checks each)",
		e.Name, len(names), strings.Join(names, ", "))
}

// kindNodes refuses a kind cluster configuration of several different nodes
// when Read.KindNode picks none (KindNodesError); stdin is what Config "-" read.
func (o Options) kindNodes(config string, src *input.Source, stdin []byte) error {
	if src.Format != input.Kind || len(src.KindNodes) < 2 || o.Read.KindNode != "" {
		return nil
	}
	return &KindNodesError{Path: config, Name: src.Path, Groups: src.KindNodes, stdin: bytes.Clone(stdin)}
}

// tee is io.TeeReader, keeping a nil reader nil (input.ReadLimited's "nothing
// to read").
func tee(r io.Reader, b *bytes.Buffer) io.Reader {
	if r == nil {
		return nil
	}
	return io.TeeReader(r, b)
}

// CountAtLeast is the --fail-on count over every path's findings.
func (l *LintedPaths) CountAtLeast(threshold finding.Severity) int {
	n := 0
	for _, one := range l.Linted {
		n += CountAtLeast(one.Report.Findings, threshold)
	}
	return n
}

// Write prints the reports: text is each report as Lint's under a
// ==> PATH <== line (head's), then a summary line; JSON is PathsReport;
// SARIF, JUnit and GitHub get one document per path, its Subject the path.
func (l *LintedPaths) Write(out io.Writer, format string, opt report.Options) error {
	w, err := report.For(format)
	if err != nil {
		return err
	}
	switch format {
	case "json":
		return report.WriteJSON(out, l.Report)
	case "text":
	default:
		docs := make([]report.Document, len(l.Report.Reports))
		for i, r := range l.Report.Reports {
			docs[i] = r.Document
			docs[i].Subject = r.subject()
		}
		return w.Write(out, docs, opt)
	}
	var b strings.Builder
	read, refused := 0, 0
	for i, r := range l.Report.Reports {
		read += r.weight()
		if !r.Starts {
			refused += r.weight()
		}
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "==> %s <==\n", r.subject()) // as head and tail name each file
		if err := l.Linted[i].Write(&b, format, opt); err != nil {
			return err
		}
	}
	if !opt.Quiet {
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		total, unit := read+l.unread, l.unit()
		fmt.Fprintf(&b, "%d %s: %d %s, %d would not start", total, plural(total, unit, unit+"s"),
			read-refused, plural(read-refused, "starts", "start"), refused)
		if l.unread > 0 {
			fmt.Fprintf(&b, ", %d could not be read", l.unread)
		}
		b.WriteString("\n")
	}
	_, err = io.WriteString(out, b.String())
	return err
}

// unit is what the reports are counted in: files, or nodes when a kind
// cluster was linted node by node.
func (l *LintedPaths) unit() string {
	if l.nodes {
		return "node"
	}
	return "file"
}

// Unread says how many files (or kind nodes) could not be read, of how
// many: "2 of 3 files".
func (l *LintedPaths) Unread() string {
	if l.unread == 0 {
		return ""
	}
	total := l.unread
	for _, r := range l.Report.Reports {
		total += r.weight()
	}
	return fmt.Sprintf("%d of %d %s", l.unread, total, plural(total, l.unit(), l.unit()+"s"))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// FolderPathError is CheckPaths' error for a folder among a verb's paths,
// which take files: a folder is a main file's drop-ins (ConfigDir) or a pool
// of nodes (Nodes), and the caller says which. The command writes it as its
// own command lines (-d, lint --nodes).
type FolderPathError struct {
	Path, Verb string
}

func (e *FolderPathError) Error() string { return e.Unwrap().Error() }

// Unwrap is the error in Options words, an OptionError.
func (e *FolderPathError) Unwrap() error {
	return optionErrorf("%s is a folder: %s takes files; drop-ins of a main file are {ConfigDir} %s, a folder of nodes is {Nodes} %s", e.Path, e.Verb, e.Path, e.Path)
}

// CheckPaths checks a verb's positional paths (lint takes several, the other
// verbs one) before the one becomes Config: `lint PATH` is `lint -c PATH`, and
// several paths are several nodes (LintPaths). A folder is not a path: it is a
// pool (nodesDir, --nodes) or drop-ins (ConfigDir), and which one is the user's
// to say.
func (o Options) CheckPaths(verb string, paths []string, nodesDir string) error {
	if len(paths) == 0 {
		return nil
	}
	if nodesDir != "" {
		return optionErrorf("%s and {Nodes} %s: give files to lint, or a folder of nodes, not both", paths[0], nodesDir)
	}
	if o.Config != "" {
		return optionErrorf("%s and {Config} %s both name the main file: give one of them", paths[0], o.Config)
	}
	if len(paths) > 1 && o.ConfigDir != "" {
		return optionErrorf("{ConfigDir} %s with %d paths: the drop-ins belong to one main file; lint each node with its own {ConfigDir}, or a pool of node folders with {Nodes}", o.ConfigDir, len(paths))
	}
	if len(paths) > 1 && (o.Discover || o.Versions != "") {
		return optionErrorf("%d paths: {Discover} and {Versions} check one kubelet; give one path", len(paths))
	}
	stdin := 0
	for _, p := range paths {
		if p == "-" {
			if stdin++; stdin > 1 {
				return fmt.Errorf("- (standard input) given twice: it can be read once")
			}
			continue
		}
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			return &FolderPathError{Path: p, Verb: verb}
		}
	}
	return nil
}
