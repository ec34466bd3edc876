package validate

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/kubeletcfg/kubeletcfg/finding"
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
	// StageBootstrap is before the kubelet: the tool that writes its files
	// (kubeadm, nodeadm, Talos, ...) from the file the user keeps. Numbered
	// last so that the stages' numbers stay stable.
	StageBootstrap
	// StageRun is after validation: RunE's dependencies, run and
	// NewMainKubelet parsing what validation does not (runstage.go).
	StageRun
)

// stageOrder is the order of the rules reference: the kubelet's start (the host
// checks are validation's last), then lint, then the tools before the kubelet.
var stageOrder = []Stage{StageRead, StageDropIn, StageFlags, StageGates, StageValidate, StageHost, StageRun, StageLint, StageBootstrap}

var stageNames = [...]string{"read", "drop-in", "flags", "feature gates", "validation", "host", "lint", "bootstrapper", "run"}

func (s Stage) String() string { return stageNames[s] }

// Rule is one registered check. Check receives the evaluated configuration and
// returns findings; it must not mutate the context.
type Rule struct {
	// ID is stable forever; never reuse or renumber.
	ID       string
	Name     string // short kebab-case slug, for humans and SARIF
	Severity finding.Severity
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
	// Fields are the field paths the rule checks, in the syntax of explain and of
	// Finding.Path: dotted names, "[*]" for any map key or list item
	// (evictionHard[*], featureGates[*], reservedMemory[*].limits); empty for a rule
	// about a whole file, a flag or a comment. kubeletcfg explain lists a rule under
	// a field through these; TestRuleFields checks that each path exists at some
	// minor and that every finding's path in the corpus is declared by its rule.
	Fields []string
	// AnyField marks a rule about how any key is written, merged or gated (its
	// case, a duplicate, a drop-in overriding another, a gated field with its gate
	// off) rather than about particular fields: its findings may name any path,
	// and explain does not list it under each field.
	AnyField bool
	// EmittedBy names the step outside Run that produces the findings of a rule
	// with no Check ("pipeline: drop-in merge", "policy"); empty for a rule with a
	// Check. Grep the rule's ID to find the exact place.
	EmittedBy string
	// Check produces the findings; nil for a rule whose findings a pipeline step,
	// the policy or a profile emits (EmittedBy says which).
	Check func(*Context) []finding.Finding
}

// emittedBy sets EmittedBy on rules that have no Check and returns them.
func emittedBy(step string, rules ...*Rule) []*Rule {
	for _, r := range rules {
		r.EmittedBy = step
	}
	return rules
}

// Checks reports whether the rule declares path (a finding's path, in explain's
// syntax: "evictionHard[memory.available]", "reservedMemory[0].limits[memory]"):
// path is one of Fields, with "[*]" standing for any map key or list index, or
// lies below one. An AnyField rule checks every path.
func (r *Rule) Checks(path string) bool {
	if r.AnyField {
		return true
	}
	for _, f := range r.Fields {
		if WithinPattern(path, f) {
			return true
		}
	}
	return false
}

// WithinPattern reports whether path is pattern or lies below it, "[*]" in
// pattern matching one bracketed key or index of path:
// reservedMemory[0].limits[memory] is within reservedMemory[*].limits.
func WithinPattern(path, pattern string) bool {
	for pattern != "" {
		if rest, ok := strings.CutPrefix(pattern, "[*]"); ok {
			if path == "" || path[0] != '[' {
				return false
			}
			end := strings.IndexByte(path, ']')
			if end < 0 {
				return false
			}
			path, pattern = path[end+1:], rest
			continue
		}
		n := strings.Index(pattern, "[*]")
		if n < 0 {
			n = len(pattern)
		}
		if !strings.HasPrefix(path, pattern[:n]) {
			return false
		}
		path, pattern = path[n:], pattern[n:]
	}
	return path == "" || path[0] == '.' || path[0] == '['
}

// At builds a finding of this rule at a position.
func (r *Rule) At(pos finding.Position, path, msg, hint string) finding.Finding {
	return finding.Finding{Rule: r.ID, Severity: r.Severity, Message: msg, Position: pos, Path: path, Hint: hint}
}

