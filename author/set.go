package author

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kubeletcfg/kubeletcfg/internal/didyoumean"
	"github.com/kubeletcfg/kubeletcfg/internal/optionerr"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

// Setting is one key a drop-in sets (or deletes, with null).
type Setting struct {
	// Path in kubeletcfg's path syntax with the schema's spelling:
	// crashLoopBackOff.maxContainerRestartPeriod, evictionHard[memory.available].
	Path string
	// Segments of Path: field names, and map keys (Key set).
	Segments []Segment
	// Value is the JSON value to merge (nil when Delete).
	Value any
	// Delete writes null: the merge patch removes the key (1.32+).
	Delete bool
	// Notes say what was corrected on the way (a field name's case).
	Notes []string
}

// Segment is one step of a path.
type Segment struct {
	Name string
	// Key is set when Name is a key of a free-form map (written in brackets).
	Key bool
}

// Schema is a minor's KubeletConfiguration JSON Schema, decoded.
type Schema struct {
	root map[string]any
}

// SchemaOf decodes m's generated schema.
func SchemaOf(m *kubelets.Minor) (*Schema, error) {
	raw, err := m.Schema()
	if err != nil {
		return nil, err
	}
	var root map[string]any
	if err := json.Unmarshal(raw, &root); err != nil {
		return nil, fmt.Errorf("schema of kubelet %s: %w", m.Version, err)
	}
	return &Schema{root: root}, nil
}

// ParseSet parses "path=value". The path is resolved against the schema (field
// names match case-insensitively and are rewritten to the schema's spelling);
// the value is YAML (flow lists and maps allowed) coerced to the field's type;
// "null" deletes the key.
func (s *Schema) ParseSet(expr string) (Setting, error) {
	rawPath, rawValue, ok := cutOutsideBrackets(expr, '=')
	if !ok {
		return Setting{}, newRequestErrorf("{Sets} %q: want path=value", expr)
	}
	segs, err := splitPath(rawPath)
	if err != nil {
		return Setting{}, newRequestErrorf("{Sets} %q: %w", expr, err)
	}
	set := Setting{}
	node := s.root
	var canon []Segment
	for i, seg := range segs {
		parent := pathString(canon)
		if seg.Key {
			elem, isMap := mapElem(node)
			if !isMap {
				return Setting{}, newRequestErrorf("{Sets} %q: %s is not a map, so [%s] does not apply", expr, orRoot(parent), seg.Name)
			}
			node = elem
			canon = append(canon, seg)
			continue
		}
		props, _ := node["properties"].(map[string]any)
		if props == nil {
			if _, isMap := mapElem(node); isMap {
				// The rest of the dotted path is most likely one key (memory.available).
				var rest []string
				for _, r := range segs[i:] {
					rest = append(rest, r.Name)
				}
				return Setting{}, newRequestErrorf("{Sets} %q: %s is a map; write its key in brackets: %s[%s]", expr, parent, parent, strings.Join(rest, "."))
			}
			return Setting{}, newRequestErrorf("{Sets} %q: %s has no fields; lists are replaced whole by a drop-in: %s=[...]", expr, parent, parent)
		}
		name, child, err := lookupProperty(props, seg.Name)
		if err != nil {
			return Setting{}, newRequestErrorf("{Sets} %q: %w", expr, unknownField(canon, segs[i:], err))
		}
		if name != seg.Name {
			set.Notes = append(set.Notes, fmt.Sprintf("%s is spelled %s in the kubelet's schema (a drop-in would match it case-insensitively, the main file would drop it)", seg.Name, name))
		}
		node = child
		canon = append(canon, Segment{Name: name})
	}
	set.Segments = canon
	set.Path = pathString(canon)
	if len(canon) == 1 && (canon[0].Name == "apiVersion" || canon[0].Name == "kind") {
		return Setting{}, newRequestErrorf("{Sets} %q: apiVersion and kind are written by kubeletcfg", expr)
	}
	if strings.TrimSpace(rawValue) == "null" || strings.TrimSpace(rawValue) == "~" {
		set.Delete = true
		return set, nil
	}
	var v any
	if err := yaml.Unmarshal([]byte(rawValue), &v); err != nil {
		return Setting{}, newRequestErrorf("{Sets} %q: the value is not YAML: %v", expr, err)
	}
	if v == nil && strings.TrimSpace(rawValue) == "" {
		v = ""
	}
	set.Value, err = coerce(node, v, rawValue, set.Path)
	if err != nil {
		return Setting{}, newRequestErrorf("{Sets} %q: %w", expr, err)
	}
	return set, nil
}

