package explain

import (
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"

	dropin "github.com/kubeletcfg/kubeletcfg/drop-in"
	"github.com/kubeletcfg/kubeletcfg/internal/didyoumean"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
	"github.com/kubeletcfg/kubeletcfg/rule"
	"github.com/kubeletcfg/kubeletcfg/source"
	"github.com/kubeletcfg/kubeletcfg/validate"
)

// Result is what kubeletcfg explain prints: its JSON form is the -o json
// contract (its text form is report/verbtext's).
type Result struct {
	Query          string `json:"query"`
	Path           string `json:"path"`
	KubeletVersion string `json:"kubeletVersion"`
	// PreRelease is the pre-release the minor is checked against (v1.38.0-beta.0), if it is one.
	PreRelease string `json:"preRelease,omitempty"`
	// Known is whether the kubelet of KubeletVersion has the field; when not,
	// the rest describes the newest minor that has it.
	Known  bool     `json:"known"`
	Type   string   `json:"type"`
	GoType string   `json:"goType,omitempty"`
	Enum   []string `json:"enum,omitempty"`
	// Default is the effective value of an empty configuration at the minor;
	// null when the kubelet leaves it unset (or does not have the field).
	Default any `json:"default"`
	// WindowsDefault is the Windows kubelet's default where it differs from
	// Default (evictionHard: eviction/defaults_windows.go); absent otherwise.
	WindowsDefault any      `json:"windowsDefault,omitempty"`
	FeatureGates   []Gate   `json:"featureGates"`
	Minors         []string `json:"minors"`
	Rules          []Rule   `json:"rules"`
	Doc            string   `json:"doc"`
	Children       []Child  `json:"children,omitempty"`
	Notes          []string `json:"notes,omitempty"`
}

type Gate struct {
	Name       string `json:"name"`
	Registered bool   `json:"registered"`
	Stage      string `json:"stage,omitempty"`
	Default    bool   `json:"default"`
	Locked     bool   `json:"locked,omitempty"`
	Since      string `json:"since,omitempty"` // the version the stage in force began
}

type Rule struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Severity string `json:"severity"`
	Minors   string `json:"minors"`
	// OS is the one operating system whose kubelet has the rule (linux,
	// windows); empty for every kubelet.
	OS      string `json:"os,omitempty"`
	Summary string `json:"summary"`
}

type Child struct {
	Name string `json:"name"`
	Type string `json:"type"`
	Doc  string `json:"doc"`
}

// pathSeg is one step of a path: a field name, or a map key / list index.
type pathSeg struct {
	name  string
	key   string
	isKey bool
}

func parseExplainPath(path string) ([]pathSeg, error) {
	var segs []pathSeg
	for s := path; s != ""; {
		switch s[0] {
		case '.':
			s = s[1:]
		case '[':
			end := strings.IndexByte(s, ']')
			if end < 0 {
				return nil, fmt.Errorf("path %q: [ without ]", path)
			}
			segs = append(segs, pathSeg{key: s[1:end], isKey: true})
			s = s[end+1:]
		default:
			end := strings.IndexAny(s, ".[")
			if end < 0 {
				end = len(s)
			}
			segs = append(segs, pathSeg{name: s[:end]})
			s = s[end:]
		}
	}
	return segs, nil
}

// resolved is a path matched against one minor's field tree.
type resolved struct {
	canonical string          // spelled as the kubelet spells it
	field     *kubelets.Field // the value at the path (a map's or list's element after a key)
	// info is the path of the field table entry that documents it: the map or
	// list itself after a key, "l[].x" inside list items.
	info    string
	key     string // the last map key, when the path ends in one
	keyOf   string // the canonical path of that map
	caseFix bool   // a name matched only case-insensitively
	// dottedKey: the map key was written dotted (featureGates.NodeSwap).
	dottedKey bool
}

func restAreNames(segs []pathSeg) bool {
	for _, s := range segs {
		if s.isKey {
			return false
		}
	}
	return len(segs) > 0
}

func joinNames(segs []pathSeg) string {
	names := make([]string, len(segs))
	for i, s := range segs {
		names[i] = s.name
	}
	return strings.Join(names, ".")
}

// unknownField is a path segment that matches no field.
type unknownField struct {
	parent, name string
	candidates   []string
}

