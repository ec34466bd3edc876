package matrix

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/kubeletcfg/kubeletcfg/pipeline"
	"github.com/kubeletcfg/kubeletcfg/skew"
	"github.com/kubeletcfg/kubeletcfg/validate"
)

// Skew is how many minors a kubelet may lag behind its control plane (the
// Kubernetes version-skew policy: n-3).
const Skew = 3

// Window picks the kubelet minors to compare, oldest first. With no flags it is
// the newest supported minor and the Skew minors before it; controlPlane picks
// that minor and the Skew before it; versions is a range ("1.34..1.37") or a
// comma list ("1.33,1.37"). Every version named is checked with skew.Lookup, so
// an error lists the supported minors. Only supported minors are returned.
func Window(versions, controlPlane string) ([]*skew.Minor, error) {
	return window(skew.Supported(), skew.Lookup, versions, controlPlane)
}

// window is Window over any catalogue of minors (tests use fake ones).
func window(supported []string, lookup func(string) (*skew.Minor, error), versions, controlPlane string) ([]*skew.Minor, error) {
	if versions != "" && controlPlane != "" {
		return nil, fmt.Errorf("--versions and --control-plane are alternatives: give one")
	}
	all := make([]*skew.Minor, 0, len(supported))
	for _, v := range supported {
		m, err := lookup(v)
		if err != nil {
			return nil, err
		}
		all = append(all, m)
	}
	if len(all) == 0 {
		return nil, fmt.Errorf("no supported kubelet minors")
	}
	between := func(lo, hi skew.Version) []*skew.Minor {
		var out []*skew.Minor
		for _, m := range all {
			if m.AtLeast(lo) && hi.AtLeast(m.MajorMinor()) {
				out = append(out, m)
			}
		}
		return out
	}
	switch {
	case controlPlane != "":
		cp, err := lookup(controlPlane)
		if err != nil {
			return nil, fmt.Errorf("--control-plane: %w", err)
		}
		n := cp.MajorMinor()
		return between(n.Add(-Skew), n), nil
	case strings.Contains(versions, ".."):
		lo, hi, _ := strings.Cut(versions, "..")
		a, err := lookup(lo)
		if err != nil {
			return nil, fmt.Errorf("--versions: %w", err)
		}
		b, err := lookup(hi)
		if err != nil {
			return nil, fmt.Errorf("--versions: %w", err)
		}
		if b.Before(a) {
			return nil, fmt.Errorf("--versions %s: %s is newer than %s (write the older minor first)", versions, a.Version, b.Version)
		}
		return between(a.MajorMinor(), b.MajorMinor()), nil
	case versions != "":
		seen := map[*skew.Minor]bool{}
		var out []*skew.Minor
		for _, v := range strings.Split(versions, ",") {
			m, err := lookup(v)
			if err != nil {
				return nil, fmt.Errorf("--versions: %w", err)
			}
			if !seen[m] {
				seen[m] = true
				out = append(out, m)
			}
		}
		sort.SliceStable(out, func(i, j int) bool { return out[i].Before(out[j]) })
		return out, nil
	}
	// The default window ends at the newest minor from a release: a pre-release
	// minor is evaluated only when asked for.
	newest := all[len(all)-1]
	for i := len(all) - 1; i > 0 && newest.PreRelease(); i-- {
		newest = all[i-1]
	}
	n := newest.MajorMinor()
	return between(n.Add(-Skew), n), nil
}

// Column is the verdict of one kubelet minor.
type Column struct {
	Minor  *skew.Minor
	Result *pipeline.Result
	// Effective is Result.EffectiveObject(): nil when the kubelet stops before
	// it has a configuration.
	Effective map[string]any
	// Leaves is Effective flattened to leaf paths (see Flatten).
	Leaves map[string]any
	// Differs lists the leaves whose value differs from the reference column
	// (the newest minor of the matrix), among paths both have; nil for the
	// reference itself or when either has no configuration.
	Differs []Change
}

