// Package kind reads a kind cluster configuration as kind's nodes get it. kind
// (sigs.k8s.io/kind at fed268827e21ca48a74c38215c316dd343364ef5) writes each
// node's kubeadm config from a template (pkg/cluster/internal/kubeadm/config.go,
// ConfigTemplateBetaV3/V4), then applies the cluster's kubeadmConfigPatches and the
// node's (pkg/cluster/internal/create/actions/config/config.go) as JSON merge patches
// to the documents of the same kind (pkg/internal/patch/resource.go); kubeadm then
// defaults the KubeletConfiguration as for any kubeadm config.
package kind

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/input/internal/yamlmap"
	"github.com/kubeletcfg/kubeletcfg/input/kubeadm"
	"github.com/kubeletcfg/kubeletcfg/input/posmap"
	"github.com/kubeletcfg/kubeletcfg/source"
)

// Detect reports whether data is a kind Cluster configuration.
func Detect(data []byte) bool {
	if !bytes.Contains(data, []byte("kind.x-k8s.io")) {
		return false
	}
	docs := kubeadm.SplitDocs(data)
	return len(docs) > 0 && docs[0].Kind == "Cluster" && kubeadm.Group(docs[0].APIVersion) == "kind.x-k8s.io"
}

// kindTemplate is the KubeletConfiguration of kind's template for Kubernetes 1.24+
// (cgroupDriver systemd: ConfigData.Derive), IPv4 or dual-stack, not rootless.
func kindTemplate(ipv6 bool, gates map[string]any) map[string]any {
	m := map[string]any{
		"apiVersion":                  "kubelet.config.k8s.io/v1beta1",
		"kind":                        "KubeletConfiguration",
		"cgroupDriver":                "systemd",
		"cgroupRoot":                  "/kubelet",
		"failSwapOn":                  false,
		"imageGCHighThresholdPercent": 100,
		"evictionHard": map[string]any{
			"nodefs.available":  "0%",
			"nodefs.inodesFree": "0%",
			"imagefs.available": "0%",
		},
	}
	if ipv6 {
		m["address"] = "::"
		m["healthzBindAddress"] = "::"
	}
	if len(gates) > 0 {
		m["featureGates"] = maps.Clone(gates)
	}
	return m
}

// kindPatch is one KubeletConfiguration patch of a kind file.
type kindPatch struct {
	value  map[string]any
	byPath map[string]finding.Position
}

// kindNode is a node of a kind cluster: its name as kind names its container and
// its own patches.
type kindNode struct {
	name    string
	patches []kindPatch
}

