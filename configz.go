package kubeletcfg

import (
	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/input"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
	"github.com/kubeletcfg/kubeletcfg/report"
)

// ConfigzName is what findings call a running kubelet's configz dump.
const ConfigzName = "configz"

// FlagzInput is the pipeline input of a running kubelet's command line as its
// /flagz lists it (positions in "flagz"), on a node of operating system os
// ("": Linux) whose host has cgroup version cgroup (none on Windows: the
// pipeline ignores it there).
func FlagzInput(args []string, os kubelets.OS, cgroup int) pipeline.Input {
	in := pipeline.Input{OS: os, CgroupVersion: cgroup, Flags: args}
	for range args {
		in.FlagPositions = append(in.FlagPositions, finding.Position{File: "flagz"})
	}
	return in
}

// LintConfigz lints a running kubelet's configuration as read through the API
// server (its /configz dump, named ConfigzName in findings, and the command
// line its /flagz lists) at the minor m it runs, as the kubelet built for os
// (the node's status.nodeInfo.operatingSystem; "": Linux) checks it: what
// `kubeletcfg cluster lint` reports of each node.
func LintConfigz(configz []byte, args []string, m *kubelets.Minor, os kubelets.OS, cgroup int) (*LintReport, error) {
	src, err := input.Convert(ConfigzName, configz, input.Configz)
	if err != nil {
		return nil, err
	}
	in := FlagzInput(args, os, cgroup)
	applySource(src, &in)
	res, err := pipeline.Evaluate(m, in)
	if err == nil {
		err = settle(src, res)
	}
	if err != nil {
		return nil, err
	}
	return &LintReport{Document: report.FromResult(res), Input: inputName(src)}, nil
}