// Matrix is the same files evaluated at several minors, oldest first.
type Matrix struct {
	Columns []*Column
}

// Evaluate loads the input once and evaluates it at each minor (oldest first),
// then compares every column's effective configuration with the newest one's.
// Its error is an input error: a file that cannot be read at all.
func Evaluate(in pipeline.Input, minors []*skew.Minor) (*Matrix, error) {
	l, err := pipeline.Load(in)
	if err != nil {
		return nil, err
	}
	return EvaluateLoaded(l, minors)
}

// EvaluateLoaded is Evaluate over files already loaded, minor after minor (what
// they share is cached by the Loaded and skew); the error is the first minor's
// that fails.
func EvaluateLoaded(l *pipeline.Loaded, minors []*skew.Minor) (*Matrix, error) {
	cols, err := evaluateColumns(l, minors)
	if err != nil {
		return nil, err
	}
	mx := &Matrix{Columns: cols}
	if ref := mx.Reference(); ref != nil && ref.Effective != nil {
		for _, c := range mx.Columns {
			if c != ref && c.Effective != nil {
				c.Differs = Diff(c.Leaves, ref.Leaves, nil, nil)
			}
		}
	}
	return mx, nil
}

// evaluateColumns runs evaluateColumn for every minor in turn. Evaluating the
// minors on two goroutines instead (the Loaded and skew's caches are safe for
// concurrent use, see TestConcurrentMatchesSequential) saves about 1.5 ms of
// wall time on `skew` over seven minors on two cores, and costs about 3 ms more
// CPU, a sixth of the run (measured with internal/floor/measure.sh: every page
// the heap takes while another thread of the process runs is a TLB shootdown on
// the other core, and each goroutine's allocation cache touches pages of its
// own); issue 11's targets are CPU, and on a shared machine so is the cost.
func evaluateColumns(l *pipeline.Loaded, minors []*skew.Minor) ([]*Column, error) {
	cols := make([]*Column, len(minors))
	for i, m := range minors {
		c, err := evaluateColumn(l, m)
		if err != nil {
			return nil, err
		}
		cols[i] = c
	}
	return cols, nil
}

func evaluateColumn(l *pipeline.Loaded, m *skew.Minor) (*Column, error) {
	r, err := l.Evaluate(m)
	if err != nil {
		return nil, err
	}
	obj, err := r.EffectiveObject()
	if err != nil {
		return nil, fmt.Errorf("kubelet %s: effective configuration: %w", m.Version, err)
	}
	c := &Column{Minor: m, Result: r, Effective: obj}
	if obj != nil {
		c.Leaves = Flatten(obj, m.Fields())
	}
	return c, nil
}

// Reference is the column the others are compared with: the newest minor.
func (mx *Matrix) Reference() *Column {
	if len(mx.Columns) == 0 {
		return nil
	}
	return mx.Columns[len(mx.Columns)-1]
}

// AllStart reports whether the kubelet starts at every minor of the matrix.
func (mx *Matrix) AllStart() bool {
	for _, c := range mx.Columns {
		if !c.Result.Starts {
			return false
		}
	}
	return true
}

// Stop is the first error finding: why the kubelet does not start (nil when it
// starts).
func (c *Column) Stop() *validate.Finding {
	return firstError(c.Result)
}

func firstError(r *pipeline.Result) *validate.Finding {
	if r.Starts {
		return nil
	}
	for i := range r.Findings {
		if r.Findings[i].Severity == validate.Error {
			return &r.Findings[i]
		}
	}
	return nil
}

// Reason is the short reason of a finding: its rule's name ("gate-unknown").
func Reason(f *validate.Finding) string {
	if r, ok := validate.Lookup(f.Rule); ok {
		return r.Name
	}
	return ""
}

