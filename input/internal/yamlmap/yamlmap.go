// Package yamlmap looks keys up in a YAML mapping node (go.yaml.in/yaml/v3),
// for the translators that read a file's nodes to keep its positions: the
// first entry of a key, as the tools' own decoders take it.
package yamlmap

import yaml "go.yaml.in/yaml/v3"

// Entry is the key and value nodes of key in the mapping n; nils when n is
// not a mapping or lacks it.
func Entry(n *yaml.Node, key string) (k, v *yaml.Node) {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i], n.Content[i+1]
		}
	}
	return nil, nil
}

// Value is the value node of key in the mapping n, or nil.
func Value(n *yaml.Node, key string) *yaml.Node {
	_, v := Entry(n, key)
	return v
}

// Key is the key node of key in the mapping n (for its position), or nil.
func Key(n *yaml.Node, key string) *yaml.Node {
	k, _ := Entry(n, key)
	return k
}
