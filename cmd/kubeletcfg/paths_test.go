package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/report"
)

const inputsNodes = "../../testdata/inputs/nodes/"

// TestLintPathIsConfig: `lint PATH` is `lint -c PATH`, byte for byte, in every
// format and with drop-ins.
func TestLintPathIsConfig(t *testing.T) {
	for _, extra := range [][]string{
		{},
		{"-d", example + "/conf.d"},
		{"-o", "json"},
		{"-o", "sarif", "-d", example + "/conf.d"},
		{"-o", "junit"},
		{"-o", "github"},
	} {
		var a, b, ea, eb bytes.Buffer
		ca := run(append([]string{"lint", example + "/config.yaml"}, extra...), &a, &ea)
		cb := run(append([]string{"lint", "-c", example + "/config.yaml"}, extra...), &b, &eb)
		if ca != cb || a.String() != b.String() || ea.String() != eb.String() {
			t.Errorf("%v: lint PATH (exit %d) differs from lint -c PATH (exit %d):\n%s\n---\n%s", extra, ca, cb, a.String(), b.String())
		}
	}
}

// TestCLIPaths: several paths, each its own node; the usage errors.
func TestCLIPaths(t *testing.T) {
	several := []string{example + "/config.yaml", inputsNodes + "pool-a-1/config.yaml", inputsNodes + "pool-b-1.json"}
	refused := inputsNodes + "pool-a-4/config.yaml"
	tests := []struct {
		name string
		args []string
		exit int
	}{
		{"paths-several", append([]string{"lint"}, several...), exitClean},
		{"paths-several-warning", append([]string{"lint", "--fail-on", "warning"}, several...), exitFindings},
		{"paths-several-quiet", append([]string{"lint", "-q"}, several...), exitClean},
		{"paths-several-json", append([]string{"lint", "-o", "json"}, several...), exitClean},
		{"paths-several-sarif", append([]string{"lint", "-o", "sarif"}, several...), exitClean},
		{"paths-several-junit", append([]string{"lint", "-o", "junit"}, several...), exitClean},
		{"paths-several-github", append([]string{"lint", "-o", "github"}, several...), exitClean},
		{"paths-unreadable", []string{"lint", example + "/config.yaml", "no/such.yaml"}, exitUsage},
		{"paths-unreadable-json", []string{"lint", "-o", "json", example + "/config.yaml", "no/such.yaml"}, exitUsage},
		{"paths-folder", []string{"lint", example}, exitUsage},
		{"paths-folder-among-files", []string{"lint", example + "/config.yaml", example}, exitUsage},
		{"paths-and-config", []string{"lint", example + "/config.yaml", "-c", refused}, exitUsage},
		{"paths-config-dir", []string{"lint", example + "/config.yaml", refused, "-d", example + "/conf.d"}, exitUsage},
		{"paths-and-nodes", []string{"lint", example + "/config.yaml", "--nodes", inputsNodes}, exitUsage},
		{"paths-stdin-twice", []string{"lint", "-", "-"}, exitUsage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { runGolden(t, tt.name, tt.args, tt.exit) })
	}
}

// TestCLIPathsStdin: `-` among the paths reads standard input once.
func TestCLIPathsStdin(t *testing.T) {
	data, err := os.ReadFile(inputsNodes + "pool-a-1/config.yaml")
	if err != nil {
		t.Fatal(err)
	}
	withStdin(t, data)
	runGolden(t, "paths-stdin", []string{"lint", "-", example + "/config.yaml", "--fail-on", "warning"}, exitFindings)
}

