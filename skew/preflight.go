package skew

import (
	"fmt"
	"sort"
	"strings"

	"k8s.io/component-base/featuregate"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/internal/optionerr"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
)

// Preflight is what changes for a node pool when its kubelets move from one minor
// (the source) to another (the target) with the same files.
type Preflight struct {
	From, To *Column
	// CgroupVersion is the host cgroup version the verdicts assume (1 or 2).
	CgroupVersion int

	// Blockers are the target's error findings: why it would not start.
	Blockers []finding.Finding
	// Comparable is false when either minor stops before it has a
	// configuration: then there are no Changes to compute.
	Comparable bool
	// Changes are the effective values that differ from source to target,
	// with where the target's value comes from, and the values of fields the
	// source does not have (NewField), sorted by path.
	Changes []BehaviourChange
	// CgroupV1 explains, when failCgroupV1 turns true, what that means for
	// cgroup v1 hosts ("" otherwise).
	CgroupV1 string
	// Gates are the gates the files set that are deprecated, GA and locked, or
	// removed at the target.
	Gates []GateNote
	// Fields are the fields the files set that are deprecated at the target or
	// that the target does not have while the source does.
	Fields []FieldNote
	// NewlyApplied are keys of the files that the source drops and the target
	// applies.
	NewlyApplied []string
}

// BehaviourChange is an effective value that differs between source and target.
type BehaviourChange struct {
	Change
	// NewField is set when the source minor does not have the field at all
	// (From is then nil too).
	NewField bool `json:"newField,omitempty"`
	// SetBy is the file position that sets the value at the target (at the
	// source when the target has no such key); nil for a default.
	SetBy *finding.Position `json:"setBy,omitempty"`
}

// Gate statuses of a GateNote.
const (
	GateDeprecated = "deprecated"
	GateGALocked   = "ga-locked"
	GateRemoved    = "removed"
)

// GateNote is a gate the files set whose status at the target needs attention.
type GateNote struct {
	Name string `json:"name"`
	// Value is what the files set it to (nil when unknown).
	Value *bool `json:"value,omitempty"`
	// Status is deprecated, ga-locked or removed.
	Status string `json:"status"`
	// Since is the version the target's spec took effect ("" for removed).
	Since string `json:"since,omitempty"`
	// Default is the target's default (a locked gate cannot be set otherwise);
	// nil for a removed gate.
	Default *bool `json:"default,omitempty"`
	// AtSource is the gate's stage at the source ("ALPHA", "BETA", "GA",
	// "DEPRECATED", or "unregistered").
	AtSource string `json:"atSource"`
	// LockedAtSource, for a removed gate, is the value the source locks it to:
	// an entry of that value changes nothing there, so fix can remove it.
	LockedAtSource *bool             `json:"lockedAtSource,omitempty"`
	SetBy          *finding.Position `json:"setBy,omitempty"`
}

// Field statuses of a FieldNote.
const (
	FieldDeprecated = "deprecated"
	FieldRemoved    = "removed"
)

// FieldNote is a field the files set that the target deprecates or lacks.
type FieldNote struct {
	Path   string `json:"path"`
	Status string `json:"status"`
	// Doc is the target's "Deprecated: ..." sentence, for deprecated fields.
	Doc   string            `json:"doc,omitempty"`
	SetBy *finding.Position `json:"setBy,omitempty"`
}

// NewPreflight evaluates the input at from and to (loading the files once) and
// compares the two. from must not be newer than to.
func NewPreflight(in pipeline.Input, from, to *kubelets.Minor) (*Preflight, error) {
	return NewPreflightSettled(in, from, to, nil)
}

// NewPreflightSettled is NewPreflight with settle applied to each minor's result
// before the comparison (input.Source.Settle: positions of a converted --config).
func NewPreflightSettled(in pipeline.Input, from, to *kubelets.Minor, settle func(*pipeline.Result) error) (*Preflight, error) {
	minors, err := preflightMinors(from, to)
	if err != nil {
		return nil, err
	}
	l, err := pipeline.Load(in)
	if err != nil {
		return nil, err
	}
	mx, err := EvaluateLoaded(l, minors)
	if err != nil {
		return nil, err
	}
	if settle != nil {
		for _, c := range mx.Columns {
			if err := settle(c.Result); err != nil {
				return nil, err
			}
		}
	}
	src, tgt := mx.Columns[0], mx.Reference()
	return comparePreflight(src, tgt, l.Input().CgroupVersion)
}

