package kubeletcfg

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/kubeletcfg/kubeletcfg/engine"
	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/input"
	"github.com/kubeletcfg/kubeletcfg/input/kubeletcmd"
	"github.com/kubeletcfg/kubeletcfg/input/nodedir"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
	"github.com/kubeletcfg/kubeletcfg/report"
	"github.com/kubeletcfg/kubeletcfg/source"
)

// NodeNames is how many node names a group lists before "(+K more)".
const NodeNames = report.NodeNames

// NodesReport is the JSON document of `kubeletcfg lint --nodes DIR -o json`
// at one minor (with --versions, {"versions": [...]} holds one per minor):
// the groups of nodes the kubelet treats alike, the largest first, and the
// nodes that could not be read.
type NodesReport struct {
	KubeletVersion string      `json:"kubeletVersion"`
	Groups         []NodeGroup `json:"groups"`
	Errors         []NodeError `json:"errors"`
}

// NodeGroup is the nodes whose effective configuration and findings are the
// same; Document is its first node's report, paths relative to the node.
type NodeGroup struct {
	Nodes    []string   `json:"nodes"`
	Document LintReport `json:"document"`
	// Note says what was read when the input was converted (text only).
	Note string `json:"-"`
}

// NodeError is a node that could not be read, and why.
type NodeError struct {
	Node  string `json:"node"`
	Error string `json:"error"`
}

// LintedNodes is what Nodes found.
type LintedNodes struct {
	// Reports are one per minor, in the order evaluated.
	Reports []NodesReport
	minors  []*kubelets.Minor
	// perMinor are the nodes as evaluated at each minor.
	perMinor [][]*node
	several  bool
	log      io.Writer
}

// Nodes lints many nodes at once, as `kubeletcfg lint --nodes DIR`: every
// folder of dir is a node (its config file, drop-in folder and kubelet flags
// files found by the names in use), every configuration file a node without
// drop-ins (a configz dump). Each node is evaluated at Options.KubeletVersion,
// or at each of Options.Versions, each node's files read once and nodes with
// the same bytes evaluated once; nodes are grouped by what the kubelet would
// do. Config, ConfigDir and the kubelet command line options do not apply.
func Nodes(dir string, opt Options) (*LintedNodes, error) {
	if opt.Config != "" || opt.ConfigDir != "" {
		return nil, optionErrorf("{Nodes} reads each node's files from its folder; it cannot be combined with {Config} or {ConfigDir}")
	}
	if err := opt.checkProfile(); err != nil {
		return nil, err
	}
	format, err := input.ParseFormat(string(opt.Format))
	if err != nil {
		return nil, err
	}
	minors := []*kubelets.Minor{}
	if opt.Versions != "" {
		if minors, err = kubelets.Window(opt.Versions, ""); err != nil {
			return nil, err
		}
	} else {
		p := &Prepared{KubeletVersion: opt.KubeletVersion}
		if p.KubeletVersion == "" && opt.Policy != nil {
			if p.KubeletVersion, err = PolicyMinor(opt.Policy); err != nil {
				return nil, err
			}
		}
		minor, err := p.minor("compare several minors with kubeletcfg skew --versions %s, or lint --nodes --versions %s")
		if err != nil {
			return nil, err
		}
		minors = append(minors, minor)
	}
	cgroupVersion := opt.CgroupVersion
	if cgroupVersion == "" {
		cgroupVersion = "v2"
	}
	cgroup, err := ParseCgroup(cgroupVersion)
	if err != nil {
		return nil, err
	}
	nodes, skipped, err := findNodes(dir)
	if err != nil {
		return nil, err
	}
	if len(skipped) > 0 && opt.Log != nil {
		// One line on stderr, so that every output format stays what it is.
		names, more := skipped, ""
		if len(names) > NodeNames {
			names, more = names[:NodeNames], fmt.Sprintf(" (+%d more)", len(skipped)-NodeNames)
		}
		fmt.Fprintf(opt.Log, "kubeletcfg: info: --nodes %s: skipped %d %s that %s not configuration (%s): %s%s\n",
			dir, len(skipped), plural(len(skipped), "file", "files"), plural(len(skipped), "is", "are"), strings.Join(nodedir.ConfigExts, ", "), strings.Join(names, ", "), more)
	}
	pathDependent := opt.Policy != nil && len(opt.Policy.Exclude) > 0
	out := &LintedNodes{minors: minors, several: opt.Versions != "", log: opt.Log}
	out.perMinor = evaluateNodes(nodes, minors, format, opt.Read, cgroup, opt.report, pathDependent)
	for k, m := range minors {
		groups, _ := groupNodes(out.perMinor[k])
		out.Reports = append(out.Reports, NodesReport{KubeletVersion: m.Version, Groups: groups, Errors: nodeErrors(out.perMinor[k], opt.errorText)})
	}
	return out, nil
}

