package fix

import (
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kubeletcfg/kubeletcfg/validate"
)

const apiVersion = "kubelet.config.k8s.io/v1beta1"

// typeMeta adds the apiVersion a document leaves out when its kind says
// KubeletConfiguration: only one apiVersion serves that kind, so the repair
// is no guess. It goes right above kind, indented and quoted like it. Any key
// spelled like apiVersion in another case, a merge key (<<, which may bring
// one) or another kind leaves the file alone: the linter reports those.
func (e *env) typeMeta(pf *parsedFile) {
	root := pf.file.Doc
	if root.Kind != yaml.MappingNode || root.Anchor != "" {
		return
	}
	var kindKey, kindValue *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.Tag == "!!merge" || strings.EqualFold(k.Value, "apiVersion") {
			return
		}
		if k.Value == "kind" {
			if kindKey != nil {
				return // twice: the linter reports the duplicate
			}
			kindKey, kindValue = k, v
		}
	}
	if kindKey == nil || kindValue.Kind != yaml.ScalarNode || kindValue.Value != "KubeletConfiguration" || kindValue.Tag != "!!str" {
		return
	}
	rule := validate.ConfigTypeMeta.ID
	if !pf.main {
		rule = validate.DropInTypeMeta.ID
	}
	t := pf.t
	at := t.offset(kindKey.Line, kindKey.Column)
	ls := t.offset(kindKey.Line, 1)
	var ed edit
	reason := ""
	switch {
	case at < 0 || ls < 0:
		reason = "cannot find the kind key in the file"
	case root.Style&yaml.FlowStyle != 0:
		entry := quote(kindKey.Style, "apiVersion") + ": " + quote(valueStyle(kindValue.Style), apiVersion) + ","
		indent := string(t.data[ls:at])
		if strings.Trim(indent, " \t") == "" {
			ed = edit{Pos: at, End: at, NewText: entry + t.newline() + indent}
		} else {
			ed = edit{Pos: at, End: at, NewText: entry + " "}
		}
	default:
		indent := string(t.data[ls:at])
		if strings.Trim(indent, " ") != "" {
			reason = "the kind key shares its line with other text"
			break
		}
		ed = edit{Pos: ls, End: ls, NewText: indent + quote(kindKey.Style, "apiVersion") + ": " + quote(valueStyle(kindValue.Style), apiVersion) + t.newline()}
	}
	what := "kind: KubeletConfiguration without apiVersion"
	if reason != "" {
		pf.skip(rule, kindKey, what, reason+": add apiVersion: "+apiVersion+" by hand")
		return
	}
	pf.fixes = append(pf.fixes, Fix{Rule: rule, Pos: pf.pos(kindKey), Before: what, After: "apiVersion: " + apiVersion + " added",
		edits: []edit{ed}, typeMeta: true})
}

// valueStyle is the quoting a new string value copies from kind's value:
// plain and quoted styles only.
func valueStyle(s yaml.Style) yaml.Style {
	if s == yaml.DoubleQuotedStyle || s == yaml.SingleQuotedStyle {
		return s
	}
	return 0
}