// TestCLINodesFormats: lint --nodes on a pool with a README, the drop-in
// folder names in use and a kubeadm-flags.env, in every output format.
func TestCLINodesFormats(t *testing.T) {
	pool := "../../testdata/inputs/pool"
	for _, f := range report.Formats() {
		runGolden(t, "nodes-pool-"+f, []string{"lint", "--nodes", pool, "-o", f}, exitFindings)
	}
	runGolden(t, "nodes-pool-sarif-versions", []string{"lint", "--nodes", pool, "-o", "sarif", "--versions", "1.36..1.37"}, exitFindings)
	runGolden(t, "nodes-one-node-folder", []string{"lint", "--nodes", pool + "/node-2"}, exitUsage)
	runGolden(t, "nodes-no-config-files", []string{"lint", "--nodes", example + "/conf.d"}, exitUsage)
	runGolden(t, "nodes-broken-junit", []string{"lint", "--nodes", inputsNodes, "-o", "junit"}, exitUsage)
	// GitHub: one summary line per group of identical nodes.
	runGolden(t, "nodes-broken-github", []string{"lint", "--nodes", inputsNodes, "-o", "github"}, exitUsage)
}

// TestOnePathCommands: effective, skew, preflight, backoff and fix take one path as
// -c, byte for byte; more than one path or a folder is a usage error.
func TestOnePathCommands(t *testing.T) {
	cfg := example + "/config.yaml"
	for _, args := range [][]string{
		{"effective", "-o", "json"},
		{"skew", "--versions", "1.33..1.37", "-d", example + "/conf.d"},
		{"preflight", "--from", "1.33"},
		{"backoff"},
		{"fix", "--diff", "-d", example + "/conf.d"},
	} {
		var a, b, ea, eb bytes.Buffer
		ca := run(append(append([]string{}, args...), cfg), &a, &ea)
		cb := run(append(append([]string{}, args...), "-c", cfg), &b, &eb)
		if ca != cb || a.String() != b.String() || ea.String() != eb.String() {
			t.Errorf("%v: PATH (exit %d) differs from -c PATH (exit %d):\n%s\n---\n%s", args, ca, cb, a.String(), b.String())
		}
		if a.Len() == 0 {
			t.Errorf("%v: no output", args)
		}
	}
	runGolden(t, "paths-effective-two", []string{"effective", cfg, cfg}, exitUsage)
	runGolden(t, "paths-skew-folder", []string{"skew", example}, exitUsage)
	runGolden(t, "paths-backoff-and-config", []string{"backoff", cfg, "-c", cfg}, exitUsage)
	runGolden(t, "paths-fix-folder", []string{"fix", example}, exitUsage)
	runGolden(t, "paths-fix-two", []string{"fix", cfg, cfg}, exitUsage)
}

// TestConfigDirIsAFile: -d naming a file is a usage error in every command
// that reads a node's files (one line naming it); a folder is read. The
// kubelet's own --config-dir=FILE (in its flags) is what the kubelet does with
// it, not a slip of kubeletcfg's user, so it is still evaluated.
func TestConfigDirIsAFile(t *testing.T) {
	cfg, dir := example+"/config.yaml", example+"/conf.d"
	for _, tt := range []struct {
		args []string
		exit int
	}{
		{[]string{"lint", "-c", cfg, "-d", cfg}, exitUsage},
		{[]string{"effective", cfg, "-d", cfg}, exitUsage},
		{[]string{"skew", "-c", cfg, "--config-dir", cfg}, exitUsage},
		{[]string{"preflight", "--from", "1.36", "-c", cfg, "-d", cfg}, exitUsage},
		{[]string{"backoff", "-c", cfg, "-d", cfg}, exitUsage},
		{[]string{"fix", "--diff", "-c", cfg, "-d", cfg}, exitUsage},
		{[]string{"lint", "-c", cfg, "-d", dir}, exitFindings}, // read: its drop-in turns a gate off
		{[]string{"lint", "--kubelet-flags", "--config=" + cfg + " --config-dir=" + cfg}, exitClean},
	} {
		var stdout, stderr bytes.Buffer
		code := run(tt.args, &stdout, &stderr)
		want := "kubeletcfg: --config-dir " + cfg + " is a file, not a folder"
		if code != tt.exit || (tt.exit == exitUsage) != strings.HasPrefix(stderr.String(), want) || tt.exit == exitUsage && strings.Count(stderr.String(), "\n") != 1 {
			t.Errorf("%v: exit %d, want %d; stderr %q", tt.args, code, tt.exit, stderr.String())
		}
	}
	runGolden(t, "paths-config-dir-file", []string{"lint", "-c", cfg, "-d", cfg}, exitUsage)
}
