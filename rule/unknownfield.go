package rule

import (
	"github.com/kubeletcfg/kubeletcfg/finding"
)

// UnknownFieldIn builds the finding for a key that matches no field, with a
// did-you-mean hint when one was found.
func UnknownFieldIn(r *Rule, pos finding.Position, path, written, hint string) finding.Finding {
	where := "the kubelet"
	if r.Stage == StageDropIn { // KC2005, declared in drop-in
		where = "the drop-in merge"
	}
	return r.Atf(pos, path, hint, "unknown field %q is silently dropped by %s: the setting has no effect", written, where)
}
