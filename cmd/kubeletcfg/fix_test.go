package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const fixdata = "../../testdata/fix/"

// TestCLIFix is TestCLI for kubeletcfg fix: --diff writes nothing, so the
// testdata inputs are used where they are (go test ./cmd/kubeletcfg -run Fix
// -update rewrites the goldens).
func TestCLIFix(t *testing.T) {
	node := []string{"-c", fixdata + "node/config.yaml", "-d", fixdata + "node/conf.d"}
	tests := []struct {
		name string
		args []string
		exit int
	}{
		{"fix-node-diff", append([]string{"fix", "--diff"}, node...), exitClean},
		{"fix-node-with-1.31", append([]string{"fix", "--diff", "--versions", "1.31..1.37"}, node...), exitFindings},
		{"fix-node-1.37", append([]string{"fix", "--diff", "--kubelet-version", "1.37"}, node...), exitClean},
		{"fix-json-diff", []string{"fix", "--diff", "--kubelet-version", "1.34", "-c", fixdata + "json/config.json"}, exitClean},
		{"fix-toolarge-diff", []string{"fix", "--diff", "-c", fixdata + "toolarge/config.yaml"}, exitFindings},
		{"fix-gate-off", []string{"fix", "--diff", "-c", fixdata + "gate-off/config.yaml", "-d", fixdata + "gate-off/conf.d"}, exitFindings},
		{"fix-worse-diff", []string{"fix", "--diff", "-c", fixdata + "worse/config.yaml"}, exitFindings},
		{"fix-clean", []string{"fix", "-c", fixdata + "clean/config.yaml"}, exitClean},
		// The Kubernetes docs' crash-loop example lacks apiVersion; once it
		// is added, kubelet 1.34 still refuses the cap (its gate is off).
		{"fix-docs-diff", []string{"fix", "--diff", "-c", fixdata + "docs/config.yaml"}, exitFindings},
		{"fix-docs-1.35", []string{"fix", "--diff", "--versions", "1.35..1.37", "-c", fixdata + "docs/config.yaml"}, exitClean},
		// A deprecated gate locked to its value (KC3006) is removed where it
		// is locked at every target minor.
		{"fix-deprecated-diff", []string{"fix", "--diff", "--versions", "1.36..1.37", "-c", fixdata + "deprecated/config.yaml"}, exitClean},
		{"fix-gates-diff", []string{"fix", "--diff", "-c", fixdata + "gates/config.yaml", "-d", fixdata + "gates/conf.d"}, exitFindings},
		// Nothing fix can repair, and the kubelet still panics: exit code 1.
		{"fix-left", []string{"fix", "-c", fixdata + "left/config.yaml"}, exitFindings},
		{"fix-left-diff", []string{"fix", "--diff", "-c", fixdata + "left/config.yaml"}, exitFindings},
		{"fix-missing-file", []string{"fix", "-c", "does/not/exist.yaml"}, exitUsage},
		{"fix-missing-dir", []string{"fix", "-c", fixdata + "clean/config.yaml", "-d", "no/such/dir", "--diff"}, exitUsage},
		{"fix-no-input", []string{"fix"}, exitUsage},
		{"fix-bad-version", []string{"fix", "-c", fixdata + "clean/config.yaml", "--kubelet-version", "1.12"}, exitUsage},
		{"fix-both-versions", []string{"fix", "-c", fixdata + "clean/config.yaml", "--kubelet-version", "1.37", "--versions", "1.34..1.37"}, exitUsage},
		{"fix-help", []string{"fix", "--help"}, exitClean},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { runGolden(t, tt.name, tt.args, tt.exit) })
	}
}

