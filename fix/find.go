package fix

import (
	"fmt"
	"sort"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	dropin "github.com/kubeletcfg/kubeletcfg/drop-in"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
	"github.com/kubeletcfg/kubeletcfg/skew"
	"github.com/kubeletcfg/kubeletcfg/source"
	"github.com/kubeletcfg/kubeletcfg/validate"
)

// The names the repairs write.
const (
	crashLoopGate  = "KubeletCrashLoopBackOffMax"
	crashLoopField = "crashLoopBackOff.maxContainerRestartPeriod"
	draftPath      = "crashLoopBackOff.maxSeconds"
	// The kubelet accepts maxContainerRestartPeriod between 1s and 300s.
	minCap, maxCap = 1, 300
)

// env is what the repairs are checked against: the target minors' field trees
// and gate tables, and the original files' findings (to name the rule a
// repair clears).
type env struct {
	minors []*skew.Minor
	trees  []*skew.Field
	tables []*skew.GateTable
	// gates maps a lower-cased gate name to its spellings registered by any
	// supported minor (a gate the targets do not register is still recognised).
	gates map[string][]string
	// rules holds the rule of the case findings of the original files, by
	// position, and renames the edit those findings carry (validate.SuggestedFix).
	rules   map[validate.Position]string
	renames map[validate.Position]edit
	// typeMetaFixes holds the apiVersion repair the KC1002/KC2003 findings
	// carry, by file.
	typeMetaFixes map[string]validate.SuggestedFix
	// draftFixes holds the repair the KC6001 findings carry, by position.
	draftFixes map[validate.Position]validate.SuggestedFix
	// versions and all are every supported minor and its gate table, oldest
	// first (a gate a target no longer registers is looked up in older
	// minors); index finds a version in them.
	versions []string
	all      []*skew.GateTable
	index    map[string]int
	// gateRules holds the rule the original files' gate findings have, by
	// position: KC3001 where any minor reports it, else KC3005 or KC3006.
	gateRules map[validate.Position]string
}