// Convert reads a kind Cluster configuration: the node nodeName names (by
// default the first) gets kind's template, the cluster's and the node's
// KubeletConfiguration patches, then kubeadm's defaulting.
func Convert(path string, data []byte, opt kubeadm.Reading, nodeName string) (*kubeadm.Conversion, error) {
	docs := kubeadm.SplitDocs(data)
	if len(docs) == 0 || docs[0].Root == nil || docs[0].Kind != "Cluster" || kubeadm.Group(docs[0].APIVersion) != "kind.x-k8s.io" {
		return nil, &source.InputError{Path: path, Err: fmt.Errorf("is not a kind cluster configuration (kind: Cluster, apiVersion: kind.x-k8s.io/v1alpha4)")}
	}
	root := docs[0].Root
	clusterName := "kind"
	if n := yamlmap.Value(root, "name"); n != nil && n.Value != "" {
		clusterName = n.Value
	}
	budget := MaxPatches
	clusterPatches, err := kindPatches(path, data, yamlmap.Value(root, "kubeadmConfigPatches"), &budget)
	if err != nil {
		return nil, err
	}
	nodes, err := kindNodes(path, data, root, clusterName, &budget)
	if err != nil {
		return nil, err
	}
	node := nodes[0]
	if nodeName != "" {
		found := false
		for _, n := range nodes {
			if n.name == nodeName {
				node, found = n, true
			}
		}
		if !found {
			return nil, &source.InputError{Path: path, Err: fmt.Errorf("has no node %q (%s)", nodeName, nodeNames(nodes))}
		}
	}
	ipv6 := false
	net := kubeadm.DefaultNetworking()
	net.ServiceSubnet = "10.96.0.0/16" // kind's default (pkg/internal/apis/config/default.go)
	if nw := yamlmap.Value(root, "networking"); nw != nil {
		if f := yamlmap.Value(nw, "ipFamily"); f != nil {
			switch f.Value {
			case "ipv6":
				ipv6 = true
				net.ServiceSubnet = "fd00:10:96::/112"
			case "dual":
				net.ServiceSubnet = "10.96.0.0/16,fd00:10:96::/112"
			}
		}
		if s := yamlmap.Value(nw, "serviceSubnet"); s != nil && s.Value != "" {
			net.ServiceSubnet = s.Value
		}
	}
	var gates map[string]any
	if g := yamlmap.Value(root, "featureGates"); g != nil {
		_ = g.Decode(&gates)
	}
	kc := kindTemplate(ipv6, gates)
	pm := &posmap.Map{Path: path, Anchor: finding.Position{File: path, Line: docs[0].KindLine, Column: docs[0].KindColumn}, ByPath: map[string]finding.Position{},
		Set: append([]string{"cgroupRoot", "failSwapOn", "imageGCHighThresholdPercent", "evictionHard", "address"}, kubeadm.Sets...)}
	if g := yamlmap.Value(root, "featureGates"); g != nil {
		// kind writes the cluster's featureGates into its template.
		kubeadm.IndexPaths(pm.ByPath, path, g, "featureGates")
	}
	written := []kindPatch{}
	written = append(written, clusterPatches...)
	written = append(written, node.patches...)
	for _, p := range written {
		kc = mergePatch(kc, p.value).(map[string]any)
		maps.Copy(pm.ByPath, p.byPath)
	}
	// The patches alone, merged; kind's template and kubeadm's defaults left out.
	asWritten := map[string]any{"apiVersion": "kubelet.config.k8s.io/v1beta1", "kind": "KubeletConfiguration"}
	for _, p := range written {
		asWritten = mergePatch(asWritten, p.value).(map[string]any)
	}
	plain, err := json.Marshal(asWritten)
	if err != nil {
		return nil, &source.InputError{Path: path, Err: err}
	}
	if opt.AsWritten {
		kc = asWritten
	}
	doc, err := json.Marshal(kc)
	if err != nil {
		return nil, &source.InputError{Path: path, Err: err}
	}
	what := fmt.Sprintf("kind cluster %s, node %s (of %s)", clusterName, node.name, nodeNames(nodes))
	groups := kindGroups(nodes)
	if opt.AsWritten {
		return &kubeadm.Conversion{Data: doc, Pos: pm, KindNodes: groups,
			Note: fmt.Sprintf("%s: its KubeletConfiguration patches (%d) merged, as written (--as-written: without kind's template and kubeadm's defaulting)", what, len(written))}, nil
	}
	out, err := kubeadm.KubeletConfig(doc, net, opt.Options)
	if err != nil {
		return nil, &source.InputError{Path: path, Err: fmt.Errorf("kubeadm cannot read the patched KubeletConfiguration of node %s: %v", node.name, err)}
	}
	return &kubeadm.Conversion{Data: out, Pos: pm, Written: plain, NodeFile: true, KindNodes: groups,
		Note: fmt.Sprintf("%s: kind's kubelet settings, its KubeletConfiguration patches (%d) and kubeadm's defaults (%s) are the node's /var/lib/kubelet/config.yaml; findings on what kind or kubeadm set point at line %d; --kind-node picks another node",
			what, len(written), kubeadm.DefaultsNote(net, opt.Options), pm.Anchor.Line)}, nil
}

// kindNodes lists the nodes of a kind cluster configuration with their own
// KubeletConfiguration patches; a cluster without nodes has kind's one
// control-plane node.
func kindNodes(path string, data []byte, root *yaml.Node, clusterName string, budget *int) ([]kindNode, error) {
	var nodes []kindNode
	count := map[string]int{}
	if ns := yamlmap.Value(root, "nodes"); ns != nil && ns.Kind == yaml.SequenceNode {
		for _, n := range ns.Content {
			role := "control-plane"
			if r := yamlmap.Value(n, "role"); r != nil && r.Value != "" {
				role = r.Value
			}
			count[role]++
			// kind's container names: kind-control-plane, kind-worker, kind-worker2, ...
			name := clusterName + "-" + role
			if c := count[role]; c > 1 {
				name += strconv.Itoa(c)
			}
			p, err := kindPatches(path, data, yamlmap.Value(n, "kubeadmConfigPatches"), budget)
			if err != nil {
				return nil, err
			}
			nodes = append(nodes, kindNode{name: name, patches: p})
		}
	}
	if len(nodes) == 0 {
		nodes = []kindNode{{name: clusterName + "-control-plane"}}
	}
	return nodes, nil
}

