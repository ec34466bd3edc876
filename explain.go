package kubeletcfg

import (
	"github.com/kubeletcfg/kubeletcfg/explain"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

// Explain describes a KubeletConfiguration field at Options.KubeletVersion
// (one minor; default the default minor): path is dotted with map keys in
// brackets, "" for the top-level fields (explain.Field).
func Explain(opt Options, path string) (*explain.Result, error) {
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
	return explain.Field(m, path)
}
