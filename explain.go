package kubeletcfg

import (
	"io"

	"github.com/kubeletcfg/kubeletcfg/explain"
	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/report"
	"github.com/kubeletcfg/kubeletcfg/report/verbtext"
)

// Explain describes a KubeletConfiguration field at Options.KubeletVersion
// (one minor; default the default minor): path is dotted with map keys in
// brackets, "" for the top-level fields (explain.Field).
func Explain(opt Options, path string) (*Explained, error) {
	m := kubelets.Default()
	if opt.KubeletVersion != "" {
		var err error
		if m, err = LookupMinor(opt.KubeletVersion, "explain lists the minors that have the field (MINORS); compare files across minors with kubeletcfg skew --versions %s"); err != nil {
			return nil, err
		}
	}
	if path == "" {
		path = "KubeletConfiguration"
	}
	r, err := explain.Field(m, path)
	if err != nil {
		return nil, err
	}
	return &Explained{r}, nil
}

// Explained is what Explain found: explain.Result (its fields, the -o json
// contract) with the command's writer, whose text is report/verbtext's.
type Explained struct {
	*explain.Result
}

// Write prints the result in format "json" (the -o json contract) or "text".
func (d *Explained) Write(w io.Writer, format string, _ report.Options) error {
	if format == "json" {
		return report.WriteJSON(w, d.Result)
	}
	return verbtext.WriteExplained(w, d.Result)
}

// CountAtLeast is 0: explaining a field finds nothing wrong.
func (d *Explained) CountAtLeast(finding.Severity) int { return 0 }
