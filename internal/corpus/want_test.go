package corpus

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestWantsOn: `# want` and `# want-windows` are read apart, on a line (either
// order, or both) and as case.yaml lists, and each kubelet's case is annotated
// only by its own; a want-windows list that is not a list is an error.
func TestWantsOn(t *testing.T) {
	write := func(t *testing.T, dir, name, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct {
		name, caseYAML, kubelet string
		linux, windows          []Want
		linuxAnnotated, winAnn  bool
		fails                   bool
	}{
		{
			name:     "both on a line and in lists",
			caseYAML: "description: x\n# want: []\n# want-windows: [\"(defaults): KC5101 KC5103\"]\n",
			kubelet:  "kind: KubeletConfiguration\ndefaultPodSysctls: # want KC4012 # want-windows KC4012 KC5105\npodLogsDir: x # want-windows KC4101 # want KC1105\n",
			linux: []Want{
				{File: "kubelet.yaml", Line: 2, Rules: []string{"KC4012"}},
				{File: "kubelet.yaml", Line: 3, Rules: []string{"KC1105"}},
			},
			windows: []Want{
				{File: Defaults, Rules: []string{"KC5101", "KC5103"}, InCaseYAML: true, Windows: true},
				{File: "kubelet.yaml", Line: 2, Rules: []string{"KC4012", "KC5105"}, Windows: true},
				{File: "kubelet.yaml", Line: 3, Rules: []string{"KC4101"}, Windows: true},
			},
			linuxAnnotated: true, winAnn: true,
		},
		{
			name:     "Windows only: the Linux kubelet's case is not annotated",
			caseYAML: "description: x\n",
			kubelet:  "kind: KubeletConfiguration\nsingleProcessOOMKill: false # want-windows KC5102\n",
			windows:  []Want{{File: "kubelet.yaml", Line: 2, Rules: []string{"KC5102"}, Windows: true}},
			winAnn:   true,
		},
		{
			name:           "Linux only",
			caseYAML:       "description: x\n# want: []\n",
			kubelet:        "kind: KubeletConfiguration\n",
			linuxAnnotated: true,
		},
		{
			name:     "a want-windows list that is not a list",
			caseYAML: "description: x\n# want-windows: KC5101\n",
			kubelet:  "kind: KubeletConfiguration\n",
			fails:    true,
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, "case.yaml", tt.caseYAML)
			write(t, dir, "kubelet.yaml", tt.kubelet)
			linux, la, err := WantsOn(dir, false)
			if tt.fails {
				if err == nil {
					t.Fatalf("no error; wants %+v", linux)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			windows, wa, err := WantsOn(dir, true)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(linux, tt.linux) || la != tt.linuxAnnotated {
				t.Errorf("Linux: %+v (annotated %v), want %+v (%v)", linux, la, tt.linux, tt.linuxAnnotated)
			}
			if !reflect.DeepEqual(windows, tt.windows) || wa != tt.winAnn {
				t.Errorf("Windows: %+v (annotated %v), want %+v (%v)", windows, wa, tt.windows, tt.winAnn)
			}
			if w, _, _ := Wants(dir); !reflect.DeepEqual(w, linux) {
				t.Errorf("Wants = %+v, want the Linux kubelet's %+v", w, linux)
			}
		})
	}
}

func TestStripWant(t *testing.T) {
	for in, want := range map[string]string{
		"maxPods: -1 # want KC4025":                         "maxPods: -1",
		"podLogsDir: x # want KC1105 # want-windows KC4101": "podLogsDir: x",
		"podLogsDir: x # want-windows KC4101 # want KC1105": "podLogsDir: x",
		"singleProcessOOMKill: false # want-windows KC5102": "singleProcessOOMKill: false",
		"a: b # a comment":                                  "a: b # a comment",
	} {
		if got := StripWant(in); got != want {
			t.Errorf("StripWant(%q) = %q, want %q", in, got, want)
		}
	}
}