func newEnv(minors []*skew.Minor, before []*pipeline.Result) (*env, error) {
	e := &env{minors: minors, gates: map[string][]string{}, rules: map[validate.Position]string{},
		renames: map[validate.Position]edit{}, typeMetaFixes: map[string]validate.SuggestedFix{},
		draftFixes: map[validate.Position]validate.SuggestedFix{},
		index:      map[string]int{}, gateRules: map[validate.Position]string{}}
	for _, m := range minors {
		e.trees = append(e.trees, m.Fields())
		t, err := m.Gates()
		if err != nil {
			return nil, err
		}
		e.tables = append(e.tables, t)
	}
	for _, v := range skew.Supported() {
		m, err := skew.Lookup(v)
		if err != nil {
			return nil, err
		}
		t, err := m.Gates()
		if err != nil {
			return nil, err
		}
		e.index[v] = len(e.versions)
		e.versions = append(e.versions, v)
		e.all = append(e.all, t)
		for name := range t.Gates {
			low := strings.ToLower(name)
			if !contains(e.gates[low], name) {
				e.gates[low] = append(e.gates[low], name)
			}
		}
	}
	// Minors are oldest first: the newest minor's rule wins (1.31 merges
	// drop-ins differently and never shadows a key).
	for _, r := range before {
		for _, f := range r.Findings {
			switch f.Rule {
			case source.CaseMismatch.ID, dropin.DropInCaseOnly.ID, dropin.DropInCaseShadowed.ID:
				e.rules[f.Position] = f.Rule
				if len(f.Fixes) == 1 && len(f.Fixes[0].Edits) == 1 {
					e.renames[f.Position] = f.Fixes[0].Edits[0]
				}
			case source.ConfigTypeMeta.ID, dropin.DropInTypeMeta.ID:
				if len(f.Fixes) == 1 {
					e.typeMetaFixes[f.File] = f.Fixes[0]
				}
			case validate.DraftCrashLoopField.ID:
				if len(f.Fixes) == 1 {
					e.draftFixes[f.Position] = f.Fixes[0]
				}
			case pipeline.GateUnknown.ID, pipeline.GateGA.ID, pipeline.GateDeprecated.ID:
				if e.gateRules[f.Position] != pipeline.GateUnknown.ID {
					e.gateRules[f.Position] = f.Rule
				}
			}
		}
	}
	return e, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// parsedFile is one file being repaired.
type parsedFile struct {
	file    *source.File
	main    bool
	t       *validate.Text
	symlink bool
	fixes   []Fix
	skips   []Skip
	// renamed records, for each key the fixer respells, whether the repair
	// is made (a key with a skipped repair keeps its wrong name).
	renamed map[*yaml.Node]bool
	// gatesKey and gatesValue are the top-level featureGates pair; gates its
	// entries as the kubelet will read them once repaired.
	gatesKey, gatesValue *yaml.Node
	gates                []gateEntry
	drafts               []draft
	gateAdded            bool
	// lockable are the featureGates entries that may be set to the value
	// their gate is locked to (lockedGates decides); gatesShared is set when
	// the mapping is under an anchor or merge key.
	lockable    []lockable
	gatesShared bool
}

type gateEntry struct {
	name  string
	value string // as written: "true", "false", or anything else
	pos   validate.Position
}

// draft is a KEP-4603 draft key found by the walk, resolved once every file's
// feature gates are known.
type draft struct {
	key, value        *yaml.Node
	parent, parentKey *yaml.Node
	written           string // the path as written
	blocked           string // why it cannot be repaired, found during the walk
}

func (pf *parsedFile) pos(n *yaml.Node) validate.Position {
	return validate.Position{File: pf.file.Path, Line: n.Line, Column: n.Column}
}

func (pf *parsedFile) skip(rule string, n *yaml.Node, what, reason string) {
	pf.skips = append(pf.skips, Skip{Rule: rule, Pos: pf.pos(n), What: what, Reason: reason})
}

// fields is one node of the field tree at each target minor (nil where the
// minor does not have it).
type fields []*skew.Field

// child finds the field a key names, as encoding/json matches it (exactly,
// else case-insensitively), at any target minor: its canonical name and the
// field at each minor.
func (fs fields) child(name string) (string, fields) {
	canonical := ""
	for _, f := range fs {
		if c, _ := f.Child(name); c != nil {
			canonical = c.Name
			break
		}
		if f != nil && f.Kind == skew.Object {
			// Field.Child folds ASCII only; encoding/json folds Unicode too.
			for _, n := range f.ChildNames() {
				if strings.EqualFold(n, name) {
					canonical = n
					break
				}
			}
			if canonical != "" {
				break
			}
		}
	}
	if canonical == "" {
		return "", nil
	}
	out := make(fields, len(fs))
	for i, f := range fs {
		if f != nil && f.Kind == skew.Object {
			out[i] = f.Children[canonical]
		}
	}
	return canonical, out
}

func (fs fields) kind() (skew.FieldKind, bool) {
	for _, f := range fs {
		if f != nil {
			return f.Kind, true
		}
	}
	return 0, false
}

func (fs fields) elem() fields {
	out := make(fields, len(fs))
	for i, f := range fs {
		if f != nil {
			out[i] = f.Elem
		}
	}
	return out
}

// find walks one file and records its repairs, except the crash-loop ones,
// which need every file's feature gates (resolveCrashLoop).
func (e *env) find(pf *parsedFile) {
	pf.renamed = map[*yaml.Node]bool{}
	if pf.file.Doc.Kind != yaml.MappingNode {
		return
	}
	e.object(pf, pf.file.Doc, fields(e.trees), "", "", "")
}

// sharedReason is why a key under a YAML anchor or merge key is not repaired.
const sharedReason = "it is inside a YAML anchor or merge (&, <<): the same text is used in other places; rename it by hand"

type pair struct {
	k, v      *yaml.Node
	canonical string
	fs        fields
}

// object walks a mapping against an Object field. path is the canonical path
// of the mapping, wpath the path as written; shared is set under anchors and
// merge keys, where an edit would change more than this key.
func (e *env) object(pf *parsedFile, n *yaml.Node, fs fields, path, wpath string, shared string) {
	kvs, shared := mappingPairs(n, shared)
	var pairs []pair
	byField := map[string][]*yaml.Node{}
	for _, kv := range kvs {
		k, v := kv[0], kv[1]
		canonical, cfs := fs.child(k.Value)
		pairs = append(pairs, pair{k, v, canonical, cfs})
		if canonical != "" {
			byField[canonical] = append(byField[canonical], k)
		}
	}
	for _, p := range pairs {
		kpath, kwpath := skew.JoinPath(path, p.canonical), skew.JoinPath(wpath, p.k.Value)
		if p.canonical == "" {
			if strings.EqualFold(skew.JoinPath(path, p.k.Value), draftPath) {
				d := draft{key: p.k, value: p.v, parent: n, written: kwpath, blocked: shared}
				if parent, ok := pf.parentKey(n); ok {
					d.parentKey = parent
				}
				pf.drafts = append(pf.drafts, d)
			}
			continue
		}
		if p.k.Value != p.canonical {
			e.renameField(pf, p, byField[p.canonical], wpath, kpath, kwpath, shared)
			if pf.main && !pf.renamed[p.k] {
				// The kubelet drops the whole key in the main file: what is
				// under it takes effect only once the key is repaired.
				continue
			}
		}
		if p.v.Kind == yaml.AliasNode {
			continue // the aliased text sits elsewhere, under another key
		}
		kind, ok := p.fs.kind()
		if !ok {
			continue
		}
		switch {
		case kind == skew.Object && p.v.Kind == yaml.MappingNode:
			e.object(pf, p.v, p.fs, kpath, kwpath, shared)
		case kind == skew.List && p.v.Kind == yaml.SequenceNode:
			elem := p.fs.elem()
			if k, ok := elem.kind(); ok && k == skew.Object {
				for i, item := range p.v.Content {
					if item.Kind == yaml.MappingNode {
						idx := fmt.Sprintf("[%d]", i)
						e.object(pf, item, elem, kpath+idx, kwpath+idx, shared)
					}
				}
			}
		case kpath == "featureGates":
			pf.gatesKey, pf.gatesValue = p.k, p.v
			if p.v.Kind == yaml.MappingNode {
				e.featureGates(pf, p.v, shared)
			}
		}
	}
}

// mappingPairs lists the pairs of the mapping n whose key is a scalar, in order,
// without merge keys, and shared: sharedReason when n's text may serve other
// places too (an anchor on n, or a merge key in it), else the shared given.
func mappingPairs(n *yaml.Node, shared string) (pairs [][2]*yaml.Node, _ string) {
	if n.Anchor != "" {
		shared = sharedReason
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			continue
		}
		if k.Tag == "!!merge" {
			shared = sharedReason
			continue
		}
		pairs = append(pairs, [2]*yaml.Node{k, v})
	}
	return pairs, shared
}

