package kubeletcfg_test

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/internal/testonly/testtree"
)

// TestExampleLintdir builds examples/lintdir, the program docs/library.md
// points to, and runs it on a pool of two
// nodes: one that starts, one whose drop-in the kubelet refuses.
func TestExampleLintdir(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	bin := filepath.Join(t.TempDir(), "lintdir")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	build := exec.Command("go", "build", "-o", bin, "./examples/lintdir")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./examples/lintdir: %v\n%s", err, out)
	}
	const config = "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n"
	dir := testtree.Write(t, map[string]string{
		"a/config.yaml":      config + "maxPods: 50\n",
		"b/config.yaml":      config + "maxPods: 50\n",
		"b/conf.d/10.conf":   config + "maxPods: -1\n",
		"broken/notes.txt":   "no configuration here",
		"skipped-readme.txt": "not a node",
	})
	for _, tt := range []struct {
		name string
		args []string
		want string
		exit int
	}{
		{"pool", []string{"-kubelet-version", "1.36", dir}, "a: kubelet 1.36 starts, 0 findings at warning or above\n" +
			"b: kubelet 1.36 does NOT start, 1 findings at warning or above\n" +
			"broken: could not be read: " + filepath.Join(dir, "broken") + ": no config file (.yaml, .yml, .json, .configz) and no drop-in folder (conf.d, config.d, kubelet.conf.d, config.json.d or <config file>.d)\n", 1},
		{"unknown minor", []string{"-kubelet-version", "1.20", dir}, "", 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, err := exec.Command(bin, tt.args...).Output()
			exit := 0
			if ee, ok := err.(*exec.ExitError); ok {
				exit = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if string(out) != tt.want || exit != tt.exit {
				t.Errorf("exit %d, output:\n%s\nwant exit %d:\n%s", exit, out, tt.exit, tt.want)
			}
		})
	}
}