// Atf is At with a formatted message.
func (r *Rule) Atf(pos finding.Position, path, hint, format string, args ...any) finding.Finding {
	return r.At(pos, path, fmt.Sprintf(format, args...), hint)
}

// allRules is every rule kubeletcfg has: validate's own, one explicit list per
// file, and the rules declared next to the code that emits them in a higher
// package (drop-in, ...), which that package's generated rules_gen.go passes to
// Register. A rule missing from these lists is missing from Run, the rules
// reference and SARIF alike (docs/rules.md's test notices).
func allRules() [][]*Rule {
	return append([][]*Rule{
		flagRules,                                                 // emitted by pipeline steps
		validationRules, validationNodeRules, reservedMemoryRules, // validation.go
		linuxRules, loggingRules, tracingRules, validationTailRules,
		runStageRules, // runstage.go
		lintRules, cisRules(),
	}, registered...)
}

// registered are the rules declared outside validate, each list from the init
// function of the package that declares and emits them: a binary knows the rules
// of the packages it links, and the rules reference links them all
// (internal/rulesdoc's generated emitters_gen.go).
var registered [][]*Rule

// Register adds rules declared outside validate to the registry. Only the
// generated rules_gen.go of an emitting package calls it, from init, so before
// any lookup; a later call is a programming error and panics.
func Register(rules ...*Rule) {
	if registry != nil {
		panic("validate: Register after the registry was built")
	}
	registered = append(registered, rules)
}

var (
	registryOnce sync.Once
	registry     map[string]*Rule
	// sorted is every rule ordered by ID: Run asks for it at every evaluation.
	sorted []*Rule
)

// load builds the registry from allRules on first use (package variables are
// all initialised by then, whatever the file order); it panics on a duplicate
// ID or an incomplete rule, programming errors that every test run catches.
func load() {
	registryOnce.Do(func() {
		registry = map[string]*Rule{}
		for _, list := range allRules() {
			for _, r := range list {
				if _, dup := registry[r.ID]; dup {
					panic("validate: duplicate rule ID " + r.ID)
				}
				if r.Name == "" || r.Summary == "" {
					panic("validate: rule " + r.ID + " needs a name and a summary")
				}
				if r.Releases() == "" {
					panic("validate: rule " + r.ID + " exists in no minor (Since " + r.Since + ", Until " + r.Until + ")")
				}
				if (r.Check == nil) != (r.EmittedBy != "") {
					panic("validate: rule " + r.ID + " needs a Check or EmittedBy, not both")
				}
				registry[r.ID] = r
				sorted = append(sorted, r)
			}
		}
		sort.Slice(sorted, func(i, j int) bool { return sorted[i].ID < sorted[j].ID })
	})
}

// Rules returns every rule ordered by ID.
func Rules() []*Rule {
	load()
	return append([]*Rule(nil), sorted...) // callers may reorder their copy
}

// Lookup finds a rule by ID (case-insensitive).
func Lookup(id string) (*Rule, bool) {
	load()
	r, ok := registry[strings.ToUpper(id)]
	return r, ok
}

// Run evaluates every registered rule with a Check that exists at ctx.Minor over
// ctx and returns the findings sorted by position. The kubelet's own checks run
// first, then the run stage's, whose errors are Behind a validation error (the
// kubelet stops at validation) or an earlier run-stage check (behindRun); lint
// rules then see them all in ctx.Prior.
func Run(ctx *Context) []finding.Finding {
	var out []finding.Finding
	load()
	rules := sorted
	for _, r := range rules {
		if r.Stage != StageLint && r.Stage != StageRun {
			out = append(out, r.run(ctx)...)
		}
	}
	var run []finding.Finding
	for _, r := range rules {
		if r.Stage == StageRun {
			run = append(run, r.run(ctx)...)
		}
	}
	out = append(out, behindRun(out, run, ctx.IgnoreAllocatableEviction)...)
	ctx.Prior = out
	for _, r := range rules {
		if r.Stage == StageLint {
			out = append(out, r.run(ctx)...)
		}
	}
	finding.SortFindings(out)
	return out
}

// run is r.Check when the rule exists at ctx.Minor.
func (r *Rule) run(ctx *Context) []finding.Finding {
	if r.Check == nil || !r.In(ctx.Minor) {
		return nil
	}
	return r.Check(ctx)
}