// copyInput copies a testdata/fix folder to a temporary one and returns it.
func copyInput(t *testing.T, name string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(fixdata+name, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(fixdata+name, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// runFixInPlace runs kubeletcfg fix on a copy of a testdata/fix folder and
// returns the folder and the output, with the folder's path written as $DIR.
func runFixInPlace(t *testing.T, name string, exit int, extra ...string) (string, string) {
	t.Helper()
	return runFixInPlaceDir(t, copyInput(t, name), exit, extra...)
}

// runFixInPlaceDir is runFixInPlace on a folder already copied.
func runFixInPlaceDir(t *testing.T, dir string, exit int, extra ...string) (string, string) {
	t.Helper()
	args := []string{"fix", "-c", filepath.Join(dir, "config.yaml")}
	if _, err := os.Stat(filepath.Join(dir, "conf.d")); err == nil {
		args = append(args, "-d", filepath.Join(dir, "conf.d"))
	}
	args = append(args, extra...)
	var stdout, stderr bytes.Buffer
	if code := run(args, &stdout, &stderr); code != exit {
		t.Errorf("exit code %d, want %d\nstderr: %s", code, exit, stderr.String())
	}
	out := stdout.String()
	if stderr.Len() > 0 {
		out += "--- stderr\n" + stderr.String()
	}
	return dir, strings.ReplaceAll(out, dir, "$DIR")
}

// In place: every file is rewritten atomically with its mode kept, and the
// rewritten files are compared with goldens; the report names the files.
func TestFixInPlace(t *testing.T) {
	dir := copyInput(t, "node")
	if err := os.Chmod(filepath.Join(dir, "config.yaml"), 0o600); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	args := []string{"fix", "-c", filepath.Join(dir, "config.yaml"), "-d", filepath.Join(dir, "conf.d")}
	if code := run(args, &stdout, &stderr); code != exitClean {
		t.Fatalf("exit code %d\nstderr: %s", code, stderr.String())
	}
	checkGolden(t, "fix-inplace-output", strings.ReplaceAll(stdout.String(), dir, "$DIR"))
	for golden, file := range map[string]string{
		"fix-inplace-config.yaml":      "config.yaml",
		"fix-inplace-10-pods.conf":     "conf.d/10-pods.conf",
		"fix-inplace-20-provider.conf": "conf.d/20-provider.conf",
	} {
		data, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		checkGolden(t, golden, string(data))
	}
	if fi, err := os.Stat(filepath.Join(dir, "config.yaml")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("config.yaml mode %v, want 0600 kept (%v)", fi.Mode().Perm(), err)
	}
	// A second run finds nothing left to repair.
	stdout.Reset()
	if code := run(args, &stdout, &stderr); code != exitClean || !strings.Contains(stdout.String(), "nothing to fix") {
		t.Errorf("second run: exit %d, output %q", code, stdout.String())
	}
}

// A mistake left is reported with exit code 1; the repairs made are written.
// Repairs that lint worse write nothing.
func TestFixInPlacePartialAndRefused(t *testing.T) {
	dir, out := runFixInPlace(t, "toolarge", exitFindings)
	checkGolden(t, "fix-inplace-toolarge-output", out)
	data, err := os.ReadFile(filepath.Join(dir, "config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "fix-inplace-toolarge.yaml", string(data))

	dir, out = runFixInPlace(t, "worse", exitFindings)
	if !strings.Contains(out, "nothing written") {
		t.Errorf("worse: output %q", out)
	}
	orig, _ := os.ReadFile(fixdata + "worse/config.yaml")
	now, _ := os.ReadFile(filepath.Join(dir, "config.yaml"))
	if !bytes.Equal(orig, now) {
		t.Errorf("worse: the file was written:\n%s", now)
	}
}

// In place with an error left: the repairs are written, what is left is
// listed at the lines of the written files, and the exit code is 1.
func TestFixInPlaceErrorsLeft(t *testing.T) {
	dir, out := runFixInPlace(t, "gates", exitFindings)
	checkGolden(t, "fix-inplace-gates-output", out)
	data, err := os.ReadFile(filepath.Join(dir, "config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "fix-inplace-gates.yaml", string(data))
	// The line fix names is the NodeSwap entry of the written file.
	if lines := strings.Split(string(data), "\n"); len(lines) < 5 || !strings.HasPrefix(strings.TrimSpace(lines[4]), "NodeSwap: false") ||
		!strings.Contains(out, "$DIR/config.yaml:5:3: error: feature gate NodeSwap is locked to true") {
		t.Errorf("the error left does not point at the NodeSwap line of the written file:\n%s\n%s", data, out)
	}
	// A second run repairs nothing and still says what is wrong.
	_, out = runFixInPlaceDir(t, dir, exitFindings)
	if !strings.Contains(out, "nothing fix can repair; 1 error and 0 warnings left") || strings.Contains(out, "nothing to fix") {
		t.Errorf("second run: %s", out)
	}
}

// --diff writes nothing.
func TestFixDiffWritesNothing(t *testing.T) {
	dir, out := runFixInPlace(t, "node", exitClean, "--diff")
	if !strings.Contains(out, "+++ b") || !strings.Contains(out, "@@ -") {
		t.Fatalf("no diff in %q", out)
	}
	for _, f := range []string{"config.yaml", "conf.d/10-pods.conf", "conf.d/20-provider.conf"} {
		orig, _ := os.ReadFile(fixdata + "node/" + f)
		now, _ := os.ReadFile(filepath.Join(dir, f))
		if !bytes.Equal(orig, now) {
			t.Errorf("%s changed by --diff", f)
		}
	}
}

// Input errors of fix are one line naming the path, never a stack trace.
func TestFixErrorsAreOneLine(t *testing.T) {
	for _, args := range [][]string{
		{"fix", "-c", "does/not/exist.yaml"},
		{"fix", "-c", fixdata + "clean/config.yaml", "-d", "no/such/dir"},
		{"fix", "-c", fixdata + "clean"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
		msg := stderr.String()
		if strings.Count(msg, "\n") != 1 || !strings.Contains(msg, args[len(args)-1]) || strings.Contains(msg, "goroutine") {
			t.Errorf("%v: want one line naming the path, got %q", args, msg)
		}
	}
}
