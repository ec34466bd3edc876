package k3s

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	yaml2 "go.yaml.in/yaml/v2"
	yaml "go.yaml.in/yaml/v3"

	"github.com/kubeletcfg/kubeletcfg/finding"
)

// A configArg is one "--key=value" argument configfilearg makes of the files,
// with where the user wrote it.
type configArg struct {
	// Key is the flag's name as written, without "+", Value the value as k3s
	// turns it into a string (ToString).
	Key, Value string
	// KeyPos is the key's position (in the file that last set it), ValuePos
	// the value's (the sequence item's, for a list).
	KeyPos, ValuePos finding.Position
}

// mergedValue is a key's value after the files are merged: either one value
// (scalar true) or a list, each with its position.
type mergedValue struct {
	scalar bool
	vals   []any
	pos    []finding.Position
	keyPos finding.Position
}

// dotDFiles ports pkg/configfilearg/parser.go dotDFiles (k3s 2a1e2e8cf41b): the
// files of basefile+".d" whose names end in .yaml or .yml (any case), in
// os.ReadDir's order (sorted by name), directories left out.
func dotDFiles(basefile string) ([]string, error) {
	files, err := os.ReadDir(basefile + ".d")
	if os.IsNotExist(err) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	var result []string
	for _, file := range files {
		if file.IsDir() || !hasSuffixI(file.Name(), ".yaml", ".yml") {
			continue
		}
		result = append(result, filepath.Join(basefile+".d", file.Name()))
	}
	return result, nil
}

// hasSuffixI ports pkg/agent/util HasSuffixI: a case-insensitive suffix test.
func hasSuffixI(s string, suffixes ...string) bool {
	s = strings.ToLower(s)
	for _, suffix := range suffixes {
		if strings.HasSuffix(s, strings.ToLower(suffix)) {
			return true
		}
	}
	return false
}

// readConfigFiles ports pkg/configfilearg/parser.go readConfigFile (k3s
// 2a1e2e8cf41b): the files in order (config.yaml, then config.yaml.d/*.yaml),
// each a YAML map; a key's first appearance fixes its place, a later file's
// value replaces it, and a key written "key+" appends to it. The result is the
// "--key=value" list k3s puts before the command line's own flags, one per
// list item. files are (path, data) pairs.
func readConfigFiles(files []fileData) ([]configArg, error) {
	var (
		keySeen  = map[string]bool{}
		keyOrder []string
		values   = map[string]*mergedValue{}
	)
	for _, f := range files {
		data := yaml2.MapSlice{}
		if err := yaml2.Unmarshal(f.data, &data); err != nil {
			return nil, fmt.Errorf("%s: k3s cannot read it (configfilearg readConfigFile): %v", f.path, err)
		}
		var root yaml.Node
		_ = yaml.Unmarshal(f.data, &root)
		var pairs []*yaml.Node
		if len(root.Content) == 1 && root.Content[0].Kind == yaml.MappingNode {
			pairs = root.Content[0].Content
		}
		for n, i := range data {
			var keyNode, valNode *yaml.Node
			if 2*n+1 < len(pairs) {
				keyNode, valNode = pairs[2*n], pairs[2*n+1]
			}
			kp, vp := pos(f.path, keyNode), pos(f.path, valNode)
			k, v := toString(i.Key), i.Value
			isAppend := strings.HasSuffix(k, "+")
			k = strings.TrimSuffix(k, "+")

			if !keySeen[k] {
				keySeen[k] = true
				keyOrder = append(keyOrder, k)
			}

			newVals, newPos := toSlice(v, vp, valNode, f.path)
			if old, ok := values[k]; ok && isAppend {
				if old.scalar {
					old.vals, old.pos = toSlice(old.vals[0], old.pos[0], nil, f.path)
				}
				old.vals = append(old.vals, newVals...)
				old.pos = append(old.pos, newPos...)
				old.scalar = false
				old.keyPos = kp
			} else {
				_, isSlice := v.([]any)
				if isSlice {
					values[k] = &mergedValue{vals: newVals, pos: newPos, keyPos: kp}
				} else {
					values[k] = &mergedValue{scalar: true, vals: []any{v}, pos: []finding.Position{vp}, keyPos: kp}
				}
			}
		}
	}

	var result []configArg
	for _, k := range keyOrder {
		m := values[k]
		if m.scalar {
			result = append(result, configArg{Key: k, Value: toString(m.vals[0]), KeyPos: m.keyPos, ValuePos: m.pos[0]})
			continue
		}
		for i, v := range m.vals {
			result = append(result, configArg{Key: k, Value: toString(v), KeyPos: m.keyPos, ValuePos: m.pos[i]})
		}
	}
	return result, nil
}

// toSlice ports configfilearg toSlice, with each item's position: a string is
// a list of one, a list is itself, anything else its string form (none when
// blank).
func toSlice(v any, vp finding.Position, node *yaml.Node, path string) ([]any, []finding.Position) {
	switch k := v.(type) {
	case string:
		return []any{k}, []finding.Position{vp}
	case []any:
		ps := make([]finding.Position, len(k))
		for i := range k {
			ps[i] = vp
			if node != nil && node.Kind == yaml.SequenceNode && i < len(node.Content) {
				ps[i] = pos(path, node.Content[i])
			}
		}
		return k, ps
	default:
		str := strings.TrimSpace(toString(v))
		if str == "" {
			return nil, nil
		}
		return []any{str}, []finding.Position{vp}
	}
}

// toString ports pkg/configfilearg/convert.go ToString (cribbed there from
// rancher/wrangler's convert): the first item of a list, fmt.Sprint of the
// rest, time in RFC 3339, trimmed.
func toString(value any) string {
	if t, ok := value.(time.Time); ok {
		return strings.TrimSpace(t.Format(time.RFC3339))
	}
	single := value
	switch s := value.(type) {
	case []string:
		if len(s) == 0 {
			return ""
		}
		single = s[0]
	case []any:
		if len(s) == 0 {
			return ""
		}
		single = s[0]
	}
	if single == nil {
		return ""
	}
	return strings.TrimSpace(fmt.Sprint(single))
}

func pos(path string, n *yaml.Node) finding.Position {
	if n == nil {
		return finding.Position{File: path}
	}
	return finding.Position{File: path, Line: n.Line, Column: n.Column}
}