// nodeErrors lists the nodes that could not be read, each error as text
// writes it (Options.errorText).
func nodeErrors(nodes []*node, text func(error) string) []NodeError {
	errs := []NodeError{}
	for _, n := range nodes {
		if n.err != nil {
			errs = append(errs, NodeError{Node: n.name, Error: text(n.err)})
		}
	}
	return errs
}

// Total is the number of nodes found.
func (l *LintedNodes) Total() int { return len(l.perMinor[0]) }

// Unread is the number of nodes that could not be read (at the last minor).
func (l *LintedNodes) Unread() int { return len(l.Reports[len(l.Reports)-1].Errors) }

// CountAtLeast is the --fail-on count: every node's findings at every minor.
func (l *LintedNodes) CountAtLeast(threshold finding.Severity) int {
	n := 0
	for _, nodes := range l.perMinor {
		for _, nd := range nodes {
			if nd.err == nil {
				n += CountAtLeast(nd.doc.Findings, threshold)
			}
		}
	}
	return n
}

// Write prints the groups: text lists each group's nodes and its first
// node's report, the nodes that could not be read and a summary line per
// minor; JSON is NodesReport (several minors: {"versions": [...]}); SARIF,
// JUnit and GitHub get one document per node (and minor), its paths as
// given, the node's name its Subject, and the nodes that could not be read go
// to Options.Log.
func (l *LintedNodes) Write(out io.Writer, format string, opt report.Options) error {
	w, err := report.For(format)
	if err != nil {
		return err
	}
	switch format {
	case "json":
		if !l.several {
			return report.WriteJSON(out, l.Reports[0])
		}
		return report.WriteJSON(out, struct {
			Versions []NodesReport `json:"versions"`
		}{l.Reports})
	case "text":
		for k, m := range l.minors {
			nodes := l.perMinor[k]
			groups, failedGroups := groupNodes(nodes)
			refused := 0
			for _, n := range nodes {
				if n.err == nil && !n.doc.Starts {
					refused++
				}
			}
			if k > 0 {
				if _, err := io.WriteString(out, "\n"); err != nil {
					return err
				}
			}
			if err := writeNodes(out, m, groups, l.Reports[k].Errors, len(nodes), refused, failedGroups, opt); err != nil {
				return err
			}
		}
		return nil
	}
	var docs []report.Document
	for _, nodes := range l.perMinor {
		for _, n := range nodes {
			if n.err == nil {
				docs = append(docs, n.asGiven(len(l.minors) > 1))
			}
		}
	}
	if l.log != nil {
		for _, e := range l.Reports[len(l.Reports)-1].Errors {
			fmt.Fprintf(l.log, "kubeletcfg: %s: %s\n", e.Node, e.Error)
		}
	}
	return w.Write(out, docs, opt)
}

// node is one node of Nodes: a folder (a config file and conf.d/) or a
// single file (a configz dump, or any config file without drop-ins).
type node struct {
	name string
	// base is what paths in the node's report are relative to: the node's
	// folder, or the nodes folder for a single file.
	base string
	// config and configDir as --config and --config-dir would name them.
	config, configDir string
	// flags are the node's files with the kubelet's own flags (nodedir.FlagsNames),
	// read as --kubelet-flags-file reads one.
	flags []string
	err   error
	// single is a node that is one file (its name is the file's).
	single bool
	// kindNode is, for a node of a kind cluster configuration, the kind node
	// whose kubelet configuration it gets (the first of its group);
	// minikubeNode, for a node of a minikube profile, its machine.
	kindNode, minikubeNode string
	minor                  *kubelets.Minor // the minor it is evaluated at

	doc  LintReport
	note string // the input's note, when it was converted
	key  string
	// effective is the effective object as JSON, kept for namedIn.
	effective string
}

