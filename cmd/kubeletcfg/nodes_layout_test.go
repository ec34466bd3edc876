package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const (
	goodConfig = "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nmaxPods: 50\n"
	// badDropin makes the kubelet refuse: a negative maxPods.
	badDropin = "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nmaxPods: -1\n"
)

func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestNodeFiles: the main file, drop-in folder and flags files of a node
// folder, by the names in use; the ambiguous layouts are errors.
func TestNodeFiles(t *testing.T) {
	for _, tt := range []struct {
		name      string
		files     map[string]string
		config    string // base names; "" none
		configDir string
		flags     []string
		err       string
	}{
		{"conf.d", map[string]string{"config.yaml": goodConfig, "conf.d/10.conf": badDropin}, "config.yaml", "conf.d", nil, ""},
		{"config.d", map[string]string{"config.yaml": goodConfig, "config.d/10.conf": badDropin}, "config.yaml", "config.d", nil, ""},
		{"kubelet.conf.d", map[string]string{"config.yaml": goodConfig, "kubelet.conf.d/10.conf": badDropin}, "config.yaml", "kubelet.conf.d", nil, ""},
		{"nodeadm config.json.d", map[string]string{"config.json": "{}", "config.json.d/10.conf": badDropin}, "config.json", "config.json.d", nil, ""},
		{"named after the main file", map[string]string{"kubelet-config.yaml": goodConfig, "kubelet-config.yaml.d/10.conf": badDropin}, "kubelet-config.yaml", "kubelet-config.yaml.d", nil, ""},
		{"another folder is not drop-ins", map[string]string{"config.yaml": goodConfig, "backup/10.conf": badDropin}, "config.yaml", "", nil, ""},
		{"two drop-in folders", map[string]string{"config.yaml": goodConfig, "conf.d/10.conf": "", "config.d/10.conf": ""}, "", "", nil, "2 drop-in folders (conf.d, config.d)"},
		{"preferred main file", map[string]string{"config.json": "{}", "config.yaml": goodConfig, "kubelet-config.yaml": goodConfig}, "config.yaml", "", nil, ""},
		{"two main files", map[string]string{"a.yaml": goodConfig, "b.yaml": goodConfig}, "", "", nil, "2 config files (a.yaml, b.yaml)"},
		{"README is not the main file", map[string]string{"config.yaml": goodConfig, "README.md": "# notes", "notes.txt": "x"}, "config.yaml", "", nil, ""},
		{"flags files in order", map[string]string{"config.yaml": goodConfig, "cmdline": "--max-pods=3", "kubeadm-flags.env": "KUBELET_KUBEADM_ARGS=\"--max-pods=2\"", "kubelet.service": "[Service]\nExecStart=/usr/bin/kubelet\n"}, "config.yaml", "", []string{"kubelet.service", "kubeadm-flags.env", "cmdline"}, ""},
		{"unit drop-ins alone", map[string]string{"config.yaml": goodConfig, "kubelet.service.d/10-kubeadm.conf": "[Service]\n", "kubeadm-flags.env": "KUBELET_KUBEADM_ARGS=\"\"\n"}, "config.yaml", "", []string{"kubelet.service.d", "kubeadm-flags.env"}, ""},
		{"unit with its drop-ins", map[string]string{"config.yaml": goodConfig, "kubelet.service": "[Service]\n", "kubelet.service.d/10-kubeadm.conf": "[Service]\n"}, "config.yaml", "", []string{"kubelet.service"}, ""},
		{"nothing", map[string]string{"README.md": "# notes"}, "", "", nil, "no config file"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeTree(t, tt.files)
			config, configDir, flags, err := nodeFiles(dir)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			base := func(p string) string {
				if p == "" {
					return ""
				}
				return filepath.Base(p)
			}
			var got []string
			for _, f := range flags {
				got = append(got, base(f))
			}
			if base(config) != tt.config || base(configDir) != tt.configDir || strings.Join(got, ",") != strings.Join(tt.flags, ",") {
				t.Errorf("got %q %q %v, want %q %q %v", base(config), base(configDir), got, tt.config, tt.configDir, tt.flags)
			}
		})
	}
}

// TestLintNodesLayout runs lint --nodes on real pool layouts: a README is
// skipped with one info line, each drop-in folder name is read (the node that
// refuses says so, as lint -d does), flags files are applied.
func TestLintNodesLayout(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"README.md":                    "# pool",
		"notes.txt":                    "x",
		"a/config.yaml":                goodConfig,
		"b/config.yaml":                goodConfig,
		"b/kubelet.conf.d/10-bad.conf": badDropin,
		"c/config.json":                goodConfig,
		"c/config.json.d/10-bad.conf":  badDropin,
		"d/config.yaml":                goodConfig,
		"d/kubeadm-flags.env":          "KUBELET_KUBEADM_ARGS=\"--max-pods=-5\"\n",
		"e/config.yaml":                goodConfig,
		"e/cmdline":                    "/usr/bin/kubelet\x00--max-pods=70\x00",
		"f/config.yaml":                goodConfig,
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
