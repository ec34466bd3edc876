package kubeletcfg

import (
	"io"

	"github.com/kubeletcfg/kubeletcfg/discover"
	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/report"
	"github.com/kubeletcfg/kubeletcfg/report/verbtext"
)

// Discover finds the kubelet running on the host Options.Host describes and
// what it starts from (discover.Discover).
func Discover(opt Options) (*RunningKubelet, error) {
	k, err := discover.Discover(opt.Host)
	if err != nil {
		return nil, err
	}
	return &RunningKubelet{k}, nil
}

// RunningKubelet is what Discover found: discover.Kubelet (its fields and
// WriteJSON) with the command's writer, whose text is report/verbtext's.
type RunningKubelet struct {
	*discover.Kubelet
}

// Write prints k in format "json" (WriteJSON) or "text".
func (k *RunningKubelet) Write(w io.Writer, format string, _ report.Options) error {
	if format == "json" {
		return k.WriteJSON(w)
	}
	return verbtext.WriteKubelet(w, k.Kubelet)
}

// CountAtLeast is 0: finding the kubelet judges nothing.
func (k *RunningKubelet) CountAtLeast(finding.Severity) int { return 0 }
