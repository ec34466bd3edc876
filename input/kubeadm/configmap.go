package kubeadm

import (
	"bytes"
	"fmt"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kubeletcfg/kubeletcfg/input/internal/yamlmap"
	"github.com/kubeletcfg/kubeletcfg/input/posmap"
	"github.com/kubeletcfg/kubeletcfg/source"
)

// kubeadmMap is the kubeadm ConfigMap as far as conversion needs it.
type kubeadmMap struct {
	name       string
	key, value *yaml.Node // data.kubelet; value nil when missing
}

// configMap recognises a ConfigMap in the first YAML (or JSON) document of
// data. ok is false for anything that is not a ConfigMap.
// IsConfigMap reports whether data is a ConfigMap (the kubeadm kubelet-config
// ConfigMap is read from one: ConvertConfigMap).
func IsConfigMap(data []byte) bool {
	_, ok := configMap(data)
	return ok
}

func configMap(data []byte) (kubeadmMap, bool) {
	// Without the name written out, kind cannot be ConfigMap unless an escape
	// (a backslash) or another encoding (NUL bytes of UTF-16) spells it: skip
	// the full parse of every large config file auto-detection sees.
	if !bytes.Contains(data, []byte("ConfigMap")) && !bytes.ContainsAny(data, "\\\x00") {
		return kubeadmMap{}, false
	}
	var doc yaml.Node
	if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&doc); err != nil || len(doc.Content) == 0 {
		return kubeadmMap{}, false
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return kubeadmMap{}, false
	}
	if kind := yamlmap.Value(root, "kind"); kind == nil || kind.Kind != yaml.ScalarNode || kind.Value != "ConfigMap" {
		return kubeadmMap{}, false
	}
	var m kubeadmMap
	if meta := yamlmap.Value(root, "metadata"); meta != nil {
		if n := yamlmap.Value(meta, "name"); n != nil {
			m.name = n.Value
		}
		if ns := yamlmap.Value(meta, "namespace"); ns != nil && ns.Value != "" {
			m.name = ns.Value + "/" + m.name
		}
	}
	if d := yamlmap.Value(root, "data"); d != nil && d.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(d.Content); i += 2 {
			if d.Content[i].Value == "kubelet" {
				m.key, m.value = d.Content[i], d.Content[i+1]
			}
		}
	}
	return m, true
}

// ConvertConfigMap extracts data.kubelet of the kubeadm kubelet-config
// ConfigMap, the file kubeadm writes to /var/lib/kubelet/config.yaml.
//
// A literal block (data.kubelet: |) keeps its lines: the document the pipeline
// reads has the block's lines where the ConfigMap has them, indentation
// included (a uniformly indented YAML document parses as the same document),
// and blank lines before them. So every position, and every "line N" in a
// message, is one of the ConfigMap, in every command, without translation.
// Only document markers and directives ("---", "...", "%") must start their
// line to mean what they mean in the kubelet's file: those lines lose their
// indentation, and Translate adds it back to their columns. A quoted, folded
// or flow string has no such line mapping (escapes, folding): its findings
// point at the kubelet: key, and the note says so.
func ConvertConfigMap(path string, data []byte) (*Conversion, error) {
	m, ok := configMap(data)
	if !ok {
		return nil, &source.InputError{Path: path, Err: fmt.Errorf("is not a ConfigMap (the kubeadm kube-system/kubelet-config ConfigMap, as kubectl get -o yaml prints it)")}
	}
	if m.value == nil {
		return nil, &source.InputError{Path: path, Err: fmt.Errorf("ConfigMap %s has no data.kubelet: not the kubeadm kubelet-config ConfigMap", m.name)}
	}
	if m.value.Kind != yaml.ScalarNode || m.value.Tag != "!!str" {
		return nil, &source.InputError{Path: path, Err: fmt.Errorf("line %d: data.kubelet is not a string", m.key.Line)}
	}
	note := fmt.Sprintf("kubeadm ConfigMap %s: data.kubelet", m.name)
	if m.value.Style&yaml.LiteralStyle != 0 {
		if doc, pm, ok := LiteralBlock(data, m.value); ok {
			pm.Path = path
			return &Conversion{Data: doc, Pos: pm,
				Note: fmt.Sprintf("%s (lines %d-%d) is the kubelet's config file", note, pm.First, pm.Last)}, nil
		}
	}
	key := m.key
	doc := strings.Repeat("\n", key.Line-1) + m.value.Value
	return &Conversion{Data: []byte(doc), Pos: &posmap.Map{Path: path, Fallback: true, KeyLine: key.Line, KeyColumn: key.Column},
		Note: fmt.Sprintf("%s is not a literal block (|), so findings inside it point at its kubelet: key (line %d)", note, key.Line)}, nil
}

// LiteralBlock lays out the value of a literal block scalar at the lines it
// has in data. ok is false when the lines in data are not the value's lines
// with one indentation (then positions fall back to the key).
func LiteralBlock(data []byte, v *yaml.Node) ([]byte, *posmap.Map, bool) {
	outer := strings.Split(string(data), "\n")
	inner := strings.Split(v.Value, "\n")
	// A value that ends with a line break ("clip" or "keep") has no line after it.
	if len(inner) > 1 && inner[len(inner)-1] == "" {
		inner = inner[:len(inner)-1]
	}
	first := v.Line + 1 // the indicator's line is v.Line; content starts below
	if len(inner) == 0 || first-1+len(inner) > len(outer) {
		return nil, nil, false
	}
	indent := -1
	for i, line := range inner {
		o := strings.TrimRight(outer[first-1+i], "\r")
		if line == "" {
			if strings.TrimLeft(o, " ") != "" {
				return nil, nil, false
			}
			continue
		}
		n := len(o) - len(line)
		if n < 0 || o[n:] != line || strings.Trim(o[:n], " ") != "" || indent >= 0 && n != indent {
			return nil, nil, false
		}
		indent = n
	}
	if indent < 0 {
		return nil, nil, false
	}
	pm := &posmap.Map{First: first, Last: first + len(inner) - 1, Indent: indent, Dedented: map[int]bool{}}
	var b strings.Builder
	b.WriteString(strings.Repeat("\n", first-1))
	pad := strings.Repeat(" ", indent)
	for i, line := range inner {
		switch {
		case line == "":
		case marker(line):
			pm.Dedented[first+i] = true
			b.WriteString(line)
		default:
			b.WriteString(pad + line)
		}
		b.WriteByte('\n')
	}
	return []byte(b.String()), pm, true
}

// marker reports whether line, at the start of a line, is a document marker
// or a directive, which mean something only there.
func marker(line string) bool {
	if strings.HasPrefix(line, "%") {
		return true
	}
	for _, m := range []string{"---", "..."} {
		if rest, ok := strings.CutPrefix(line, m); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
			return true
		}
	}
	return false
}
