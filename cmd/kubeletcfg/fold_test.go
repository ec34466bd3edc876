package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A file repeating one mistake 40 times prints five findings and a count in
// lint, lint -o json and lint --nodes; the totals and --fail-on still count all
// 40, and the exit code is what it would be without folding.
func TestLintFoldsRepeatedFindings(t *testing.T) {
	dir := t.TempDir()
	node := filepath.Join(dir, "nodes", "node-a")
	if err := os.MkdirAll(node, 0o755); err != nil {
		t.Fatal(err)
	}
	doc := "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n" + strings.Repeat("maxPods: 50\n", 41)
	config := filepath.Join(dir, "config.yaml")
	for _, p := range []string{config, filepath.Join(node, "config.yaml")} {
		if err := os.WriteFile(p, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const summary = "and 35 more duplicate key findings in this file, lines 8 to 42 (the first 5 are shown)"
	for _, tc := range []struct {
		args []string
		exit int
		want []string
	}{
		{[]string{"lint", "-c", config}, exitClean, []string{summary, "0 errors, 40 warnings"}},
		{[]string{"lint", "-c", config, "--fail-on", "warning"}, exitFindings, []string{summary}},
		{[]string{"lint", "-c", config, "-o", "json"}, exitClean, []string{summary, `"folded": 35`}},
		{[]string{"lint", "--nodes", filepath.Join(dir, "nodes"), "-o", "json", "--fail-on", "warning"}, exitFindings, []string{summary, `"folded": 35`}},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(tc.args, &stdout, &stderr); code != tc.exit {
			t.Errorf("%v: exit %d, want %d; stderr %s", tc.args, code, tc.exit, stderr.String())
		}
		out := stdout.String()
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("%v: no %q in:\n%s", tc.args, w, out)
			}
		}
		if n := strings.Count(out, "the kubelet uses the value at line 43 and drops this one"); n != 5 {
			t.Errorf("%v: %d duplicate key findings printed in full, want 5:\n%s", tc.args, n, out)
		}
	}
}