func resolvePath(root *kubelets.Field, segs []pathSeg) (resolved, *unknownField) {
	r := resolved{field: root}
	for i, s := range segs {
		cur := r.field
		if s.isKey {
			if cur.Kind != kubelets.Map && cur.Kind != kubelets.List {
				return r, &unknownField{parent: r.canonical, name: "[" + s.key + "]"}
			}
			r.canonical += "[" + s.key + "]"
			if cur.Kind == kubelets.List {
				r.info += "[]"
			} else if i == len(segs)-1 {
				r.key, r.keyOf = s.key, strings.TrimSuffix(r.canonical, "["+s.key+"]")
			}
			r.field = cur.Elem
			continue
		}
		if cur.Kind == kubelets.Map && restAreNames(segs[i:]) {
			// featureGates.NodeSwap, evictionHard.memory.available: the rest of
			// the dotted path is the map key (signals have dots of their own).
			key := joinNames(segs[i:])
			r.canonical += "[" + key + "]"
			r.key, r.keyOf = key, strings.TrimSuffix(r.canonical, "["+key+"]")
			r.field = cur.Elem
			r.dottedKey = true
			break
		}
		child, exact := cur.Child(s.name)
		if child == nil {
			var names []string
			if cur.Kind == kubelets.Object {
				names = cur.ChildNames()
			}
			return r, &unknownField{parent: r.canonical, name: s.name, candidates: names}
		}
		r.caseFix = r.caseFix || !exact
		r.canonical = kubelets.JoinPath(r.canonical, child.Name)
		r.info = kubelets.JoinPath(r.info, child.Name)
		r.field = child
	}
	return r, nil
}

// draftCrashLoop is the KEP-4603 draft spelling (any case) and what shipped.
const (
	draftCrashLoop   = "crashLoopBackOff.maxSeconds"
	shippedCrashLoop = "crashLoopBackOff.maxContainerRestartPeriod"
)