// parentKey finds the key whose value is the mapping n, at the top level.
func (pf *parsedFile) parentKey(n *yaml.Node) (*yaml.Node, bool) {
	root := pf.file.Doc
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i+1] == n {
			return root.Content[i], true
		}
	}
	return nil, false
}

// caseRule names the finding a field rename clears: the one the linter
// reported at the key, else the rule of the file's kind (Plan.relabel
// revisits drop-ins).
func (e *env) caseRule(pf *parsedFile, k *yaml.Node) string {
	if r, ok := e.rules[pf.pos(k)]; ok {
		return r
	}
	if pf.main {
		return source.CaseMismatch.ID
	}
	return dropin.DropInCaseOnly.ID
}

// renameField repairs a key that names a field only case-insensitively.
func (e *env) renameField(pf *parsedFile, p pair, same []*yaml.Node, wpath, kpath, kwpath, shared string) {
	rule := e.caseRule(pf, p.k)
	pf.renamed[p.k] = false
	if shared != "" {
		pf.skip(rule, p.k, kwpath, shared)
		return
	}
	if len(same) > 1 {
		pf.skip(rule, p.k, kwpath, fmt.Sprintf("%s sets %s too: renaming would make a duplicate key; keep one of them by hand",
			others(pf, same, p.k), kpath))
		return
	}
	// The edit is the one the finding carries; a key no target minor's
	// linter reached (under a key the main file drops, in a drop-in after an
	// error that stops the kubelet) is respelled the same way here.
	ed, ok := e.renames[pf.pos(p.k)]
	if !ok {
		ed, ok = rename(pf.t, p.k, p.canonical)
	}
	if !ok {
		pf.skip(rule, p.k, kwpath, "the key is written with escapes, a tag or across lines: rename it by hand")
		return
	}
	pf.renamed[p.k] = true
	pf.fixes = append(pf.fixes, Fix{Rule: rule, Pos: pf.pos(p.k), Before: kwpath, After: kpath, edits: []edit{ed}})
}

// others names the keys of same other than k, with their lines.
func others(pf *parsedFile, same []*yaml.Node, k *yaml.Node) string {
	var out []string
	for _, o := range same {
		if o != k {
			out = append(out, fmt.Sprintf("%q (line %d)", o.Value, o.Line))
		}
	}
	return strings.Join(out, " and ")
}

