package source

import (
	"bytes"
	"errors"

	yaml "go.yaml.in/yaml/v3"
)

// errExcessiveAliasing is go.yaml.in/yaml/v2's error when alias expansion
// outgrows the document (decode.go, allowedAliasRatio), as yaml.YAMLToJSON
// returns it.
var errExcessiveAliasing = errors.New("yaml: document contains excessive aliasing")

// excessiveAliasing reports whether yaml.YAMLToJSON(f.Data) fails with
// errExcessiveAliasing, where f's node tree proves it: the conversion then
// need not expand a few megabytes of aliases and merge keys to find out
// (the kubelet refuses the file either way). It replays yaml/v2's decoder on
// the tree: the decoder counts every node it decodes (aliases expanded, merge
// keys followed, in its order) and the ones reached through an alias, and
// stops once the second are too large a share of the first. The proof holds
// for one printable ASCII document (as for jsonOf) whose keys are untagged
// scalars and whose merge keys merge maps; anything else is false, and the
// conversion tells. TestExcessiveAliasing compares it with YAMLToJSON on every
// testdata input, the hostile shapes and generated alias and merge bombs.
func excessiveAliasing(f *File) bool {
	if f.Doc == nil || f.SyntaxErr != nil || len(f.ExtraDocs) > 0 || bytes.IndexByte(f.Data, '*') < 0 || !plainASCII(f.Data) {
		return false
	}
	r := aliasReplay{decodes: 1, active: map[*yaml.Node]bool{}} // the document node
	r.decode(f.Doc, 0)
	return r.excessive
}

// aliasReplay is yaml/v2's decoder counting, decoding into interface{}.
type aliasReplay struct {
	decodes, aliased, aliasDepth int
	active                       map[*yaml.Node]bool // aliases being expanded
	excessive                    bool
}

// decode is decoder.unmarshal; false stops the replay (excessive aliasing
// found, or a node it does not know how yaml/v2 decodes).
func (r *aliasReplay) decode(n *yaml.Node, depth int) bool {
	r.decodes++
	if r.aliasDepth > 0 {
		r.aliased++
	}
	if r.aliased > 100 && r.decodes > 1000 && float64(r.aliased)/float64(r.decodes) > allowedAliasRatio(r.decodes) {
		r.excessive = true
		return false
	}
	if depth > maxJSONOfDepth || n.Style&yaml.TaggedStyle != 0 {
		return false
	}
	switch n.Kind {
	case yaml.ScalarNode:
		return true
	case yaml.AliasNode:
		if n.Alias == nil || r.active[n] {
			return false // yaml/v2 fails on an anchor that contains itself
		}
		r.active[n] = true
		r.aliasDepth++
		ok := r.decode(n.Alias, depth+1)
		r.aliasDepth--
		delete(r.active, n)
		return ok
	case yaml.SequenceNode:
		for _, c := range n.Content {
			if !r.decode(c, depth+1) {
				return false
			}
		}
		return true
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Kind != yaml.ScalarNode || k.Style&yaml.TaggedStyle != 0 {
				return false // alias and collection keys, tags
			}
			if k.Value == "<<" && k.Style == 0 {
				if !r.merge(v, depth+1) {
					return false
				}
				continue
			}
			if !r.decode(k, depth+1) || !r.decode(v, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

// merge is decoder.merge: the merge key itself is not decoded, a list of maps
// is merged from its last item.
func (r *aliasReplay) merge(n *yaml.Node, depth int) bool {
	switch n.Kind {
	case yaml.MappingNode:
		return r.decode(n, depth)
	case yaml.AliasNode:
		if n.Alias == nil || n.Alias.Kind != yaml.MappingNode {
			return false
		}
		return r.decode(n, depth)
	case yaml.SequenceNode:
		if n.Style&yaml.TaggedStyle != 0 {
			return false
		}
		for i := len(n.Content) - 1; i >= 0; i-- {
			c := n.Content[i]
			switch {
			case c.Kind == yaml.AliasNode && (c.Alias == nil || c.Alias.Kind != yaml.MappingNode):
				return false
			case c.Kind != yaml.AliasNode && c.Kind != yaml.MappingNode:
				return false
			}
			if !r.decode(c, depth) {
				return false
			}
		}
		return true
	}
	return false
}

// allowedAliasRatio is yaml/v2's (decode.go): 99% of the decoded nodes may
// come from aliases up to 400,000 decodes, 10% from 4,000,000, linearly between.
func allowedAliasRatio(decodes int) float64 {
	const low, high = 400000, 4000000
	switch {
	case decodes <= low:
		return 0.99
	case decodes >= high:
		return 0.10
	default:
		return 0.99 - 0.89*(float64(decodes-low)/float64(high-low))
	}
}