// FeatureGate turns "Name=true" into the setting featureGates[Name]. The name is
// not checked here: whether a kubelet knows it is what Check reports, per minor.
func FeatureGate(expr string) (Setting, error) {
	name, val, ok := strings.Cut(expr, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return Setting{}, newRequestErrorf("{Gates} %q: want Name=true or Name=false", expr)
	}
	var on bool
	switch strings.ToLower(strings.TrimSpace(val)) {
	case "true":
		on = true
	case "false":
	default:
		return Setting{}, newRequestErrorf("{Gates} %q: the value must be true or false", expr)
	}
	segs := []Segment{{Name: "featureGates"}, {Name: name, Key: true}}
	return Setting{Path: pathString(segs), Segments: segs, Value: on}, nil
}

func orRoot(p string) string {
	if p == "" {
		return "the configuration"
	}
	return p
}

// unknownField explains an unknown name, with the KEP-4603 draft called out.
func unknownField(parent, rest []Segment, err error) error {
	full := pathString(append(append([]Segment{}, parent...), rest...))
	if strings.EqualFold(full, "crashLoopBackOff.maxSeconds") {
		return fmt.Errorf("%s is the KEP-4603 draft name, which no kubelet knows; the shipped field is crashLoopBackOff.maxContainerRestartPeriod, a duration between 1s and 300s (maxSeconds: 30 is maxContainerRestartPeriod=30s)", full)
	}
	return err
}

// lookupProperty finds a field by exact name, else by a unique case-insensitive match.
func lookupProperty(props map[string]any, name string) (string, map[string]any, error) {
	if c, ok := props[name].(map[string]any); ok {
		return name, c, nil
	}
	var names []string
	var found string
	for n := range props {
		names = append(names, n)
		if strings.EqualFold(n, name) {
			found = n
		}
	}
	if found != "" {
		return found, props[found].(map[string]any), nil
	}
	sort.Strings(names)
	msg := fmt.Sprintf("unknown field %q", name)
	if s := didyoumean.Nearest(name, names); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	}
	return "", nil, fmt.Errorf("%s", msg)
}

// mapElem returns the value schema of a free-form map.
func mapElem(node map[string]any) (map[string]any, bool) {
	if _, hasProps := node["properties"]; hasProps {
		return nil, false
	}
	elem, ok := node["additionalProperties"].(map[string]any)
	return elem, ok
}

// types lists a schema's JSON types without "null".
func types(node map[string]any) []string {
	var out []string
	switch t := node["type"].(type) {
	case string:
		out = append(out, t)
	case []any:
		for _, x := range t {
			if s, ok := x.(string); ok && s != "null" {
				out = append(out, s)
			}
		}
	}
	return out
}

// coerce turns a YAML value into the JSON value the field's type wants. A
// string field takes the text as written (200Mi, 10, true all stay strings).
func coerce(node map[string]any, v any, raw, path string) (any, error) {
	ts := types(node)
	if len(ts) == 0 {
		return v, nil // free-form (x-kubernetes-preserve-unknown-fields)
	}
	want := ts[0]
	switch want {
	case "string":
		switch x := v.(type) {
		case string:
			return x, nil
		case map[string]any, []any, nil:
			return nil, fmt.Errorf("%s is a string, not %s", path, kindOf(v))
		default:
			return strings.TrimSpace(raw), nil
		}
	case "integer":
		switch x := v.(type) {
		case int:
			return int64(x), nil
		case float64:
			if x == math.Trunc(x) {
				return int64(x), nil
			}
		}
		return nil, fmt.Errorf("%s is an integer, not %s", path, kindOf(v))
	case "number":
		switch x := v.(type) {
		case int:
			return float64(x), nil
		case float64:
			return x, nil
		}
		return nil, fmt.Errorf("%s is a number, not %s", path, kindOf(v))
	case "boolean":
		if b, ok := v.(bool); ok {
			return b, nil
		}
		return nil, fmt.Errorf("%s is true or false, not %s", path, kindOf(v))
	case "array":
		items, ok := v.([]any)
		if !ok {
			return nil, fmt.Errorf("%s is a list (a drop-in replaces it whole): write %s=[a, b]", path, path)
		}
		elem, _ := node["items"].(map[string]any)
		out := make([]any, len(items))
		for i, it := range items {
			c, err := coerce(elem, it, scalarText(it), fmt.Sprintf("%s[%d]", path, i))
			if err != nil {
				return nil, err
			}
			out[i] = c
		}
		return out, nil
	case "object":
		m, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s is an object, not %s: write %s={key: value} or set its fields", path, kindOf(v), path)
		}
		out := map[string]any{}
		if elem, isMap := mapElem(node); isMap {
			for k, x := range m {
				c, err := coerce(elem, x, scalarText(x), path+"["+k+"]")
				if err != nil {
					return nil, err
				}
				out[k] = c
			}
			return out, nil
		}
		props, _ := node["properties"].(map[string]any)
		for k, x := range m {
			name, child, err := lookupProperty(props, k)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", path, err)
			}
			c, err := coerce(child, x, scalarText(x), path+"."+name)
			if err != nil {
				return nil, err
			}
			out[name] = c
		}
		return out, nil
	}
	return v, nil
}

