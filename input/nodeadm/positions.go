package nodeadm

import (
	"bytes"
	"strconv"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

// docPositions are the keys of one NodeConfig document, in the user's file.
type docPositions struct {
	// nc: NodeConfig paths as the strict decoder names them
	// (spec.kubelet.flags, spec.cluster.name), at their key; flags[i] at the item.
	nc map[string]finding.Position
	// kc: KubeletConfiguration field paths under spec.kubelet.config
	// (featureGates[NodeSwap], kubeReserved[cpu]), at their key.
	kc map[string]finding.Position
	// leaf: the kc paths whose value is not an object (a scalar or a list):
	// the ones a later NodeConfig replaces rather than merges into.
	leaf map[string]bool
	// first is the document's first key (the anchor), rest the first key of
	// each further document of the same stream (nodeadm does not read them).
	first finding.Position
	rest  []finding.Position
}

// positionsOf reads the documents of d with yaml.v3 for their keys' lines
// and columns, placed in the user's file by d.At (nil: every position at
// d.Anchor); a generated document's keys are at d.Positions.
func positionsOf(d *Document) *docPositions {
	dp := &docPositions{nc: map[string]finding.Position{}, kc: map[string]finding.Position{}, leaf: map[string]bool{}}
	at := func(n *yaml.Node) finding.Position {
		if d.At == nil {
			return d.Anchor
		}
		return d.At(n.Line, n.Column)
	}
	dec := yaml.NewDecoder(bytes.NewReader(d.Data))
	for i := 0; ; i++ {
		var doc yaml.Node
		if err := dec.Decode(&doc); err != nil {
			break
		}
		if len(doc.Content) == 0 || doc.Content[0].Kind == yaml.ScalarNode && doc.Content[0].Tag == "!!null" {
			i--
			continue
		}
		root := doc.Content[0]
		if i > 0 {
			dp.rest = append(dp.rest, at(firstKey(root)))
			continue
		}
		dp.first = at(firstKey(root))
		walkNodeConfig(root, "", dp, at)
	}
	if dp.first.File == "" {
		dp.first = d.Anchor
	}
	if d.Generator != "" {
		dp.first = d.Anchor
		for p := range dp.nc {
			dp.nc[p] = d.generated(p)
		}
		for p := range dp.kc {
			dp.kc[p] = d.generated(p)
		}
	}
	return dp
}

func firstKey(n *yaml.Node) *yaml.Node {
	if n.Kind == yaml.MappingNode && len(n.Content) > 0 {
		return n.Content[0]
	}
	return n
}

func walkNodeConfig(n *yaml.Node, path string, d *docPositions, at func(*yaml.Node) finding.Position) {
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			p := kubelets.JoinPath(path, k.Value)
			d.nc[p] = at(k)
			if p == "spec.kubelet.config" {
				walkKubelet(v, "", kubelets.Tree(), false, d, at)
				continue
			}
			walkNodeConfig(v, p, d, at)
		}
	case yaml.SequenceNode:
		for i, item := range n.Content {
			p := path + "[" + strconv.Itoa(i) + "]"
			d.nc[p] = at(item)
			walkNodeConfig(item, p, d, at)
		}
	}
}

// walkKubelet records the keys of spec.kubelet.config by field path: the
// KubeletConfiguration tree says which objects are maps (keys in brackets).
func walkKubelet(n *yaml.Node, path string, f *kubelets.Field, inList bool, d *docPositions, at func(*yaml.Node) finding.Position) {
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			var p string
			var child *kubelets.Field
			if f != nil && f.Kind == kubelets.Map && path != "" {
				p, child = path+"["+k.Value+"]", f.Elem
			} else {
				p = kubelets.JoinPath(path, k.Value)
				if f != nil {
					child, _ = f.Child(k.Value)
				}
			}
			d.kc[p] = at(k)
			if v.Kind != yaml.MappingNode && !inList {
				d.leaf[p] = true
			}
			walkKubelet(v, p, child, inList, d, at)
		}
	case yaml.SequenceNode:
		var elem *kubelets.Field
		if f != nil {
			elem = f.Elem
		}
		for i, item := range n.Content {
			p := path + "[" + strconv.Itoa(i) + "]"
			if _, ok := d.kc[p]; !ok {
				d.kc[p] = at(item)
			}
			walkKubelet(item, p, elem, true, d, at)
		}
	}
}