// NewPreflightEach is NewPreflightSettled with each minor's own files
// (EvaluateEach); settle gets each minor's result.
func NewPreflightEach(from, to *kubelets.Minor, input func(*kubelets.Minor) (pipeline.Input, error), settle func(*pipeline.Result) error) (*Preflight, error) {
	minors, err := preflightMinors(from, to)
	if err != nil {
		return nil, err
	}
	cgroup := 0
	mx, err := EvaluateEach(minors, func(m *kubelets.Minor) (pipeline.Input, error) {
		in, err := input(m)
		cgroup = in.CgroupVersion
		return in, err
	})
	if err != nil {
		return nil, err
	}
	for _, c := range mx.Columns {
		if err := settle(c.Result); err != nil {
			return nil, err
		}
	}
	return comparePreflight(mx.Columns[0], mx.Reference(), cgroup)
}

// preflightMinors are the minors a preflight evaluates: from, then to unless
// it is the same.
func preflightMinors(from, to *kubelets.Minor) ([]*kubelets.Minor, error) {
	if to.Before(from) {
		return nil, optionerr.Errorf("{From} %s is newer than {To} %s: a preflight goes from the running minor to a newer one (or the same)", from.Version, to.Version)
	}
	if from == to {
		return []*kubelets.Minor{from}, nil
	}
	return []*kubelets.Minor{from, to}, nil
}

func comparePreflight(src, tgt *Column, cgroup int) (*Preflight, error) {
	p := &Preflight{From: src, To: tgt, CgroupVersion: cgroup, Blockers: []finding.Finding{}}
	for _, f := range tgt.Result.Findings {
		if f.Severity == finding.Error {
			p.Blockers = append(p.Blockers, f)
		}
	}
	if src.Effective != nil && tgt.Effective != nil {
		p.Comparable = true
		knowsSrc := Knows(src.Minor)
		for _, c := range Diff(src.Leaves, tgt.Leaves, knowsSrc, Knows(tgt.Minor)) {
			p.Changes = append(p.Changes, BehaviourChange{Change: c, SetBy: setBy(c.Path, tgt.Result, src.Result)})
		}
		for path, v := range tgt.Leaves {
			if !knowsSrc(path) {
				p.Changes = append(p.Changes, BehaviourChange{Change: Change{Path: path, To: v}, NewField: true, SetBy: setBy(path, tgt.Result)})
			}
		}
		sort.Slice(p.Changes, func(i, j int) bool { return p.Changes[i].Path < p.Changes[j].Path })
	}
	p.CgroupV1 = cgroupV1Note(src, tgt, cgroup)

	srcGates, err := src.Minor.Gates()
	if err != nil {
		return nil, err
	}
	tgtGates, err := tgt.Minor.Gates()
	if err != nil {
		return nil, err
	}
	p.Gates = gateNotes(setGates(src, tgt), srcGates, tgtGates)

	tgtInfos, err := tgt.Minor.FieldInfos()
	if err != nil {
		return nil, err
	}
	p.Fields = fieldNotes(setFields(src, tgt), Knows(src.Minor), Knows(tgt.Minor), tgtInfos, src.Result.Dropped, tgt.Result.Dropped)

	droppedAtTarget := map[string]bool{}
	for _, d := range tgt.Result.Dropped {
		droppedAtTarget[d] = true
	}
	knowsTgt := Knows(tgt.Minor)
	for _, d := range src.Result.Dropped {
		if !droppedAtTarget[d] && knowsTgt(d) {
			p.NewlyApplied = append(p.NewlyApplied, d)
		}
	}
	return p, nil
}

