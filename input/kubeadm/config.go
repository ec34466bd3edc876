package kubeadm

import (
	"bytes"
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	sigsyaml "sigs.k8s.io/yaml"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/input/internal/yamlmap"
	"github.com/kubeletcfg/kubeletcfg/input/posmap"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/source"
)

// Doc is one document of a multi-document file.
type Doc struct {
	First, Last          int // its lines in the file (1-based; the separators excluded)
	Text                 []byte
	Root                 *yaml.Node // the document's mapping, at the file's lines; nil when it is none
	APIVersion, Kind     string
	KindLine, KindColumn int
}

// LaidOut is the document at its own lines of the file, every other line blank.
func (d *Doc) LaidOut() []byte {
	return append(bytes.Repeat([]byte("\n"), d.First-1), d.Text...)
}

// SplitDocs splits data at "---" lines, as kubeadm's YAML reader does, and parses
// each document; node lines are the file's. Each document is parsed alone and its
// lines shifted, so that a file of many documents costs its size, not its size
// times the number of documents.
func SplitDocs(data []byte) []Doc {
	lines := strings.SplitAfter(string(data), "\n")
	var docs []Doc
	start := 0
	flush := func(end int) { // lines[start:end]
		text := strings.Join(lines[start:end], "")
		if strings.TrimSpace(text) == "" {
			return
		}
		last := end
		for strings.TrimSpace(lines[last-1]) == "" {
			last--
		}
		d := Doc{First: start + 1, Last: last, Text: []byte(text)}
		var n yaml.Node
		if yaml.Unmarshal(d.Text, &n) == nil && len(n.Content) == 1 && n.Content[0].Kind == yaml.MappingNode {
			shiftLines(&n, start)
			d.Root = n.Content[0]
			if v := yamlmap.Value(d.Root, "apiVersion"); v != nil {
				d.APIVersion = v.Value
			}
			if v := yamlmap.Value(d.Root, "kind"); v != nil {
				d.Kind = v.Value
				d.KindLine, d.KindColumn = v.Line, v.Column
			}
		}
		docs = append(docs, d)
	}
	for i, l := range lines {
		if rest, ok := strings.CutPrefix(strings.TrimRight(l, "\r\n"), "---"); ok && strings.TrimSpace(rest) == "" {
			flush(i)
			start = i + 1
		}
	}
	flush(len(lines))
	return docs
}

// shiftLines adds by to the line of n and every node under it. An alias node's
// target is reached through the tree once, not through the alias.
func shiftLines(n *yaml.Node, by int) {
	n.Line += by
	for _, c := range n.Content {
		shiftLines(c, by)
	}
}

// Group is the API group of an apiVersion.
func Group(apiVersion string) string {
	g, _, _ := strings.Cut(apiVersion, "/")
	return g
}

// IsConfig reports whether data holds a kubeadm configuration document.
func IsConfig(data []byte) bool {
	if !bytes.Contains(data, []byte("kubeadm.k8s.io")) {
		return false
	}
	for _, d := range SplitDocs(data) {
		if Group(d.APIVersion) == "kubeadm.k8s.io" {
			return true
		}
	}
	return false
}