// Field describes the field at query (a path as explain takes it) for the
// kubelet minor m: the field as m has it, else as the newest minor that has it
// (Known false). An unknown field or gate is an error naming the nearest one.
func Field(m *kubelets.Minor, query string) (*Result, error) {
	path := strings.TrimSpace(query)
	doc := &Result{Query: query, KubeletVersion: m.Version, FeatureGates: []Gate{}, Minors: []string{}, Rules: []Rule{}}
	doc.PreRelease = m.PreReleaseVersion()
	if p, ok := cutFoldPrefix(path, "KubeletConfiguration"); ok && (p == "" || p[0] == '.') {
		path = strings.TrimPrefix(p, ".")
	}
	if strings.EqualFold(path, draftCrashLoop) {
		doc.Notes = append(doc.Notes, fmt.Sprintf("%q is the KEP-4603 draft name: no kubelet has it, and every kubelet silently drops it (%s); the shipped field is %s, explained here",
			path, source.DraftCrashLoopField.ID, shippedCrashLoop))
		path = shippedCrashLoop
	}
	segs, err := parseExplainPath(path)
	if err != nil {
		return nil, err
	}
	// The field as this minor has it, else as the newest minor that has it.
	at := m
	r, unknown := resolvePath(m.Fields(), segs)
	if unknown != nil {
		for i := len(kubelets.Supported()) - 1; i >= 0 && at == m; i-- {
			o, _ := kubelets.Lookup(kubelets.Supported()[i])
			if or, u := resolvePath(o.Fields(), segs); u == nil {
				at, r = o, or
			}
		}
		if at == m {
			return nil, unknownFieldError(m, unknown)
		}
	}
	doc.Path, doc.Known = r.canonical, at == m
	if r.dottedKey {
		doc.Notes = append(doc.Notes, fmt.Sprintf("read %q as %s: a map key goes in brackets", path, r.canonical))
	}
	if r.caseFix {
		doc.Notes = append(doc.Notes, fmt.Sprintf("%q matched %s case-insensitively: drop-ins accept any case, the main --config file only this spelling", path, r.canonical))
	}
	infos, err := at.FieldInfos()
	if err != nil {
		return nil, err
	}
	byPath := make(map[string]kubelets.FieldInfo, len(infos))
	for _, fi := range infos {
		byPath[fi.Path] = fi
	}
	info, ok := byPath[r.info]
	if !ok {
		// A list item ("clusterDNS[]") is documented by its list.
		info.Doc = byPath[strings.TrimSuffix(r.info, "[]")].Doc
	}
	schema, err := schemaAt(at, r.canonical)
	if err != nil {
		return nil, err
	}
	doc.Type, doc.Enum = typeOf(r.field, schema)
	doc.GoType = r.field.GoType
	if r.key == "" && !strings.HasSuffix(r.info, "[]") {
		doc.GoType = info.GoType
	}
	doc.Doc = info.Doc
	if r.canonical == "" {
		doc.Doc = "KubeletConfiguration is the kubelet's configuration file (kubelet.config.k8s.io/v1beta1)."
	}
	for _, v := range kubelets.Supported() {
		o, _ := kubelets.Lookup(v)
		if o.Fields().AtExact(r.canonical) != nil {
			doc.Minors = append(doc.Minors, v)
		}
	}
	if !doc.Known {
		doc.Notes = append(doc.Notes, fmt.Sprintf("kubelet %s does not have %s and silently drops it; described as kubelet %s has it", m.Version, r.canonical, at.Version))
	}
	gates, err := m.Gates()
	if err != nil {
		return nil, err
	}
	gateNames := info.FeatureGates
	if r.keyOf == "featureGates" {
		gateNames = []string{r.key}
	}
	for _, g := range gateNames {
		eg := Gate{Name: g}
		if spec, ok := gates.Lookup(g); ok {
			s := gates.At(spec)
			eg.Registered, eg.Stage, eg.Default, eg.Locked, eg.Since = true, stageName(s.PreRelease), s.Default, s.LockToDefault, s.Version
		} else if r.keyOf == "featureGates" {
			hint := ""
			if near := didyoumean.Nearest(g, gates.Names()); near != "" {
				hint = fmt.Sprintf("; did you mean %q?", near)
			}
			last, removed, first := m.GateHistory(g)
			if last == nil && first == nil {
				// Like an unknown field: no supported kubelet knows it.
				msg := fmt.Sprintf("no feature gate %q at any kubelet minor kubeletcfg knows (%s)", g, MinorRanges(kubelets.Supported()))
				if near := didyoumean.Nearest(g, gates.Names()); near != "" {
					msg += fmt.Sprintf("; did you mean %q?", "featureGates["+near+"]")
				} else {
					msg += fmt.Sprintf(": removed before %s (the oldest gate table kubeletcfg has), or misspelled (gate names are case-sensitive)", kubelets.Supported()[0])
				}
				return nil, fmt.Errorf("%s", msg)
			}
			switch {
			case last != nil:
				hint = fmt.Sprintf("; it was removed in %s (last registered in %s)", removed.Version, last.Version) + hint
			default:
				hint = fmt.Sprintf("; it is new in %s", first.Version) + hint
			}
			doc.Notes = append(doc.Notes, fmt.Sprintf("kubelet %s does not register the gate %q: setting it makes the kubelet panic at startup (%s)%s", m.Version, g, pipeline.GateUnknown.ID, hint))
		}
		doc.FeatureGates = append(doc.FeatureGates, eg)
	}
	if doc.Known {
		if doc.Default, err = defaultAt(m, r, doc.FeatureGates, kubelets.Linux); err != nil {
			return nil, err
		}
		win, err := defaultAt(m, r, doc.FeatureGates, kubelets.Windows)
		if err != nil {
			return nil, err
		}
		if !reflect.DeepEqual(win, doc.Default) {
			doc.WindowsDefault = win
		}
	}
	doc.Rules = rulesFor(m, r, len(info.FeatureGates) > 0)
	if !doc.Known {
		// This kubelet drops the key before any rule about the field could see it.
		doc.Rules = []Rule{}
		for _, rule := range []*rule.Rule{source.UnknownField, dropin.DropInUnknownField} {
			doc.Rules = append(doc.Rules, ruleDoc(rule))
		}
	}
	if f := r.field; f.Kind == kubelets.Object || (f.Kind == kubelets.List && f.Elem != nil && f.Elem.Kind == kubelets.Object) {
		obj, prefix := f, r.info
		if f.Kind == kubelets.List {
			obj, prefix = f.Elem, r.info+"[]"
		}
		for _, name := range obj.ChildNames() {
			c := obj.Children[name]
			cs, _ := schemaChild(schema, f.Kind == kubelets.List, name)
			t, _ := typeOf(c, cs)
			doc.Children = append(doc.Children, Child{Name: name, Type: t, Doc: firstSentence(byPath[kubelets.JoinPath(prefix, name)].Doc)})
		}
	}
	return doc, nil
}

func cutFoldPrefix(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return s, false
}

func unknownFieldError(m *kubelets.Minor, u *unknownField) error {
	where := "KubeletConfiguration"
	if u.parent != "" {
		where = u.parent
	}
	msg := fmt.Sprintf("no field %q in %s (kubelet %s)", u.name, where, m.Version)
	if near := didyoumean.Nearest(u.name, u.candidates); near != "" {
		msg += fmt.Sprintf("; did you mean %q?", kubelets.JoinPath(u.parent, near))
	} else if u.parent == "" {
		msg += "; kubeletcfg explain lists the top-level fields"
	} else if u.candidates != nil {
		msg += "; kubeletcfg explain " + where + " lists its fields"
	}
	return fmt.Errorf("%s", msg)
}