// Starts reports whether the target kubelet starts.
func (p *Preflight) Starts() bool { return p.To.Result.Starts }

// BackoffChanged reports whether the crash-loop backoff differs between source
// and target (including one of them not starting).
func (p *Preflight) BackoffChanged() bool {
	return FormatBackoff(p.From.Result.CrashLoopBackOff) != FormatBackoff(p.To.Result.CrashLoopBackOff)
}

// setBy is the file position of a path at the first result that has one.
func setBy(path string, rs ...*pipeline.Result) *finding.Position {
	for _, r := range rs {
		if pos, ok := r.Origins[path]; ok && pos.File != "" {
			return &pos
		}
	}
	return nil
}

// cgroupV1Note explains a failCgroupV1 that is true at the target but not at the
// source: the kubelet then refuses to start on cgroup v1 hosts (a Windows
// node has no cgroups: nothing to explain).
func cgroupV1Note(src, tgt *Column, cgroup int) string {
	if tgt.Leaves["failCgroupV1"] != true || src.Leaves["failCgroupV1"] == true || tgt.Result.OS == kubelets.Windows {
		return ""
	}
	if src.Effective == nil || tgt.Effective == nil {
		return ""
	}
	msg := fmt.Sprintf("failCgroupV1 is true at %s (%s at %s): kubelet %s refuses to start on cgroup v1 hosts", tgt.Minor.Version, kubelets.Format(src.Leaves["failCgroupV1"]), src.Minor.Version, tgt.Minor.Version)
	if cgroup == 1 {
		return msg + " (this report checks one)"
	}
	return msg + "; check them with --cgroup-version v1 (this report assumes cgroup v2), or set failCgroupV1: false"
}

// gateSetting is what the files set a gate to (nil when not known, for example
// when the kubelet panicked before it had a configuration) and where.
type gateSetting struct {
	value *bool
	pos   *finding.Position
}

// setGates maps each gate the files set, at any of the columns, to its setting.
func setGates(cols ...*Column) map[string]gateSetting {
	out := map[string]gateSetting{}
	for _, c := range cols {
		for path, pos := range c.Result.Origins {
			if name := GateName(path); name != "" && pos.File != "" {
				g := out[name]
				if g.pos == nil {
					pos := pos
					g.pos = &pos
				}
				out[name] = g
			}
		}
		if gates, ok := c.Effective["featureGates"].(map[string]any); ok {
			for name, v := range gates {
				g := out[name]
				if b, ok := v.(bool); ok && g.value == nil {
					g.value = &b
				}
				out[name] = g
			}
		}
		for _, f := range c.GateProblems() {
			if name := GateName(f.Path); name != "" {
				g := out[name]
				if g.pos == nil && f.File != "" {
					pos := f.Position
					g.pos = &pos
				}
				out[name] = g
			}
		}
	}
	return out
}

