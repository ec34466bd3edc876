package kubeletcfg

import (
	"errors"
	"fmt"
	"io"

	"github.com/kubeletcfg/kubeletcfg/input"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
	"github.com/kubeletcfg/kubeletcfg/report"
)

// LintReport is the JSON document of `kubeletcfg lint -o json`: the report
// of one evaluation (report.Document: the minor, whether the kubelet starts,
// the files read, the findings) and, when the main file was converted, what
// it was.
type LintReport struct {
	report.Document
	// Input is the main file's format when it was not a plain
	// KubeletConfiguration file (configz, kubeadm, kubeadm-config, kind).
	Input string `json:"input,omitempty"`
}

// Linted is what Lint found: the report, and the evaluation it came from.
type Linted struct {
	Report LintReport
	// Result is the pipeline's result, the profile's and the policy's
	// findings included.
	Result *pipeline.Result
	// Source is the main file as recognised; nil without one.
	Source *input.Source
	// Several is, when the options name several nodes (Options.Paths, a
	// kind file whose nodes differ, Options.Nodes), each node's verdict: a
	// *LintedPaths or a *LintedNodes; Report, Result and Source are then
	// empty, and Linted writes and counts as Several does.
	Several Verdict
}

// lintHint is what a list of minors given to Lint is told to use.
const lintHint = "compare several minors with kubeletcfg skew --versions %s"

// Lint is `kubeletcfg lint`: it evaluates the options at one kubelet minor
// (Options.KubeletVersion): whether the kubelet starts, what it ignores, and
// the profile's findings, as the policy reports them. Several main files
// (Options.Paths) are each a node, a kind file whose nodes differ is each of
// its nodes, and a folder of nodes (Options.Nodes) is linted as Nodes does:
// Linted.Several holds their verdicts.
func Lint(opt Options) (*Linted, error) {
	var several Verdict
	var err error
	switch {
	case opt.Nodes != "":
		several, err = Nodes(opt.Nodes, opt)
	case len(opt.Paths) > 1:
		several, err = lintPaths(opt, opt.Paths)
	default:
		if len(opt.Paths) == 1 {
			opt.Config, opt.Paths = opt.Paths[0], nil
		}
		l, oneErr := lintOne(opt)
		if objects := severalObjects(opt, l); objects != nil {
			out := &LintedPaths{Report: PathsReport{Reports: []PathReport{}, Errors: []PathError{}}}
			out.lintObjects(opt, opt.Config, objects)
			return &Linted{Several: out}, nil
		}
		kind := (*KindNodesError)(nil)
		if !errors.As(oneErr, &kind) {
			return l, oneErr
		}
		several, err = lintKindNodes(opt, kind)
	}
	if err != nil {
		return nil, err
	}
	return &Linted{Several: several}, nil
}

// lintOne is Lint of one node's files.
func lintOne(opt Options) (*Linted, error) {
	if err := opt.checkProfile(); err != nil {
		return nil, err
	}
	p, res, err := evaluate(opt, lintHint)
	if err != nil {
		return nil, err
	}
	opt.report(res, p.Config)
	return &Linted{Report: LintReport{Document: report.FromResult(res), Input: inputName(p.Source)}, Result: res, Source: p.Source}, nil
}

// evaluate prepares the options and runs the pipeline at their one minor.
func evaluate(opt Options, hint string) (*Prepared, *pipeline.Result, error) {
	p, err := opt.Prepare()
	if err != nil {
		return nil, nil, err
	}
	minor, err := p.minor(hint)
	if err != nil {
		return nil, nil, err
	}
	res, err := pipeline.Evaluate(minor, p.Input)
	if err != nil {
		return nil, nil, err
	}
	if err := p.Settle(res); err != nil {
		return nil, nil, err
	}
	return p, res, nil
}

// inputName is the "input" JSON value of s: empty for a plain config file.
func inputName(s *input.Source) string {
	if s == nil || s.Format == input.Config {
		return ""
	}
	return string(s.Format)
}

// Write prints the report in a report format (report.Formats) as lint does:
// for a converted input, with a note line saying what was read (text) or the
// input field (JSON); the CI formats, which have schemas of their own, as
// report writes them.
func (l *Linted) Write(out io.Writer, format string, opt report.Options) error {
	if l.Several != nil {
		return l.Several.Write(out, format, opt)
	}
	w, err := report.For(format)
	if err != nil {
		return err
	}
	switch name := l.Report.Input; {
	case name == "":
	case format == "json":
		return report.WriteJSON(out, l.Report)
	case format == "text":
		if _, err := fmt.Fprintf(out, "%s: note: %s\n", l.Source.Path, l.Source.Note); err != nil {
			return err
		}
	}
	return w.Write(out, []report.Document{l.Report.Document}, opt)
}
