package fix

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
	"github.com/kubeletcfg/kubeletcfg/rule"
	"github.com/kubeletcfg/kubeletcfg/source"
)

// The names the repairs write.
const (
	crashLoopGate  = "KubeletCrashLoopBackOffMax"
	crashLoopField = "crashLoopBackOff.maxContainerRestartPeriod"
)

// maxRounds bounds the evaluations that look for mistakes the kubelet reaches
// only once others are repaired (a key under a key the main file drops, the
// drop-ins after an unknown gate or a missing apiVersion): each round repairs
// at least one more key, and real files need two or three.
const maxRounds = 6

// env is what the repairs are checked against: the target minors' field trees
// and gate tables.
type env struct {
	minors []*kubelets.Minor
	trees  []*kubelets.Field
	tables []*kubelets.GateTable
}

func newEnv(minors []*kubelets.Minor) (*env, error) {
	e := &env{minors: minors}
	for _, m := range minors {
		e.trees = append(e.trees, m.Fields())
		t, err := m.Gates()
		if err != nil {
			return nil, err
		}
		e.tables = append(e.tables, t)
	}
	return e, nil
}

// parsedFile is one file being repaired.
type parsedFile struct {
	file    *source.File
	main    bool
	t       *finding.Text
	keys    *rule.KeyIndex
	symlink bool
	fixes   []Fix
	skips   []Skip
	// renamed records, for each key the repairs respell, whether the repair
	// is made (a key with a skipped repair keeps its wrong name).
	renamed map[*yaml.Node]bool
	// decided holds the keys (by offset in the original bytes) whose
	// findings were turned into a repair or a skip.
	decided map[int]bool
	// applied are the edits the rounds of evaluation applied (the renames
	// and the apiVersion), in the original bytes' offsets, sorted.
	applied []edit
	// gatesKey and gatesValue are the top-level featureGates pair.
	gatesKey, gatesValue *yaml.Node
	gateAdded            bool
}

func (pf *parsedFile) pos(n *yaml.Node) finding.Position {
	return finding.Position{File: pf.file.Path, Line: n.Line, Column: n.Column}
}

func (pf *parsedFile) skip(rule string, n *yaml.Node, what, reason string) {
	pf.skips = append(pf.skips, Skip{Rule: rule, Pos: pf.pos(n), What: what, Reason: reason})
}

// locateGates finds the top-level featureGates key (spelled in any case: the
// last one, as the kubelet's decoder keeps the last).
func (pf *parsedFile) locateGates() {
	root := pf.file.Doc
	if root.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if k := root.Content[i]; k.Kind == yaml.ScalarNode && strings.EqualFold(k.Value, "featureGates") {
			pf.gatesKey, pf.gatesValue = k, root.Content[i+1]
		}
	}
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

// current is the file with the rounds' edits applied.
func (pf *parsedFile) current() ([]byte, error) { return apply(pf.file.Data, pf.applied) }

// original maps a finding's position, in the file as the current round
// evaluated it, to the original bytes: the key node there, ok false when it is
// text a repair wrote.
func (pf *parsedFile) original(cur *finding.Text, p finding.Position) (*yaml.Node, rule.KeyAt, bool) {
	off := cur.Offset(p.Line, p.Column)
	if off < 0 {
		return nil, rule.KeyAt{}, false
	}
	orig, ok := toOriginal(pf.applied, off)
	if !ok {
		return nil, rule.KeyAt{}, false
	}
	line, col := lineCol(pf.t, orig)
	at, ok := pf.keys.At(line, col)
	if !ok {
		return nil, rule.KeyAt{}, false
	}
	return at.Key(), at, true
}

// toOriginal maps an offset of the text with edits applied (sorted, in the
// original offsets) back to the original; ok is false inside text an edit
// wrote (the start of a replaced key maps to the key).
func toOriginal(applied []edit, off int) (int, bool) {
	delta := 0
	for _, e := range applied {
		ns := e.Pos + delta
		if off < ns {
			break
		}
		if ne := ns + len(e.NewText); off < ne || (off == ns && e.End == e.Pos && len(e.NewText) > 0) {
			if off == ns && e.End > e.Pos {
				return e.Pos, true
			}
			return 0, false
		}
		delta += len(e.NewText) - (e.End - e.Pos)
	}
	return off - delta, true
}

