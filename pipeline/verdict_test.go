package pipeline

import (
	"reflect"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/input/bootstrap"
)

// The verdict is the node's: a bootstrapper refusing the file (KC9001) leaves
// the node without a kubelet whatever the kubelet would do, names the tool, and
// keeps the kubelet's own verdict beside it; findings Behind never decide.
func TestVerdictIsTheNodes(t *testing.T) {
	talos := &finding.Tool{Name: "Talos", Release: "v1.13.9"}
	refuses := bootstrap.Refuses.At(finding.Position{File: "m.yaml", Line: 9, Column: 7}, "staticPodPath", "Talos refuses", "")
	refuses.By = talos
	behindRefuses := refuses
	behindRefuses.Behind = GateUnknown.ID
	unknownGate := finding.Finding{Rule: GateUnknown.ID, Severity: finding.Error, Panics: true}
	drops := bootstrap.Drops.At(finding.Position{File: "m.yaml", Line: 3, Column: 1}, "", "Talos drops", "")
	toolRefusal := func(kubelet string) Verdict {
		return Verdict{RefusedBy: &Refusal{By: "Talos", Release: "v1.13.9", Stage: "bootstrapper", Rule: bootstrap.Refuses.ID}, KubeletVerdict: kubelet}
	}
	tests := []struct {
		name     string
		findings []finding.Finding
		want     Verdict
		words    string
	}{
		{"nothing refuses", nil, Verdict{Starts: true}, ""},
		{"a tool's warning does not refuse", []finding.Finding{drops}, Verdict{Starts: true}, ""},
		{"a refusal behind another error does not decide", []finding.Finding{behindRefuses}, Verdict{Starts: true}, ""},
		{"the kubelet panics", []finding.Finding{unknownGate}, Verdict{Panics: true, RefusedBy: &Refusal{By: Kubelet, Stage: "feature gates", Rule: GateUnknown.ID}},
			"the kubelet panics at startup"},
		{"the tool refuses, the kubelet would start", []finding.Finding{refuses}, toolRefusal(KubeletStarts),
			"Talos v1.13.9 refuses the file first (KC9001): the node gets no kubelet; the kubelet would start with what it writes"},
		{"the tool refuses, the kubelet would panic", []finding.Finding{unknownGate, refuses}, toolRefusal(KubeletPanics),
			"Talos v1.13.9 refuses the file first (KC9001): the node gets no kubelet; the kubelet would panic on what it writes too"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &Result{Findings: tt.findings, CrashLoopBackOff: &Backoff{}}
			r.kubeletVerdict()
			r.Bootstrapped()
			r.Bootstrapped() // settled twice, the same verdict
			if !reflect.DeepEqual(r.Verdict, tt.want) {
				t.Errorf("verdict = %+v (refused by %+v), want %+v (refused by %+v)", r.Verdict, r.RefusedBy, tt.want, tt.want.RefusedBy)
			}
			if got := r.Words(); got != tt.words {
				t.Errorf("Words() = %q, want %q", got, tt.words)
			}
			if (r.CrashLoopBackOff != nil) != r.Starts {
				t.Errorf("crash-loop backoff %v with starts %v: a node without a kubelet has no curve", r.CrashLoopBackOff, r.Starts)
			}
			if stop := r.Stop(); (stop == nil) != r.Starts || stop != nil && stop.Rule != r.RefusedBy.Rule {
				t.Errorf("Stop() = %+v, refused by %+v", stop, r.RefusedBy)
			}
		})
	}
}
