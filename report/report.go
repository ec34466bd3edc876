package report

import (
	"fmt"
	"io"
	"os"
	"slices"
	"sort"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
)

// Document is the lint verdict of one kubelet minor. Its JSON names are a
// contract with other tools: keep them.
type Document struct {
	KubeletVersion string `json:"kubeletVersion"`
	// PreRelease is the Kubernetes pre-release the minor's knowledge comes from
	// (v1.38.0-beta.0) while its GA release is not out; empty for a release.
	PreRelease string `json:"preRelease,omitempty"`
	// OS is the node's operating system when it is not Linux ("windows"):
	// the Windows kubelet was evaluated.
	OS string `json:"os,omitempty"`
	// Verdict is the node's: starts, panics, refusedBy (who stops it, at which
	// stage) and, when a bootstrapper refuses the file first, kubeletVerdict.
	pipeline.Verdict
	Findings         []finding.Finding `json:"findings"`
	CrashLoopBackOff *pipeline.Backoff `json:"crashLoopBackOff,omitempty"`
	// Files are the files evaluated, in the kubelet's reading order.
	Files []string `json:"files"`
	// Subject names what was evaluated when the documents are of several
	// inputs at one minor (lint a.yaml b.yaml, lint --nodes): a path or a node.
	// Empty, the documents are one input's at several minors. Not in JSON:
	// the commands that set it write their own JSON shape.
	Subject string `json:"-"`
	// Group, when set, is what the documents of one group of identical inputs
	// share (lint --nodes: the nodes with one configuration): the GitHub
	// summary gives each group its own verdict line. Not in JSON.
	Group string `json:"-"`
}

// Label is what tells d from the other documents of one report: its
// subject, else its kubelet minor.
func (d Document) Label() string {
	if d.Subject != "" {
		return d.Subject
	}
	return d.KubeletVersion
}

// FromResult builds the document of one evaluation. Findings repeated past
// FoldKeep per rule and file are folded into one (Fold), so
// every format shows the same few.
func FromResult(r *pipeline.Result) Document {
	fs := Fold(r.Findings)
	if fs == nil {
		fs = []finding.Finding{}
	}
	os := ""
	if r.OS.Or() != kubelets.Linux {
		os = string(r.OS)
	}
	return Document{KubeletVersion: r.Minor.Version, PreRelease: r.Minor.PreReleaseVersion(), OS: os, Verdict: r.Verdict, Findings: fs, CrashLoopBackOff: r.CrashLoopBackOff, Files: r.Files}
}

// Options tune rendering.
type Options struct {
	Color bool
	Quiet bool // only the findings and the verdict, no summary
	// FailOn is --fail-on: the lowest severity that fails the job; nil means
	// error (the default), a negative severity none. JUnit fails a test case
	// only for these findings.
	FailOn *finding.Severity
	// Log receives the notes a verb prints beside its output, on the
	// command's standard error (a kubelet that would not start, the repairs of
	// fix --diff, a drop-in not written); nil discards them.
	Log io.Writer
}

// Logf writes a note to opt.Log, if any.
func (opt Options) Logf(format string, args ...any) {
	if opt.Log != nil {
		fmt.Fprintf(opt.Log, format, args...)
	}
}

// Fails reports whether a finding of severity s fails the job under opt.FailOn.
func (opt Options) Fails(s finding.Severity) bool {
	if opt.FailOn == nil {
		return s >= finding.Error
	}
	return *opt.FailOn >= 0 && s >= *opt.FailOn
}

// Writer renders documents in one format.
type Writer interface {
	Write(w io.Writer, docs []Document, opt Options) error
}

var formats = map[string]Writer{
	"text":   textWriter{},
	"json":   jsonWriter{},
	"sarif":  sarifWriter{},
	"junit":  junitWriter{},
	"github": githubWriter{},
}

// Formats lists the output format names, sorted.
func Formats() []string {
	out := make([]string, 0, len(formats))
	for k := range formats {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// For returns the writer of a format.
func For(name string) (Writer, error) {
	w, ok := formats[name]
	if !ok {
		return nil, CheckFormat(name, Formats()...)
	}
	return w, nil
}

// CheckFormat is the error of an output format that is not one of formats
// (nil when it is), as every command words it.
func CheckFormat(format string, formats ...string) error {
	if slices.Contains(formats, format) {
		return nil
	}
	return fmt.Errorf("unknown output format %q (want one of %v)", format, formats)
}

// ColorEnv reports whether the environment allows colour: NO_COLOR unset
// (no-color.org) and a terminal that is not TERM=dumb.
func ColorEnv() bool {
	return os.Getenv("NO_COLOR") == "" && os.Getenv("TERM") != "dumb"
}

// Colorful reports whether text written to w may be coloured: w is a
// terminal and ColorEnv allows it.
func Colorful(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok || !ColorEnv() {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