// rebase maps edits of the current text to the original bytes; ok is false
// when one touches text a repair wrote.
func rebase(applied []edit, edits []edit) ([]edit, bool) {
	out := make([]edit, 0, len(edits))
	for _, e := range edits {
		p, ok := toOriginal(applied, e.Pos)
		if !ok {
			return nil, false
		}
		q := p + (e.End - e.Pos)
		if e.End > e.Pos {
			if q2, ok := toOriginal(applied, e.End); !ok || q2 != q {
				return nil, false
			}
		}
		for _, a := range applied {
			if p < a.End && a.Pos < q || (p == q && a.Pos < p && p < a.End) {
				return nil, false
			}
		}
		out = append(out, edit{Pos: p, End: q, NewText: e.NewText})
	}
	return out, true
}

// lineCol is the parser's 1-based line and column (in characters) of offset
// off of t.
func lineCol(t *finding.Text, off int) (int, int) {
	line := sort.Search(t.Lines(), func(i int) bool { return t.LineStart(i+1) > off })
	start := t.LineStart(line)
	if line == 1 && bytes.HasPrefix(t.Data, []byte("\ufeff")) {
		start += len("\ufeff")
	}
	return line, utf8.RuneCount(t.Data[start:off]) + 1
}

// offer is what the findings at one key say, across the minors of a round:
// the newest minor's rule, repair or reason.
type offer struct {
	f     finding.Finding
	key   *yaml.Node
	at    rule.KeyAt
	edits []edit // in the original offsets; nil with f.NoFix
	// offered is set when the finding carries a repair.
	offered bool
}

type offerKey struct {
	file string
	off  int
}

// repairKind sorts the findings fix acts on.
type repairKind int

const (
	notRepaired repairKind = iota
	fieldRename
	gateRename
	gateRemoval
	draftRepair
)

func kindOf(f *finding.Finding) repairKind {
	if len(f.Fixes) == 0 && f.NoFix == "" {
		return notRepaired
	}
	r, ok := rule.Lookup(f.Rule)
	if !ok {
		return notRepaired
	}
	switch r.Repair.Kind {
	case rule.RepairRenameKey:
		return fieldRename
	case rule.RepairDraftField:
		return draftRepair
	case rule.RepairGateEntry:
		if _, ok := pipeline.GateSpelling(gateName(f.Path)); ok && f.Rule == pipeline.GateUnknown.ID {
			return gateRename
		}
		return gateRemoval
	}
	// A missing apiVersion is planned apart (apiversion.go), before the lint
	// that finds the rest.
	return notRepaired
}

func gateName(path string) string {
	return strings.TrimSuffix(strings.TrimPrefix(path, "featureGates["), "]")
}

// offers collects, from one round's results, the findings of the given kinds
// that carry a repair or a reason, by key in the original bytes. Minors are
// oldest first: the newest minor's finding wins (1.31 merges drop-ins
// differently and never shadows a key).
func offers(files map[string]*parsedFile, results []*pipeline.Result, kinds ...repairKind) (map[offerKey]*offer, []offerKey, error) {
	texts := map[string]*finding.Text{}
	out := map[offerKey]*offer{}
	var order []offerKey
	for _, r := range results {
		for _, f := range r.Findings {
			k := kindOf(&f)
			if k == notRepaired || !slices.Contains(kinds, k) {
				continue
			}
			pf := files[f.File]
			if pf == nil {
				continue
			}
			cur := texts[f.File]
			if cur == nil {
				data, err := pf.current()
				if err != nil {
					return nil, nil, err
				}
				cur = finding.NewText(data)
				texts[f.File] = cur
			}
			key, at, ok := pf.original(cur, f.Position)
			if !ok {
				continue
			}
			var edits []edit
			if len(f.Fixes) > 0 {
				for _, fx := range f.Fixes {
					edits = append(edits, fx.Edits...)
				}
				// An edit over text a round wrote (a gate removal that takes
				// a respelt featureGates key with it) is no edit of the
				// original: the offer stands, fix composes its own edits.
				edits, _ = rebase(pf.applied, edits)
			}
			ok2 := offerKey{f.File, pf.t.Offset(key.Line, key.Column)}
			o := out[ok2]
			if o == nil {
				o = &offer{}
				out[ok2] = o
				order = append(order, ok2)
			}
			o.f, o.key, o.at, o.edits, o.offered = f, key, at, edits, len(f.Fixes) > 0
		}
	}
	return out, order, nil
}

