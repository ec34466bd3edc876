package input

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestKubeadmPatchesPositions: what a patch sets is reported in the patch file,
// at the key (strategic and merge patches) or the operation (JSON patches); a
// folder kubeadm cannot read stops kubeadm init, and so the conversion.
func TestKubeadmPatchesPositions(t *testing.T) {
	cases, err := filepath.Abs(filepath.Join("..", "testdata", "kubeadm", "cases"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, dir  string
		opt        Options
		rule, path string
		file       string
		line       int
		err        string
	}{
		{name: "strategic", dir: "patches-strategic", rule: "KC3002", path: "featureGates[KubeletTracing]",
			file: "patches/kubeletconfiguration.yaml", line: 9},
		{name: "merge", dir: "patches-kinds", rule: "KC3005", path: "featureGates[NodeSwap]",
			file: "patches/kubeletconfiguration0+merge.yaml", line: 4},
		{name: "flag over the config", dir: "patches-kinds", opt: Options{Kubeadm: KubeadmOptions{Patches: "../patches-strategic/patches"}},
			rule: "KC3002", path: "featureGates[KubeletTracing]", file: "../patches-strategic/patches/kubeletconfiguration.yaml", line: 9},
		{name: "no folder", dir: "patches-kinds", opt: Options{Kubeadm: KubeadmOptions{Patches: "no-such-folder"}},
			err: `kubeadm init stops: could not list patch files for path "no-such-folder": lstat no-such-folder: no such file or directory`},
		{name: "a file, not a folder", dir: "patches-kinds", opt: Options{Kubeadm: KubeadmOptions{Patches: "kubeadm.yaml"}},
			err: `could not list patch files for path "kubeadm.yaml": getPatchSetsFromPath kubeadm.yaml: not a directory`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(cases, tt.dir)
			t.Chdir(dir)
			data, err := os.ReadFile("kubeadm.yaml")
			if err != nil {
				t.Fatal(err)
			}
			s, err := ConvertOptions("kubeadm.yaml", data, Auto, tt.opt)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			r := settle(t, s)
			f := findingOf(r, tt.rule, tt.path)
			if f == nil {
				t.Fatalf("no %s finding on %s in %+v", tt.rule, tt.path, r.Findings)
			}
			if f.File != tt.file || f.Line != tt.line {
				t.Errorf("%s at %s:%d, want %s:%d", f.Rule, f.File, f.Line, tt.file, tt.line)
			}
		})
	}
}

// TestJSONPatchPositions: a JSON patch's operations are found by their path.
func TestJSONPatchPositions(t *testing.T) {
	dir := t.TempDir()
	patch := "[\n  {\"op\": \"add\", \"path\": \"/healthzPort\", \"value\": 70000},\n  {\"op\": \"add\", \"path\": \"/logging\", \"value\": {\"format\": \"bogus\"}}\n]\n"
	if err := os.WriteFile(filepath.Join(dir, "kubeletconfiguration+json.json"), []byte(patch), 0o644); err != nil {
		t.Fatal(err)
	}
	data := []byte("apiVersion: kubeadm.k8s.io/v1beta4\nkind: InitConfiguration\n")
	s, err := ConvertOptions("kubeadm.yaml", data, Auto, Options{Kubeadm: KubeadmOptions{Patches: dir}})
	if err != nil {
		t.Fatal(err)
	}
	r := settle(t, s)
	file := filepath.Join(dir, "kubeletconfiguration+json.json")
	for path, line := range map[string]int{"healthzPort": 2, "logging.format": 3} {
		var got *int
		for _, f := range r.Findings {
			if f.Path == path {
				got = &f.Line
				if f.File != file {
					t.Errorf("%s: %s in %s, want %s", path, f.Rule, f.File, file)
				}
			}
		}
		if got == nil || *got != line {
			t.Errorf("%s: line %v, want %d (findings %+v)", path, got, line, r.Findings)
		}
	}
}
