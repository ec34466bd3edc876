package skew

import (
	"fmt"
	"reflect"
	"sort"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
	"github.com/kubeletcfg/kubeletcfg/rule"
)

// Column is the verdict of one kubelet minor.
type Column struct {
	Minor  *kubelets.Minor
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
	// Tool, for a bootstrapper that ships its own kubelet (k0s, k3s, RKE2,
	// Talos), names it, and ToolRelease its release that runs this minor's
	// kubelet: "" when none ported does (EvaluateEach's caller sets them).
	Tool, ToolRelease string
}

// Matrix is the same files evaluated at several minors, oldest first.
type Matrix struct {
	Columns []*Column
}

// Evaluate loads the input once and evaluates it at each minor (oldest first),
// then compares every column's effective configuration with the newest one's.
// Its error is an input error: a file that cannot be read at all.
func Evaluate(in pipeline.Input, minors []*kubelets.Minor) (*Matrix, error) {
	l, err := pipeline.Load(in)
	if err != nil {
		return nil, err
	}
	return EvaluateLoaded(l, minors)
}

// EvaluateLoaded is Evaluate over files already loaded, minor after minor (what
// they share is cached by the Loaded and skew); the error is the first minor's
// that fails.
func EvaluateLoaded(l *pipeline.Loaded, minors []*kubelets.Minor) (*Matrix, error) {
	cols, err := evaluateColumns(l, minors)
	if err != nil {
		return nil, err
	}
	return assemble(cols), nil
}

// EvaluateEach is Evaluate with each minor's own files (input(m)): those a
// bootstrapper that ships its kubelet writes with its release for that minor.
func EvaluateEach(minors []*kubelets.Minor, input func(*kubelets.Minor) (pipeline.Input, error)) (*Matrix, error) {
	cols := make([]*Column, len(minors))
	for i, m := range minors {
		in, err := input(m)
		if err != nil {
			return nil, err
		}
		l, err := pipeline.Load(in)
		if err != nil {
			return nil, err
		}
		if cols[i], err = evaluateColumn(l, m); err != nil {
			return nil, err
		}
	}
	return assemble(cols), nil
}

// assemble is the matrix of cols, each compared with the newest.
func assemble(cols []*Column) *Matrix {
	mx := &Matrix{Columns: cols}
	if ref := mx.Reference(); ref != nil && ref.Effective != nil {
		for _, c := range mx.Columns {
			if c != ref && c.Effective != nil {
				c.Differs = Diff(c.Leaves, ref.Leaves, nil, nil)
			}
		}
	}
	return mx
}

// evaluateColumns runs evaluateColumn for every minor in turn. Evaluating the
// minors on two goroutines instead (the Loaded and skew's caches are safe for
// concurrent use, see TestConcurrentMatchesSequential) saves about 1.5 ms of
// wall time on `skew` over seven minors on two cores, and costs about 3 ms more
// CPU, a sixth of the run (measured with internal/floor/measure.sh: every page
// the heap takes while another thread of the process runs is a TLB shootdown on
// the other core, and each goroutine's allocation cache touches pages of its
// own); issue 11's targets are CPU, and on a shared machine so is the cost.
func evaluateColumns(l *pipeline.Loaded, minors []*kubelets.Minor) ([]*Column, error) {
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

func evaluateColumn(l *pipeline.Loaded, m *kubelets.Minor) (*Column, error) {
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
		c.Leaves = kubelets.Flatten(obj, m.Fields())
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

// Stop is the finding that stops the node (pipeline.Result.Stop: a
// bootstrapper's refusal, else the kubelet's first error); nil when it starts.
func (c *Column) Stop() *finding.Finding { return c.Result.Stop() }

// Reason is the short reason of a finding: its rule's name ("gate-unknown").
func Reason(f *finding.Finding) string {
	if r, ok := rule.Lookup(f.Rule); ok {
		return r.Name
	}
	return ""
}

// GateProblems are the findings of rules gate-unknown, gate-locked and
// gate-prealpha (each gate once per rule), in file order.
func (c *Column) GateProblems() []finding.Finding {
	var out []finding.Finding
	seen := map[string]bool{}
	for _, f := range c.Result.Findings {
		switch f.Rule {
		case pipeline.GateUnknown.ID, pipeline.GateLocked.ID, pipeline.GatePreAlpha.ID:
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
	name, _ := rule.GateOfPath(path)
	return name
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
func Knows(m *kubelets.Minor) func(path string) bool {
	tree := m.Fields()
	return func(path string) bool { return tree.AtExact(path) != nil }
}

// FormatBackoff prints a crash-loop backoff as "initial/cap" ("-" when nil:
// the kubelet does not start).
func FormatBackoff(b *pipeline.Backoff) string {
	if b == nil {
		return "-"
	}
	return b.Initial.String() + "/" + b.Max.String()
}
