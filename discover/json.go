package discover

import (
	"io"

	"github.com/kubeletcfg/kubeletcfg/report"
)

// WriteJSON writes k as one indented JSON document.
func (k *Kubelet) WriteJSON(w io.Writer) error {
	return report.WriteJSON(w, k)
}