// GateProblems are the findings of rules gate-unknown, gate-locked and
// gate-prealpha (each gate once per rule), in file order.
func (c *Column) GateProblems() []validate.Finding {
	var out []validate.Finding
	seen := map[string]bool{}
	for _, f := range c.Result.Findings {
		switch f.Rule {
		case validate.GateUnknown.ID, validate.GateLocked.ID, validate.GatePreAlpha.ID:
		default:
			continue
		}
		if key := f.Rule + " " + f.Path; !seen[key] {
			seen[key] = true
			out = append(out, f)
		}
	}
	return out
}

// GateName is the gate of a featureGates[Name] path ("" for other paths).
func GateName(path string) string {
	if strings.HasPrefix(path, "featureGates[") && strings.HasSuffix(path, "]") {
		return path[len("featureGates[") : len(path)-1]
	}
	return ""
}

// Flatten turns a KubeletConfiguration object into its leaf paths, spelled as
// everywhere else in kubeletcfg: object fields dotted, map keys in brackets
// (evictionHard[memory.available], featureGates[NodeSwap]). A list is one leaf
// (its value is the whole list); empty objects and maps have no leaves;
// apiVersion and kind are left out. tree says which objects are maps; without
// it (or for paths it does not have) every object is a struct.
func Flatten(obj map[string]any, tree *skew.Field) map[string]any {
	out := map[string]any{}
	flatten(out, "", obj, tree)
	delete(out, "apiVersion")
	delete(out, "kind")
	return out
}

func flatten(out map[string]any, path string, v any, tree *skew.Field) {
	obj, ok := v.(map[string]any)
	if !ok {
		out[path] = v
		return
	}
	isMap := false
	if path != "" && tree != nil {
		if f := tree.At(path); f != nil && f.Kind == skew.Map {
			isMap = true
		}
	}
	for k, cv := range obj {
		p := skew.JoinPath(path, k)
		if isMap {
			p = path + "[" + k + "]"
		}
		flatten(out, p, cv, tree)
	}
}

// Change is a leaf whose value differs between two minors. A value is nil when
// the leaf is unset at that minor (see Diff).
type Change struct {
	Path string `json:"path"`
	From any    `json:"from"`
	To   any    `json:"to"`
}

// Diff lists the leaves whose values differ from a to b, sorted by path. Paths
// present in both are compared; a path present in only one is compared with
// "unset" only when the other side's known says that minor has the field
// (a default it does not apply, rather than a field it does not have). Nil
// known functions compare only paths present in both.
func Diff(a, b map[string]any, knownA, knownB func(path string) bool) []Change {
	var out []Change
	for p, av := range a {
		bv, ok := b[p]
		switch {
		case ok:
			if !reflect.DeepEqual(av, bv) {
				out = append(out, Change{Path: p, From: av, To: bv})
			}
		case knownB != nil && knownB(p):
			out = append(out, Change{Path: p, From: av})
		}
	}
	if knownA != nil {
		for p, bv := range b {
			if _, ok := a[p]; !ok && knownA(p) {
				out = append(out, Change{Path: p, To: bv})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// Knows returns whether a minor's field tree has a path (exact names; map keys
// and list indexes are accepted anywhere a map or list is).
func Knows(m *skew.Minor) func(path string) bool {
	tree := m.Fields()
	return func(path string) bool { return tree.AtExact(path) != nil }
}

// Format prints a leaf value for humans: strings as they are (an empty string
// as ""), everything else as JSON, nil as (unset).
func Format(v any) string {
	switch x := v.(type) {
	case nil:
		return "(unset)"
	case string:
		if x == "" {
			return `""`
		}
		return x
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// FormatBackoff prints a crash-loop backoff as "initial/cap" ("-" when nil:
// the kubelet does not start).
func FormatBackoff(b *pipeline.Backoff) string {
	if b == nil {
		return "-"
	}
	return b.Initial.String() + "/" + b.Max.String()
}
