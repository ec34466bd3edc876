package main

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/internal/testonly/testtree"
)

// TestLintNodesLayout runs lint --nodes on real pool layouts: a README is
// skipped with one info line, each drop-in folder name is read (the node that
// refuses says so, as lint -d does), flags files are applied.
func TestLintNodesLayout(t *testing.T) {
	dir := testtree.Write(t, map[string]string{
		"README.md":                    "# pool",
		"notes.txt":                    "x",
		"a/config.yaml":                testtree.GoodConfig,
		"b/config.yaml":                testtree.GoodConfig,
		"b/kubelet.conf.d/10-bad.conf": testtree.BadDropin,
		"c/config.json":                testtree.GoodConfig,
		"c/config.json.d/10-bad.conf":  testtree.BadDropin,
		"d/config.yaml":                testtree.GoodConfig,
		"d/kubeadm-flags.env":          "KUBELET_KUBEADM_ARGS=\"--max-pods=-5\"\n",
		"e/config.yaml":                testtree.GoodConfig,
		"e/cmdline":                    "/usr/bin/kubelet\x00--max-pods=70\x00",
		"f/config.yaml":                testtree.GoodConfig,
		"f/kubelet.service.d/10-kubeadm.conf": "[Service]\nEnvironment=\"KUBELET_CONFIG_ARGS=--config=/var/lib/kubelet/config.yaml\"\n" +
			"EnvironmentFile=-/var/lib/kubelet/kubeadm-flags.env\nExecStart=\nExecStart=/usr/bin/kubelet $KUBELET_CONFIG_ARGS $KUBELET_KUBEADM_ARGS\n",
		"f/kubelet.service.d/20-pods.conf": "[Service]\nEnvironment=\"KUBELET_KUBEADM_ARGS=--max-pods=-2\"\n",
	})
	var out, errOut bytes.Buffer
	code := run([]string{"lint", "--nodes", dir, "-o", "json"}, &out, &errOut)
	if code != exitFindings {
		t.Fatalf("exit %d, want %d; stderr %s", code, exitFindings, errOut.String())
	}
	if want := "skipped 2 files that are not configuration (.yaml, .yml, .json, .configz): README.md, notes.txt\n"; !strings.HasSuffix(errOut.String(), want) || strings.Count(errOut.String(), "\n") != 1 {
		t.Errorf("stderr %q, want one line ending %q", errOut.String(), want)
	}
	s := out.String()
	// The nodes that refuse: b and c (drop-ins), d and f (their flags: f's
	// unit drop-ins read as one unit, 20-pods.conf setting what 10-kubeadm.conf uses). a and e start;
	// e has other flags than a, so it is its own group.
	var got struct {
		Groups []struct {
			Nodes    []string `json:"nodes"`
			Document struct {
				Starts bool     `json:"starts"`
				Files  []string `json:"files"`
			} `json:"document"`
		} `json:"groups"`
	}
	if err := json.Unmarshal([]byte(s), &got); err != nil {
		t.Fatal(err)
	}
	starts := map[string]bool{}
	for _, g := range got.Groups {
		for _, n := range g.Nodes {
			starts[n] = g.Document.Starts
		}
	}
	want := map[string]bool{"a": true, "b": false, "c": false, "d": false, "e": true, "f": false}
	for n, w := range want {
		if v, ok := starts[n]; !ok || v != w {
			t.Errorf("node %s: starts=%v (listed %v), want %v\n%s", n, v, ok, w, s)
		}
	}
	if len(starts) != len(want) {
		t.Errorf("nodes %v, want %v", starts, want)
	}
	for _, g := range got.Groups {
		if len(g.Nodes) > 1 && (slices.Contains(g.Nodes, "e") || slices.Contains(g.Nodes, "d")) {
			t.Errorf("a node with its own flags is grouped with others: %v", g.Nodes)
		}
	}
}