// findNodes lists the nodes of dir (nodedir.Find), sorted by name.
func findNodes(dir string) (nodes []*node, skipped []string, err error) {
	layouts, skipped, err := nodedir.Find(dir)
	for _, l := range layouts {
		nodes = append(nodes, &node{name: l.Name, base: l.Base, config: l.Config, configDir: l.ConfigDir, flags: l.Flags, single: l.Single, err: l.Err})
	}
	return nodes, skipped, err
}

// machines are the nodes that stand for n when its config file, data,
// describes several machines, one per machine, named NODE/MACHINE, each read as
// --kind-node or --minikube-node MACHINE reads it; nil otherwise:
//   - a kind cluster configuration: dev/dev-worker2 (the file dev.yaml, kind's
//     container name); the machines of one group (input.KindNodeGroups) read the
//     same configuration, so they are evaluated once;
//   - a minikube profile: dev/dev-m02 (a profile folder dev, or a file dev.json;
//     minikube's machine name); each machine has its own kubelet flags.
//
// With --kind-node or --minikube-node given, every such file gives that machine.
func (n *node) machines(data []byte, format input.Format, read input.Options) []*node {
	if data == nil || format != input.Auto && format != input.Kind && format != input.Minikube {
		return nil
	}
	var out []*node
	if read.KindNode == "" {
		for _, g := range input.KindNodeGroups(n.config, data, format, read) {
			for _, name := range g {
				m := *n
				m.name, m.kindNode = n.name+"/"+name, g[0]
				out = append(out, &m)
			}
		}
	}
	if out == nil && read.Minikube.Node == "" {
		for _, name := range input.MinikubeNodes(n.config, data, format) {
			m := *n
			m.name, m.minikubeNode = n.name+"/"+name, name
			out = append(out, &m)
		}
	}
	return out
}

// evaluate runs the pipeline for n and keeps its report, paths relative to
// the node, and the key of its group.
func (n *node) evaluate(m *kubelets.Minor, format input.Format, read input.Options, cgroup int, post func(*pipeline.Result, string)) {
	read = n.readOptions(read)
	if n.err != nil {
		return
	}
	in := pipeline.Input{ConfigDir: n.configDir, CgroupVersion: cgroup}
	var src *input.Source
	if n.config != "" {
		if src, n.err = input.OpenOptions(n.config, nil, format, read); n.err != nil {
			return
		}
		if src.Format == input.Configz && n.configDir != "" {
			n.err = fmt.Errorf("%s: a configz dump is already merged; drop-ins do not apply (remove %s)", n.config, n.configDir)
			return
		}
		applySource(src, &in)
	}
	for _, file := range n.flags {
		// Host paths a unit names (EnvironmentFile=) are read under the node
		// folder, never from this machine.
		var args []kubeletcmd.Arg
		var err error
		if filepath.Base(file) == nodedir.UnitDropIns {
			args, err = kubeletcmd.ReadDropIns(n.base, file)
		} else {
			args, err = kubeletcmd.ReadFile(n.base, file)
		}
		if err != nil {
			n.err = unwrapPath(err, file)
			return
		}
		for _, a := range args {
			in.Flags = append(in.Flags, a.Text)
			in.FlagPositions = append(in.FlagPositions, a.Pos)
		}
	}
	res, err := pipeline.Evaluate(m, in)
	if err != nil {
		n.err = err
		return
	}
	if n.err = settle(src, res); n.err != nil {
		return
	}
	post(res, n.config)
	doc := report.FromResult(res)
	rel := n.relative
	doc.Files = make([]string, len(res.Files))
	for i, p := range res.Files {
		doc.Files[i] = rel(p)
	}
	folded := doc.Findings
	doc.Findings = make([]finding.Finding, len(folded))
	for i, fd := range folded {
		fd.File = rel(fd.File)
		fd.Message, fd.Hint, fd.Kubelet = n.strip(fd.Message), n.strip(fd.Hint), n.strip(fd.Kubelet)
		doc.Findings[i] = fd
	}
	n.doc = LintReport{Document: doc, Input: inputName(src)}
	if n.doc.Input != "" {
		n.note = n.strip(src.Note)
	}
	n.key, n.effective, n.err = groupKey(res, n.doc, rel(n.config))
}

