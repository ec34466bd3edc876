package pipeline

import (
	"errors"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/skew"
)

// TestUnknownGateHints: a gate a supported minor registered says when it was
// removed (or that it is new); one no supported minor registers says so,
// rather than blaming the case of its name.
func TestUnknownGateHints(t *testing.T) {
	m, err := skew.Lookup("1.36")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"featureGates[AppArmor]":              "remove it: the gate was removed in 1.33 (last registered in 1.32)",
		"featureGates[HugepageAwareEviction]": "remove it, or target kubelet 1.37 or newer: the gate is new in 1.37",
		"featureGates[SupportPodPidsLimit]":   "remove it: no kubelet " + skew.Span(skew.Supported()) + " registers it: it was removed before " + skew.Supported()[0] + " (the oldest gate table kubeletcfg has) or is misspelled (gate names are case-sensitive)",
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

// TestSyntaxHint: invalid UTF-8 is named, with its line and byte, before any
// tab; a tab is mentioned only when there is one.
func TestSyntaxHint(t *testing.T) {
	for _, tt := range []struct {
		data, want string
	}{
		{"kind: KubeletConfiguration\nmaxPods: 10\t# ten\nclusterDomain: \"ab\xff\"\n", "fix the encoding: the file is not valid UTF-8 (line 3, byte 19); save it as UTF-8"},
		{"# caf\xe9\nkind: x\n", "fix the encoding: the file is not valid UTF-8 (line 1, byte 6); save it as UTF-8"},
		{"kind: x\n\tmaxPods: 1\n", "fix the syntax: the file has a tab, and YAML indents with spaces, never tabs"},
		{"kind: [x\n", "fix the syntax"},
		{"\xff\xfek\x00i\x00", "fix the syntax"}, // UTF-16 with a byte order mark: yaml reads it
		{"clusterDomain: café\n", "fix the syntax"},
	} {
		if got := syntaxHint([]byte(tt.data)); got != tt.want {
			t.Errorf("syntaxHint(%q) = %q, want %q", tt.data, got, tt.want)
		}
	}
}