// Convert reads a kubeadm configuration file (InitConfiguration,
// ClusterConfiguration, JoinConfiguration, KubeletConfiguration, ... documents):
// what kubeadm init or join writes for the kubelet from it.
func Convert(path string, data []byte, opt Reading) (*Conversion, error) {
	docs := SplitDocs(data)
	var kc, cluster *Doc
	var kinds []string
	for i := range docs {
		d := &docs[i]
		switch {
		case d.Kind == "KubeletConfiguration" && Group(d.APIVersion) == "kubelet.config.k8s.io":
			if kc != nil {
				// kubeadm's SplitConfigDocuments refuses a kind twice.
				return nil, &source.InputError{Path: path, Err: fmt.Errorf("line %d: a second KubeletConfiguration document (the first is at line %d); kubeadm refuses a kind given twice", d.KindLine, kc.KindLine)}
			}
			kc = d
		case d.Kind == "ClusterConfiguration" && Group(d.APIVersion) == "kubeadm.k8s.io":
			cluster = d
		}
		if Group(d.APIVersion) == "kubeadm.k8s.io" {
			kinds = append(kinds, d.Kind)
		}
	}
	init, join := cluster != nil, false
	for _, k := range kinds {
		init = init || k == "InitConfiguration"
		join = join || k == "JoinConfiguration"
	}
	what := "kubeadm config (" + strings.Join(kinds, ", ") + ")"
	if kc == nil && (opt.AsWritten || !init && !join) {
		return nil, &source.InputError{Path: path, Err: fmt.Errorf("is a %s without a KubeletConfiguration document: nothing of the kubelet's is written in it", what)}
	}
	if !init && !join {
		s := asWritten(path, kc, what)
		s.Note += "; neither kubeadm init nor kubeadm join reads it without an InitConfiguration, ClusterConfiguration or JoinConfiguration"
		return s, nil
	}
	if opt.AsWritten {
		s := asWritten(path, kc, what)
		s.Note += " (--as-written: without kubeadm's defaulting)"
		return s, nil
	}
	net := clusterNetworking(cluster)
	var doc []byte
	anchor := finding.Position{File: path, Line: 1, Column: 1}
	if kc != nil {
		doc = kc.LaidOut()
		anchor.Line, anchor.Column = kc.KindLine, kc.KindColumn
	} else if len(docs) > 0 {
		anchor.Line = docs[0].First
	}
	node := NodeOf(path, docs)
	nodeOS, osFrom := opt.Options.OS, ""
	if nodeOS == "" {
		nodeOS, osFrom = node.SocketOS()
		opt.Options.OS = nodeOS
	}
	out, err := KubeletConfig(doc, net, opt.Options)
	if err != nil {
		// kubeadm init stops here too; the pipeline says why, at the document's lines.
		s := asWritten(path, kc, what)
		s.Note += "; kubeadm cannot read it either"
		if kc != nil && init && kc.APIVersion != "kubelet.config.k8s.io/v1beta1" {
			// kubeadm init refuses a component config it does not convert
			// before it writes anything (Node.refusal).
			s.Node = node
			s.Node.refusedOnly = true
		}
		return s, nil
	}
	pm := &posmap.Map{Path: path, Anchor: anchor, ByPath: map[string]finding.Position{}, Set: slices.Clone(Sets),
		Notes: kubeadmNotes(path, cluster, net, opt.Options), DefaultNote: "set by kubeadm (its default for the kubelet)"}
	from := "kubeadm's defaults alone"
	if kc != nil {
		IndexPaths(pm.ByPath, path, kc.Root, "")
		from = fmt.Sprintf("the KubeletConfiguration document (lines %d-%d) with kubeadm's defaults", kc.First, kc.Last)
	}
	patches, err := patchesOf(docs, opt.Options)
	if err == nil && patches != nil {
		out, err = patches.Apply(out)
	}
	if err != nil {
		return nil, &source.InputError{Path: path, Err: fmt.Errorf("kubeadm init stops: %v", err)}
	}
	if patches != nil {
		maps.Copy(pm.ByPath, patches.Positions())
		pm.PatchFiles = map[string]bool{}
		for _, f := range patches.Files {
			pm.PatchFiles[f] = true
		}
		from += fmt.Sprintf(" and the patches of %s (%s)", patches.Dir, patchFilesNote(patches))
	}
	node.OS = nodeOS
	verb := "kubeadm init"
	if node.join && !init {
		// kubeadm join reads the JoinConfiguration alone (documentMapToJoinConfiguration)
		// and gets the cluster's kube-system/kubelet-config ConfigMap, which kubeadm init
		// made from the file's ClusterConfiguration and KubeletConfiguration: read as that.
		verb = "kubeadm join"
		if kc == nil {
			from += " (the kubelet-config ConfigMap of a cluster kubeadm init made without a KubeletConfiguration: the cluster's own is not in this file; --input-format kubeadm reads it)"
		} else {
			from += " (the cluster's kubelet-config ConfigMap, as kubeadm init made it)"
		}
	}
	// The socket kubeadm detects on the node: --set containerRuntimeEndpoint=... says it.
	node.Detected = opt.Options.CRISocket
	if v, ok := opt.Set["containerRuntimeEndpoint"]; ok && node.Detected == "" {
		node.Detected = strings.Trim(strings.TrimSpace(v), `"'`)
	}
	s := &Conversion{Pos: pm, NodeFile: true, Node: node, OS: nodeOS, OSFrom: osFrom}
	if kc != nil {
		s.Written = kc.LaidOut()
	}
	// kubeadm of the kubelet's minor writes the flags (the one minor asked for, else the
	// default); config.yaml is the newest kubeadm's (KubeletConfig).
	m := kubelets.Default()
	if am, err := kubelets.Lookup(opt.Minor); opt.Minor != "" && err == nil {
		m = am
	}
	w := node.Writes(m, node.Detected)
	if w.Instance && w.Endpoint != "" {
		// WriteConfigToDisk merges instance-config.yaml after the patches.
		if out, err = MergeInstanceConfig(out, w.Endpoint); err != nil {
			return nil, &source.InputError{Path: path, Err: fmt.Errorf("%s stops: %v", verb, err)}
		}
		pos := node.CRIPos
		if node.CRISocket == "" {
			pos = node.Anchor
		}
		// Findings and the origin point at criSocket (the node's document without it).
		pm.ByPath["containerRuntimeEndpoint"] = pos
		pm.Set = append(pm.Set, "containerRuntimeEndpoint")
	}
	s.Data = out
	var line []string
	if err := s.addFlags(path, w.Flags, m); err != nil {
		return nil, err
	}
	node.Wrote(w.Flags)
	for _, f := range w.Flags {
		line = append(line, "--"+f.Name+"="+f.Value)
	}
	s.Note = fmt.Sprintf("%s: %s is what %s %s writes to /var/lib/kubelet/config.yaml (%s)", what, from, verb, m.Version, DefaultsNote(net, opt.Options))
	if w.Instance {
		s.Note += fmt.Sprintf(", with instance-config.yaml's containerRuntimeEndpoint %s", cmp.Or(w.Endpoint, "(detected on the node)"))
	}
	s.Note += fmt.Sprintf(", and kubeadm-flags.env starts the kubelet with KUBELET_KUBEADM_ARGS=%q", strings.Join(line, " "))
	if node.hostnameFlag(w) != "" {
		s.Note += fmt.Sprintf(" (%s)", node.hostnameFlag(w))
	}
	s.Note += fmt.Sprintf("; findings on what kubeadm sets point at line %d; --as-written reads the document alone", anchor.Line)
	return s, nil
}

