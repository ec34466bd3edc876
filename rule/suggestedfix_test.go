package rule

import (
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kubeletcfg/kubeletcfg/finding"
)

func TestRenameKey(t *testing.T) {
	for _, tc := range []struct {
		name, data string
		line, col  int
		written    string
		want       string // the file once renamed to maxPods; "" when no fix
	}{
		{"plain", "a: 1\nMaxPods: 3\n", 2, 1, "MaxPods", "a: 1\nmaxPods: 3\n"},
		{"nested", "x:\n  MaxPods: 3\n", 2, 3, "MaxPods", "x:\n  maxPods: 3\n"},
		{"double quoted", `"MaxPods": 3`, 1, 1, "MaxPods", `"maxPods": 3`},
		{"single quoted", `'MaxPods': 3`, 1, 1, "MaxPods", `'maxPods': 3`},
		{"after multibyte", "é: {MaxPods: 3}", 1, 5, "MaxPods", "é: {maxPods: 3}"},
		{"byte order mark", "\ufeffMaxPods: 3", 1, 1, "MaxPods", "\ufeffmaxPods: 3"},
		{"escaped", `"Max\u0050ods": 3`, 1, 1, "MaxPods", ""},
		{"tagged", `!!str MaxPods: 3`, 1, 1, "MaxPods", ""},
		{"anchored", `&a MaxPods: 3`, 1, 1, "MaxPods", ""},
		{"wrong position", "MaxPods: 3", 2, 1, "MaxPods", ""},
		{"other text", "maxpods: 3", 1, 1, "MaxPods", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fix, ok := finding.RenameKey(finding.NewText([]byte(tc.data)), finding.Position{Line: tc.line, Column: tc.col}, tc.written, "maxPods")
			if !ok {
				if tc.want != "" {
					t.Fatalf("no fix, want %q", tc.want)
				}
				return
			}
			if tc.want == "" {
				t.Fatalf("fix %+v, want none", fix)
			}
			got, err := finding.ApplyEdits([]byte(tc.data), fix.Edits)
			if err != nil || string(got) != tc.want {
				t.Errorf("got %q (%v), want %q", got, err, tc.want)
			}
		})
	}
}

func TestApplyEdits(t *testing.T) {
	data := []byte("kind: K\nmaxPods: 1\n")
	got, err := finding.ApplyEdits(data, []finding.TextEdit{
		{Pos: 8, End: 15, NewText: "MAXPODS"},
		{Pos: 8, End: 8, NewText: "apiVersion: v\n"}, // an insertion goes before a replacement at its offset
	})
	if want := "kind: K\napiVersion: v\nMAXPODS: 1\n"; err != nil || string(got) != want {
		t.Errorf("got %q (%v), want %q", got, err, want)
	}
	if _, err := finding.ApplyEdits(data, []finding.TextEdit{{Pos: 0, End: 5}, {Pos: 3, End: 6}}); err == nil {
		t.Error("overlapping edits must fail")
	}
}

func TestReplacingDraft(t *testing.T) {
	for _, tc := range []struct {
		name, data string
		want       string // the file once repaired; "" when no repair
		noFix      string // a part of the reason when there is none
	}{
		{"block", "crashLoopBackOff:\n  maxSeconds: 30 # cap\n", "crashLoopBackOff:\n  maxContainerRestartPeriod: 30s # cap\n", ""},
		{"any case, quoted key", "crashloopbackoff:\n  'MaxSeconds': 60\n", "crashloopbackoff:\n  'maxContainerRestartPeriod': 60s\n", ""},
		{"flow", `{"crashLoopBackOff": {"maxSeconds": 300}}`, `{"crashLoopBackOff": {"maxContainerRestartPeriod": "300s"}}`, ""},
		{"out of range", "crashLoopBackOff:\n  maxSeconds: 301\n", "", "301s is outside the 1s..300s"},
		{"not a whole number", "crashLoopBackOff:\n  maxSeconds: 1.5\n", "", "not a whole number of seconds"},
		{"string", "crashLoopBackOff:\n  maxSeconds: \"30\"\n", "", "not a whole number of seconds"},
		{"cap beside it", "crashLoopBackOff:\n  maxSeconds: 30\n  maxContainerRestartPeriod: 1m\n", "", "already sets the cap"},
		{"twin", "crashLoopBackOff:\n  maxSeconds: 30\n  MaxSeconds: 40\n", "", "is the same draft key"},
		{"under an anchor", "crashLoopBackOff: &c\n  maxSeconds: 30\n", "", "YAML anchor or merge"},
		{"escaped key", "crashLoopBackOff:\n  \"max\\x53econds\": 30\n", "", "escapes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var doc yaml.Node
			if err := yaml.Unmarshal([]byte(tc.data), &doc); err != nil {
				t.Fatal(err)
			}
			root := doc.Content[0]
			parent := root.Content[1]
			key := parent.Content[0]
			f := ReplacingDraft(draftField.At(finding.Position{Line: key.Line, Column: key.Column}, "crashLoopBackOff.maxSeconds", "", ""), finding.NewText([]byte(tc.data)), finding.NewKeyIndex(root))
			if len(f.Fixes) == 0 {
				if tc.want != "" {
					t.Fatalf("no repair, want %q", tc.want)
				}
				if !strings.Contains(f.NoFix, tc.noFix) || f.NoFix == "" {
					t.Errorf("reason %q, want one with %q", f.NoFix, tc.noFix)
				}
				return
			}
			if f.NoFix != "" {
				t.Errorf("a repair and a reason %q", f.NoFix)
			}
			if tc.want == "" {
				t.Fatalf("repair %+v, want none", f.Fixes)
			}
			got, err := finding.ApplyEdits([]byte(tc.data), f.Fixes[0].Edits)
			if err != nil || string(got) != tc.want {
				t.Errorf("got %q (%v), want %q", got, err, tc.want)
			}
		})
	}
}

// draftField stands for source's KC6001, which this package cannot import.
var draftField = &Rule{ID: "KC6001", Name: "kep4603-draft-field", Severity: finding.Warning, Stage: StageLint}
