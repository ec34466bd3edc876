package kubeletcfg

import (
	"github.com/kubeletcfg/kubeletcfg/author"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

// DropInNew writes a minimal drop-in (author.New; with req.DryRun only
// checks it) into opt.ConfigDir, opt.Config being the main file the node
// reads, checked at opt's minors (Options.Minors: Versions, else
// KubeletVersion, else the default window, since a drop-in usually serves a
// pool mid-upgrade) on opt.CgroupVersion hosts (default v2).
func DropInNew(opt Options, req author.NewRequest) (*author.NewReport, error) {
	req.Config, req.ConfigDir = opt.Config, opt.ConfigDir
	var err error
	if req.Minors, req.CgroupVersion, err = opt.dropInTargets(DefaultWindow); err != nil {
		return nil, err
	}
	return author.New(req)
}

// DropInDiff computes, checks and writes (req.Out) the drop-in that turns
// req.From's effective configuration into req.To's (author.DropInDiff), at
// opt's minors (Options.Minors: the default minor unless given) on
// opt.CgroupVersion hosts (default v2).
func DropInDiff(opt Options, req author.DiffRequest) (*author.DiffReport, error) {
	var err error
	if req.Minors, req.CgroupVersion, err = opt.dropInTargets(DefaultMinor); err != nil {
		return nil, err
	}
	return author.DropInDiff(req)
}

// dropInTargets are the minors and the cgroup version a drop-in is checked at.
func (o Options) dropInTargets(none MinorChoice) ([]*kubelets.Minor, int, error) {
	minors, err := o.Minors(none)
	if err != nil {
		return nil, 0, err
	}
	if o.CgroupVersion == "" {
		o.CgroupVersion = "v2"
	}
	cgroup, err := ParseCgroup(o.CgroupVersion)
	return minors, cgroup, err
}