// readOptions are the reading options of n: a kind cluster's or a minikube
// profile's node reads its own machine.
func (n *node) readOptions(read input.Options) input.Options {
	if n.kindNode != "" {
		read.KindNode = n.kindNode
	}
	if n.minikubeNode != "" {
		read.Minikube.Node = n.minikubeNode
	}
	return read
}

// asGiven is n's report for the formats that annotate files (SARIF, JUnit,
// GitHub): its paths as given on the command line (under --nodes), the node's
// name its subject (with the minor when there are several).
func (n *node) asGiven(perMinor bool) report.Document {
	doc := n.doc.Document
	doc.Subject, doc.Group = n.name, n.key
	if perMinor {
		doc.Subject += "@" + doc.KubeletVersion
	}
	given := func(p string) string {
		if p == "" || filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(n.base, p)
	}
	doc.Files = make([]string, len(n.doc.Files))
	for i, p := range n.doc.Files {
		doc.Files[i] = given(p)
	}
	doc.Findings = make([]finding.Finding, len(n.doc.Findings))
	for i, f := range n.doc.Findings {
		f.File = given(f.File)
		doc.Findings[i] = f
	}
	return doc
}

// relative is p relative to the node (p itself when outside it).
func (n *node) relative(p string) string {
	if p == "" {
		return p
	}
	if r, err := filepath.Rel(n.base, p); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return p
}

// strip removes the node's folder from the paths a message names.
func (n *node) strip(s string) string {
	return strings.ReplaceAll(s, n.base+string(filepath.Separator), "")
}

// groupKey hashes what makes two nodes the same: the effective object (JSON
// with sorted keys) and the findings without their lines (a comment more in
// one file moves lines, not what the kubelet does), with node-relative paths
// and the main file, config, under one name (node-1.json, node-2.json).
func groupKey(res *pipeline.Result, doc LintReport, config string) (key, effective string, err error) {
	eff, err := res.EffectiveObject()
	if err != nil {
		return "", "", err
	}
	type finding struct{ Rule, Severity, File, Path, Message string }
	fs := make([]finding, len(doc.Findings))
	for i, f := range doc.Findings {
		file := f.File
		if file == config && config != "" {
			file = "--config"
		}
		fs[i] = finding{f.Rule, f.Severity.String(), file, f.Path, f.Message}
	}
	raw, err := json.Marshal(struct {
		Input     string
		Effective map[string]any
		Findings  []finding
	}{doc.Input, eff, fs})
	if err != nil {
		return "", "", err
	}
	effJSON, err := json.Marshal(eff)
	if err != nil {
		return "", "", err
	}
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:]), string(effJSON), nil
}

// groupNodes groups the nodes that were read by key, the largest group
// first, and counts the nodes of groups whose kubelet would not start.
func groupNodes(nodes []*node) (groups []NodeGroup, failedGroups int) {
	at := map[string]int{}
	for _, n := range nodes {
		if n.err != nil {
			continue
		}
		i, ok := at[n.key]
		if !ok {
			i = len(groups)
			at[n.key] = i
			groups = append(groups, NodeGroup{Document: n.doc, Note: n.note})
		}
		groups[i].Nodes = append(groups[i].Nodes, n.name)
	}
	sort.SliceStable(groups, func(i, j int) bool { return len(groups[i].Nodes) > len(groups[j].Nodes) })
	if groups == nil {
		groups = []NodeGroup{}
	}
	for _, g := range groups {
		if !g.Document.Starts {
			failedGroups++
		}
	}
	return groups, failedGroups
}

