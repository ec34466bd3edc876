package author

import (
	"fmt"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	kubeletv1beta1 "github.com/kubeletcfg/kubeletcfg/upstream/kubelet/config/v1beta1"
)

// Document is a drop-in: apiVersion, kind and the settings, in the order given.
type Document struct {
	Settings []Setting
	// Header is written as comment lines at the top of the file.
	Header []string
}

// NewDocument checks that no two settings touch the same key: the same path
// twice, or a path and one below it (crashLoopBackOff=null and
// crashLoopBackOff.maxContainerRestartPeriod=30s), would leave the result to
// the order of the flags.
func NewDocument(settings []Setting) (*Document, error) {
	for i, a := range settings {
		for _, b := range settings[:i] {
			if a.Path == b.Path {
				return nil, fmt.Errorf("%s is set twice", a.Path)
			}
			if below(a.Segments, b.Segments) || below(b.Segments, a.Segments) {
				return nil, fmt.Errorf("%s and %s overlap: set one or the other", b.Path, a.Path)
			}
		}
	}
	return &Document{Settings: settings}, nil
}

// below reports whether p lies strictly under parent.
func below(p, parent []Segment) bool {
	if len(p) <= len(parent) {
		return false
	}
	for i := range parent {
		if p[i] != parent[i] {
			return false
		}
	}
	return true
}

// Patch is the document as the JSON merge patch the kubelet applies.
func (d *Document) Patch() map[string]any {
	out := map[string]any{
		"apiVersion": kubeletv1beta1.SchemeGroupVersion.String(),
		"kind":       "KubeletConfiguration",
	}
	for _, s := range d.Settings {
		cur := out
		for _, seg := range s.Segments[:len(s.Segments)-1] {
			next, ok := cur[seg.Name].(map[string]any)
			if !ok {
				next = map[string]any{}
				cur[seg.Name] = next
			}
			cur = next
		}
		cur[s.Segments[len(s.Segments)-1].Name] = s.Value // nil is null: delete
	}
	return out
}

// YAML renders the drop-in: header comments, apiVersion, kind, then the keys in
// the order they were given, each parent written once.
func (d *Document) YAML() ([]byte, error) {
	root := &yaml.Node{Kind: yaml.MappingNode}
	addScalar(root, "apiVersion", kubeletv1beta1.SchemeGroupVersion.String())
	addScalar(root, "kind", "KubeletConfiguration")
	for _, s := range d.Settings {
		cur := root
		for _, seg := range s.Segments[:len(s.Segments)-1] {
			cur = childMapping(cur, seg.Name)
		}
		var v yaml.Node
		if s.Delete {
			v = yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
		} else if err := v.Encode(s.Value); err != nil {
			return nil, fmt.Errorf("%s: %w", s.Path, err)
		}
		if v.Kind == yaml.SequenceNode || v.Kind == yaml.MappingNode {
			v.Style = yaml.FlowStyle
		}
		k := strNode(s.Segments[len(s.Segments)-1].Name)
		if s.Delete {
			k.LineComment = "null removes the key (kubelet 1.32+): the default applies"
		}
		cur.Content = append(cur.Content, k, &v)
	}
	return encode(root, d.Header)
}

// encode writes a drop-in's mapping with header comment lines, indented by two
// spaces like the kubelet's own examples.
func encode(root *yaml.Node, header []string) ([]byte, error) {
	doc := &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{root}}
	if len(header) > 0 {
		doc.HeadComment = "# " + strings.Join(header, "\n# ")
	}
	var b strings.Builder
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return []byte(b.String()), nil
}

func addScalar(m *yaml.Node, k, v string) {
	m.Content = append(m.Content, strNode(k), strNode(v))
}

// strNode is a string scalar; the !!str tag makes the encoder quote a key such
// as "true" or "1.5" that would otherwise read back as another type.
func strNode(s string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
}

// childMapping finds or appends the mapping under key k.
func childMapping(m *yaml.Node, k string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == k && m.Content[i+1].Kind == yaml.MappingNode {
			return m.Content[i+1]
		}
	}
	child := &yaml.Node{Kind: yaml.MappingNode}
	m.Content = append(m.Content, strNode(k), child)
	return child
}
