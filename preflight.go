package kubeletcfg

import (
	"io"

	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
	"github.com/kubeletcfg/kubeletcfg/report"
	"github.com/kubeletcfg/kubeletcfg/report/verbtext"
	"github.com/kubeletcfg/kubeletcfg/skew"
)

// PreflightReport is what `kubeletcfg preflight` prints: blockers, behaviour
// changes and notes of a move from one minor to another. It is skew's
// Preflight (its fields, WriteJSON and CountAtLeast) with the command's
// writer, whose text is report/verbtext's.
type PreflightReport struct {
	*skew.Preflight
	objects string // objectsNote
}

// Write prints the preflight as `kubeletcfg preflight -o FORMAT` does: json, or
// text (opt.Quiet: without the notes).
func (p *PreflightReport) Write(w io.Writer, format string, opt report.Options) error {
	if p.objects != "" {
		opt.Logf("%s", p.objects)
	}
	switch format {
	case "json":
		return p.WriteJSON(w)
	case "text":
		return verbtext.WritePreflight(w, p.Preflight, verbtext.PreflightOptions{Quiet: opt.Quiet})
	}
	return report.CheckFormat(format, "json", "text")
}

// Preflight evaluates the same files at the minor a node pool runs
// (Options.From; default the discovered kubelet's) and the one it moves to
// (Options.To; default the newest GA release, which From must then not be),
// and compares them. The files are read once.
func Preflight(opt Options) (*PreflightReport, error) {
	p, err := opt.Prepare()
	if err != nil {
		return nil, err
	}
	from, to := opt.From, opt.To
	if from == "" && p.Discovered != nil {
		from = p.Discovered.Minor
	}
	if from == "" {
		return nil, optionErrorf("{From} is required: the kubelet minor the node pool runs now ({Discover} reads it from the running kubelet)")
	}
	src, err := kubelets.Lookup(from)
	if err != nil {
		return nil, optionErrorf("{From}: %w", err)
	}
	if to == "" {
		to = kubelets.Default().Version
		if src == kubelets.Default() {
			return nil, optionErrorf("{From} %s is also the default {To}, the newest GA release: name the minor the pool moves to with {To}", from)
		}
	}
	tgt, err := kubelets.Lookup(to)
	if err != nil {
		return nil, optionErrorf("{To}: %w", err)
	}
	pf, err := p.preflight(src, tgt)
	if err != nil {
		return nil, err
	}
	return &PreflightReport{pf, p.objectsNote()}, nil
}

// preflight evaluates p's files at src and tgt (each minor's own, AtMinor, for
// a tool that ships its kubelet, whose releases name the columns).
func (p *Prepared) preflight(src, tgt *kubelets.Minor) (*skew.Preflight, error) {
	if p.Source == nil || !p.Source.Bundled() {
		return skew.NewPreflightSettled(p.Input, src, tgt, p.Settle)
	}
	at := map[*kubelets.Minor]*Prepared{}
	pf, err := skew.NewPreflightEach(src, tgt, p.inputAt(at), func(r *pipeline.Result) error { return at[r.Minor].Settle(r) })
	if err != nil {
		return nil, err
	}
	for _, c := range []*skew.Column{pf.From, pf.To} {
		at[c.Minor].nameRelease(c)
	}
	return pf, nil
}
