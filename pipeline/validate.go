package pipeline

import (
	"strings"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/rule"
	kubeletv1beta1 "github.com/kubeletcfg/kubeletcfg/upstream/kubelet/config/v1beta1"
	"k8s.io/component-base/featuregate"

	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/validate"
)

// validate mirrors the rest of RunE: the global gate takes the effective
// featureGates, then logging and ValidateKubeletConfiguration run against it,
// then the run stage (validate/runstage.go).
func (r *Result) validate(m *kubelets.Minor, base featuregate.MutableVersionedFeatureGate, kc *kubeletv1beta1.KubeletConfiguration, os kubelets.OS, cgroupVersion int, cl *commandLine) {
	r.dropSkippedGates(kc.FeatureGates)
	global, err := r.gateSets.apply(m, base, kc.FeatureGates)
	if err != nil {
		// From 1.32 defaulting already panicked on the same map. Before, this is
		// where a bad gate stops the kubelet: RunE returns "failed to set feature
		// gates from initial flags-based config".
		at := r.mainPos()
		if at.File == "" && len(r.Files) > 0 {
			at = finding.Position{File: r.Files[len(r.Files)-1]}
		}
		r.add(gateFindings(m, kc.FeatureGates, r.Origins, at, err, false)...)
		return
	}
	fieldGates, err := m.FieldGates()
	if err != nil {
		panic(err) // embedded, generated data: a decoding error is a build defect
	}
	ctx := &rule.Context{
		FieldGates:    fieldGates,
		Minor:         m,
		Config:        kc,
		Gates:         global,
		Registered:    m.Registers,
		OS:            os,
		CgroupVersion: cgroupVersion,
		Origin:        r.origin,

		SetByFile: func(path string) bool {
			_, ok := r.Origins[path]
			return ok
		},
	}
	if cl != nil {
		ctx.IgnoreAllocatableEviction = cl.ignoreAllocatableEviction
		ctx.WindowsPriorityClass, ctx.WindowsPriorityClassAt = cl.windowsPriorityClass, cl.windowsPriorityClassAt
	}
	r.add(validate.Run(ctx)...)
	b := crashLoopBackOff(m, global, kc)
	r.CrashLoopBackOff = &b
}

// origin returns where the value at path was set: the path itself; else, for a
// list item or an object that has no key of its own, its first key; else its
// nearest ancestor; else nowhere: the value is a default, which the reports
// show as "(defaults)" rather than pointing at a line that does not set it.
func (r *Result) origin(path string) finding.Position {
	if pos, ok := r.Origins[path]; ok {
		return pos
	}
	if pos, ok := r.firstBelow(path); ok {
		return pos
	}
	for p := parentPath(path); p != ""; p = parentPath(p) {
		if pos, ok := r.Origins[p]; ok {
			return pos
		}
	}
	return finding.Position{}
}

func (r *Result) firstBelow(path string) (finding.Position, bool) {
	var best finding.Position
	found := false
	for p, pos := range r.Origins {
		if !kubelets.Below(p, path) {
			continue
		}
		if !found || pos.File < best.File || pos.File == best.File && (pos.Line < best.Line || pos.Line == best.Line && pos.Column < best.Column) {
			best, found = pos, true
		}
	}
	return best, found
}

// mainPos is the top of the main file, where findings about defaulted values go.
func (r *Result) mainPos() finding.Position {
	if r.mainFile == "" {
		return finding.Position{}
	}
	return finding.Position{File: r.mainFile, Line: 1, Column: 1}
}

func parentPath(p string) string {
	i := strings.LastIndexAny(p, ".[")
	if i < 0 {
		return ""
	}
	return p[:i]
}
