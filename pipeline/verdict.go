package pipeline

import (
	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/input/bootstrap"
	"github.com/kubeletcfg/kubeletcfg/rule"
)

// The verdict is the node's: Result.Starts says whether the node ends up with a
// running kubelet. The kubelet's own refusal decides it (finish); a
// bootstrapper that reads the user's file first (kubeadm, EKS nodeadm, Talos,
// ...) and refuses it decides it before the kubelet is ever started
// (Bootstrapped, once the tool's findings are added). Findings marked Behind
// never decide it.

// Verdict is what happens to the node: the document of every verb embeds it
// (report.Document), so its JSON names are a contract.
type Verdict struct {
	// Starts says whether the node ends up with a running kubelet: false when
	// the kubelet refuses to start or panics, or when a bootstrapper refuses
	// the file first.
	Starts bool `json:"starts"`
	// Panics is set when the node's kubelet panics at startup (for example an
	// unknown gate while defaulting); never when a bootstrapper refuses first.
	Panics bool `json:"panics,omitempty"`
	// RefusedBy says who stops the node and at which stage; nil when it starts.
	RefusedBy *Refusal `json:"refusedBy,omitempty"`
	// KubeletVerdict is the kubelet's own verdict on the files a bootstrapper
	// would write (KubeletStarts, KubeletRefuses, KubeletPanics) when the
	// bootstrapper refuses them first; empty otherwise, when Starts and Panics
	// are the kubelet's.
	KubeletVerdict string `json:"kubeletVerdict,omitempty"`
}

// Refusal is who stops the node from running a kubelet, and at which stage.
type Refusal struct {
	// By is "kubelet", or the bootstrapper that refuses the file before any
	// kubelet is started ("kubeadm", "EKS nodeadm", "Karpenter", "Talos", ...).
	By string `json:"by"`
	// Release is the bootstrapper's release kubeletcfg ports ("v1.13.9";
	// kubeadm's is its minor, "1.37"); empty for the kubelet, whose minor is
	// the evaluation's.
	Release string `json:"release,omitempty"`
	// Stage is the step that stops: "bootstrapper" for a tool; for the kubelet
	// the stage of the rule it stops at ("read", "drop-in", "flags", "feature
	// gates", "validation", "host", "run").
	Stage string `json:"stage"`
	// Rule is the rule of the finding it stops at (Result.Stop).
	Rule string `json:"rule"`
}

// Kubelet is Refusal.By for the kubelet itself.
const Kubelet = "kubelet"

// The kubelet's own verdicts, in Result.KubeletVerdict.
const (
	KubeletStarts  = "starts"
	KubeletRefuses = "refuses"
	KubeletPanics  = "panics"
)

// Words says who stops the node in a few words ("the kubelet refuses this
// configuration", "the kubelet panics at startup", "Talos v1.13.9 refuses the
// file"), with the kubelet's own verdict after a bootstrapper's refusal;
// empty when the node starts.
func (v Verdict) Words() string {
	switch {
	case v.Starts:
		return ""
	case v.RefusedBy == nil || v.RefusedBy.By == Kubelet:
		if v.Panics {
			return "the kubelet panics at startup"
		}
		return "the kubelet refuses this configuration"
	}
	w := v.Bootstrapper() + " first (" + v.RefusedBy.Rule + "): the node gets no kubelet"
	switch v.KubeletVerdict {
	case KubeletStarts:
		w += "; the kubelet would start with what it writes"
	case KubeletRefuses:
		w += "; the kubelet would refuse what it writes too"
	case KubeletPanics:
		w += "; the kubelet would panic on what it writes too"
	}
	return w
}

// Bootstrapper is the bootstrapper that refuses the file, in words ("Talos
// v1.13.9 refuses the file"); empty when none does.
func (v Verdict) Bootstrapper() string {
	if v.RefusedBy == nil || v.RefusedBy.By == Kubelet {
		return ""
	}
	return v.RefusedBy.Who() + " refuses the file"
}

// Who is the tool with its release: "Talos v1.13.9", "kubelet".
func (b *Refusal) Who() string {
	if b.Release == "" {
		return b.By
	}
	return b.By + " " + b.Release
}

// Stop is the finding that stops the node: the bootstrapper's refusal when
// one refuses the file, else the kubelet's first error (FirstError); nil when
// the node starts.
func (r *Result) Stop() *finding.Finding {
	if r.Starts {
		return nil
	}
	if f := r.bootstrapRefusal(); f != nil {
		return f
	}
	return r.FirstError()
}

// kubeletVerdict sets the verdict from the kubelet's findings (not a
// bootstrapper's, Finding.By): it refuses at any error, panics at a finding
// that says so (or where the pipeline set Panics).
func (r *Result) kubeletVerdict() {
	r.Starts, r.RefusedBy = true, nil
	for _, f := range r.Findings {
		if f.Behind != "" || f.By != nil { // not reached yet; a tool's
			continue
		}
		if f.Severity == finding.Error {
			r.Starts = false
		}
		if f.Panics {
			r.Panics = true
		}
	}
	if r.Starts {
		return
	}
	r.CrashLoopBackOff = nil
	r.RefusedBy = &Refusal{By: Kubelet}
	if f := r.FirstError(); f != nil {
		r.RefusedBy.Rule = f.Rule
		if rule, ok := rule.Lookup(f.Rule); ok {
			r.RefusedBy.Stage = rule.Stage.String()
		}
	}
}

// bootstrapRefusal is the first finding of a bootstrapper refusing the file
// (bootstrap.Refuses, an error not Behind), nil for none.
func (r *Result) bootstrapRefusal() *finding.Finding {
	for i := range r.Findings {
		if f := &r.Findings[i]; f.Rule == bootstrap.Refuses.ID && f.Severity == finding.Error && f.Behind == "" {
			return f
		}
	}
	return nil
}

// Bootstrapped makes the verdict the node's once a bootstrapper's findings
// are among r's (the input's Settle): when the tool refuses the file, the
// node gets no kubelet, so it does not start, whatever the kubelet would do
// with what the tool writes (KubeletVerdict keeps that), and has no
// crash-loop backoff. Called again, it decides again from the same kubelet
// verdict.
func (r *Result) Bootstrapped() {
	f := r.bootstrapRefusal()
	if f == nil {
		return
	}
	if r.KubeletVerdict == "" {
		switch {
		case r.Panics:
			r.KubeletVerdict = KubeletPanics
		case !r.Starts:
			r.KubeletVerdict = KubeletRefuses
		default:
			r.KubeletVerdict = KubeletStarts
		}
	}
	r.Starts, r.Panics, r.CrashLoopBackOff = false, false, nil
	r.RefusedBy = &Refusal{By: "a bootstrapper", Stage: bootstrap.Refuses.Stage.String(), Rule: f.Rule}
	if f.By != nil {
		r.RefusedBy.By, r.RefusedBy.Release = f.By.Name, f.By.Release
	}
}