// evaluateNodes evaluates every node at each minor on the fleet engine and
// returns, per minor, a copy of the nodes with their results. Each node's
// files are read and hashed once; nodes whose files have the same bytes (and
// the same names inside a node folder) are evaluated once per minor, by their
// first node, and share its report; what differs between them (their names
// and paths) is what the report relativises. A group whose result still names
// its node (a path resolved from the node's folder, a message quoting the file
// name) or that failed is evaluated node by node, so the output is exactly
// what evaluating every node gives.
func evaluateNodes(nodes []*node, minors []*kubelets.Minor, format input.Format, read input.Options, cgroup int, post func(*pipeline.Result, string), pathDependent bool) [][]*node {
	nodes, content := scanNodes(nodes, format, read, cgroup, pathDependent)
	out := make([][]*node, len(minors))
	keys := make([]string, 0, len(nodes)*len(minors))
	all := make([]*node, 0, len(nodes)*len(minors))
	for k, m := range minors {
		out[k] = make([]*node, len(nodes))
		for i, n := range nodes {
			c := &node{name: n.name, base: n.base, config: n.config, configDir: n.configDir, flags: n.flags, err: n.err, single: n.single, kindNode: n.kindNode, minikubeNode: n.minikubeNode, minor: m}
			out[k][i] = c
			all = append(all, c)
			switch {
			case n.err != nil:
				keys = append(keys, "")
			case content[i] == "":
				keys = append(keys, m.Version+"\x00node\x00"+n.name) // evaluated on its own
			default:
				keys = append(keys, m.Version+"\x00"+content[i])
			}
		}
	}
	plan := engine.Dedup(keys)
	alone := make([]bool, len(plan.Reps))
	engine.Each(len(plan.Reps), 0, func(j int) {
		rep := all[plan.Reps[j]]
		rep.evaluate(rep.minor, format, read, cgroup, post)
		alone[j] = rep.err != nil || rep.namedIn()
	})
	var rest []*node
	for i, n := range all {
		j := plan.Of[i]
		if j < 0 || plan.Reps[j] == i {
			continue
		}
		if alone[j] {
			rest = append(rest, n)
			continue
		}
		rep := all[plan.Reps[j]]
		n.doc, n.note, n.key = rep.doc, rep.note, rep.key
	}
	engine.Each(len(rest), 0, func(i int) { rest[i].evaluate(rest[i].minor, format, read, cgroup, post) })
	return out
}

// scanNodes reads each node's config file once, on the fleet engine, for two
// things: the node's content key (contentKey; none when pathDependent), and
// whether the file describes several machines, which then stand for the node
// (machines), each keyed by the file's content and its machine. The nodes come
// back sorted by name, with their keys.
func scanNodes(nodes []*node, format input.Format, read input.Options, cgroup int, pathDependent bool) ([]*node, []string) {
	type scanned struct {
		key      string
		machines []*node
	}
	scans := make([]scanned, len(nodes))
	engine.Each(len(nodes), 0, func(i int) {
		n := nodes[i]
		if n.err != nil {
			return
		}
		var data []byte
		if n.config != "" {
			data, _ = source.ReadBytes(n.config) // unreadable: keyed "", evaluated alone, its error reported then
		}
		scans[i].machines = n.machines(data, format, read)
		if !pathDependent {
			scans[i].key = n.contentKey(data, format, read, cgroup)
		}
	})
	type keyed struct {
		n   *node
		key string
	}
	all := make([]keyed, 0, len(nodes))
	for i, n := range nodes {
		if scans[i].machines == nil {
			all = append(all, keyed{n, scans[i].key})
			continue
		}
		for _, m := range scans[i].machines {
			key := scans[i].key
			if key != "" {
				key += "\x00" + m.kindNode + "\x00" + m.minikubeNode
			}
			all = append(all, keyed{m, key})
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].n.name < all[j].n.name })
	out, keys := make([]*node, len(all)), make([]string, len(all))
	for i, k := range all {
		out[i], keys[i] = k.n, k.key
	}
	return out, keys
}