func scalarText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return fmt.Sprint(v)
}

func kindOf(v any) string {
	switch x := v.(type) {
	case nil:
		return "empty"
	case string:
		return fmt.Sprintf("the text %q", x)
	case bool:
		return fmt.Sprintf("the boolean %v", x)
	case int, float64:
		return fmt.Sprintf("the number %v", x)
	case []any:
		return "a list"
	case map[string]any:
		return "a map"
	}
	return fmt.Sprintf("%T", v)
}

// splitPath splits a.b[key].c; keys in brackets may hold dots.
func splitPath(p string) ([]Segment, error) {
	var out []Segment
	p = strings.TrimSpace(p)
	if p == "" {
		return nil, fmt.Errorf("empty path")
	}
	for len(p) > 0 {
		switch p[0] {
		case '[':
			end := strings.IndexByte(p, ']')
			if end < 0 {
				return nil, fmt.Errorf("unclosed [ in the path")
			}
			key := p[1:end]
			if key == "" {
				return nil, fmt.Errorf("empty map key []")
			}
			if len(out) == 0 {
				return nil, fmt.Errorf("a path cannot start with [")
			}
			out = append(out, Segment{Name: key, Key: true})
			p = p[end+1:]
			if p != "" && p[0] != '.' && p[0] != '[' {
				return nil, fmt.Errorf("want . or [ after [%s]", key)
			}
			if strings.HasPrefix(p, ".") {
				p = p[1:]
				if p == "" || p[0] == '[' || p[0] == '.' {
					return nil, fmt.Errorf("empty field name after a dot")
				}
			}
		default:
			end := strings.IndexAny(p, ".[")
			name := p
			if end >= 0 {
				name = p[:end]
			}
			if name == "" {
				return nil, fmt.Errorf("empty field name")
			}
			out = append(out, Segment{Name: name})
			p = p[len(name):]
			if strings.HasPrefix(p, ".") {
				p = p[1:]
				if p == "" || p[0] == '.' || p[0] == '[' {
					return nil, fmt.Errorf("empty field name after a dot")
				}
			}
		}
	}
	return out, nil
}

// pathString is the inverse of splitPath.
func pathString(segs []Segment) string {
	var b strings.Builder
	for i, s := range segs {
		switch {
		case s.Key:
			b.WriteString("[" + s.Name + "]")
		case i > 0:
			b.WriteString("." + s.Name)
		default:
			b.WriteString(s.Name)
		}
	}
	return b.String()
}

// cutOutsideBrackets cuts s at the first sep not inside [...].
func cutOutsideBrackets(s string, sep byte) (string, string, bool) {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[':
			depth++
		case ']':
			if depth > 0 {
				depth--
			}
		case sep:
			if depth == 0 {
				return s[:i], s[i+1:], true
			}
		}
	}
	// An unclosed [ swallowed the separator: cut at the first one, so that
	// the path's own error says what is wrong.
	if i := strings.IndexByte(s, sep); i >= 0 {
		return s[:i], s[i+1:], true
	}
	return s, "", false
}

// CompleteSet completes a --set being typed: the field paths of the default
// minor that start with prefix, each followed by "=" (apiVersion and kind are
// written by New, never set).
func CompleteSet(prefix string) ([]string, error) {
	infos, err := kubelets.Default().FieldInfos()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, f := range infos {
		if strings.HasPrefix(f.Path, prefix) && f.Path != "apiVersion" && f.Path != "kind" {
			out = append(out, f.Path+"=")
		}
	}
	return out, nil
}

// The errors about NewRequest's fields name them in the library's words
// (NewRequest.Sets); the command prints its flags (kubeletcfg.CommandWords).
var newRequestErrorf = optionerr.In("NewRequest").Errorf