// discover runs the rounds of evaluation: the renames the findings carry are
// decided, applied, and the files evaluated again at every target minor, until
// no finding brings a new rename. It returns the last round's results, where
// the kubelet reads everything the renames let it read.
func (e *env) discover(in pipeline.Input, parsed []*parsedFile, before []*pipeline.Result) ([]*pipeline.Result, error) {
	files := map[string]*parsedFile{}
	for _, pf := range parsed {
		files[pf.file.Path] = pf
	}
	results := before
	pending := false // edits applied since results were evaluated
	for _, pf := range parsed {
		pending = pending || len(pf.applied) > 0
	}
	for round := 0; round < maxRounds; round++ {
		if !pending || round > 0 {
			os, order, err := offers(files, results, fieldRename, gateRename)
			if err != nil {
				return nil, err
			}
			for _, k := range order {
				pf := files[k.file]
				if pf.decided[k.off] {
					continue
				}
				pf.decided[k.off] = true
				if e.rename(pf, os[k]) {
					pending = true
				}
			}
		}
		if !pending {
			break
		}
		pending = false
		var err error
		if results, err = e.evaluate(in, parsed); err != nil {
			return nil, err
		}
	}
	return results, nil
}

// evaluate lints the files with the rounds' edits applied at every target
// minor.
func (e *env) evaluate(in pipeline.Input, parsed []*parsedFile) ([]*pipeline.Result, error) {
	virtual := map[string][]byte{}
	for _, pf := range parsed {
		if len(pf.applied) == 0 {
			continue
		}
		data, err := pf.current()
		if err != nil {
			return nil, fmt.Errorf("fix %s: %w", pf.file.Path, err)
		}
		virtual[pf.file.Path] = data
	}
	return evaluateAt(in, virtual, e.minors)
}

