package rule

import (
	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

// Run evaluates each of rules (ordered by ID) that has a Check, no Profile and
// exists at ctx.Minor, over ctx, and returns the findings sorted by position.
// The kubelet's own checks run first, then the run stage's, which behind
// (when set) marks Behind the error the kubelet stops at first; the lint
// rules then see them all in ctx.Prior.
func Run(ctx *Context, rules []*Rule, behind func(prior, run []finding.Finding) []finding.Finding) []finding.Finding {
	var out, run []finding.Finding
	for _, r := range rules {
		if r.Stage != StageLint && r.Stage != StageRun {
			out = append(out, r.run(ctx)...)
		}
	}
	for _, r := range rules {
		if r.Stage == StageRun {
			run = append(run, r.run(ctx)...)
		}
	}
	if behind != nil {
		run = behind(out, run)
	}
	out = append(out, run...)
	ctx.Prior = out
	for _, r := range rules {
		if r.Stage == StageLint {
			out = append(out, r.run(ctx)...)
		}
	}
	finding.SortFindings(out)
	return out
}

// RunProfile evaluates the rules of profile (Rule.Profile) that exist at
// ctx.Minor over ctx, findings sorted by position.
func RunProfile(ctx *Context, rules []*Rule, profile string) []finding.Finding {
	var out []finding.Finding
	for _, r := range rules {
		if r.Profile == profile && r.Check != nil && r.In(ctx.Minor) && r.OnOS(ctx.OS) {
			out = append(out, r.Check(ctx)...)
		}
	}
	finding.SortFindings(out)
	return out
}

// run is r.Check when the rule runs in every evaluation and exists at ctx.Minor.
func (r *Rule) run(ctx *Context) []finding.Finding {
	if r.Check == nil || r.Profile != "" || !r.In(ctx.Minor) || !r.OnOS(ctx.OS) {
		return nil
	}
	return r.Check(ctx)
}

// OnOS reports whether r runs on a node of os ("" is Linux).
func (r *Rule) OnOS(os kubelets.OS) bool { return r.OS == "" || r.OS == os.Or() }
