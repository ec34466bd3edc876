package input

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	sigsyaml "sigs.k8s.io/yaml"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/source"
)

// yamlDoc is one document of a multi-document file.
type yamlDoc struct {
	first, last          int // its lines in the file (1-based; the separators excluded)
	text                 []byte
	root                 *yaml.Node // the document's mapping, at the file's lines; nil when it is none
	apiVersion, kind     string
	kindLine, kindColumn int
}

// laidOut is the document at its own lines of the file, every other line blank.
func (d *yamlDoc) laidOut() []byte {
	return append(bytes.Repeat([]byte("\n"), d.first-1), d.text...)
}

// splitDocs splits data at "---" lines, as kubeadm's YAML reader does, and parses
// each document; node lines are the file's. Each document is parsed alone and its
// lines shifted, so that a file of many documents costs its size, not its size
// times the number of documents.
func splitDocs(data []byte) []yamlDoc {
	lines := strings.SplitAfter(string(data), "\n")
	var docs []yamlDoc
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
		d := yamlDoc{first: start + 1, last: last, text: []byte(text)}
		var n yaml.Node
		if yaml.Unmarshal(d.text, &n) == nil && len(n.Content) == 1 && n.Content[0].Kind == yaml.MappingNode {
			shiftLines(&n, start)
			d.root = n.Content[0]
			if v := get(d.root, "apiVersion"); v != nil {
				d.apiVersion = v.Value
			}
			if v := get(d.root, "kind"); v != nil {
				d.kind = v.Value
				d.kindLine, d.kindColumn = v.Line, v.Column
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

// group is the API group of an apiVersion.
func group(apiVersion string) string {
	g, _, _ := strings.Cut(apiVersion, "/")
	return g
}

// isKubeadmConfig reports whether data holds a kubeadm configuration document.
func isKubeadmConfig(data []byte) bool {
	if !bytes.Contains(data, []byte("kubeadm.k8s.io")) {
		return false
	}
	for _, d := range splitDocs(data) {
		if group(d.apiVersion) == "kubeadm.k8s.io" {
			return true
		}
	}
	return false
}

// Options are the --config reading options beyond the format.
type Options struct {
	// AsWritten reads the KubeletConfiguration document of a kubeadm or kind
	// file as it is written, without kubeadm's (or kind's) defaulting.
	AsWritten bool
	Kubeadm   KubeadmOptions
	// KindNode names the node of a kind file to read (kind's container name,
	// e.g. kind-worker2); empty: the first.
	KindNode string
	Minikube MinikubeOptions
	// Minor is the kubelet minor evaluated ("1.37"; empty: the default), for
	// the bootstrappers that write differently per kubelet version; Set are
	// values only the instance knows (field path -> YAML value: maxPods=58).
	Minor string
	Set   map[string]string
}

// convertKubeadmConfig reads a kubeadm configuration file (InitConfiguration,
// ClusterConfiguration, JoinConfiguration, KubeletConfiguration, ... documents).
func convertKubeadmConfig(path string, data []byte, opt Options) (*Source, error) {
	docs := splitDocs(data)
	var kc, cluster *yamlDoc
	var kinds []string
	for i := range docs {
		d := &docs[i]
		switch {
		case d.kind == "KubeletConfiguration" && group(d.apiVersion) == "kubelet.config.k8s.io":
			if kc != nil {
				// kubeadm's SplitConfigDocuments refuses a kind twice.
				return nil, &source.InputError{Path: path, Err: fmt.Errorf("line %d: a second KubeletConfiguration document (the first is at line %d); kubeadm refuses a kind given twice", d.kindLine, kc.kindLine)}
			}
			kc = d
		case d.kind == "ClusterConfiguration" && group(d.apiVersion) == "kubeadm.k8s.io":
			cluster = d
		}
		if group(d.apiVersion) == "kubeadm.k8s.io" {
			kinds = append(kinds, d.kind)
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
		doc = kc.laidOut()
		anchor.Line, anchor.Column = kc.kindLine, kc.kindColumn
	} else if len(docs) > 0 {
		anchor.Line = docs[0].first
	}
	out, err := KubeadmKubeletConfig(doc, net, opt.Kubeadm)
	if err != nil {
		// kubeadm init stops here too; the pipeline says why, at the document's lines.
		s := asWritten(path, kc, what)
		s.Note += "; kubeadm cannot read it either"
		if kc != nil && init && kc.apiVersion != "kubelet.config.k8s.io/v1beta1" {
			// kubeadm init refuses a component config it does not convert
			// before it writes anything (kubeadmNodeDoc.refusal).
			s.kubeadm = kubeadmNodeOf(path, docs)
			s.kubeadm.refusedOnly = true
		}
		return s, nil
	}
	pm := &posMap{path: path, anchor: anchor, byPath: map[string]finding.Position{}, set: slices.Clone(kubeadmSets),
		notes: kubeadmNotes(path, cluster, net, opt.Kubeadm), defaultNote: "set by kubeadm (its default for the kubelet)"}
	from := "kubeadm's defaults alone"
	if kc != nil {
		indexPaths(pm.byPath, path, kc.root, "")
		from = fmt.Sprintf("the KubeletConfiguration document (lines %d-%d) with kubeadm's defaults", kc.first, kc.last)
	}
	patches, err := kubeadmPatchesOf(docs, opt.Kubeadm)
	if err == nil && patches != nil {
		out, err = patches.Apply(out)
	}
	if err != nil {
		return nil, &source.InputError{Path: path, Err: fmt.Errorf("kubeadm init stops: %v", err)}
	}
	if patches != nil {
		maps.Copy(pm.byPath, patches.positions())
		pm.patchFiles = map[string]bool{}
		for _, f := range patches.Files {
			pm.patchFiles[f] = true
		}
		from += fmt.Sprintf(" and the patches of %s (%s)", patches.Dir, patchFilesNote(patches))
	}
	node := kubeadmNodeOf(path, docs)
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
	node.detected = opt.Kubeadm.CRISocket
	if v, ok := opt.Set["containerRuntimeEndpoint"]; ok && node.detected == "" {
		node.detected = strings.Trim(strings.TrimSpace(v), `"'`)
	}
	s := &Source{Path: path, Format: KubeadmConfig, pos: pm, nodeFile: true, kubeadm: node}
	if kc != nil {
		s.written = kc.laidOut()
	}
	// kubeadm of the kubelet's minor writes the flags (the one minor asked for, else the
	// default); config.yaml is the newest kubeadm's (KubeadmKubeletConfig).
	m := kubelets.Default()
	if am, err := kubelets.Lookup(opt.Minor); opt.Minor != "" && err == nil {
		m = am
	}
	w := node.writes(m, node.detected)
	if w.instance && w.endpoint != "" {
		// WriteConfigToDisk merges instance-config.yaml after the patches.
		if out, err = mergeInstanceConfig(out, w.endpoint); err != nil {
			return nil, &source.InputError{Path: path, Err: fmt.Errorf("%s stops: %v", verb, err)}
		}
		pos := node.criPos
		if node.criSocket == "" {
			pos = node.anchor
		}
		// Findings and the origin point at criSocket (the node's document without it).
		pm.byPath["containerRuntimeEndpoint"] = pos
		pm.set = append(pm.set, "containerRuntimeEndpoint")
	}
	s.Data = out
	var line []string
	if err := s.addKubeadmFlags(w.flags, m); err != nil {
		return nil, err
	}
	for _, f := range w.flags {
		line = append(line, "--"+f.name+"="+f.value)
		if !strings.HasPrefix(f.from, "nodeRegistration.kubeletExtraArgs") {
			node.own = append(node.own, f.name)
		}
	}
	s.Note = fmt.Sprintf("%s: %s is what %s %s writes to /var/lib/kubelet/config.yaml (%s)", what, from, verb, m.Version, kubeadmDefaultsNote(net, opt.Kubeadm))
	if w.instance {
		s.Note += fmt.Sprintf(", with instance-config.yaml's containerRuntimeEndpoint %s", orDefault(w.endpoint, "(detected on the node)"))
	}
	s.Note += fmt.Sprintf(", and kubeadm-flags.env starts the kubelet with KUBELET_KUBEADM_ARGS=%q", strings.Join(line, " "))
	if node.hostnameFlag(w) != "" {
		s.Note += fmt.Sprintf(" (%s)", node.hostnameFlag(w))
	}
	s.Note += fmt.Sprintf("; findings on what kubeadm sets point at line %d; --as-written reads the document alone", anchor.Line)
	return s, nil
}

// kubeadmSetBy is the origin note of a value kubeadm sets from a field of the file.
func kubeadmSetBy(path, field string, pos finding.Position, how string) string {
	return fmt.Sprintf("set by kubeadm from %s at %s:%d:%d (%s)", field, path, pos.Line, pos.Column, how)
}

// mergeInstanceConfig is applyKubeletConfigPatchFromFile (phases/kubelet/config.go,
// 1.32+) with the file WriteInstanceConfigToDisk writes: a strategic merge patch of
// the KubeletConfiguration, config.yaml to JSON and back to YAML.
func mergeInstanceConfig(doc []byte, endpoint string) ([]byte, error) {
	patch, err := sigsyaml.YAMLToJSON(instanceConfig(endpoint))
	if err != nil {
		return nil, err
	}
	p := &KubeadmPatches{patches: []kubeadmPatch{{file: "/var/lib/kubelet/instance-config.yaml", typ: "strategic", patch: patch}}}
	out, err := p.Apply(doc)
	if err != nil {
		return nil, fmt.Errorf("could not apply kubelet instance configuration as a patch from %q: %v", "/var/lib/kubelet/instance-config.yaml", err)
	}
	return out, nil
}

// addKubeadmFlags makes flags, kubeadm-flags.env of kubeadm minor m, the kubelet's
// first flags, each at the position of what sets it in the file, with the origin
// note of the field it sets.
func (s *Source) addKubeadmFlags(flags []kubeadmArg, m *kubelets.Minor) error {
	table, err := m.Flags()
	if err != nil {
		return err
	}
	pm := s.pos
	if pm.flagAt == nil {
		pm.flagAt = map[finding.Position][]string{}
	}
	for _, f := range flags {
		s.Flags = append(s.Flags, "--"+f.name+"="+f.value)
		s.FlagPositions = append(s.FlagPositions, f.pos)
		fp := ""
		if tf, ok := table.Lookup(f.name); ok && tf.Path != "" {
			fp = tf.Path
			pm.set = append(pm.set, fp)
			if pm.notes != nil {
				if pm.flagNotes == nil {
					pm.flagNotes = map[string]string{}
				}
				pm.flagNotes[fp] = kubeadmSetBy(s.Path, f.from, f.pos, "kubeadm-flags.env --"+f.name)
			}
		}
		pm.flagAt[f.pos] = append(pm.flagAt[f.pos], fp)
	}
	return nil
}

// clusterNetworking reads what kubeadm's kubelet defaulting uses of a
// ClusterConfiguration document (nil: none), kubeadm's defaults for the rest.
func clusterNetworking(cluster *yamlDoc) Networking {
	net := DefaultNetworking()
	if cluster != nil {
		if n := get(cluster.root, "networking"); n != nil {
			if v := get(n, "serviceSubnet"); v != nil && v.Value != "" {
				net.ServiceSubnet = v.Value
			}
			if v := get(n, "dnsDomain"); v != nil && v.Value != "" {
				net.DNSDomain = v.Value
			}
		}
		if v := get(cluster.root, "certificatesDir"); v != nil && v.Value != "" {
			net.CertificatesDir = v.Value
		}
	}
	return net
}

// kubeadmNotes say where kubeadm took the values it computes from: the
// ClusterConfiguration field and its line, or that the field is not written
// and kubeadm's own default for it was used.
func kubeadmNotes(path string, cluster *yamlDoc, net Networking, opt KubeadmOptions) map[string]string {
	from := func(field, value, how string) string {
		var key *yaml.Node
		if cluster != nil {
			parent, name := cluster.root, field
			if p, n, ok := strings.Cut(field, "."); ok {
				parent, name = get(cluster.root, p), n
			}
			key = keyNode(parent, name)
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
	if opt.SystemdResolved {
		notes["resolvConf"] = "set by kubeadm (systemd-resolved runs on the node: --systemd-resolved)"
	}
	return notes
}

// keyNode is the key node of key in the mapping n, for its position; nil
// when n is not a mapping or lacks it.
func keyNode(n *yaml.Node, key string) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.MappingNode && i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i]
		}
	}
	return nil
}

// asWritten is the KubeletConfiguration document d of a multi-document file, every
// other line blanked, so that positions are the file's.
func asWritten(path string, d *yamlDoc, what string) *Source {
	return &Source{Path: path, Format: KubeadmConfig, Data: d.laidOut(),
		pos:  &posMap{path: path, first: d.first, last: d.last, dedented: map[int]bool{}},
		Note: fmt.Sprintf("%s: the KubeletConfiguration document (lines %d-%d) is read as written", what, d.first, d.last)}
}

// indexPaths records the position of every key under n by its field path as
// findings spell it (dotted; map keys and list indexes in brackets). Whether a
// key is a struct field or a map key depends on the schema, so both spellings
// are recorded.
func indexPaths(m map[string]finding.Position, file string, n *yaml.Node, prefix string) {
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