// schemaAt is the minor's JSON Schema node at the resolved path (types, enums,
// formats); nil where the schema does not go (free-form map values).
func schemaAt(m *kubelets.Minor, canonical string) (map[string]any, error) {
	raw, err := m.Schema()
	if err != nil {
		return nil, err
	}
	var node map[string]any
	if err := json.Unmarshal(raw, &node); err != nil {
		return nil, err
	}
	segs, err := parseExplainPath(canonical)
	if err != nil {
		return nil, err
	}
	for _, s := range segs {
		if s.isKey {
			next, _ := node["items"].(map[string]any)
			if next == nil {
				next, _ = node["additionalProperties"].(map[string]any)
			}
			node = next
		} else {
			node, _ = schemaChild(node, false, s.name)
		}
		if node == nil {
			return nil, nil
		}
	}
	return node, nil
}

// schemaChild is the schema of an object's property (of a list's items when
// items is set).
func schemaChild(node map[string]any, items bool, name string) (map[string]any, bool) {
	if node == nil {
		return nil, false
	}
	if items {
		node, _ = node["items"].(map[string]any)
		if node == nil {
			return nil, false
		}
	}
	props, _ := node["properties"].(map[string]any)
	c, ok := props[name].(map[string]any)
	return c, ok
}

// typeOf names a field's type for humans: the JSON type from the schema, with
// durations and quantities named as such, maps and lists with their elements.
func typeOf(f *kubelets.Field, schema map[string]any) (string, []string) {
	goType := strings.TrimPrefix(f.GoType, "*")
	var enum []string
	if e, ok := schema["enum"].([]any); ok {
		for _, v := range e {
			if s, ok := v.(string); ok && s != "" {
				enum = append(enum, s)
			}
		}
	}
	switch f.Kind {
	case kubelets.Object:
		return "object", nil
	case kubelets.Map:
		return "map[string]" + elemType(f.Elem, schema["additionalProperties"]), nil
	case kubelets.List:
		return "[]" + elemType(f.Elem, schema["items"]), nil
	}
	switch {
	case strings.HasSuffix(goType, "Duration"):
		return "duration", nil
	case strings.Contains(goType, "Quantity"):
		return "quantity", nil
	}
	t := jsonType(schema)
	if t == "" {
		t = "string" // free-form map values are strings (v1.ResourceList quantities)
	}
	if format, ok := schema["format"].(string); ok && t == "integer" {
		t += " (" + format + ")"
	}
	return t, enum
}

func elemType(f *kubelets.Field, schema any) string {
	s, _ := schema.(map[string]any)
	if f == nil {
		return "string"
	}
	t, _ := typeOf(f, s)
	return t
}

// jsonType is the schema's type, without "null" (a pointer field also takes null).
func jsonType(schema map[string]any) string {
	switch t := schema["type"].(type) {
	case string:
		return t
	case []any:
		for _, v := range t {
			if s, ok := v.(string); ok && s != "null" {
				return s
			}
		}
	}
	return ""
}

// defaultAt runs an empty configuration through the pipeline at m and reads
// the value at the path. A gate's default is the gate table's: the effective
// featureGates map holds only what files set.
func defaultAt(m *kubelets.Minor, r resolved, gates []Gate, os kubelets.OS) (any, error) {
	if r.keyOf == "featureGates" {
		if len(gates) == 1 && gates[0].Registered {
			return gates[0].Default, nil
		}
		return nil, nil
	}
	const name = "(empty KubeletConfiguration).yaml"
	res, err := pipeline.Evaluate(m, pipeline.Input{Config: name, OS: os, Virtual: map[string][]byte{
		name: []byte("apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n"),
	}})
	if err != nil {
		return nil, err
	}
	obj, err := res.EffectiveObject()
	if err != nil || obj == nil {
		return nil, err
	}
	segs, _ := parseExplainPath(r.canonical)
	var cur any = obj
	for _, s := range segs {
		switch c := cur.(type) {
		case map[string]any:
			if s.isKey {
				cur = c[s.key]
			} else {
				cur = c[s.name]
			}
		case []any:
			i, err := strconv.Atoi(s.key)
			if !s.isKey || err != nil || i < 0 || i >= len(c) {
				return nil, nil
			}
			cur = c[i]
		default:
			return nil, nil
		}
	}
	if r.canonical == "" {
		return nil, nil // the whole configuration: see kubeletcfg effective
	}
	if cur == nil && r.field.Kind == kubelets.Scalar && !strings.HasPrefix(r.field.GoType, "*") {
		// encoding/json omits a zero non-pointer scalar (omitempty): absent is 0, false or "".
		return zeroOf(r.field.GoType), nil
	}
	return cur, nil
}

