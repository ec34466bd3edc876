package fix

import (
	"fmt"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"
	"k8s.io/component-base/featuregate"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
	"github.com/kubeletcfg/kubeletcfg/rule"
	"github.com/kubeletcfg/kubeletcfg/source"
)

// gateEntry is a featureGates setting as the kubelet merged it.
type gateEntry struct {
	value string // "true" or "false"
	pos   finding.Position
}

// mergedGates are the feature gates as the kubelet merges the files (the
// main file, then the drop-ins in order, a later entry winning), read from the
// newest target minor that got that far in the last round; positions are in
// the original files.
func mergedGates(files map[string]*parsedFile, results []*pipeline.Result) map[string]gateEntry {
	out := map[string]gateEntry{}
	texts := map[string]*finding.Text{} // each file as the round read it
	for i := len(results) - 1; i >= 0; i-- {
		r := results[i]
		if r.Effective == nil {
			continue
		}
		for name, v := range r.Effective.FeatureGates {
			g := gateEntry{value: strconv.FormatBool(v), pos: r.Origins["featureGates["+name+"]"]}
			if pf := files[g.pos.File]; pf != nil {
				cur, ok := texts[pf.file.Path]
				if !ok {
					if data, err := pf.current(); err == nil {
						cur = finding.NewText(data)
					}
					texts[pf.file.Path] = cur
				}
				if cur != nil {
					if off := cur.Offset(g.pos.Line, g.pos.Column); off >= 0 {
						if orig, ok := toOriginal(pf.applied, off); ok {
							g.pos.Line, g.pos.Column = lineCol(pf.t, orig)
						}
					}
				}
			}
			out[name] = g
		}
		break
	}
	return out
}

// resolveCrashLoop repairs the KEP-4603 draft keys the last round's findings
// report (KC6001 carries the rename and the value, or why not), now that the
// feature gates of every file are known: whether the target minors turn
// KubeletCrashLoopBackOffMax on decides whether the repair adds the gate.
func (e *env) resolveCrashLoop(files map[string]*parsedFile, os map[offerKey]*offer, order []offerKey, last []*pipeline.Result) {
	merged := mergedGates(files, last)
	for _, k := range order {
		pf := files[k.file]
		if pf.decided[k.off] {
			continue
		}
		pf.decided[k.off] = true
		e.repairDraft(pf, os[k], merged)
	}
}

func (e *env) repairDraft(pf *parsedFile, o *offer, merged map[string]gateEntry) {
	id := source.DraftCrashLoopField.ID
	key, value := o.key, o.at.Value()
	parentKey, top := pf.keys.Owner(o.at)
	if !top {
		parentKey = nil // the draft's parent is crashLoopBackOff, a top-level key
	}
	what := pf.keys.WrittenPath(o.at)
	if value.Kind == yaml.ScalarNode {
		what += ": " + value.Value
	}
	reason := ""
	if o.f.NoFix == rule.SharedReason {
		reason = o.f.NoFix
	} else if parentKey != nil {
		if ok, seen := pf.renamed[parentKey]; seen && !ok {
			reason = fmt.Sprintf("the key %q above it is not repaired (see line %d)", parentKey.Value, parentKey.Line)
		}
	}
	if reason == "" {
		reason = o.f.NoFix
	}
	var need []*kubelets.Minor
	if reason == "" {
		need, reason = e.gateNeeded(merged)
	}
	edits := o.edits
	if reason == "" && len(edits) == 0 {
		reason = "the key or value is written with escapes, a tag or across lines: rewrite it by hand"
	}
	var also string
	if reason == "" && len(need) > 0 && !pf.gateAdded {
		var ed edit
		if ed, reason = pf.addGate(); reason == "" {
			edits = append(edits[:len(edits):len(edits)], ed)
			pf.gateAdded = true
			also = fmt.Sprintf("adds featureGates[%s]: true, off by default at kubelet %s", crashLoopGate, minorList(need))
		}
	}
	if reason != "" {
		pf.skip(id, key, what, reason)
		pf.dropLoneParent(key, o.at.Mapping, parentKey)
		return
	}
	n, _ := strconv.Atoi(value.Value) // rule.ReplacingDraft read it as a whole number
	after := fmt.Sprintf("%s: %ds", crashLoopField, n)
	pf.fixes = append(pf.fixes, Fix{Rule: id, Pos: pf.pos(key), Before: what, After: after, Also: also, edits: edits})
}

