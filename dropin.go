package kubeletcfg

import (
	"io"

	"github.com/kubeletcfg/kubeletcfg/author"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/report"
	"github.com/kubeletcfg/kubeletcfg/report/verbtext"
)

// DropInNew writes a minimal drop-in (author.New; with req.DryRun only
// checks it) into opt.ConfigDir, opt.Config being the main file the node
// reads, checked at opt's minors (Options.Minors: Versions, else
// KubeletVersion, else the default window, since a drop-in usually serves a
// pool mid-upgrade) on opt.CgroupVersion hosts (default v2).
func DropInNew(opt Options, req author.NewRequest) (*Authored, error) {
	req.Config, req.ConfigDir = opt.Config, opt.ConfigDir
	var err error
	if req.Minors, req.CgroupVersion, req.OS, err = opt.dropInTargets(DefaultWindow); err != nil {
		return nil, err
	}
	r, err := author.New(req)
	if err != nil {
		return nil, err
	}
	return &Authored{r}, nil
}

// Authored is what DropInNew did: author.NewReport (its fields, WriteJSON and
// CountAtLeast) with the command's writer, whose text is report/verbtext's.
type Authored struct {
	*author.NewReport
}

// Write prints the report in format "json" (WriteJSON) or "text".
func (r *Authored) Write(w io.Writer, format string, _ report.Options) error {
	if format == "json" {
		return r.WriteJSON(w)
	}
	verbtext.WriteDropInNew(w, r.NewReport)
	return nil
}

// DropInDiff computes, checks and writes (req.Out) the drop-in that turns
// req.From's effective configuration into req.To's (author.DropInDiff), at
// opt's minors (Options.Minors: the default minor unless given) on
// opt.CgroupVersion hosts (default v2).
func DropInDiff(opt Options, req author.DiffRequest) (*Diffed, error) {
	var err error
	if req.Minors, req.CgroupVersion, req.OS, err = opt.dropInTargets(DefaultMinor); err != nil {
		return nil, err
	}
	r, err := author.DropInDiff(req)
	if err != nil {
		return nil, err
	}
	return &Diffed{r}, nil
}

// Diffed is what DropInDiff did: author.DiffReport (its fields, JSON and
// CountAtLeast) with the command's writer, whose text is report/verbtext's.
type Diffed struct {
	*author.DiffReport
}

// Write prints the report as `dropin diff` does: "json" the document; "text"
// the drop-in (or the line saying where it was written), with a note on
// opt.Log when there is no difference and the failures when it does not
// give the desired configuration.
func (r *Diffed) Write(w io.Writer, format string, opt report.Options) error {
	if format == "json" {
		return report.WriteJSON(w, r.DiffReport)
	}
	return verbtext.WriteDropInDiff(w, r.DiffReport, opt)
}

// dropInTargets are the minors, the cgroup version and the OS a drop-in is
// checked at.
func (o Options) dropInTargets(none MinorChoice) ([]*kubelets.Minor, int, kubelets.OS, error) {
	minors, err := o.Minors(none)
	if err != nil {
		return nil, 0, "", err
	}
	if o.CgroupVersion == "" {
		o.CgroupVersion = "v2"
	}
	cgroup, err := ParseCgroup(o.CgroupVersion)
	if err != nil {
		return nil, 0, "", err
	}
	os, err := o.nodeOS()
	if err != nil {
		return nil, 0, "", err
	}
	return minors, cgroup, os, nil
}
