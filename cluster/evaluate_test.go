package cluster

import (
	"encoding/json"
	"os"
	"slices"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/fleet"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

// TestEvaluateNodeOS: a node is evaluated as the kubelet of its OS, lint and
// preflight alike: a configz that sets singleProcessOOMKill starts on a Linux
// node (cgroup v2) and is refused on a Windows node from 1.32 (KC5102); a
// configz fit for Windows (no QoS cgroups, nothing enforced, the Windows
// eviction defaults) starts on Windows without a warning, and a Windows
// command line (--windows-service) is the Windows kubelet's, not a Windows-only
// flag on a Linux node, whose kubelet refuses it as unknown (KC2502, KC2508). The cgroup version does not apply on Windows:
// cgroup v1, which refuses singleProcessOOMKill: false on Linux, changes
// nothing there.
func TestEvaluateNodeOS(t *testing.T) {
	m37, err := kubelets.Lookup("1.37")
	if err != nil {
		t.Fatal(err)
	}
	configz := func(t *testing.T, set map[string]any) []byte {
		data, err := os.ReadFile("../testdata/dropin/configz.json")
		if err != nil {
			t.Fatal(err)
		}
		var doc map[string]map[string]any
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		for k, v := range set {
			doc["kubeletconfig"][k] = v
		}
		out, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	windowsFit := map[string]any{"cgroupsPerQOS": false, "enforceNodeAllocatable": []string{"none"},
		"evictionHard": map[string]string{"memory.available": "500Mi", "nodefs.available": "10%", "imagefs.available": "15%"}}
	for _, tt := range []struct {
		name    string
		os      kubelets.OS
		set     map[string]any
		args    []string
		cgroup  int
		target  *kubelets.Minor
		starts  bool
		rules   []string // among the findings
		without []string // not among them
	}{
		{"singleProcessOOMKill, Linux", kubelets.Linux, map[string]any{"singleProcessOOMKill": true}, nil, 2, nil, true, nil, []string{"KC5101", "KC5102"}},
		{"singleProcessOOMKill, Windows", kubelets.Windows, map[string]any{"singleProcessOOMKill": true}, nil, 2, nil, false, []string{"KC5101", "KC5102"}, nil},
		{"singleProcessOOMKill, Windows, preflight", kubelets.Windows, map[string]any{"singleProcessOOMKill": true}, nil, 2, m37, false, []string{"KC5102"}, nil},
		{"singleProcessOOMKill false, cgroup v1, Linux", kubelets.Linux, map[string]any{"singleProcessOOMKill": false}, nil, 1, nil, false, []string{"KC5002"}, nil},
		{"singleProcessOOMKill false, cgroup v1, Windows", kubelets.Windows, map[string]any{"singleProcessOOMKill": false}, nil, 1, nil, false, []string{"KC5102"}, []string{"KC5002"}},
		{"fit for Windows, Windows", kubelets.Windows, windowsFit, []string{"--windows-service=true"}, 2, nil, true, nil, []string{"KC5101", "KC5103", "KC2508"}},
		{"fit for Windows, Windows, preflight", kubelets.Windows, windowsFit, []string{"--windows-service=true"}, 2, m37, true, nil, []string{"KC5101", "KC5103", "KC2508"}},
		{"Windows flags, Linux", kubelets.Linux, windowsFit, []string{"--windows-service=true"}, 2, nil, false, []string{"KC2502", "KC2508"}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			n := &fleet.Node{Name: "n", OS: tt.os, Kubelet: m37, Configz: configz(t, tt.set), Args: tt.args}
			e := EvaluateNode(n, tt.target, tt.cgroup)
			if e.Err != nil {
				t.Fatal(e.Err)
			}
			var rules []string
			for _, f := range e.Findings {
				rules = append(rules, f.Rule)
			}
			if e.Starts != tt.starts {
				t.Errorf("starts %v, want %v (findings %v)", e.Starts, tt.starts, rules)
			}
			for _, r := range tt.rules {
				if !slices.Contains(rules, r) {
					t.Errorf("findings %v lack %s", rules, r)
				}
			}
			for _, r := range tt.without {
				if slices.Contains(rules, r) {
					t.Errorf("findings %v have %s", rules, r)
				}
			}
			if tt.target == nil {
				if want := map[kubelets.OS]string{kubelets.Linux: "", kubelets.Windows: "windows"}[tt.os]; e.Lint.OS != want {
					t.Errorf("report's OS %q, want %q", e.Lint.OS, want)
				}
			} else if e.Preflight.To.Result.OS != tt.os {
				t.Errorf("target evaluated for %q, want %q", e.Preflight.To.Result.OS, tt.os)
			}
		})
	}
}
