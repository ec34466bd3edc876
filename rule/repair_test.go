package rule

import (
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kubeletcfg/kubeletcfg/finding"
)

func parseDoc(t *testing.T, data string) *yaml.Node {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(data), &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Content[0]
}

func TestRenamingField(t *testing.T) {
	for _, tc := range []struct {
		name, data string
		line, col  int
		written    string
		want       string // the file once repaired; "" when no repair
		noFix      string
	}{
		{"plain", "MaxPods: 50 # pods\n", 1, 1, "MaxPods", "maxPods: 50 # pods\n", ""},
		{"quoted", "\"MaxPods\": 50\n", 1, 1, "MaxPods", "\"maxPods\": 50\n", ""},
		{"twin", "maxPods: 50\nMaxPods: 60\n", 2, 1, "MaxPods", "", `"maxPods" (line 1) sets maxPods too: renaming would make a duplicate key`},
		{"under an anchor", "x: &a\n  MaxPods: 50\n", 2, 3, "MaxPods", "", "YAML anchor or merge"},
		{"beside a merge key", "<<: {a: 1}\nMaxPods: 50\n", 2, 1, "MaxPods", "", "YAML anchor or merge"},
		{"escaped", "\"Max\\x50ods\": 50\n", 1, 1, "MaxPods", "", "escapes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := parseDoc(t, tc.data)
			f := RenamingField(finding.Finding{Position: finding.Position{Line: tc.line, Column: tc.col}, Path: "maxPods"}, finding.NewText([]byte(tc.data)), finding.NewKeyIndex(doc), tc.written, "maxPods")
			checkRepair(t, tc.data, f, tc.want, tc.noFix)
		})
	}
}

func TestRenamingGate(t *testing.T) {
	for _, tc := range []struct {
		name, data string
		want       string
		noFix      string
	}{
		{"plain", "featureGates:\n  nodeSwap: true\n", "featureGates:\n  NodeSwap: true\n", ""},
		{"twin", "featureGates:\n  nodeSwap: true\n  NodeSwap: false\n", "", `"NodeSwap" (line 3) sets NodeSwap too`},
		{"anchor", "featureGates: &g\n  nodeSwap: true\n", "", "YAML anchor or merge"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := parseDoc(t, tc.data)
			keys := finding.NewKeyIndex(doc)
			at, _, ok := GateEntryAt(keys, finding.Position{Line: 2, Column: 3})
			if !ok {
				t.Fatal("no gate entry at 2:3")
			}
			checkRepair(t, tc.data, RenamingGate(finding.Finding{}, finding.NewText([]byte(tc.data)), keys, at, "NodeSwap"), tc.want, tc.noFix)
		})
	}
}

func TestRemoveEntries(t *testing.T) {
	for _, tc := range []struct {
		name, data string
		remove     []string
		opt        func(doc *yaml.Node) RemoveOptions
		want       string
		reason     string
	}{
		{name: "one line of a block", data: "featureGates:\n  A: true # a\n  B: true\nx: 1\n", remove: []string{"A"},
			want: "featureGates:\n  B: true\nx: 1\n"},
		{name: "every entry: the key goes", data: "featureGates:\n  A: true\n  B: true\nx: 1\n", remove: []string{"A", "B"},
			opt: func(doc *yaml.Node) RemoveOptions { return RemoveOptions{Key: doc.Content[0]} }, want: "x: 1\n"},
		{name: "every entry of a drop-in, key spelt otherwise", data: "FeatureGates:\n  A: true\n", remove: []string{"A"},
			opt:    func(doc *yaml.Node) RemoveOptions { return RemoveOptions{Key: doc.Content[0], DropIn: true} },
			reason: "the drop-in's only gate"},
		{name: "flow, middle and last", data: `{"featureGates": {"A": true, "B": true, "C": true}}`, remove: []string{"B", "C"},
			want: `{"featureGates": {"A": true}}`},
		{name: "flow, all", data: `{"featureGates": {"A": true, "B": true}}`, remove: []string{"A", "B"},
			want: `{"featureGates": {}}`},
		{name: "flow on the key's line", data: "featureGates: {A: true}\n", remove: []string{"A"}, want: "featureGates: {}\n"},
		{name: "a value over lines", data: "featureGates:\n  A: |\n    true\n  B: true\n", remove: []string{"A"}, reason: "shares its line"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := parseDoc(t, tc.data)
			m := doc.Content[1]
			remove := map[*yaml.Node]bool{}
			for i := 0; i+1 < len(m.Content); i += 2 {
				for _, r := range tc.remove {
					if m.Content[i].Value == r {
						remove[m.Content[i]] = true
					}
				}
			}
			opt := RemoveOptions{}
			if tc.opt != nil {
				opt = tc.opt(doc)
			}
			edits, reason := RemoveEntries(finding.NewText([]byte(tc.data)), m, remove, opt)
			if tc.reason != "" {
				if !strings.Contains(reason, tc.reason) {
					t.Fatalf("reason %q, want %q", reason, tc.reason)
				}
				return
			}
			if reason != "" {
				t.Fatalf("refused: %s", reason)
			}
			var all []finding.TextEdit
			for _, e := range edits {
				all = append(all, e...)
			}
			got, err := finding.ApplyEdits([]byte(tc.data), all)
			if err != nil || string(got) != tc.want {
				t.Errorf("got %q (%v), want %q", got, err, tc.want)
			}
		})
	}
}

// checkRepair checks that f carries the repair giving want, or a reason
// containing noFix when want is "".
func checkRepair(t *testing.T, data string, f finding.Finding, want, noFix string) {
	t.Helper()
	if want == "" {
		if len(f.Fixes) > 0 || f.NoFix == "" || !strings.Contains(f.NoFix, noFix) {
			t.Fatalf("fixes %+v, reason %q; want no repair, a reason with %q", f.Fixes, f.NoFix, noFix)
		}
		return
	}
	if len(f.Fixes) != 1 || f.NoFix != "" {
		t.Fatalf("fixes %+v, reason %q; want one repair", f.Fixes, f.NoFix)
	}
	got, err := finding.ApplyEdits([]byte(data), f.Fixes[0].Edits)
	if err != nil || string(got) != want {
		t.Errorf("got %q (%v), want %q", got, err, want)
	}
}
