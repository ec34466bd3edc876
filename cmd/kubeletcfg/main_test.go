package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

const example = "../../testdata/examples/node"

// TestCLI runs whole commands and compares their output and exit code with golden
// files (go test ./cmd/kubeletcfg -update rewrites them).
func TestCLI(t *testing.T) {
	tests := []struct {
		name string
		args []string
		exit int
	}{
		{"lint-example", []string{"lint", "--config", example + "/config.yaml", "--config-dir", example + "/conf.d"}, exitFindings},
		{"lint-example-json", []string{"lint", "-c", example + "/config.yaml", "-d", example + "/conf.d", "-o", "json"}, exitFindings},
		{"lint-main-only-fail-on-warning", []string{"lint", "-c", example + "/config.yaml", "--fail-on", "warning"}, exitFindings},
		{"lint-main-only", []string{"lint", "-c", example + "/config.yaml"}, exitClean},
		{"lint-main-only-quiet", []string{"lint", "-c", example + "/config.yaml", "-q", "--fail-on", "none"}, exitClean},
		{"lint-cgroup-v1", []string{"lint", "-c", example + "/config.yaml", "--cgroup-version", "v1"}, exitFindings},
		{"effective-origin", []string{"effective", "-c", example + "/config.yaml", "--show-origin"}, exitClean},
		{"effective-json", []string{"effective", "-c", example + "/config.yaml", "-o", "json"}, exitClean},
		{"effective-refused", []string{"effective", "-c", example + "/config.yaml", "-d", example + "/conf.d"}, exitFindings},
		{"missing-file", []string{"lint", "-c", "does/not/exist.yaml"}, exitUsage},
		{"config-is-dir", []string{"lint", "-c", example}, exitUsage},
		{"missing-dir", []string{"lint", "-c", example + "/config.yaml", "-d", "no/such/dir"}, exitUsage},
		{"no-input", []string{"lint"}, exitUsage},
		{"bad-version", []string{"lint", "-c", example + "/config.yaml", "--kubelet-version", "1.12"}, exitUsage},
		{"patch-version", []string{"lint", "-c", example + "/config.yaml", "--kubelet-version", "v1.37.2", "-q"}, exitClean},
		{"bad-output", []string{"lint", "-c", example + "/config.yaml", "-o", "xml"}, exitUsage},
		{"bad-fail-on", []string{"lint", "-c", example + "/config.yaml", "--fail-on", "fatal"}, exitUsage},
		{"unknown-flag", []string{"lint", "--confg", "x"}, exitUsage},
		{"versions", []string{"versions"}, exitClean},
		{"rules-explain", []string{"rules", "KC3001", "KC2007"}, exitClean},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { runGolden(t, tt.name, tt.args, tt.exit) })
	}
}

// Input errors are one line naming the path, never a stack trace.
func TestInputErrorIsOneLine(t *testing.T) {
	for _, args := range [][]string{
		{"lint", "-c", "does/not/exist.yaml"},
		{"lint", "-c", example},
		{"effective", "-c", example + "/config.yaml", "-d", "no/such/dir"},
	} {
		path := args[len(args)-1]
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
		msg := stderr.String()
		if strings.Count(msg, "\n") != 1 || !strings.Contains(msg, path) || strings.Contains(msg, "goroutine") {
			t.Errorf("%v: want one line naming %s, got %q", args, path, msg)
		}
	}
}

// TestREADMEExample keeps the README's example output true: the block that
// follows the command line must be what the command prints.
func TestREADMEExample(t *testing.T) {
	t.Chdir("../..")
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	const prompt = "$ go run ./cmd/kubeletcfg "
	text := string(readme)
	start := strings.Index(text, prompt)
	if start < 0 {
		t.Fatal("README has no example output block")
	}
	block := text[start:]
	block = block[:strings.Index(block, "\n```")]
	cmdLine, want, _ := strings.Cut(block, "\n")
	var stdout, stderr bytes.Buffer
	code := run(strings.Fields(strings.TrimPrefix(cmdLine, prompt)), &stdout, &stderr)
	if code != exitFindings {
		t.Errorf("exit code %d, README says 1", code)
	}
	got := strings.TrimSuffix(stdout.String(), "\n")
	if *update {
		updated := strings.Replace(text, cmdLine+"\n"+want, cmdLine+"\n"+got, 1)
		if err := os.WriteFile("README.md", []byte(updated), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got != want {
		t.Errorf("README example output is stale (go test ./cmd/kubeletcfg -update rewrites it); got:\n%s", got)
	}
}

// checkGolden compares got with testdata/NAME.golden (-update rewrites it).
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	golden := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./cmd/kubeletcfg -update)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (go test ./cmd/kubeletcfg -update to accept):\n--- got\n%s\n--- want\n%s", golden, got, want)
	}
}
