package source

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/rule"
)

// DraftCrashLoopField is KC6001, which the key walks of the files emit (the
// main file's and the drop-ins', DraftCrashLoop).
var (
	DraftCrashLoopField = &rule.Rule{ID: "KC6001", Fix: "use `crashLoopBackOff.maxContainerRestartPeriod` with the KubeletCrashLoopBackOffMax gate on; `kubeletcfg fix` renames the key.", Name: "kep4603-draft-field", Severity: finding.Warning, Stage: rule.StageLint,
		Repair:  rule.Repair{Kind: rule.RepairDraftField, Doc: "crashloopbackoff.maxSeconds: N (the KEP-4603 draft name, any case) -> crashLoopBackOff.maxContainerRestartPeriod: Ns, with featureGates KubeletCrashLoopBackOffMax: true added where a target minor has the gate off by default (N must be a whole number 1..300)"},
		Summary: "The KEP-4603 draft name crashloopbackoff.maxSeconds is dropped by every kubelet.",
		Doc:     "The crash-loop backoff proposal drafted `crashloopbackoff.maxSeconds`; what shipped is `crashLoopBackOff.maxContainerRestartPeriod`, a duration between 1s and 300s behind the KubeletCrashLoopBackOffMax gate. No kubelet knows the draft name, so the setting silently has no effect.",
		Kubelet: "", EmittedBy: "pipeline: key walk of the files (DraftCrashLoop)"}
)

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
