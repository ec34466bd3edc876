package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// windowsNode is a node whose kubelet reports operatingSystem os.
func windowsNode(name, pool, version, os string) corev1.Node {
	n := apiNode(name, pool, version)
	n.Status.NodeInfo.OperatingSystem = os
	return n
}

// configzWith is testdata/dropin/configz.json with fields set (nil deletes).
func configzWith(t *testing.T, set map[string]any) []byte {
	t.Helper()
	data, err := os.ReadFile("../../testdata/dropin/configz.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		KubeletConfig map[string]any `json:"kubeletconfig"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	for k, v := range set {
		if v == nil {
			delete(doc.KubeletConfig, k)
		} else {
			doc.KubeletConfig[k] = v
		}
	}
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// newWindowsCluster is a cluster with Windows nodes:
//   - win: two Windows 1.36 nodes whose configz is what a Windows kubelet runs
//     with (cgroupsPerQOS false, enforceNodeAllocatable none, the Windows
//     evictionHard defaults: 500Mi of memory, no inode signals);
//   - mixed: 1.37 nodes with one configz that sets singleProcessOOMKill, which
//     the Linux kubelet accepts (cgroup v2) and the Windows kubelet refuses
//     (1.32+): one Linux node, one Windows node (whose flagz has the Windows
//     kubelet's --windows-service), and one whose operatingSystem is neither.
func newWindowsCluster(t *testing.T) *fakeCluster {
	t.Helper()
	win := configzWith(t, map[string]any{
		"cgroupsPerQOS": false, "enforceNodeAllocatable": []string{"none"},
		"evictionHard": map[string]string{"memory.available": "500Mi", "nodefs.available": "10%", "imagefs.available": "15%"},
	})
	oom := configzWith(t, map[string]any{"singleProcessOOMKill": true})
	return &fakeCluster{
		nodes: []corev1.Node{
			windowsNode("win-a", "win", "v1.36.1-eks-4a3c1b2", "windows"),
			windowsNode("win-b", "win", "v1.36.1-eks-4a3c1b2", "windows"),
			windowsNode("mixed-linux", "mixed", "v1.37.2", "linux"),
			windowsNode("mixed-windows", "mixed", "v1.37.2", "windows"),
			windowsNode("mixed-other", "mixed", "v1.37.2", "freebsd"),
		},
		configz: map[string][]byte{"win-a": win, "win-b": win, "mixed-linux": oom, "mixed-windows": oom, "mixed-other": oom},
		flagz: map[string]string{
			"mixed-windows": "\nkubelet flagz\nWarning: not machine parseable\n\ncert-dir=/var/lib/kubelet/pki\nwindows-service=true\n",
		},
	}
}

// TestClusterWindows: a node whose operatingSystem is windows is evaluated
// as the Windows kubelet: the configz the Linux kubelet accepts is refused
// on a Windows node (singleProcessOOMKill, KC5102), the two are groups and
// pools apart, the JSON says each node's, group's, pool's and result's os, and
// an operatingSystem neither linux nor windows is evaluated as linux and shown.
func TestClusterWindows(t *testing.T) {
	out, stderr, code := runFakeCluster(t, newWindowsCluster(t), "cluster", "lint", "-o", "json")
	if code != exitFindings {
		t.Errorf("exit %d, want 1 (mixed-windows's kubelet refuses singleProcessOOMKill); stderr %s", code, stderr)
	}
	var doc struct {
		Nodes  []struct{ Name, OS, OSReported, Group, Flags string }
		Groups []struct {
			ID, Pool, OS, Minor string
			Nodes               []string
			Starts              bool
			Findings            []struct{ Rule string }
		}
		Pools []struct {
			Name, OS              string
			Nodes, Configurations int
			Drift                 bool
		}
		Results []struct {
			Pool, OS, Minor string
			Starts          bool
			Refusing        []string
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	nodes := map[string]struct{ os, reported, group, flags string }{}
	for _, n := range doc.Nodes {
		nodes[n.Name] = struct{ os, reported, group, flags string }{n.OS, n.OSReported, n.Group, n.Flags}
	}
	for name, want := range map[string][2]string{
		"win-a": {"windows", ""}, "mixed-linux": {"linux", ""}, "mixed-windows": {"windows", ""}, "mixed-other": {"linux", "freebsd"},
	} {
		if n := nodes[name]; n.os != want[0] || n.reported != want[1] {
			t.Errorf("%s: os %q, osReported %q; want %q, %q", name, n.os, n.reported, want[0], want[1])
		}
	}
	if nodes["mixed-linux"].group != nodes["mixed-other"].group || nodes["mixed-linux"].group == nodes["mixed-windows"].group {
		t.Errorf("groups: mixed-linux %q, mixed-other %q, mixed-windows %q; want the Linux and freebsd nodes together, the Windows one apart",
			nodes["mixed-linux"].group, nodes["mixed-other"].group, nodes["mixed-windows"].group)
	}
	if nodes["mixed-windows"].flags != "known" {
		t.Errorf("mixed-windows: flags %q, want known", nodes["mixed-windows"].flags)
	}
	for _, tt := range []struct {
		node     string
		os       string
		starts   bool
		rules    []string // among the findings
		notRules []string
	}{
		{"mixed-linux", "linux", true, nil, []string{"KC5101", "KC5102", "KC2508"}},
		{"mixed-windows", "windows", false, []string{"KC5101", "KC5102"}, []string{"KC5103", "KC2508", "KC2501"}}, // KC5103 comes after the refusal
		{"win-a", "windows", true, nil, []string{"KC5101", "KC5103"}},
	} {
		var found bool
		for _, g := range doc.Groups {
			if !slices.Contains(g.Nodes, tt.node) {
				continue
			}
			found = true
			var rules []string
			for _, f := range g.Findings {
				rules = append(rules, f.Rule)
			}
			if g.OS != tt.os || g.Starts != tt.starts {
				t.Errorf("%s's group %s: os %q, starts %v; want %q, %v (findings %v)", tt.node, g.ID, g.OS, g.Starts, tt.os, tt.starts, rules)
			}
			for _, r := range tt.rules {
				if !slices.Contains(rules, r) {
					t.Errorf("%s's group: findings %v lack %s", tt.node, rules, r)
				}
			}
			for _, r := range tt.notRules {
				if slices.Contains(rules, r) {
					t.Errorf("%s's group: findings %v have %s", tt.node, rules, r)
				}
			}
		}
		if !found {
			t.Errorf("%s: in no group", tt.node)
		}
	}
	type pool struct {
		name, os string
		nodes    int
	}
	var pools []pool
	for _, p := range doc.Pools {
		pools = append(pools, pool{p.Name, p.OS, p.Nodes})
		if p.Drift {
			t.Errorf("pool %+v: drift, but each OS's nodes share one configuration", p)
		}
	}
	if want := []pool{{"mixed", "linux", 2}, {"mixed", "windows", 1}, {"win", "windows", 2}}; !slices.Equal(pools, want) {
		t.Errorf("pools %+v, want %+v", pools, want)
	}
	for _, r := range doc.Results {
		if wantRefusing := r.Pool == "mixed" && r.OS == "windows"; wantRefusing != !r.Starts || wantRefusing != slices.Equal(r.Refusing, []string{"mixed-windows"}) {
			t.Errorf("result %+v: only mixed's Windows node refuses", r)
		}
	}

	// The text names the Windows pools and groups.
	text, _, _ := runFakeCluster(t, newWindowsCluster(t), "cluster", "lint")
	for _, want := range []string{
		"pool mixed: 2 nodes\n",
		"pool mixed (windows): 1 node\n",
		"pool win (windows): 2 nodes\n",
		", kubelet 1.37 (windows), flags known: 1 node: mixed-windows\n",
		"kubelet 1.37 (windows): does NOT start",
		`1 node reports operatingSystem "freebsd", evaluated as linux: mixed-other`,
		"5 nodes in 2 pools (3 configuration groups); at the minor each runs: 1 node would not start, 0 nodes could not be read",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
}

// TestClusterWindowsPreflight: a Windows node's preflight takes the Windows
// kubelet's defaults as not set (its evictionHard follows the target's
// Windows defaults: no change), and its target refuses what the Windows
// kubelet refuses.
func TestClusterWindowsPreflight(t *testing.T) {
	out, stderr, code := runFakeCluster(t, newWindowsCluster(t), "cluster", "preflight", "--to", "1.37", "-o", "json")
	if code != exitFindings {
		t.Errorf("exit %d, want 1; stderr %s", code, stderr)
	}
	var doc clusterJSON
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, g := range doc.Groups {
		var blockers []string
		for _, b := range g.Blockers {
			blockers = append(blockers, b.Rule)
		}
		switch {
		case g.Pool == "win":
			if !g.Starts || len(blockers) > 0 {
				t.Errorf("win: starts %v, blockers %v; want a start", g.Starts, blockers)
			}
			for _, c := range g.Changes {
				if strings.HasPrefix(c.Path, "evictionHard") || strings.HasPrefix(c.Path, "cgroupsPerQOS") {
					t.Errorf("win: change of %s: the Windows defaults should be taken as not set", c.Path)
				}
			}
		case slices.Contains(g.Nodes, "mixed-windows"):
			if g.Starts || !slices.Contains(blockers, "KC5102") {
				t.Errorf("mixed-windows: starts %v, blockers %v; want KC5102", g.Starts, blockers)
			}
		default:
			if !g.Starts {
				t.Errorf("group %s (%v): starts false", g.ID, g.Nodes)
			}
		}
	}
}

// TestClusterWindowsGoldens: the Windows cluster's output (lint, text and
// JSON; preflight, text).
func TestClusterWindowsGoldens(t *testing.T) {
	for _, tt := range []struct {
		golden string
		args   []string
	}{
		{"cluster-windows-lint", []string{"cluster", "lint"}},
		{"cluster-windows-lint-json", []string{"cluster", "lint", "-o", "json"}},
		{"cluster-windows-preflight", []string{"cluster", "preflight", "--to", "1.37"}},
	} {
		t.Run(tt.golden, func(t *testing.T) {
			srv := httptest.NewTLSServer(newWindowsCluster(t))
			t.Cleanup(srv.Close)
			var out, errb bytes.Buffer
			code := run(append(tt.args, "--server", srv.URL, "--token", "t0ken", "--insecure-skip-tls-verify", "--kubeconfig", os.DevNull), &out, &errb)
			got := fmt.Sprintf("exit %d\n%s--- stderr\n%s", code, out.String(), errb.String())
			checkGolden(t, tt.golden, strings.ReplaceAll(got, srv.URL, "https://SERVER"))
		})
	}
}