// zeroOf is the JSON value of a Go scalar type's zero value.
func zeroOf(goType string) any {
	switch {
	case goType == "bool":
		return false
	case strings.HasPrefix(goType, "int"), strings.HasPrefix(goType, "uint"), strings.HasPrefix(goType, "float"):
		return 0
	case strings.HasSuffix(goType, "Duration"):
		return "0s"
	}
	return ""
}

// rulesFor finds the rules that check a path: those declaring (Rule.Fields)
// the field, a field under it, or an object it is part of (memorySwap's rules
// check memorySwap.swapBehavior), plus gated-field-ignored for a field with a
// +featureGate marker. A declared "[*]" matches any key or index, a declared
// key only itself: featureGates[NodeSwap] is checked by the gate rules
// (featureGates[*]), not by a rule about featureGates[KubeletCrashLoopBackOffMax].
func rulesFor(m *kubelets.Minor, r resolved, gated bool) []Rule {
	out := []Rule{}
	if r.canonical == "" {
		return out
	}
	// A field under the path may be declared for any list item: reservedMemory[0]
	// has the fields of reservedMemory[*].
	anyItem := listIndex.ReplaceAllString(r.canonical, "[*]")
	for _, each := range rule.All() {
		if !each.In(m) {
			continue
		}
		hit := gated && each.ID == validate.GatedFieldIgnored.ID
		for _, f := range each.Fields {
			if rule.WithinPattern(r.canonical, f) || rule.WithinPattern(f, anyItem) {
				hit = true
			}
		}
		if hit {
			out = append(out, ruleDoc(each))
		}
	}
	return out
}

// listIndex is a list index in a path: [0].
var listIndex = regexp.MustCompile(`\[[0-9]+\]`)

func ruleDoc(r *rule.Rule) Rule {
	return Rule{ID: r.ID, Name: r.Name, Severity: r.Severity.String(), Minors: r.Minors(), OS: string(r.OS), Summary: r.Summary}
}

// firstSentence is a doc comment's first sentence on one line. A period
// that ends an abbreviation (e.g., i.e.; etc. before a lower-case word) does
// not end the sentence: "ResourceQuantity (e.g. cpu=200m)" stays whole.
func firstSentence(doc string) string {
	doc = strings.Join(strings.Fields(doc), " ")
	for from := 0; ; {
		i := strings.Index(doc[from:], ". ")
		if i < 0 {
			return doc
		}
		end := from + i + 1 // just past the period
		word := strings.ToLower(doc[strings.LastIndexByte(doc[:end], ' ')+1 : end])
		word = strings.TrimLeft(word, "(\"'`")
		next := doc[end+1]
		switch {
		case word == "e.g." || word == "i.e." || word == "vs." || word == "cf.":
		case word == "etc." && unicode.IsLower(rune(next)):
		default:
			return doc[:end]
		}
		from = end
	}
}

// stageName prints a gate's pre-release stage as the Kubernetes docs do.
func stageName(s string) string {
	switch s {
	case "":
		return "GA"
	case "ALPHA", "BETA", "DEPRECATED":
		return strings.ToLower(s)
	case "PRE-ALPHA":
		return "pre-alpha"
	}
	return s
}

// MinorRanges prints consecutive supported minors as a range: "1.32–1.37".
func MinorRanges(minors []string) string {
	if len(minors) == 0 {
		return "none"
	}
	supported := kubelets.Supported()
	idx := map[string]int{}
	for i, v := range supported {
		idx[v] = i
	}
	sort.Slice(minors, func(i, j int) bool { return idx[minors[i]] < idx[minors[j]] })
	var parts []string
	for i := 0; i < len(minors); {
		j := i
		for j+1 < len(minors) && idx[minors[j+1]] == idx[minors[j]]+1 {
			j++
		}
		if i == j {
			parts = append(parts, minors[i])
		} else {
			parts = append(parts, minors[i]+"–"+minors[j])
		}
		i = j + 1
	}
	s := strings.Join(parts, ", ")
	if len(minors) < len(supported) {
		var not []string
		for _, v := range supported {
			if !slices.Contains(minors, v) {
				not = append(not, v)
			}
		}
		s += " (not in " + strings.Join(not, ", ") + ")"
	}
	return s
}
