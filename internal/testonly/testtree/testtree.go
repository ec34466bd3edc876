// Package testtree writes the folders of files that tests evaluate: node
// folders, drop-in folders, pools.
package testtree

import (
	"os"
	"path/filepath"
	"testing"
)

// Configurations that tests put in those folders.
const (
	// GoodConfig is a main file the kubelet starts with.
	GoodConfig = "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nmaxPods: 50\n"
	// BadDropin makes the kubelet refuse: a negative maxPods.
	BadDropin = "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nmaxPods: -1\n"
)

// Write writes files (slash-separated names relative to a new temporary
// folder, their folders made as needed) and returns the folder.
func Write(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
