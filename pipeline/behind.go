package pipeline

import (
	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/rule"
)

// The kubelet stops at its first fatal error, and a verdict must stay the
// kubelet's; but a file with three mistakes should not take three CI rounds.
// So, where the kubelet stops at a step kubeletcfg can get past, it evaluates
// again as if the mistake were fixed and adds what the kubelet would report next,
// each finding marked Behind the rule of the error that hides it:
//
//   - a refused command line (an unknown flag, a bad value, --help): the files
//     are evaluated without the flags;
//   - a refused feature gate (unknown, locked, PreAlpha, a dependency; a panic
//     while defaulting from 1.32): evaluated as if the gate were not set;
//   - a validation error: the run stage's checks (validate.Run, behindRun).
//
// A refusal of the files themselves (syntax, types, a drop-in the merge cannot
// read) leaves nothing to evaluate and ends the chain. TestBehindIsNext checks
// the order against the kubelet: with the first mistake removed, the kubelet
// reports one of the findings that were Behind it.

// past names the fatal errors an evaluation gets past.
type past struct {
	flags bool            // evaluate without the command line
	gates map[string]bool // feature gates evaluated as if not set
}

// next is p extended to get past r's fatal errors; ok is false when r stops
// somewhere kubeletcfg cannot get past, or does not stop.
func (p past) next(r *Result) (past, bool) {
	var gates []string
	flags := false
	for _, f := range r.Findings {
		if f.Severity != finding.Error || f.Behind != "" {
			continue
		}
		of, _ := rule.Lookup(f.Rule)
		switch {
		case of == nil:
		case of.Stage == rule.StageFlags && !p.flags:
			flags = true
		case of.Stage == rule.StageGates:
			if name, ok := rule.GateOfPath(f.Path); ok && !p.gates[name] {
				gates = append(gates, name)
			}
		}
	}
	switch {
	case flags:
		return past{flags: true, gates: p.gates}, true
	case len(gates) > 0:
		next := past{flags: p.flags, gates: map[string]bool{}}
		for name := range p.gates {
			next.gates[name] = true
		}
		for _, name := range gates {
			next.gates[name] = true
		}
		return next, true
	}
	return p, false
}

// dropSkippedGates removes the gates r gets past from a gate map.
func (r *Result) dropSkippedGates(gates map[string]bool) {
	for name := range r.skipGates {
		delete(gates, name)
	}
}

// FirstError is the error the kubelet stops at: the first by position among
// those not Behind another; nil when it starts.
func (r *Result) FirstError() *finding.Finding {
	for i := range r.Findings {
		if f := &r.Findings[i]; f.Severity == finding.Error && f.Behind == "" {
			return f // Findings are sorted by position
		}
	}
	return nil
}

// frontRule is the rule of r's FirstError, "" for none.
func frontRule(r *Result) string {
	if f := r.FirstError(); f != nil {
		return f.Rule
	}
	return ""
}

// behindRounds bounds the chain: flags, then gates (twice: getting past one set
// of gates can show a dependency on another), then validation.
const behindRounds = 4

// evaluateBehind adds to r, which the kubelet refuses, what the kubelet would
// report once each fatal error before it is fixed. r's verdict, effective
// configuration and backoff stay as they are.
func (l *Loaded) evaluateBehind(m *kubelets.Minor, r *Result) {
	seen := map[string]bool{}
	for _, f := range r.Findings {
		seen[findingKey(f)] = true
	}
	last, p := r, past{}
	added := false
	for range behindRounds {
		next, ok := p.next(last)
		if !ok {
			break
		}
		front := frontRule(last)
		b, err := l.evaluate(m, next)
		if err != nil {
			break
		}
		for _, f := range b.Findings {
			k := findingKey(f)
			if seen[k] {
				continue
			}
			seen[k] = true
			if f.Behind == "" {
				f.Behind = front
			}
			r.Findings = append(r.Findings, f)
			added = true
		}
		if b.Starts {
			break
		}
		last, p = b, next
	}
	if added {
		finding.SortFindings(r.Findings)
	}
}

// findingKey identifies a finding across evaluations of the same files.
func findingKey(f finding.Finding) string {
	return f.Rule + "\x00" + f.Position.String() + "\x00" + f.Path + "\x00" + f.Message
}
