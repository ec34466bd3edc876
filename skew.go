package kubeletcfg

import (
	"io"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
	"github.com/kubeletcfg/kubeletcfg/report"
	"github.com/kubeletcfg/kubeletcfg/report/verbtext"
	"github.com/kubeletcfg/kubeletcfg/skew"
)

// SkewReport is the comparison of minors `kubeletcfg skew` prints; its JSON
// (WriteJSON) embeds each minor's report.Document.
type SkewReport = skew.Matrix

// Skewed is what Skew found.
type Skewed struct {
	Matrix  *SkewReport
	profile string
	objects string // objectsNote
}

// Skew evaluates the same files at several minors (Options.Versions, or the
// window of Options.ControlPlane, or the default minor's; the policy's
// versions by default) and compares them. The files are read once.
func Skew(opt Options) (*Skewed, error) {
	if err := opt.checkProfile(); err != nil {
		return nil, err
	}
	p, err := opt.Prepare()
	if err != nil {
		return nil, err
	}
	versions := opt.Versions
	if versions == "" && opt.ControlPlane == "" && opt.Policy != nil {
		versions = opt.Policy.Versions
	}
	minors, err := kubelets.Window(versions, opt.ControlPlane)
	if err != nil {
		return nil, err
	}
	mx, at, err := p.evaluate(minors)
	if err != nil {
		return nil, err
	}
	results := make([]*pipeline.Result, len(mx.Columns))
	for i, c := range mx.Columns {
		if err := at[c.Minor].Settle(c.Result); err != nil {
			return nil, err
		}
		results[i] = c.Result
	}
	opt.reportMatrix(results, p.Config)
	return &Skewed{Matrix: mx, profile: opt.Profile, objects: p.objectsNote()}, nil
}

// CountAtLeast is the --fail-on count over every minor's findings: a minor
// that does not start has an error finding.
func (s *Skewed) CountAtLeast(threshold finding.Severity) int {
	n := 0
	for _, c := range s.Matrix.Columns {
		n += CountAtLeast(c.Result.Findings, threshold)
	}
	return n
}

// Write prints the comparison: text and json as the matrix, the CI formats
// (sarif, junit, github) from each minor's lint document. In text, the
// profile's findings (what the policy left of them) follow the matrix in a
// section of their own, minors with the same findings shown once.
func (s *Skewed) Write(w io.Writer, format string, opt report.Options) error {
	if s.objects != "" {
		opt.Logf("%s", s.objects)
	}
	mx := s.Matrix
	switch {
	case format == "json":
		return mx.WriteJSON(w)
	case format != "text":
		rw, err := report.For(format)
		if err != nil {
			return err
		}
		docs := make([]report.Document, 0, len(mx.Columns))
		for _, c := range mx.Columns {
			docs = append(docs, report.FromResult(c.Result))
		}
		return rw.Write(w, docs, opt)
	}
	if err := verbtext.WriteMatrix(w, mx, opt.Quiet); err != nil || s.profile == "" {
		return err
	}
	return verbtext.WriteProfile(w, mx, s.profile)
}

// evaluate is the matrix of p's files at minors, with each minor's Prepared
// (AtMinor: a bootstrapper that ships its kubelet writes for each minor with
// that minor's release, named in the columns).
func (p *Prepared) evaluate(minors []*kubelets.Minor) (*skew.Matrix, map[*kubelets.Minor]*Prepared, error) {
	at := map[*kubelets.Minor]*Prepared{}
	if p.Source == nil || !p.Source.Bundled() {
		for _, m := range minors {
			at[m] = p
		}
		mx, err := skew.Evaluate(p.Input, minors)
		return mx, at, err
	}
	mx, err := skew.EvaluateEach(minors, p.inputAt(at))
	if err != nil {
		return nil, nil, err
	}
	for _, c := range mx.Columns {
		at[c.Minor].nameRelease(c)
	}
	return mx, at, nil
}

// inputAt is what EvaluateEach reads at a minor: p's files translated for it
// (AtMinor), each minor's Prepared kept in at for Settle.
func (p *Prepared) inputAt(at map[*kubelets.Minor]*Prepared) func(*kubelets.Minor) (pipeline.Input, error) {
	return func(m *kubelets.Minor) (pipeline.Input, error) {
		pm, err := p.AtMinor(m)
		if err != nil {
			return pipeline.Input{}, err
		}
		at[m] = pm
		return pm.Input, nil
	}
}

// nameRelease names, in c, the release of p's tool that runs c's minor, for a
// tool with a release train (input.Source.Ships).
func (p *Prepared) nameRelease(c *skew.Column) {
	if s := p.Source; s != nil && s.Ships != "" {
		c.Tool, c.ToolRelease = s.Tool(), s.Paired
	}
}
