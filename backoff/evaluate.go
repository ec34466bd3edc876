package backoff

import (
	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
)

// Entry is one input at one kubelet minor: an element of "curves" in the JSON
// that `kubeletcfg backoff -o json` prints (WriteJSON).
type Entry struct {
	KubeletVersion string `json:"kubeletVersion"`
	Config         string `json:"config,omitempty"`
	ConfigDir      string `json:"configDir,omitempty"`
	Starts         bool   `json:"starts"`
	// Stop is the first error when the kubelet does not start.
	Stop *finding.Finding `json:"stop,omitempty"`
	// InitialFrom and MaxFrom say where the initial delay and the cap come
	// from (Source), when the kubelet starts.
	InitialFrom string `json:"initialFrom,omitempty"`
	MaxFrom     string `json:"maxFrom,omitempty"`
	Curve       *Curve `json:"curve,omitempty"`
}

// Input names the entry's files: "config.yaml", "conf.d" or both joined by " + ".
func (e *Entry) Input() string {
	switch {
	case e.Config != "" && e.ConfigDir != "":
		return e.Config + " + " + e.ConfigDir
	case e.Config != "":
		return e.Config
	}
	return e.ConfigDir
}

// Evaluate runs the pipeline on each input (loaded once) at each minor and
// plays out the crash-loop backoff of every result that starts: the entries
// are input by input, minor by minor. settle, if not nil, is applied to the
// results of the first input before they are read (the main file as
// converted: input.Source.Settle).
func Evaluate(inputs []pipeline.Input, minors []*kubelets.Minor, settle func(*pipeline.Result) error) ([]*Entry, error) {
	loaded := make([]*pipeline.Loaded, len(inputs))
	for i, in := range inputs {
		l, err := pipeline.Load(in)
		if err != nil {
			return nil, err
		}
		loaded[i] = l
	}
	var out []*Entry
	for i, l := range loaded {
		for _, m := range minors {
			r, err := l.Evaluate(m)
			if err != nil {
				return nil, err
			}
			if i == 0 && settle != nil {
				if err := settle(r); err != nil {
					return nil, err
				}
			}
			e := &Entry{KubeletVersion: m.Version, Config: inputs[i].Config, ConfigDir: inputs[i].ConfigDir, Starts: r.Starts}
			if b := r.CrashLoopBackOff; r.Starts && b != nil {
				if e.Curve, err = Compute(m.Version, b.Initial, b.Max); err != nil {
					return nil, err
				}
				e.InitialFrom, e.MaxFrom = Source(r, b.InitialFrom), Source(r, b.MaxFrom)
			} else {
				e.Starts = false
				e.Stop = r.Stop()
			}
			out = append(out, e)
		}
	}
	return out, nil
}

// Source says in words where the pipeline took a duration of r's crash-loop
// backoff from: "kubelet default" (a constant), the gate's name, the field and
// where it was written ("crashLoopBackOff.maxContainerRestartPeriod,
// config.yaml:8:3", or ", defaulted" when no file sets it), or "= the cap".
func Source(r *pipeline.Result, s pipeline.BackoffSource) string {
	switch {
	case s.Cap:
		return "= the cap"
	case s.Gate != "":
		return s.Gate
	case s.Field != "":
		if pos, ok := r.Origins[s.Field]; ok && pos.File != "" {
			return s.Field + ", " + pos.String()
		}
		return s.Field + ", defaulted"
	case s.Constant != "":
		return "kubelet default"
	}
	return ""
}
