package pipeline

import (
	"errors"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

// TestUnknownGateHints: a gate a supported minor registered says when it was
// removed (or that it is new); one no supported minor registers says so,
// rather than blaming the case of its name.
func TestUnknownGateHints(t *testing.T) {
	m, err := kubelets.Lookup("1.36")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"featureGates[AppArmor]":              "remove it: the gate was removed in 1.33 (last registered in 1.32)",
		"featureGates[HugepageAwareEviction]": "remove it, or target kubelet 1.37 or newer: the gate is new in 1.37",
		"featureGates[SupportPodPidsLimit]":   "remove it: no kubelet " + kubelets.Span(kubelets.Supported()) + " registers it: it was removed before " + kubelets.Supported()[0] + " (the oldest gate table kubeletcfg has) or is misspelled (gate names are case-sensitive)",
		"featureGates[NodeSwapp]":             `did you mean "NodeSwap"?`,
	}
	gates := map[string]bool{}
	for path := range want {
		gates[path[len("featureGates["):len(path)-1]] = true
	}
	at := finding.Position{File: "config.yaml", Line: 1, Column: 1}
	for _, f := range gateFindings(m, gates, nil, at, errors.New("unrecognized feature gate"), true) {
		if w, ok := want[f.Path]; !ok || f.Hint != w {
			t.Errorf("%s: hint %q, want %q", f.Path, f.Hint, w)
		}
		delete(want, f.Path)
	}
	for path := range want {
		t.Errorf("%s: no finding", path)
	}
}
