package profile

import (
	"fmt"
	"strings"

	"k8s.io/component-base/featuregate"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
	"github.com/kubeletcfg/kubeletcfg/rule"
	"github.com/kubeletcfg/kubeletcfg/validate"
)

// Apply evaluates the named profile on r and adds its findings to r.Findings
// (sorted again). mainFile is the --config file ("" without one): a value set
// anywhere else comes from a drop-in, which the message says because kube-bench
// does not read drop-ins. Nothing is added when the kubelet stops before it
// has a configuration. The findings are warnings: r.Starts does not change.
func Apply(name string, r *pipeline.Result, mainFile string) error {
	fs, err := Findings(name, r, mainFile)
	if err != nil {
		return err
	}
	if len(fs) == 0 {
		return nil
	}
	r.Findings = append(r.Findings, fs...)
	finding.SortFindings(r.Findings)
	return nil
}

// Findings is what Apply adds, without adding it.
func Findings(name string, r *pipeline.Result, mainFile string) ([]finding.Finding, error) {
	if r == nil || r.Effective == nil {
		_, err := validate.RunProfile(name, nil) // still reject an unknown profile
		return nil, err
	}
	fieldGates, err := r.Minor.FieldGates()
	if err != nil {
		panic(err) // embedded, generated data: a decoding error is a build defect
	}
	ctx := &rule.Context{
		Minor:         r.Minor,
		Config:        r.Effective,
		Gates:         effectiveGates(r),
		OS:            r.OS,
		CgroupVersion: 2,
		FieldGates:    fieldGates,
		// Exactly the path, never an ancestor or the top of the main file: a
		// value no file sets is the kubelet's default, and the finding says so.
		Origin: func(path string) finding.Position { return r.Origins[path] },
		SetByFile: func(path string) bool {
			_, ok := r.Origins[path]
			return ok
		},
	}
	fs, err := validate.RunProfile(name, ctx)
	if err != nil {
		return nil, err
	}
	for i := range fs {
		if f := fs[i].File; f != "" && f != mainFile {
			fs[i].Message += " (set in a drop-in: kube-bench reads the main --config file only)"
		}
	}
	if f, ok := skipped(name, r, mainFile); ok {
		fs = append(fs, f)
	}
	return fs, nil
}

// ChecksSkipped says which of a profile's checks do not apply to the node's
// operating system (the CIS checks of iptables, pids, seccomp and kernel
// sysctls on a Windows node), so that a clean profile run is not read as
// their passing.
var ChecksSkipped = &rule.Rule{
	ID:        "KC8900",
	Name:      "profile-checks-skipped",
	Severity:  finding.Info,
	Stage:     rule.StageLint,
	EmittedBy: "profile",
	Summary:   "--profile: checks that do not apply to the node's operating system were skipped",
	Doc: "A profile's check of a Linux-only setting (iptables chains, the pids cgroup, seccomp, kernel " +
		"sysctls) says nothing about a Windows node (--os windows), whose kubelet ignores those settings: " +
		"the check is skipped and this note names it, so that its absence is not read as a pass.",
	Fix: "Nothing to change in the file; harden those settings with the operating system's own guide.",
}

// skipped is the ChecksSkipped note of the profile's checks that r's OS skips.
func skipped(name string, r *pipeline.Result, mainFile string) (finding.Finding, bool) {
	rules, _ := validate.ProfileRules(name)
	var ids []string
	for _, pr := range rules {
		if pr.In(r.Minor) && !pr.OnOS(r.OS) {
			ids = append(ids, pr.ID+" "+pr.Name)
		}
	}
	if len(ids) == 0 {
		return finding.Finding{}, false
	}
	f := ChecksSkipped.At(finding.Position{File: mainFile}, "",
		fmt.Sprintf("--profile %s: %d checks do not apply to %s nodes and were skipped: %s", name, len(ids), r.OS, strings.Join(ids, ", ")),
		"check these settings with the operating system's own hardening guide")
	return f, true
}

// effectiveGates is the minor's gate set with the effective featureGates
// applied, as the kubelet's RunE applies them. When they do not apply (an
// unknown or locked gate) the kubelet stops anyway; the registered defaults
// are used so that the other checks still run.
func effectiveGates(r *pipeline.Result) featuregate.FeatureGate {
	base, err := r.Minor.BaseFeatureGate()
	if err != nil {
		panic(err) // embedded, generated data
	}
	g := base.DeepCopy()
	if len(r.Effective.FeatureGates) > 0 {
		if err := g.SetFromMap(r.Effective.FeatureGates); err != nil {
			return base.DeepCopy()
		}
	}
	return g
}