// evaluateAt lints the input with the files of virtual in place of the ones
// on disk at each minor.
func evaluateAt(in pipeline.Input, virtual map[string][]byte, minors []*kubelets.Minor) ([]*pipeline.Result, error) {
	in.Virtual = virtual
	loaded, err := pipeline.Load(in)
	if err != nil {
		return nil, err
	}
	out := make([]*pipeline.Result, len(minors))
	for i, m := range minors {
		if out[i], err = loaded.Evaluate(m); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// addApplied records edits made by a round, kept sorted.
func (pf *parsedFile) addApplied(edits []edit) {
	pf.applied = append(pf.applied, edits...)
	sort.SliceStable(pf.applied, func(i, j int) bool { return pf.applied[i].Pos < pf.applied[j].Pos })
}

// rename turns a rename offer into a repair or a skip; it reports whether the
// repair is made.
func (e *env) rename(pf *parsedFile, o *offer) bool {
	if kindOf(&o.f) == gateRename {
		return e.renameGate(pf, o)
	}
	what := pf.keys.WrittenPath(o.at)
	pf.renamed[o.key] = false
	if o.f.NoFix != "" || len(o.edits) == 0 {
		reason := o.f.NoFix
		if reason == "" {
			reason = "the key is written with escapes, a tag or across lines: rename it by hand"
		}
		pf.skip(o.f.Rule, o.key, what, reason)
		return false
	}
	pf.renamed[o.key] = true
	pf.fixes = append(pf.fixes, Fix{Rule: o.f.Rule, Pos: pf.pos(o.key), Before: what, After: o.f.Path, edits: o.edits})
	pf.addApplied(o.edits)
	return true
}

// renameGate respells a gate name that differs from a registered gate only in
// case, when a target minor registers that gate.
func (e *env) renameGate(pf *parsedFile, o *offer) bool {
	name, _ := pipeline.GateSpelling(gateName(o.f.Path))
	what := "featureGates[" + o.key.Value + "]"
	reason := o.f.NoFix
	var missing []*kubelets.Minor
	if reason == "" {
		for j, t := range e.tables {
			if _, ok := t.Lookup(name); !ok {
				missing = append(missing, e.minors[j])
			}
		}
		if len(missing) == len(e.minors) {
			reason = fmt.Sprintf("%s is not registered by kubelet %s either: remove the entry or target the minors that have it", name, minorList(e.minors))
		}
	}
	if reason != "" || len(o.edits) == 0 {
		pf.skip(pipeline.GateUnknown.ID, o.key, what, reason)
		return false
	}
	fx := Fix{Rule: pipeline.GateUnknown.ID, Pos: pf.pos(o.key), Before: what, After: "featureGates[" + name + "]", edits: o.edits}
	if len(missing) > 0 {
		fx.Also = fmt.Sprintf("kubelet %s %s not register %s: still unknown there", minorList(missing), verb(len(missing), "does", "do"), name)
	}
	pf.fixes = append(pf.fixes, fx)
	pf.addApplied(o.edits)
	return true
}

// lockedGates removes the featureGates entries set to the value their gate is
// locked to at every target minor (pipeline.GateLockAt, the decision the gate
// step's findings carry as their repair). The kubelet panics on the first gate
// it cannot set without warning about the others, so the entries of the
// featureGates mapping the kubelet reads are all weighed, offered or not. A
// mapping left empty goes with its key (block style) or stays as {} (flow
// style, as in JSON): a drop-in's null featureGates would reset the main
// file's gates.
func (e *env) lockedGates(pf *parsedFile, os map[offerKey]*offer) {
	v := pf.gatesValue
	if !pf.gatesApply() || v == nil || v.Kind != yaml.MappingNode {
		return
	}
	if v.Style&yaml.FlowStyle != 0 && pf.gateAdded {
		return // the crash-loop repair inserts before the first entry
	}
	var fixes []Fix
	remove := map[*yaml.Node]bool{}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k := v.Content[i]
		at, ok := pf.keys.At(k.Line, k.Column)
		if !ok || at.Mapping != v {
			continue
		}
		value, ok := rule.RemovableGate(pf.keys, at)
		if !ok || !e.lockedAtAll(k.Value, value) {
			continue
		}
		why, gone := e.lockedWhy(k.Value, value)
		rule := pipeline.GateGA.ID
		if o := os[offerKey{pf.file.Path, pf.t.Offset(k.Line, k.Column)}]; o != nil {
			rule = o.f.Rule
		}
		if gone {
			rule = pipeline.GateUnknown.ID
		}
		remove[k] = true
		fixes = append(fixes, Fix{Rule: rule, Pos: pf.pos(k), Before: fmt.Sprintf("featureGates[%s]: %t", k.Value, value),
			After: "entry removed", Also: why, gate: k.Value})
	}
	if len(fixes) == 0 {
		return
	}
	edits, reason := rule.RemoveEntries(pf.t, v, remove, rule.RemoveOptions{Key: pf.gatesKey, DropIn: !pf.main, Adding: pf.gateAdded})
	if reason != "" {
		for _, fx := range fixes {
			pf.skips = append(pf.skips, Skip{Rule: fx.Rule, Pos: fx.Pos, What: fx.Before, Reason: fx.Also + "; but " + reason})
		}
		return
	}
	for i := range fixes {
		for k := range remove {
			if pf.pos(k) == fixes[i].Pos {
				fixes[i].edits = edits[k]
			}
		}
	}
	pf.fixes = append(pf.fixes, fixes...)
}

// lockedAtAll reports whether setting the gate name to value is a no-op at
// every target minor (pipeline.GateLockAt).
func (e *env) lockedAtAll(name string, value bool) bool {
	for _, m := range e.minors {
		if _, ok := pipeline.GateLockAt(m, name, value); !ok {
			return false
		}
	}
	return true
}

// lockedWhy says why removing an entry setting the gate name to value changes
// nothing at the target minors; gone is set when some of them no longer
// register the gate.
func (e *env) lockedWhy(name string, value bool) (why string, gone bool) {
	var locked, goneAt, lastAt []string
	for _, m := range e.minors {
		l, ok := pipeline.GateLockAt(m, name, value)
		if !ok {
			continue
		}
		if l.Last == "" {
			locked = append(locked, m.Version)
			continue
		}
		goneAt = append(goneAt, m.Version)
		if !slices.Contains(lastAt, l.Last) {
			lastAt = append(lastAt, l.Last)
		}
	}
	var parts []string
	if len(locked) > 0 {
		parts = append(parts, fmt.Sprintf("%s is locked to %t at kubelet %s", name, value, kubelets.Span(locked)))
	}
	if len(goneAt) > 0 {
		parts = append(parts, fmt.Sprintf("kubelet %s no longer %s it (locked to %t at %s, the last minor that registered it)",
			kubelets.Span(goneAt), verb(len(goneAt), "registers", "register"), value, versionList(lastAt)))
	}
	return strings.Join(parts, "; ") + ": removing the entry changes nothing", len(goneAt) > 0
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

func before(a, b finding.Position) bool {
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	return a.Column < b.Column
}
