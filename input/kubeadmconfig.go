package input

import (
	"bytes"
	"fmt"
	"maps"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kubeletcfg/kubeletcfg/source"
	"github.com/kubeletcfg/kubeletcfg/validate"
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
	init := cluster != nil
	for _, k := range kinds {
		init = init || k == "InitConfiguration"
	}
	what := "kubeadm config (" + strings.Join(kinds, ", ") + ")"
	if kc == nil && (opt.AsWritten || !init) {
		return nil, &source.InputError{Path: path, Err: fmt.Errorf("is a %s without a KubeletConfiguration document: nothing of the kubelet's is written in it", what)}
	}
	if !init {
		// kubeadm join ignores every document but JoinConfiguration
		// (util/config/joinconfiguration.go): the node gets the cluster's
		// kube-system/kubelet-config ConfigMap.
		s := asWritten(path, kc, what)
		s.Note += "; kubeadm join ignores it: the node gets the cluster's kube-system/kubelet-config ConfigMap (--input-format kubeadm reads that)"
		return s, nil
	}
	if opt.AsWritten {
		s := asWritten(path, kc, what)
		s.Note += " (--as-written: without kubeadm's defaulting)"
		return s, nil
	}
	net := clusterNetworking(cluster)
	var doc []byte
	anchor := validate.Position{File: path, Line: 1, Column: 1}
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
		return s, nil
	}
	pm := &posMap{path: path, anchor: anchor, byPath: map[string]validate.Position{}, set: kubeadmSets,
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
	note := fmt.Sprintf("%s: %s is what kubeadm init writes to /var/lib/kubelet/config.yaml (%s); findings on what kubeadm sets point at line %d; --as-written reads the document alone",
		what, from, kubeadmDefaultsNote(net, opt.Kubeadm), anchor.Line)
	var written []byte
	if kc != nil {
		written = kc.laidOut()
	}
	return &Source{Path: path, Format: KubeadmConfig, Data: out, pos: pm, Note: note, written: written, nodeFile: true}, nil
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
func indexPaths(m map[string]validate.Position, file string, n *yaml.Node, prefix string) {
	indexPathsDepth(m, file, n, prefix, 0)
}

// maxPathDepth bounds indexPaths: two spellings per level double the work at
// each, and the kubelet's field tree is shallower.
const maxPathDepth = 8

func indexPathsDepth(m map[string]validate.Position, file string, n *yaml.Node, prefix string, depth int) {
	if depth > maxPathDepth {
		return
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			pos := validate.Position{File: file, Line: k.Line, Column: k.Column}
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
				m[p] = validate.Position{File: file, Line: v.Line, Column: v.Column}
			}
			indexPathsDepth(m, file, v, p, depth+1)
		}
	}
}