// gateNotes lists, sorted by name, the gates set (name → value and position)
// that at the target are deprecated, GA and locked to their default, or not
// registered although the source registers them.
func gateNotes(set map[string]gateSetting, src, tgt *kubelets.GateTable) []GateNote {
	names := make([]string, 0, len(set))
	for n := range set {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []GateNote
	for _, name := range names {
		s := set[name]
		atSource := "unregistered"
		var locked *bool
		if g, ok := src.Lookup(name); ok {
			spec := src.At(g)
			atSource = stageName(spec.PreRelease)
			if spec.LockToDefault {
				locked = &spec.Default
			}
		}
		g, ok := tgt.Lookup(name)
		if !ok {
			if atSource != "unregistered" {
				out = append(out, GateNote{Name: name, Value: s.value, Status: GateRemoved, AtSource: atSource, LockedAtSource: locked, SetBy: s.pos})
			}
			continue
		}
		if g.Special {
			continue
		}
		spec := tgt.At(g)
		def := spec.Default
		n := GateNote{Name: name, Value: s.value, Since: spec.Version, Default: &def, AtSource: atSource, SetBy: s.pos}
		switch {
		case spec.PreRelease == string(featuregate.Deprecated):
			n.Status = GateDeprecated
		case spec.PreRelease == string(featuregate.GA) && spec.LockToDefault:
			n.Status = GateGALocked
		default:
			continue
		}
		out = append(out, n)
	}
	return out
}

// stageName names a generated stage string (GA is the empty string).
func stageName(s string) string {
	if s == string(featuregate.GA) {
		return "GA"
	}
	return s
}

// setFields maps the field paths the files set (not featureGates entries,
// apiVersion or kind) to the position that sets them.
func setFields(cols ...*Column) map[string]*finding.Position {
	out := map[string]*finding.Position{}
	for _, c := range cols {
		for path, pos := range c.Result.Origins {
			if pos.File == "" || path == "apiVersion" || path == "kind" || kubelets.Within(path, "featureGates") {
				continue
			}
			if _, ok := out[path]; !ok {
				pos := pos
				out[path] = &pos
			}
		}
	}
	return out
}

// fieldNotes lists the fields the files set (path → position) that the target
// documents as deprecated, or that the source has and the target does not (or
// that the target drops while the source applied them), sorted; a field below
// one already listed is not listed again.
func fieldNotes(set map[string]*finding.Position, knowsSrc, knowsTgt func(string) bool, tgtInfos []kubelets.FieldInfo, srcDropped, tgtDropped []string) []FieldNote {
	docs := make(map[string]string, len(tgtInfos))
	for _, f := range tgtInfos {
		docs[f.Path] = f.Doc
	}
	srcDrops := map[string]bool{}
	for _, d := range srcDropped {
		srcDrops[d] = true
	}
	notes := map[string]FieldNote{}
	for path, pos := range set {
		field := fieldPath(path, docs)
		switch {
		case knowsSrc(path) && !knowsTgt(path):
			notes[path] = FieldNote{Path: path, Status: FieldRemoved, SetBy: pos}
		case knowsTgt(path) && field != "":
			if d := deprecatedSentence(docs[field]); d != "" {
				if _, ok := notes[field]; !ok {
					at := set[field]
					if at == nil {
						at = pos
					}
					notes[field] = FieldNote{Path: field, Status: FieldDeprecated, Doc: d, SetBy: at}
				}
			}
		}
	}
	for _, d := range tgtDropped {
		if !srcDrops[d] && !knowsTgt(d) {
			if _, ok := notes[d]; !ok {
				notes[d] = FieldNote{Path: d, Status: FieldRemoved, SetBy: set[d]}
			}
		}
	}
	paths := make([]string, 0, len(notes))
	for p := range notes {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var out []FieldNote
	for _, p := range paths {
		if len(out) > 0 && kubelets.Below(p, out[len(out)-1].Path) {
			continue
		}
		out = append(out, notes[p])
	}
	return out
}

// fieldPath maps a value path (reservedMemory[0].limits[memory]) to the path of
// its field in the generated field table (reservedMemory[].limits): list
// indexes become [], map keys are dropped. "" when the table has no such field.
func fieldPath(path string, docs map[string]string) string {
	var b strings.Builder
	for i := 0; i < len(path); i++ {
		if path[i] != '[' {
			b.WriteByte(path[i])
			continue
		}
		end := strings.IndexByte(path[i:], ']')
		if end < 0 {
			return ""
		}
		b.WriteString("[]")
		i += end
	}
	p := b.String()
	for {
		if _, ok := docs[p]; ok {
			return p
		}
		// A trailing [] is a map key (or a list item without its own entry).
		cut := strings.LastIndex(p, "[]")
		if cut < 0 || cut+2 != len(p) {
			return ""
		}
		p = p[:cut]
	}
}

// deprecatedSentence is the doc's sentence that starts with "Deprecated" (up to
// its full stop, lines joined), or "" when the doc does not say so.
func deprecatedSentence(doc string) string {
	i := strings.Index(doc, "Deprecated")
	if i < 0 {
		return ""
	}
	s := strings.Join(strings.Fields(doc[i:]), " ")
	if j := strings.Index(s+" ", ". "); j >= 0 {
		s = s[:j+1]
	}
	return s
}
