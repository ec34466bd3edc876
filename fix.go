package kubeletcfg

import (
	"io"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/fix"
	"github.com/kubeletcfg/kubeletcfg/input"
	"github.com/kubeletcfg/kubeletcfg/report"
	"github.com/kubeletcfg/kubeletcfg/report/verbtext"
)

// Fixed is what Fix planned: the repairs of the options' files at the target
// minors, evaluated; Write carries them out.
type Fixed struct {
	Plan *fix.Plan
}

// Fix plans the repairs that need no guess in the options' main file and
// drop-ins, for the options' minors (Options.Minors: Versions, else
// KubeletVersion, else the default window, since the same files usually serve
// a pool mid-upgrade). A converted input (a configz dump, a kubeadm or kind
// configuration, standard input) is refused: fix writes back what it read.
func Fix(opt Options) (*Fixed, error) {
	p, err := opt.prepareFiles()
	if err != nil {
		return nil, err
	}
	if s := p.Source; s != nil && s.Data != nil {
		return nil, optionErrorf("{Config} %s: fix edits KubeletConfiguration files in place; this is %s", s.Path, describeSource(s))
	}
	minors, err := Options{KubeletVersion: p.KubeletVersion, Versions: opt.Versions}.Minors(DefaultWindow)
	if err != nil {
		return nil, err
	}
	plan, err := fix.Make(p.Input, minors)
	if err != nil {
		return nil, err
	}
	return &Fixed{Plan: plan}, nil
}

// describeSource names a converted input for fix's refusal.
func describeSource(s *input.Source) string {
	switch s.Format {
	case input.Configz:
		return "a configz dump"
	case input.Kubeadm:
		return "a kubeadm ConfigMap"
	case input.KubeadmConfig:
		return "a kubeadm configuration file"
	case input.Kind:
		return "a kind cluster configuration"
	case input.Minikube:
		return "a minikube profile"
	}
	return "standard input"
}

// Write carries the plan out (verbtext.WriteFix, fix.Plan.Apply): format "text" writes the repaired
// files and reports on w; "diff" writes no file, prints the unified diff on w
// and reports on opt.Log.
func (f *Fixed) Write(w io.Writer, format string, opt report.Options) error {
	log := opt.Log
	if log == nil {
		log = io.Discard
	}
	return verbtext.WriteFix(w, log, f.Plan, format == "diff", f.Plan.Apply)
}

// CountAtLeast is what makes fix fail (fix.Plan.Failures): the errors left at
// some target minor and the mistakes not repaired, or 1 when the repairs were
// refused. fix has no --fail-on: the threshold is not read.
func (f *Fixed) CountAtLeast(finding.Severity) int { return f.Plan.Failures() }
