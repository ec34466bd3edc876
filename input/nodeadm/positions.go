package nodeadm

import (
	"bytes"
	"strconv"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/skew"
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

// positionsOf reads the documents of p with yaml.v3 for their keys' lines
// and columns. A part whose bytes are not the file's (encoded) has every
// position at its Content-Type header.
func positionsOf(file string, p part) *docPositions {
	d := &docPositions{nc: map[string]finding.Position{}, kc: map[string]finding.Position{}, leaf: map[string]bool{}}
	if p.header < 1 {
		p.header = 1
	}
	at := func(n *yaml.Node) finding.Position {
		if p.encoded {
			return finding.Position{File: file, Line: p.header, Column: 1}
		}
		return finding.Position{File: file, Line: n.Line + p.line - 1, Column: n.Column}
	}
	dec := yaml.NewDecoder(bytes.NewReader(p.data))
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
			d.rest = append(d.rest, at(firstKey(root)))
			continue
		}
		d.first = at(firstKey(root))
		walkNodeConfig(root, "", d, at)
	}
	if d.first.File == "" {
		line := p.line
		if p.encoded || line == 0 {
			line = p.header
		}
		d.first = finding.Position{File: file, Line: line, Column: 1}
	}
	return d
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
			p := skew.JoinPath(path, k.Value)
			d.nc[p] = at(k)
			if p == "spec.kubelet.config" {
				walkKubelet(v, "", skew.Tree(), false, d, at)
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
func walkKubelet(n *yaml.Node, path string, f *skew.Field, inList bool, d *docPositions, at func(*yaml.Node) finding.Position) {
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			var p string
			var child *skew.Field
			if f != nil && f.Kind == skew.Map && path != "" {
				p, child = path+"["+k.Value+"]", f.Elem
			} else {
				p = skew.JoinPath(path, k.Value)
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
		var elem *skew.Field
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