// featureGates repairs gate names that differ from a registered gate only in
// case (the KEP-4603 proposal's ReduceDefaultCrashLoopBackoffDecay is one) and
// records the entries as they will read.
func (e *env) featureGates(pf *parsedFile, n *yaml.Node, shared string) {
	kvs, shared := mappingPairs(n, shared)
	type entry struct {
		k, v *yaml.Node
		name string // the name once repaired
		fix  bool
	}
	var entries []entry
	for _, kv := range kvs {
		k, v := kv[0], kv[1]
		en := entry{k: k, v: v, name: k.Value}
		if !e.registeredAnywhere(k.Value) {
			// A name spelt exactly as some minor registered it is not a
			// case mistake: the gate is gone (lockedGates may remove it).
			if c := e.gates[strings.ToLower(k.Value)]; len(c) == 1 && c[0] != k.Value {
				en.name, en.fix = c[0], true
			}
		}
		entries = append(entries, en)
	}
	pf.gatesShared = shared != ""
	for i, en := range entries {
		value := ""
		if en.v.Kind == yaml.ScalarNode {
			value = en.v.Value
		}
		if !en.fix {
			pf.gates = append(pf.gates, gateEntry{name: en.name, value: value, pos: pf.pos(en.k)})
			twice := false
			for j, o := range entries {
				twice = twice || (j != i && (o.name == en.name || o.k.Value == en.name))
			}
			if b, ok := boolValue(en.v); ok && shared == "" && !twice {
				pf.lockable = append(pf.lockable, lockable{k: en.k, v: en.v, name: en.name, value: b})
			}
			continue
		}
		rule := pipeline.GateUnknown.ID
		what := "featureGates[" + en.k.Value + "]"
		reason := shared
		if reason == "" {
			for j, o := range entries {
				if j != i && o.name == en.name {
					reason = fmt.Sprintf("%q (line %d) sets %s too: renaming would make a duplicate key; keep one of them by hand", o.k.Value, o.k.Line, en.name)
					break
				}
			}
		}
		var missing []*skew.Minor
		if reason == "" {
			for j, t := range e.tables {
				if _, ok := t.Lookup(en.name); !ok {
					missing = append(missing, e.minors[j])
				}
			}
			if len(missing) == len(e.minors) {
				reason = fmt.Sprintf("%s is not registered by kubelet %s either: remove the entry or target the minors that have it", en.name, minorList(e.minors))
			}
		}
		var ed edit
		if reason == "" {
			var ok bool
			if ed, ok = rename(pf.t, en.k, en.name); !ok {
				reason = "the gate name is written with escapes, a tag or across lines: rename it by hand"
			}
		}
		if reason != "" {
			pf.skip(rule, en.k, what, reason)
			pf.gates = append(pf.gates, gateEntry{name: en.k.Value, value: value, pos: pf.pos(en.k)})
			continue
		}
		fx := Fix{Rule: rule, Pos: pf.pos(en.k), Before: what, After: "featureGates[" + en.name + "]", edits: []edit{ed}}
		if len(missing) > 0 {
			fx.Also = fmt.Sprintf("kubelet %s %s not register %s: still unknown there", minorList(missing), verb(len(missing), "does", "do"), en.name)
		}
		pf.fixes = append(pf.fixes, fx)
		pf.gates = append(pf.gates, gateEntry{name: en.name, value: value, pos: pf.pos(en.k)})
	}
}

// registeredAnywhere reports whether a target minor registers the gate name
// exactly.
func (e *env) registeredAnywhere(name string) bool {
	for _, t := range e.tables {
		if _, ok := t.Lookup(name); ok {
			return true
		}
	}
	return false
}

// gatesApply reports whether the kubelet reads the file's featureGates once
// repaired: the main file only under the exact key.
func (pf *parsedFile) gatesApply() bool {
	if pf.gatesKey == nil {
		return false
	}
	if pf.gatesKey.Value == "featureGates" || !pf.main {
		return true
	}
	return pf.renamed[pf.gatesKey]
}

// finish applies the file's repairs. A symbolic link is not written through:
// its repairs become skips.
func (pf *parsedFile) finish() (*File, error) {
	f := &File{Path: pf.file.Path, Original: pf.file.Data, Fixes: pf.fixes, Skips: pf.skips}
	if pf.symlink && len(f.Fixes) > 0 {
		for _, fx := range f.Fixes {
			f.Skips = append(f.Skips, Skip{Rule: fx.Rule, Pos: fx.Pos, What: fx.Before,
				Reason: "the file is a symbolic link; kubeletcfg never writes through one: run fix on the file it points to"})
		}
		f.Fixes = nil
	}
	var edits []edit
	for _, fx := range f.Fixes {
		edits = append(edits, fx.edits...)
	}
	fixed, err := apply(f.Original, edits)
	if err != nil {
		return nil, fmt.Errorf("fix %s: %w", f.Path, err)
	}
	f.Fixed = fixed
	sort.SliceStable(f.Fixes, func(i, j int) bool { return before(f.Fixes[i].Pos, f.Fixes[j].Pos) })
	sort.SliceStable(f.Skips, func(i, j int) bool { return before(f.Skips[i].Pos, f.Skips[j].Pos) })
	return f, nil
}

func before(a, b validate.Position) bool {
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	return a.Column < b.Column
}