// SetBy is the origin note of a value kubeadm sets from a field of the file.
func SetBy(path, field string, pos finding.Position, how string) string {
	return fmt.Sprintf("set by kubeadm from %s at %s:%d:%d (%s)", field, path, pos.Line, pos.Column, how)
}

// MergeInstanceConfig is applyKubeletConfigPatchFromFile (phases/kubelet/config.go,
// 1.32+) with the file WriteInstanceConfigToDisk writes: a strategic merge patch of
// the KubeletConfiguration, config.yaml to JSON and back to YAML.
func MergeInstanceConfig(doc []byte, endpoint string) ([]byte, error) {
	patch, err := sigsyaml.YAMLToJSON(instanceConfig(endpoint))
	if err != nil {
		return nil, err
	}
	p := &Patches{List: []Patch{{file: "/var/lib/kubelet/instance-config.yaml", typ: "strategic", patch: patch}}}
	out, err := p.Apply(doc)
	if err != nil {
		return nil, fmt.Errorf("could not apply kubelet instance configuration as a patch from %q: %v", "/var/lib/kubelet/instance-config.yaml", err)
	}
	return out, nil
}

// addFlags makes flags, kubeadm-flags.env of kubeadm minor m, the kubelet's
// first flags, each at the position of what sets it in the file, with the origin
// note of the field it sets.
func (s *Conversion) addFlags(path string, flags []Arg, m *kubelets.Minor) error {
	table, err := m.Flags()
	if err != nil {
		return err
	}
	pm := s.Pos
	if pm.FlagAt == nil {
		pm.FlagAt = map[finding.Position][]string{}
	}
	for _, f := range flags {
		s.Flags = append(s.Flags, "--"+f.Name+"="+f.Value)
		s.FlagPositions = append(s.FlagPositions, f.Pos)
		fp := ""
		if tf, ok := table.Lookup(f.Name); ok && tf.Path != "" {
			fp = tf.Path
			pm.Set = append(pm.Set, fp)
			if pm.Notes != nil {
				if pm.FlagNotes == nil {
					pm.FlagNotes = map[string]string{}
				}
				pm.FlagNotes[fp] = SetBy(path, f.From, f.Pos, "kubeadm-flags.env --"+f.Name)
			}
		}
		pm.FlagAt[f.Pos] = append(pm.FlagAt[f.Pos], fp)
	}
	return nil
}

