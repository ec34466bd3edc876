package validate

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/rule"
)

// UnknownFieldIn builds the finding for a key that matches no field, with a
// did-you-mean hint when one was found.
func UnknownFieldIn(r *rule.Rule, pos finding.Position, path, written, hint string) finding.Finding {
	where := "the kubelet"
	if r.Stage == rule.StageDropIn { // KC2005, declared in drop-in
		where = "the drop-in merge"
	}
	return r.Atf(pos, path, hint, "unknown field %q is silently dropped by %s: the setting has no effect", written, where)
}

// DraftCrashLoop recognises the KEP-4603 draft spelling (crashloopbackoff.maxSeconds
// in any case) at a key path and builds the KC6001 finding with the replacement.
func DraftCrashLoop(pos finding.Position, path, value string) (finding.Finding, bool) {
	if !strings.EqualFold(path, "crashLoopBackOff.maxSeconds") {
		return finding.Finding{}, false
	}
	repl := "crashLoopBackOff.maxContainerRestartPeriod: <N>s"
	if n, err := strconv.ParseFloat(value, 64); err == nil && n >= 0 {
		repl = "crashLoopBackOff.maxContainerRestartPeriod: " + (time.Duration(n * float64(time.Second))).String()
	}
	return DraftCrashLoopField.At(pos, path,
		fmt.Sprintf("%q is the KEP-4603 draft name and is silently dropped by every kubelet: the crash-loop backoff cap is unchanged", path),
		"write "+repl+" (between 1s and 300s; needs the KubeletCrashLoopBackOffMax gate, on by default from 1.35)"), true
}
