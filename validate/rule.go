package validate

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Stage is the step of the kubelet's start-up that a rule mirrors. The rules
// reference groups rules by stage, in pipeline order.
type Stage int

const (
	StageRead     Stage = iota // reading and decoding the main --config file
	StageDropIn                // walking and merging the --config-dir drop-ins
	StageFlags                 // kubeletConfigFlagPrecedence re-parsing the command line
	StageGates                 // feature gate resolution
	StageValidate              // ValidateKubeletConfiguration and logging validation
	StageHost                  // checks that depend on the host (cgroup version)
	StageLint                  // beyond the kubelet: the files do not say what they mean
)

var stageNames = [...]string{"read", "drop-in", "flags", "feature gates", "validation", "host", "lint"}

func (s Stage) String() string { return stageNames[s] }

// Rule is one registered check. Check receives the evaluated configuration and
// returns findings; it must not mutate the context.
type Rule struct {
	// ID is stable forever; never reuse or renumber.
	ID       string
	Name     string // short kebab-case slug, for humans and SARIF
	Severity Severity
	Stage    Stage
	// Summary is one line; Doc explains what and why, and the fix.
	Summary string
	Doc     string
	// Kubelet names the upstream code the rule mirrors (file and function), when it
	// mirrors the kubelet; empty for lint rules the kubelet does not have.
	Kubelet string
	// Since and Until are the oldest and newest kubelet minors ("1.33") that have
	// the rule, inclusive; empty is open. Run skips a rule outside its range, and
	// the rules reference shows it. A rule that exists in every minor but whose
	// message or condition changed declares the variants next to itself (byMinor).
	Since, Until string
	// Check produces the findings. Rules that only document findings produced by a
	// pipeline stage (read, drop-in) report through Context facts too.
	Check func(*Context) []Finding
}

// At builds a finding of this rule at a position.
func (r *Rule) At(pos Position, path, msg, hint string) Finding {
	return Finding{Rule: r.ID, Severity: r.Severity, Message: msg, Position: pos, Path: path, Hint: hint}
}

// Atf is At with a formatted message.
func (r *Rule) Atf(pos Position, path, hint, format string, args ...any) Finding {
	return r.At(pos, path, fmt.Sprintf(format, args...), hint)
}

var (
	registryMu sync.Mutex
	registry   = map[string]*Rule{}
	// sorted is the registry ordered by ID, built by the first Rules after a
	// Register: Run asks for it at every evaluation.
	sorted []*Rule
)

// Register adds rules to the registry; it panics on a duplicate ID, which is a
// programming error caught by every test run.
func Register(rules ...*Rule) {
	registryMu.Lock()
	defer registryMu.Unlock()
	for _, r := range rules {
		if _, dup := registry[r.ID]; dup {
			panic("validate: duplicate rule ID " + r.ID)
		}
		if r.Name == "" || r.Summary == "" {
			panic("validate: rule " + r.ID + " needs a name and a summary")
		}
		if r.Releases() == "" {
			panic("validate: rule " + r.ID + " exists in no minor (Since " + r.Since + ", Until " + r.Until + ")")
		}
		registry[r.ID] = r
	}
	sorted = nil
}

// Rules returns every registered rule ordered by ID.
func Rules() []*Rule {
	registryMu.Lock()
	defer registryMu.Unlock()
	if sorted == nil {
		sorted = make([]*Rule, 0, len(registry))
		for _, r := range registry {
			sorted = append(sorted, r)
		}
		sort.Slice(sorted, func(i, j int) bool { return sorted[i].ID < sorted[j].ID })
	}
	return append([]*Rule(nil), sorted...) // callers may reorder their copy
}

// Lookup finds a rule by ID (case-insensitive).
func Lookup(id string) (*Rule, bool) {
	registryMu.Lock()
	defer registryMu.Unlock()
	r, ok := registry[strings.ToUpper(id)]
	return r, ok
}

// Run evaluates every registered rule with a Check that exists at ctx.Minor over
// ctx and returns the findings sorted by position. The kubelet's own checks run
// first; lint rules then see their findings in ctx.Prior.
func Run(ctx *Context) []Finding {
	var out []Finding
	rules := Rules()
	for _, r := range rules {
		if r.Stage != StageLint {
			out = append(out, r.run(ctx)...)
		}
	}
	ctx.Prior = out
	for _, r := range rules {
		if r.Stage == StageLint {
			out = append(out, r.run(ctx)...)
		}
	}
	SortFindings(out)
	return out
}

// run is r.Check when the rule exists at ctx.Minor.
func (r *Rule) run(ctx *Context) []Finding {
	if r.Check == nil || !r.In(ctx.Minor) {
		return nil
	}
	return r.Check(ctx)
}