// clusterNetworking reads what kubeadm's kubelet defaulting uses of a
// ClusterConfiguration document (nil: none), kubeadm's defaults for the rest.
func clusterNetworking(cluster *Doc) Networking {
	net := DefaultNetworking()
	if cluster != nil {
		if n := yamlmap.Value(cluster.Root, "networking"); n != nil {
			if v := yamlmap.Value(n, "serviceSubnet"); v != nil && v.Value != "" {
				net.ServiceSubnet = v.Value
			}
			if v := yamlmap.Value(n, "dnsDomain"); v != nil && v.Value != "" {
				net.DNSDomain = v.Value
			}
		}
		if v := yamlmap.Value(cluster.Root, "certificatesDir"); v != nil && v.Value != "" {
			net.CertificatesDir = v.Value
		}
	}
	return net
}

// kubeadmNotes say where kubeadm took the values it computes from: the
// ClusterConfiguration field and its line, or that the field is not written
// and kubeadm's own default for it was used.
func kubeadmNotes(path string, cluster *Doc, net Networking, opt Options) map[string]string {
	from := func(field, value, how string) string {
		var key *yaml.Node
		if cluster != nil {
			parent, name := cluster.Root, field
			if p, n, ok := strings.Cut(field, "."); ok {
				parent, name = yamlmap.Value(cluster.Root, p), n
			}
			key = yamlmap.Key(parent, name)
		}
		where := fmt.Sprintf(", not written: its default %s", value)
		if key != nil {
			where = fmt.Sprintf(" at %s:%d:%d", path, key.Line, key.Column)
		}
		return "set by kubeadm from ClusterConfiguration " + field + where + how
	}
	notes := map[string]string{
		"clusterDNS":                       from("networking.serviceSubnet", net.ServiceSubnet, " (its 10th address)"),
		"clusterDomain":                    from("networking.dnsDomain", net.DNSDomain, ""),
		"authentication.x509.clientCAFile": from("certificatesDir", net.CertificatesDir, " (its ca.crt)"),
		"rotateCertificates":               "set by kubeadm (always true)",
	}
	switch {
	case opt.OS == kubelets.Windows:
		mutate := "set by kubeadm on a Windows node (componentconfigs/kubelet_windows.go Mutate: "
		notes["resolvConf"] = mutate + `resolvConf "")`
		notes["staticPodPath"] = mutate + "the drive of kubeadm.exe, " + opt.drive() + ", before a path starting with /)"
		notes["authentication.x509.clientCAFile"] += "; on a Windows node joined with backslashes (filepath.Join), without a drive, or with the drive of kubeadm.exe, " + opt.drive() + ", before a path written with a leading / (componentconfigs/kubelet_windows.go Mutate)"
	case opt.SystemdResolved:
		notes["resolvConf"] = "set by kubeadm (systemd-resolved runs on the node: --systemd-resolved)"
	}
	return notes
}

// asWritten is the KubeletConfiguration document d of a multi-document file, every
// other line blanked, so that positions are the file's.
func asWritten(path string, d *Doc, what string) *Conversion {
	return &Conversion{Data: d.LaidOut(),
		Pos:  &posmap.Map{Path: path, First: d.First, Last: d.Last, Dedented: map[int]bool{}},
		Note: fmt.Sprintf("%s: the KubeletConfiguration document (lines %d-%d) is read as written", what, d.First, d.Last)}
}

// IndexPaths records the position of every key under n by its field path as
// findings spell it (dotted; map keys and list indexes in brackets). Whether a
// key is a struct field or a map key depends on the schema, so both spellings
// are recorded.
func IndexPaths(m map[string]finding.Position, file string, n *yaml.Node, prefix string) {
	indexPathsDepth(m, file, n, prefix, 0)
}

// maxPathDepth bounds indexPaths: two spellings per level double the work at
// each, and the kubelet's field tree is shallower.
const maxPathDepth = 8

func indexPathsDepth(m map[string]finding.Position, file string, n *yaml.Node, prefix string, depth int) {
	if depth > maxPathDepth {
		return
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			pos := finding.Position{File: file, Line: k.Line, Column: k.Column}
			paths := []string{k.Value}
			if prefix != "" {
				paths = []string{prefix + "." + k.Value, prefix + "[" + k.Value + "]"}
			}
			for _, p := range paths {
				if _, dup := m[p]; !dup {
					m[p] = pos
				}
				indexPathsDepth(m, file, v, p, depth+1)
			}
		}
	case yaml.SequenceNode:
		for i, v := range n.Content {
			p := prefix + "[" + strconv.Itoa(i) + "]"
			if _, dup := m[p]; !dup {
				m[p] = finding.Position{File: file, Line: v.Line, Column: v.Column}
			}
			indexPathsDepth(m, file, v, p, depth+1)
		}
	}
}
