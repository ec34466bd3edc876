package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
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
		{"effective-capi-object", []string{"effective", "-c", "../../testdata/peers/capz-windows-template/cluster-template-windows.yaml", "--object", "KubeadmConfigTemplate/${CLUSTER_NAME}-md-win", "--show-origin"}, exitClean},
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
		{"versions-name", []string{"versions", "-o", "name"}, exitClean},
		{"versions-json", []string{"versions", "-o", "json"}, exitClean},
		{"rules-explain", []string{"rules", "KC3001", "KC2007"}, exitClean},
		{"rules-explain-by-name", []string{"rules", "gate-unknown", "Unknown-Field"}, exitClean},
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

// readmeExits is the exit code of each command README.md and docs/*.md show
// with its output, by the longest matching prefix of its arguments. A block
// whose command has no entry fails the test, so every example is run.
var readmeExits = map[string]int{
	"lint ":        exitFindings,
	"skew ":        exitFindings,
	"preflight ":   exitFindings,
	"dropin new ":  exitClean,
	"dropin diff ": exitClean,
	"backoff ":     exitClean,
	"fix ":         exitClean,
	"fix --diff --config testdata/fix/gates/": exitFindings,
	"explain ":                              exitClean,
	"lint --profile cis ":                   exitClean,
	"lint --nodes ":                         exitUsage, // one node of the example cannot be read
	"lint --nodes testdata/inputs/pool ":    exitFindings,
	"lint testdata/inputs/nodes/":           exitClean,
	"lint -c testdata/inputs/kubeadm.yaml ": exitClean,
	"lint -c testdata/inputs/kind.yaml ":    exitFindings,
	"lint -c testdata/conformance/cases/475-flags-over-dropin/kubelet.yaml ":  exitClean,
	"lint --kubelet-flags-file testdata/hosts/kubeadm-rpm/":                   exitClean,
	"lint -c testdata/minikube/config.json ":                                  exitClean,
	"lint testdata/inputs/aks-kubeletconfig.json ":                            exitClean,
	"lint --kubelet-version 1.36 testdata/inputs/k0s.yaml ":                   exitClean,
	"lint testdata/inputs/k0s-strict.yaml ":                                   exitFindings,
	"lint testdata/bootstrappers/nodeadm/examples/nodeconfig-swap.yaml --set": exitClean,
}

// docFiles are the Markdown files whose examples the tests keep true: the
// README and the guides in docs/ (paths relative to the module root).
func docFiles(t *testing.T) []string {
	t.Helper()
	guides, err := filepath.Glob("docs/*.md")
	if err != nil || len(guides) == 0 {
		t.Fatalf("no docs/*.md (run from the module root): %v", err)
	}
	tools, err := filepath.Glob("docs/bootstrappers/*.md")
	if err != nil {
		t.Fatal(err)
	}
	return append(append([]string{"README.md"}, guides...), tools...)
}

// TestREADMEBlocks keeps the example outputs of the README and of docs/*.md
// true: every block that starts with "$ go run ./cmd/kubeletcfg ARGS" must hold
// what the command prints (go test ./cmd/kubeletcfg -update rewrites them).
func TestREADMEBlocks(t *testing.T) {
	t.Chdir("../..")
	n := 0
	for _, name := range docFiles(t) {
		n += checkDocBlocks(t, name)
	}
	if n < len(readmeExits) {
		t.Errorf("README.md and docs/*.md show %d command outputs, fewer than readmeExits names (%d)", n, len(readmeExits))
	}
}

// checkDocBlocks runs the "$ go run ./cmd/kubeletcfg" blocks of one Markdown
// file and returns how many it has.
func checkDocBlocks(t *testing.T, name string) int {
	t.Helper()
	raw, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	text := string(raw)
	const prompt = "```text\n$ go run ./cmd/kubeletcfg "
	n := 0
	for rest := text; ; {
		start := strings.Index(rest, prompt)
		if start < 0 {
			break
		}
		block := rest[start+len("```text\n"):]
		block = block[:strings.Index(block, "\n```")]
		rest = rest[start+len(prompt):]
		cmdLine, want, _ := strings.Cut(block, "\n")
		args, err := shellWords(strings.TrimPrefix(cmdLine, "$ go run ./cmd/kubeletcfg "))
		if err != nil {
			t.Errorf("%s: %s: %v", name, cmdLine, err)
			continue
		}
		n++
		exit, ok := -1, false
		best := ""
		for prefix, code := range readmeExits {
			if strings.HasPrefix(strings.Join(args, " ")+" ", prefix) && len(prefix) > len(best) {
				best, exit, ok = prefix, code, true
			}
		}
		if !ok {
			t.Errorf("%s: %s: add its exit code to readmeExits", name, cmdLine)
			continue
		}
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code != exit {
			t.Errorf("%s: %s: exit code %d, want %d\n%s", name, cmdLine, code, exit, stderr.String())
		}
		// stderr follows stdout, as a terminal shows them (fix --diff prints
		// the patch on stdout and the list of repairs on stderr).
		got := strings.TrimSuffix(stdout.String()+stderr.String(), "\n")
		if *update {
			old := cmdLine + "\n" + want + "\n```"
			if want == "" { // a new block: only the command line so far
				old = cmdLine + "\n```"
			}
			text = strings.Replace(text, old, cmdLine+"\n"+got+"\n```", 1)
			continue
		}
		if got != want {
			t.Errorf("%s: output of %q is stale (go test ./cmd/kubeletcfg -update rewrites it); got:\n%s", name, cmdLine, got)
		}
	}
	if *update {
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return n
}

// shellWords splits a command line as a POSIX shell would for the simple
// quoting README examples use: blanks separate words, '...' and "..." quote.
func shellWords(s string) ([]string, error) {
	var out []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'' || c == '"':
			end := strings.IndexByte(s[i+1:], c)
			if end < 0 {
				return nil, fmt.Errorf("unclosed %c", c)
			}
			cur.WriteString(s[i+1 : i+1+end])
			i += end + 1
			inWord = true
		case c == ' ' || c == '\t':
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		out = append(out, cur.String())
	}
	return out, nil
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

// Every command a user can run shows examples in its --help.
func TestEveryCommandHasExamples(t *testing.T) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			if sub.Hidden || sub.Name() == "help" || sub.Name() == "completion" {
				continue
			}
			if sub.Example == "" {
				t.Errorf("%s has no Example", sub.CommandPath())
			}
			walk(sub)
		}
	}
	walk(newRootCommand())
}
