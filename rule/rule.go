// Package rule is kubeletcfg's rule framework: a Rule (its ID, doc, fix,
// severity, stage, minors and check, declared as one unit next to the code
// that emits its findings), the Context a Check reads, Run, and the registry
// of every rule (All, Lookup), a generated list that does not depend on what
// a program links. Every stage imports it: the readers, the drop-in merge, the
// bootstrapper translators, the pipeline and validate, which holds the
// kubelet's validation rules.
package rule

import (
	"fmt"
	"strings"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
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

// StageOrder is the order of the rules reference: the kubelet's start (the host
// checks are validation's last), then lint, then the tools before the kubelet.
var StageOrder = []Stage{StageRead, StageDropIn, StageFlags, StageGates, StageValidate, StageHost, StageRun, StageLint, StageBootstrap}

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
	// Logs: the kubelet logs its findings' Kubelet words as a warning and goes
	// on (the Windows kubelet's "ignored configuration option"); the
	// conformance harness records them (kubeletdata.Golden.Warnings).
	Logs bool
	// Since and Until are the oldest and newest kubelet minors ("1.33") that have
	// the rule, inclusive; empty is open. Run skips a rule outside its range, and
	// the rules reference shows it. A rule that exists in every minor but whose
	// message or condition changed declares the variants next to itself (byMinor).
	Since, Until string
	// OS is the one operating system whose kubelet has the rule
	// (validation_linux.go's checks, validation_windows.go's); empty for a
	// rule of every kubelet. Run skips it on another OS's node.
	OS kubelets.OS
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
	// Fix says how to repair what the rule finds, when Doc does not already
	// end with it.
	Fix string
	// Repair is what `kubeletcfg fix` does about the rule's findings; the zero
	// Repair when it leaves them to the user.
	Repair Repair
	// Profile names the profile that runs the rule (--profile cis); empty for
	// a rule every evaluation runs.
	Profile string

	// bounds are Since and Until parsed, once (Resolve).
	bounds *bounds
}

// Emitted sets EmittedBy on rules that have no Check and returns them.
func Emitted(step string, rules ...*Rule) []*Rule {
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

// GateOfPath is the gate a finding's featureGates[Name] path names; ok is false
// for any other path.
func GateOfPath(path string) (name string, ok bool) {
	name, ok = strings.CutPrefix(path, "featureGates[")
	if !ok || !strings.HasSuffix(name, "]") {
		return "", false
	}
	return strings.TrimSuffix(name, "]"), true
}