// contentKey hashes what the pipeline reads for n, without the node's own
// names: the config file's bytes, config (nil: unreadable), and its name inside
// a node folder, every
// entry of conf.d/ with its relative path and bytes, and the evaluation's
// settings. "" when a file cannot be read: the node is then evaluated alone and
// reports the error itself.
func (n *node) contentKey(config []byte, format input.Format, read input.Options, cgroup int) string {
	read = n.readOptions(read)
	h := engine.NewHasher().String(string(format)).String(fmt.Sprintf("%+v", read)).String(strconv.Itoa(cgroup))
	if n.config != "" {
		if config == nil {
			return ""
		}
		name := ""
		if !n.single {
			name = n.relative(n.config)
		}
		h.String(name).Bytes(config)
	}
	for _, file := range n.flags {
		if b := filepath.Base(file); b == "kubelet.service" || b == nodedir.UnitDropIns {
			return "" // its drop-ins and env files are more files: evaluate alone
		}
		if hashFile(h.String(n.relative(file)), file) != nil {
			return ""
		}
	}
	h.String("conf.d")
	if n.configDir != "" {
		err := filepath.WalkDir(n.configDir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			h.String(n.relative(p)).String(d.Type().String())
			if d.Type().IsRegular() {
				if err := hashFile(h, p); err != nil {
					return err
				}
			} else if !d.IsDir() {
				return errors.New("not a regular file") // a symlink: evaluate alone
			}
			return nil
		})
		if err != nil {
			return ""
		}
	}
	return h.Sum()
}

// hashFile adds a file's bytes to h, within source.MaxFileSize (larger: an
// error, and the node is evaluated alone to report it as the pipeline does).
func hashFile(h *engine.Hasher, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return h.Reader(f, source.MaxFileSize)
}

// namedIn reports whether n's evaluated report names the node itself (its
// folder, or its file's name for a single-file node) anywhere but in the file
// fields that are relativised: then a node with the same bytes would not get
// the same report.
func (n *node) namedIn() bool {
	token := n.base
	if n.single {
		token = filepath.Base(n.config)
	}
	if n.note != "" && strings.Contains(n.note, token) {
		return true
	}
	for _, f := range n.doc.Findings {
		if strings.Contains(f.Message, token) || strings.Contains(f.Hint, token) || strings.Contains(f.Kubelet, token) {
			return true
		}
	}
	return strings.Contains(n.effective, token)
}

// writeNodes prints one entry per group: its nodes, then the report of its
// first node with node-relative paths; the nodes that could not be read; a
// summary line.
func writeNodes(out io.Writer, m *kubelets.Minor, groups []NodeGroup, errs []NodeError, total, refused, failedGroups int, opt report.Options) error {
	text, err := report.For("text")
	if err != nil {
		return err
	}
	var b strings.Builder
	quiet := opt
	quiet.Quiet = true
	for i, g := range groups {
		if i > 0 {
			b.WriteString("\n")
		}
		names := g.Nodes
		more := ""
		if len(names) > NodeNames {
			names, more = names[:NodeNames], fmt.Sprintf(" (+%d more)", len(g.Nodes)-NodeNames)
		}
		fmt.Fprintf(&b, "%d %s: %s%s\n", len(g.Nodes), plural(len(g.Nodes), "node", "nodes"), strings.Join(names, ", "), more)
		var r strings.Builder
		if g.Note != "" {
			fmt.Fprintf(&r, "note: %s\n", g.Note)
		}
		if err := text.Write(&r, []report.Document{g.Document.Document}, quiet); err != nil {
			return err
		}
		report.Indent(&b, r.String(), "  ")
	}
	if len(errs) > 0 {
		if len(groups) > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "%d %s could not be read:\n", len(errs), plural(len(errs), "node", "nodes"))
		for _, e := range errs {
			fmt.Fprintf(&b, "  %s: %s\n", e.Node, e.Error)
		}
	}
	if !opt.Quiet {
		fmt.Fprintf(&b, "\n%d %s in %d %s at kubelet %s: %d would not start (%d %s)",
			total, plural(total, "node", "nodes"), len(groups), plural(len(groups), "group", "groups"), m.Version,
			refused, failedGroups, plural(failedGroups, "group", "groups"))
		if len(errs) > 0 {
			fmt.Fprintf(&b, ", %d could not be read", len(errs))
		}
		b.WriteString("\n")
	}
	_, err = io.WriteString(out, b.String())
	return err
}
