package pipeline

import (
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/source"
)

// culprit finds the first leaf key of the main file whose value, decoded alone
// in an otherwise empty KubeletConfiguration, fails as the whole file did. When
// the kubelet's error named a field, only keys at or below it are tried. Keys
// inside lists are not isolated (the error names those lists already).
func culprit(f *source.File, keys []source.Key, named string) *source.Key {
	if f.Doc == nil {
		return nil
	}
	for i, k := range keys {
		if k.Kind != source.KeyExact || k.Field == nil || k.Field.Kind != kubelets.Scalar || strings.Contains(k.Path, "]") && !isMapLeaf(k) {
			continue
		}
		if named != "" && !kubelets.Within(strings.ToLower(k.Path), strings.ToLower(named)) {
			continue
		}
		v := valueAt(f.Doc, k.WrittenPath)
		if v == nil {
			continue
		}
		doc := isolate(k.WrittenPath, v)
		if doc == nil {
			continue
		}
		if source.DecodeMain(doc).Err != nil {
			return &keys[i]
		}
	}
	return nil
}

// isMapLeaf reports whether the only bracket in the key's path is its own map key.
func isMapLeaf(k source.Key) bool {
	return k.Parent != nil && k.Parent.Kind == kubelets.Map && strings.Count(k.Path, "[") == 1 && strings.HasSuffix(k.Path, "]")
}

// segments splits a written path into object keys and map keys: a.b[k] -> a,
// b, k; nil when a bracket is not closed.
func segments(path string) []string {
	steps, ok := kubelets.Steps(path)
	if !ok {
		return nil
	}
	out := make([]string, len(steps))
	for i, st := range steps {
		out[i] = st.Name
	}
	return out
}

// valueAt follows a written path through the document's mappings.
func valueAt(n *yaml.Node, path string) *yaml.Node {
	for _, seg := range segments(path) {
		for n != nil && n.Kind == yaml.AliasNode {
			n = n.Alias
		}
		if n == nil || n.Kind != yaml.MappingNode {
			return nil
		}
		var next *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == seg {
				next = n.Content[i+1] // the last occurrence wins, as in the kubelet
			}
		}
		n = next
	}
	return n
}

// isolate builds a KubeletConfiguration document holding only the value at path.
func isolate(path string, v *yaml.Node) []byte {
	segs := segments(path)
	if len(segs) == 0 {
		return nil
	}
	val := v
	for i := len(segs) - 1; i >= 0; i-- {
		val = &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Value: segs[i]}, val}}
	}
	val.Content = append([]*yaml.Node{
		{Kind: yaml.ScalarNode, Value: "apiVersion"}, {Kind: yaml.ScalarNode, Value: "kubelet.config.k8s.io/v1beta1"},
		{Kind: yaml.ScalarNode, Value: "kind"}, {Kind: yaml.ScalarNode, Value: "KubeletConfiguration"},
	}, val.Content...)
	out, err := yaml.Marshal(val)
	if err != nil {
		return nil
	}
	return out
}
