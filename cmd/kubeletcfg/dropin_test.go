package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const dropinNode = "../../testdata/dropin/node"

// TestDropinCLI covers dropin new and dropin diff verdicts; nothing here writes
// (dry runs, refusals, usage errors), so the repository's testdata is safe.
func TestDropinCLI(t *testing.T) {
	cfg, dir := dropinNode+"/config.yaml", dropinNode+"/conf.d"
	crash := []string{"--set", "crashLoopBackOff.maxContainerRestartPeriod=30s", "--feature-gate", "KubeletCrashLoopBackOffMax=true"}
	tests := []struct {
		name string
		args []string
		exit int
	}{
		{"dropin-new-dry-run", append([]string{"dropin", "new", "50-crashloop.conf", "-d", dir, "-c", cfg, "--versions", "1.32..1.37", "--dry-run"}, crash...), exitClean},
		{"dropin-new-older-minor", append([]string{"dropin", "new", "50-crashloop.conf", "-d", dir, "-c", cfg, "--versions", "1.31..1.37", "--dry-run"}, crash...), exitFindings},
		{"dropin-new-gate-needed", []string{"dropin", "new", "50-crashloop.conf", "-d", dir, "-c", cfg, "--versions", "1.34,1.37", "--set", "crashLoopBackOff.maxContainerRestartPeriod=30s"}, exitFindings},
		{"dropin-new-overridden", []string{"dropin", "new", "50-eviction.conf", "-d", dir, "-c", cfg, "--set", "evictionHard[memory.available]=200Mi", "--dry-run"}, exitFindings},
		{"dropin-new-override-allowed", []string{"dropin", "new", "50-eviction.conf", "-d", dir, "-c", cfg, "--set", "evictionHard[memory.available]=200Mi", "--allow-override", "--dry-run"}, exitClean},
		{"dropin-new-types", []string{"dropin", "new", "95-mixed.conf", "-d", dir, "-c", cfg, "--set", "clusterDNS=[10.0.0.10, 10.0.0.11]", "--set", "maxpods=50", "--set", "kubeReserved=null", "--set", "cpuCFSQuotaPeriod=100ms", "--set", "registerWithTaints=[{key: dedicated, value: gpu, effect: NoSchedule}]", "--dry-run", "-o", "json"}, exitClean},
		{"dropin-new-null-at-1.31", []string{"dropin", "new", "95-null.conf", "-d", dir, "-c", cfg, "--set", "kubeReserved=null", "--versions", "1.31,1.32", "--dry-run"}, exitFindings},
		{"dropin-new-invalid-value", []string{"dropin", "new", "95-bad.conf", "-d", dir, "-c", cfg, "--set", "crashLoopBackOff.maxContainerRestartPeriod=10m", "--dry-run"}, exitFindings},
		{"dropin-new-unknown-gate", []string{"dropin", "new", "95-gate.conf", "-d", dir, "-c", cfg, "--feature-gate", "ReduceDefaultCrashLoopBackoffDecay=true", "--dry-run"}, exitUsage},
		{"dropin-new-clobber", []string{"dropin", "new", "10-pool.conf", "-d", dir, "--set", "maxPods=10"}, exitUsage},
		{"dropin-new-bad-name-path", []string{"dropin", "new", "../escape.conf", "-d", dir, "--set", "maxPods=10"}, exitUsage},
		{"dropin-new-bad-name-ext", []string{"dropin", "new", "50-pods.yaml", "-d", dir, "--set", "maxPods=10"}, exitUsage},
		{"dropin-new-unknown-field", []string{"dropin", "new", "50-pods.conf", "-d", dir, "--set", "maxPod=10"}, exitUsage},
		{"dropin-new-draft-name", []string{"dropin", "new", "50-crash.conf", "-d", dir, "--set", "crashloopbackoff.maxSeconds=30"}, exitUsage},
		{"dropin-new-bad-type", []string{"dropin", "new", "50-pods.conf", "-d", dir, "--set", "maxPods=lots"}, exitUsage},
		{"dropin-new-list-scalar", []string{"dropin", "new", "50-dns.conf", "-d", dir, "--set", "clusterDNS=10.0.0.10"}, exitUsage},
		{"dropin-new-map-dot", []string{"dropin", "new", "50-ev.conf", "-d", dir, "--set", "evictionHard.memory.available=1Gi"}, exitUsage},
		{"dropin-new-overlap", []string{"dropin", "new", "50-x.conf", "-d", dir, "--set", "crashLoopBackOff=null", "--set", "crashLoopBackOff.maxContainerRestartPeriod=30s"}, exitUsage},
		// By default the n-3 window: a gate only 1.37 registers is refused
		// by the 1.34..1.36 kubelets of a pool mid-upgrade; asked for 1.37
		// alone, it is written.
		{"dropin-new-default-window", []string{"dropin", "new", "50-gate.conf", "-d", dir, "-c", cfg, "--feature-gate", "HugepageAwareEviction=true", "--dry-run"}, exitFindings},
		{"dropin-new-default-window-one-minor", []string{"dropin", "new", "50-gate.conf", "-d", dir, "-c", cfg, "--feature-gate", "HugepageAwareEviction=true", "--kubelet-version", "1.37", "--dry-run"}, exitClean},
		{"dropin-new-no-dir", []string{"dropin", "new", "50-x.conf", "--set", "maxPods=10"}, exitUsage},
		{"dropin-diff", []string{"dropin", "diff", "--from", cfg, "--from", dir, "--to", "../../testdata/dropin/golden.yaml", "--versions", "1.32..1.37"}, exitClean},
		{"dropin-diff-equal", []string{"dropin", "diff", "--from", "../../testdata/dropin/golden.yaml", "--to", "../../testdata/dropin/golden.yaml"}, exitClean},
		{"dropin-diff-configz", []string{"dropin", "diff", "--from", "../../testdata/dropin/configz.json", "--to", "../../testdata/dropin/golden.yaml"}, exitClean},
		{"dropin-diff-not-exact-1.31", []string{"dropin", "diff", "--from", cfg, "--from", dir, "--to", "../../testdata/dropin/golden.yaml", "--versions", "1.31,1.37"}, exitFindings},
		{"dropin-diff-no-to", []string{"dropin", "diff", "--from", cfg}, exitUsage},
		// -o is the output format, as in every command; the file is --output-file.
		{"dropin-diff-json", []string{"dropin", "diff", "--from", cfg, "--from", dir, "--to", "../../testdata/dropin/golden.yaml", "--versions", "1.32..1.37", "-o", "json"}, exitClean},
		{"dropin-diff-json-not-exact-1.31", []string{"dropin", "diff", "--from", cfg, "--from", dir, "--to", "../../testdata/dropin/golden.yaml", "--versions", "1.31,1.37", "-o", "json"}, exitFindings},
		{"dropin-diff-json-equal", []string{"dropin", "diff", "--from", "../../testdata/dropin/golden.yaml", "--to", "../../testdata/dropin/golden.yaml", "-o", "json"}, exitClean},
		{"dropin-diff-o-file", []string{"dropin", "diff", "--from", cfg, "--to", "../../testdata/dropin/golden.yaml", "-o", dir + "/95-golden.conf"}, exitUsage},
		{"dropin-diff-o-unknown", []string{"dropin", "diff", "--from", cfg, "--to", "../../testdata/dropin/golden.yaml", "-o", "yaml"}, exitUsage},
		{"dropin-diff-out-and-output-file", []string{"dropin", "diff", "--from", cfg, "--to", "../../testdata/dropin/golden.yaml", "--out", "a.conf", "--output-file", "b.conf"}, exitUsage},
		// --kubelet-version is one minor, as in every command; a list is --versions.
		{"dropin-new-kubelet-version-list", []string{"dropin", "new", "50-x.conf", "-d", dir, "--set", "maxPods=10", "--kubelet-version", "1.34,1.37"}, exitUsage},
		{"dropin-diff-kubelet-version-list", []string{"dropin", "diff", "--from", cfg, "--to", "../../testdata/dropin/golden.yaml", "--kubelet-version", "1.34,1.37"}, exitUsage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { runGolden(t, tt.name, tt.args, tt.exit) })
	}
}