// kindGroups groups the nodes that get the same kubelet configuration: kind's
// template and the cluster's patches are every node's, so the nodes without
// KubeletConfiguration patches of their own are one group (in the place of
// the first of them); a node with patches is a group of its own, since its
// findings point at its own lines.
func kindGroups(nodes []kindNode) [][]string {
	var groups [][]string
	plain := -1
	for _, n := range nodes {
		switch {
		case len(n.patches) > 0:
			groups = append(groups, []string{n.name})
		case plain < 0:
			plain = len(groups)
			groups = append(groups, []string{n.name})
		default:
			groups[plain] = append(groups[plain], n.name)
		}
	}
	return groups
}

func nodeNames(nodes []kindNode) string {
	var s []string
	for _, n := range nodes {
		s = append(s, n.name)
	}
	return strings.Join(s, ", ")
}

// MaxPatches bounds the KubeletConfiguration patches of a file: each is laid
// out at the file's lines, which costs the file's length.
const MaxPatches = 100

// kindPatches reads the KubeletConfiguration patches of a kubeadmConfigPatches list.
// A patch in a literal block (|) has the positions of its lines in data; any other
// string has its own position for all its keys.
func kindPatches(path string, data []byte, list *yaml.Node, budget *int) ([]kindPatch, error) {
	if list == nil || list.Kind != yaml.SequenceNode {
		return nil, nil
	}
	var out []kindPatch
	for _, s := range list.Content {
		if s.Kind != yaml.ScalarNode {
			return nil, &source.InputError{Path: path, Err: fmt.Errorf("line %d: a kubeadmConfigPatches entry is not a string", s.Line)}
		}
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(s.Value), &n); err != nil || len(n.Content) != 1 || n.Content[0].Kind != yaml.MappingNode {
			return nil, &source.InputError{Path: path, Err: fmt.Errorf("line %d: a kubeadmConfigPatches entry is not a YAML mapping", s.Line)}
		}
		root := n.Content[0]
		k, v := yamlmap.Value(root, "kind"), yamlmap.Value(root, "apiVersion")
		if k == nil || k.Value != "KubeletConfiguration" || v != nil && kubeadm.Group(v.Value) != "kubelet.config.k8s.io" {
			continue // a patch to another document
		}
		if *budget == 0 {
			return nil, &source.InputError{Path: path, Err: fmt.Errorf("line %d: more than %d KubeletConfiguration patches", s.Line, MaxPatches)}
		}
		*budget--
		laidOut := false
		if s.Style&yaml.LiteralStyle != 0 {
			// Positions inside the block: parsed again, laid out at the file's lines.
			if doc, _, ok := kubeadm.LiteralBlock(data, s); ok {
				var m yaml.Node
				if yaml.Unmarshal(doc, &m) == nil && len(m.Content) == 1 && m.Content[0].Kind == yaml.MappingNode {
					root, laidOut = m.Content[0], true
				}
			}
		}
		var value map[string]any
		if err := root.Decode(&value); err != nil {
			return nil, &source.InputError{Path: path, Err: fmt.Errorf("line %d: %v", s.Line, err)}
		}
		// kind matches patches by kind (and apiVersion when given); the type
		// meta of the patch itself is not a setting.
		delete(value, "kind")
		delete(value, "apiVersion")
		delete(value, "metadata")
		p := kindPatch{value: jsonable(value).(map[string]any), byPath: map[string]finding.Position{}}
		kubeadm.IndexPaths(p.byPath, path, root, "")
		if !laidOut {
			for k := range p.byPath {
				p.byPath[k] = finding.Position{File: path, Line: s.Line, Column: s.Column}
			}
		}
		out = append(out, p)
	}
	return out, nil
}

// jsonable turns YAML-decoded maps with non-string keys into JSON objects.
func jsonable(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			t[k] = jsonable(x)
		}
		return t
	case map[any]any:
		m := map[string]any{}
		for k, x := range t {
			m[fmt.Sprint(k)] = jsonable(x)
		}
		return m
	case []any:
		for i, x := range t {
			t[i] = jsonable(x)
		}
	}
	return v
}

// mergePatch is RFC 7386 JSON merge patch (jsonpatch.MergePatch, which kind applies).
func mergePatch(target, patch any) any {
	p, ok := patch.(map[string]any)
	if !ok {
		return patch
	}
	t, ok := target.(map[string]any)
	if !ok {
		t = map[string]any{}
	} else {
		t = maps.Clone(t)
	}
	for k, v := range p {
		if v == nil {
			delete(t, k)
			continue
		}
		t[k] = mergePatch(t[k], v)
	}
	return t
}