// gateNeeded returns the target minors at which the repaired field needs the
// gate added (it is off by default there), or why the field cannot take
// effect at some target minor without a guess.
func (e *env) gateNeeded(merged map[string]gateEntry) ([]*kubelets.Minor, string) {
	var missing, need []*kubelets.Minor
	for i, m := range e.minors {
		g, ok := e.tables[i].Lookup(crashLoopGate)
		if !ok || e.trees[i].AtExact(crashLoopField) == nil {
			missing = append(missing, m)
			continue
		}
		if set, ok := merged[crashLoopGate]; ok {
			if set.value != "true" {
				return nil, fmt.Sprintf("%s sets %s: %s, and %s needs it on: decide which you want by hand",
					set.pos, crashLoopGate, set.value, crashLoopField)
			}
			continue
		}
		spec := e.tables[i].At(g)
		if spec.PreRelease == string(featuregate.PreAlpha) {
			missing = append(missing, m)
			continue
		}
		// AllAlpha / AllBeta turn every gate of their stage on or off.
		all := map[string]string{string(featuregate.Alpha): "AllAlpha", string(featuregate.Beta): "AllBeta"}[spec.PreRelease]
		if set, ok := merged[all]; ok && all != "" {
			if set.value != "true" {
				return nil, fmt.Sprintf("%s sets %s: %s, which turns %s off at kubelet %s: decide by hand whether to enable it", set.pos, all, set.value, crashLoopGate, m.Version)
			}
			continue
		}
		if !spec.Default {
			need = append(need, m)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Sprintf("kubelet %s %s neither %s nor the %s gate, so no cap can take effect there: leave %s out of --versions to repair it for the others",
			minorList(missing), verb(len(missing), "has", "have"), crashLoopField, crashLoopGate, verb(len(missing), "it", "them"))
	}
	return need, ""
}

// dropLoneParent turns the repair of the draft key's parent (crashloopbackoff
// to crashLoopBackOff) into a skip when the draft key is all it holds:
// renaming it alone changes nothing.
func (pf *parsedFile) dropLoneParent(key, parent, parentKey *yaml.Node) {
	if parentKey == nil || len(parent.Content) != 2 || !pf.renamed[parentKey] {
		return
	}
	for i, fx := range pf.fixes {
		if fx.Pos == pf.pos(parentKey) {
			pf.fixes = append(pf.fixes[:i], pf.fixes[i+1:]...)
			pf.renamed[parentKey] = false
			pf.skip(fx.Rule, parentKey, fx.Before, fmt.Sprintf("it only holds %s, which is not repaired (line %d)", key.Value, key.Line))
			return
		}
	}
}

// addGate is the edit that turns the gate on in this file: a new entry in its
// featureGates mapping, or a new featureGates mapping at the end of the
// document. Both follow the file's indentation, line ending and, for flow
// (JSON) mappings, quoting.
func (pf *parsedFile) addGate() (edit, string) {
	t, root := pf.t, pf.file.Doc
	nl := t.Newline()
	if pf.gatesKey != nil {
		if pf.main && !pf.gatesApply() {
			return edit{}, fmt.Sprintf("the key %q (line %d) is not repaired, so %s cannot be added under it", pf.gatesKey.Value, pf.gatesKey.Line, crashLoopGate)
		}
		v := pf.gatesValue
		switch {
		case v.Kind == yaml.AliasNode || v.Anchor != "":
			return edit{}, "featureGates is a YAML anchor or alias: add " + crashLoopGate + ": true by hand"
		case v.Kind == yaml.MappingNode && v.Style&yaml.FlowStyle != 0:
			return flowInsert(t, v, crashLoopGate, "true")
		case v.Kind == yaml.MappingNode && len(v.Content) > 0:
			return blockAppend(t, v, crashLoopGate+": true", nl)
		case v.Kind == yaml.ScalarNode && v.Tag == "!!null" && v.Value == "":
			// "featureGates:" with nothing under it.
			indent := strings.Repeat(" ", pf.gatesKey.Column-1+indentStep(root))
			at := t.LineEnd(pf.gatesKey.Line)
			return edit{Pos: at, End: at, NewText: lineBreakBefore(t, at, nl) + indent + crashLoopGate + ": true" + nl}, ""
		}
		return edit{}, "featureGates is not a mapping: add " + crashLoopGate + ": true by hand"
	}
	if root.Style&yaml.FlowStyle != 0 {
		entry := quoteLike(root, crashLoopGate) + ": true"
		return flowInsert(t, root, "featureGates", "{"+entry+"}")
	}
	indent := strings.Repeat(" ", root.Column-1)
	at := documentEnd(t, root)
	text := lineBreakBefore(t, at, nl) + indent + "featureGates:" + nl +
		indent + strings.Repeat(" ", indentStep(root)) + crashLoopGate + ": true" + nl
	return edit{Pos: at, End: at, NewText: text}, ""
}

// lineBreakBefore is the line break needed before text inserted at offset at:
// none at the start of a line.
func lineBreakBefore(t *finding.Text, at int, nl string) string {
	if at == 0 || t.Data[at-1] == '\n' {
		return ""
	}
	return nl
}

// blockAppend adds a line after the last entry of a block mapping, indented
// like its first entry.
func blockAppend(t *finding.Text, m *yaml.Node, line, nl string) (edit, string) {
	first := m.Content[0]
	lastKey, lastValue := m.Content[len(m.Content)-2], m.Content[len(m.Content)-1]
	if _, _, ok := t.ScalarSpan(lastValue); !ok || lastValue.Line != lastKey.Line {
		return edit{}, "the last entry of featureGates is not a one-line value: add " + crashLoopGate + ": true by hand"
	}
	start := t.Offset(first.Line, first.Column)
	if start < 0 || strings.Trim(string(t.Data[t.LineStart(first.Line):start]), " ") != "" {
		return edit{}, "featureGates is not indented with spaces only: add " + crashLoopGate + ": true by hand"
	}
	indent := string(t.Data[t.LineStart(first.Line):start])
	at := t.LineEnd(lastValue.Line)
	return edit{Pos: at, End: at, NewText: lineBreakBefore(t, at, nl) + indent + line + nl}, ""
}

// flowInsert adds key: value as the first entry of a flow mapping ({...}, as
// in JSON), quoted like the mapping's first key, on a line of its own when
// the first key has one.
func flowInsert(t *finding.Text, m *yaml.Node, key, value string) (edit, string) {
	if len(m.Content) == 0 {
		at := t.Offset(m.Line, m.Column)
		if at < 0 || t.Data[at] != '{' {
			return edit{}, "cannot find where the {} mapping opens: add " + crashLoopGate + ": true by hand"
		}
		return edit{Pos: at + 1, End: at + 1, NewText: key + ": " + value}, ""
	}
	first := m.Content[0]
	at := t.Offset(first.Line, first.Column)
	if at < 0 {
		return edit{}, "cannot find the first key of the mapping: add " + crashLoopGate + ": true by hand"
	}
	sep := " "
	if first.Line != m.Line {
		lineStart := t.LineStart(first.Line)
		indent := string(t.Data[lineStart:at])
		if strings.Trim(indent, " \t") != "" {
			return edit{}, "the mapping's entries share lines: add " + crashLoopGate + ": true by hand"
		}
		sep = t.Newline() + indent
	}
	return edit{Pos: at, End: at, NewText: quoteLike(m, key) + ": " + value + "," + sep}, ""
}

// quoteLike quotes s as the first key of mapping m is quoted.
func quoteLike(m *yaml.Node, s string) string {
	if len(m.Content) > 0 {
		return finding.QuoteLike(m.Content[0].Style, s)
	}
	return s
}

// indentStep is the indentation of the document's nested block mappings
// (2 when it has none).
func indentStep(root *yaml.Node) int {
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if v.Kind == yaml.MappingNode && v.Style&yaml.FlowStyle == 0 && len(v.Content) > 0 && v.Content[0].Column > k.Column {
			return v.Content[0].Column - k.Column
		}
	}
	return 2
}

// documentEnd is where the first document ends: the line of the next
// document's "---" (or an end marker "..."), or the end of the file.
func documentEnd(t *finding.Text, root *yaml.Node) int {
	for line := root.Line + 1; line <= t.Lines(); line++ {
		start := t.LineStart(line)
		end := t.LineEnd(line)
		s := strings.TrimRight(string(t.Data[start:end]), "\r\n")
		for _, marker := range []string{"---", "..."} {
			if s == marker || strings.HasPrefix(s, marker+" ") || strings.HasPrefix(s, marker+"\t") {
				return start
			}
		}
	}
	return len(t.Data)
}