// copyTree copies a folder of small files for tests that write.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// dropin new writes what its dry run shows, with the mode asked for, and only once.
func TestDropinNewWrites(t *testing.T) {
	node := t.TempDir()
	copyTree(t, dropinNode, node)
	dir := filepath.Join(node, "conf.d")
	args := []string{"dropin", "new", "50-crashloop.conf", "-d", dir, "-c", filepath.Join(node, "config.yaml"),
		"--set", "crashLoopBackOff.maxContainerRestartPeriod=30s", "--feature-gate", "KubeletCrashLoopBackOffMax=true", "--versions", "1.32..1.37"}
	var dry, stderr bytes.Buffer
	if code := run(append(args, "--dry-run", "-o", "json"), &dry, &stderr); code != exitClean {
		t.Fatalf("dry run: exit %d: %s", code, stderr.String())
	}
	var rep struct {
		Content string
		Written bool
	}
	if err := json.Unmarshal(dry.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(dir, "50-crashloop.conf")
	if rep.Written {
		t.Error("a dry run reports written")
	}
	if _, err := os.Stat(target); err == nil {
		t.Fatal("a dry run wrote the file")
	}
	var out bytes.Buffer
	if code := run(append(args, "--mode", "0600"), &out, &stderr); code != exitClean {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	got, err := os.ReadFile(target)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != rep.Content {
		t.Errorf("written file differs from the dry run:\n%s\n---\n%s", got, rep.Content)
	}
	checkGolden(t, "dropin-new-written-file", string(got))
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", fi.Mode().Perm())
	}
	if !strings.Contains(out.String(), "wrote "+target) {
		t.Errorf("output does not say it wrote the file:\n%s", out.String())
	}
	// Again: refused without --force, file untouched; replaced with it.
	stderr.Reset()
	if code := run(append(args[:len(args):len(args)], "--set", "maxPods=20"), &out, &stderr); code != exitUsage || !strings.Contains(stderr.String(), "--force") {
		t.Errorf("second write: exit %d, stderr %q", code, stderr.String())
	}
	if b, _ := os.ReadFile(target); !bytes.Equal(b, got) {
		t.Error("a refused write changed the file")
	}
	if code := run(append(args[:len(args):len(args)], "--force", "--set", "maxPods=20"), &out, &stderr); code != exitClean {
		t.Fatalf("--force: exit %d: %s", code, stderr.String())
	}
	if b, _ := os.ReadFile(target); !bytes.Contains(b, []byte("maxPods: 20")) {
		t.Errorf("--force did not replace the file:\n%s", b)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
}

// A refused drop-in leaves the folder as it was.
func TestDropinNewRefusedWritesNothing(t *testing.T) {
	node := t.TempDir()
	copyTree(t, dropinNode, node)
	dir := filepath.Join(node, "conf.d")
	before, _ := os.ReadDir(dir)
	var out, stderr bytes.Buffer
	code := run([]string{"dropin", "new", "50-x.conf", "-d", dir, "--feature-gate", "NodeSwap=false"}, &out, &stderr) // locked to true: the kubelet panics
	if code != exitFindings {
		t.Errorf("exit %d, want %d", code, exitFindings)
	}
	after, _ := os.ReadDir(dir)
	if len(after) != len(before) {
		t.Errorf("folder changed: %v -> %v", before, after)
	}
}

// dropin diff --output-file writes the drop-in; merged by kubeletcfg it gives the desired config.
func TestDropinDiffWrites(t *testing.T) {
	node := t.TempDir()
	copyTree(t, dropinNode, node)
	dir := filepath.Join(node, "conf.d")
	target := filepath.Join(dir, "95-golden.conf")
	var out, stderr bytes.Buffer
	args := []string{"dropin", "diff", "--from", filepath.Join(node, "config.yaml"), "--from", dir, "--to", "../../testdata/dropin/golden.yaml", "--output-file", target}
	if code := run(args, &out, &stderr); code != exitClean {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	// The folder now holds the drop-in: the diff from it to the golden config is empty.
	out.Reset()
	stderr.Reset()
	if code := run([]string{"dropin", "diff", "--from", filepath.Join(node, "config.yaml"), "--from", dir, "--to", "../../testdata/dropin/golden.yaml"}, &out, &stderr); code != exitClean {
		t.Fatalf("second diff: exit %d: %s", code, stderr.String())
	}
	if out.Len() != 0 || !strings.Contains(stderr.String(), "no difference") {
		t.Errorf("after writing the drop-in, diff still finds:\n%s\n%s", out.String(), stderr.String())
	}
	if code := run(args, &out, &stderr); code != exitUsage {
		t.Errorf("--output-file over an existing file without --force: exit %d", code)
	}
}

// --out, the old name of --output-file, still writes, with a deprecation note.
func TestDropinDiffOldOut(t *testing.T) {
	node := t.TempDir()
	copyTree(t, dropinNode, node)
	target := filepath.Join(node, "conf.d", "95-golden.conf")
	var out, stderr bytes.Buffer
	args := []string{"dropin", "diff", "--from", filepath.Join(node, "config.yaml"), "--from", filepath.Join(node, "conf.d"), "--to", "../../testdata/dropin/golden.yaml", "--out", target}
	if code := run(args, &out, &stderr); code != exitClean {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if _, err := os.Stat(target); err != nil || !strings.HasPrefix(out.String(), "wrote ") {
		t.Errorf("--out wrote nothing: %v\n%s", err, out.String())
	}
	if !strings.Contains(stderr.String(), "kubeletcfg: --out is deprecated, use --output-file") {
		t.Errorf("no deprecation note: %q", stderr.String())
	}
}

// A symlink at the target is refused without --force and replaced, never
// written through, with it: the write cannot land outside the folder.
func TestDropinNewSymlinkNotFollowed(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	victim := filepath.Join(outside, "victim.conf")
	if err := os.WriteFile(victim, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "50-x.conf")
	if err := os.Symlink(victim, link); err != nil {
		t.Fatal(err)
	}
	args := []string{"dropin", "new", "50-x.conf", "-d", dir, "--set", "maxPods=20"}
	var out, stderr bytes.Buffer
	if code := run(args, &out, &stderr); code != exitUsage {
		t.Errorf("without --force: exit %d", code)
	}
	if code := run(append(args, "--force"), &out, &stderr); code != exitClean {
		t.Fatalf("--force: exit %d: %s", code, stderr.String())
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep" {
		t.Errorf("the write went through the symlink: %q", b)
	}
	if fi, err := os.Lstat(link); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("the link was not replaced by a regular file: %v", err)
	}
}
