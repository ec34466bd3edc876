package kubeletcfg

import (
	"errors"
	"io"

	"github.com/kubeletcfg/kubeletcfg/backoff"
	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
	"github.com/kubeletcfg/kubeletcfg/report"
	"github.com/kubeletcfg/kubeletcfg/report/verbtext"
)

// BackoffCurves is what Backoff found: the crash-loop backoff of each input at
// each minor (backoff.Entry, the JSON of `kubeletcfg backoff -o json`).
type BackoffCurves struct {
	Entries []*backoff.Entry
}

// Backoff plays out the crash-loop backoff the kubelet would apply with the
// options' files, and with each file of compare (another --config, read
// without drop-ins, at the same cgroup version), at the options' minors
// (Options.Minors: Versions, else KubeletVersion, else the default minor).
func Backoff(opt Options, compare []string) (*BackoffCurves, error) {
	p, err := opt.prepareFiles()
	if err != nil {
		return nil, err
	}
	minors, err := Options{KubeletVersion: p.KubeletVersion, Versions: opt.Versions}.Minors(DefaultMinor)
	if err != nil {
		return nil, err
	}
	inputs := []pipeline.Input{p.Input}
	for _, f := range compare {
		inputs = append(inputs, pipeline.Input{Config: f, CgroupVersion: p.Input.CgroupVersion})
	}
	entries, err := backoff.Evaluate(inputs, minors, p.Settle)
	if err != nil {
		return nil, err
	}
	return &BackoffCurves{Entries: entries}, nil
}

// prepareFiles is Prepare for the verbs that read files and a command line
// but never discover the running kubelet (backoff, fix): nothing to check
// does not offer --discover.
func (o Options) prepareFiles() (*Prepared, error) {
	p, err := o.Prepare()
	if nothing := (*NothingToCheckError)(nil); errors.As(err, &nothing) {
		nothing.Discover = false
	}
	return p, err
}

// Write prints the curves ("json" or "text") and, on opt.Log, a note for each
// input a minor would not start with (it has no curve).
func (b *BackoffCurves) Write(w io.Writer, format string, opt report.Options) error {
	var err error
	if format == "json" {
		err = backoff.WriteJSON(w, b.Entries)
	} else {
		err = verbtext.WriteBackoff(w, b.Entries)
	}
	if err != nil {
		return err
	}
	for _, e := range b.Entries {
		if !e.Starts {
			opt.Logf("kubeletcfg: kubelet %s would not start with %s; run kubeletcfg lint --kubelet-version %s for details\n", e.KubeletVersion, e.Input(), e.KubeletVersion)
		}
	}
	return nil
}

// CountAtLeast counts the inputs and minors the kubelet would not start with:
// an error each, so any threshold up to error counts them (backoff has no
// --fail-on: the command asks at error).
func (b *BackoffCurves) CountAtLeast(threshold finding.Severity) int {
	n := 0
	for _, e := range b.Entries {
		if !e.Starts && threshold >= 0 && threshold <= finding.Error {
			n++
		}
	}
	return n
}
