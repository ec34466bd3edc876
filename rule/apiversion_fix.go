package rule

import (
	"strings"

	"github.com/kubeletcfg/kubeletcfg/finding"
	yaml "go.yaml.in/yaml/v3"
)

// KubeletAPIVersion is the only apiVersion of kind KubeletConfiguration.
const KubeletAPIVersion = "kubelet.config.k8s.io/v1beta1"

// AddAPIVersion is the repair of a document that leaves apiVersion out while
// its kind says KubeletConfiguration: only one apiVersion serves that kind, so
// adding it is no guess (KC1002, KC2003). The line goes right above kind,
// indented and quoted like it. ok is false when the repair does not apply: no
// such kind, a key spelled like apiVersion in another case, a merge key (<<,
// which may bring one), kind twice, an anchored document. When it applies but
// cannot be written (kind shares its line with other text), reason says why
// and the fix is empty. kind is the kind key.
func AddAPIVersion(t *finding.Text, doc *yaml.Node) (fix finding.SuggestedFix, kind *yaml.Node, reason string, ok bool) {
	if doc == nil || doc.Kind != yaml.MappingNode || doc.Anchor != "" {
		return finding.SuggestedFix{}, nil, "", false
	}
	var kindValue *yaml.Node
	for i := 0; i+1 < len(doc.Content); i += 2 {
		k, v := doc.Content[i], doc.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.Tag == "!!merge" || strings.EqualFold(k.Value, "apiVersion") {
			return finding.SuggestedFix{}, nil, "", false
		}
		if k.Value == "kind" {
			if kind != nil {
				return finding.SuggestedFix{}, nil, "", false // twice: the linter reports the duplicate
			}
			kind, kindValue = k, v
		}
	}
	if kind == nil || kindValue.Kind != yaml.ScalarNode || kindValue.Value != "KubeletConfiguration" || kindValue.Tag != "!!str" {
		return finding.SuggestedFix{}, nil, "", false
	}
	at := t.Offset(kind.Line, kind.Column)
	ls := t.Offset(kind.Line, 1)
	if at < 0 || ls < 0 {
		return finding.SuggestedFix{}, kind, "cannot find the kind key in the file", true
	}
	entry := finding.QuoteLike(kind.Style, "apiVersion") + ": " + finding.QuoteLike(kindValue.Style, KubeletAPIVersion)
	indent := string(t.Data[ls:at])
	var ed finding.TextEdit
	switch {
	case doc.Style&yaml.FlowStyle != 0:
		if strings.Trim(indent, " \t") == "" {
			ed = finding.TextEdit{Pos: at, End: at, NewText: entry + "," + t.Newline() + indent}
		} else {
			ed = finding.TextEdit{Pos: at, End: at, NewText: entry + ", "}
		}
	case strings.Trim(indent, " ") != "":
		return finding.SuggestedFix{}, kind, "the kind key shares its line with other text", true
	default:
		ed = finding.TextEdit{Pos: ls, End: ls, NewText: indent + entry + t.Newline()}
	}
	return finding.SuggestedFix{Message: "add apiVersion: " + KubeletAPIVersion + " above kind", Edits: []finding.TextEdit{ed}}, kind, "", true
}

// AddingAPIVersion returns f with the AddAPIVersion repair of its file (t, the
// document doc), when there is one that can be written.
func AddingAPIVersion(f finding.Finding, t *finding.Text, doc *yaml.Node) finding.Finding {
	if fix, _, reason, ok := AddAPIVersion(t, doc); ok && reason == "" {
		f.Fixes = append(f.Fixes[:len(f.Fixes):len(f.Fixes)], fix)
	} else if ok {
		f.NoFix = reason + ": add apiVersion: " + KubeletAPIVersion + " by hand"
	}
	return f
}
