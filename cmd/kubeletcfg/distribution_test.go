package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/kubeletcfg/kubeletcfg/report"
)

// The distribution files (pre-commit hook, GitHub Action, Dockerfile) name
// kubeletcfg commands and paths in strings no compiler sees; these tests keep
// them working when a command, a flag or a folder is renamed.

const repoRoot = "../.."

const modulePath = "github.com/kubeletcfg/kubeletcfg"

// checkCommandLine resolves a kubeletcfg command line (the words after
// "kubeletcfg") to a command, parses its flags on a fresh command tree and
// validates its positional arguments, as cobra would before running it.
// Shell variables stand for a value; ${V:+words} for the words.
func checkCommandLine(t *testing.T, where, line string) {
	t.Helper()
	line = regexp.MustCompile(`\$\{\w+:\+([^}]*)\}`).ReplaceAllString(line, "$1")
	var words []string
	for _, w := range strings.Fields(line) {
		if w == ">" || w == "|" || w == "||" || w == "&&" || w == ";" || strings.HasPrefix(w, ">") {
			break // the rest is the shell's
		}
		w = strings.Trim(w, `"'`)
		if strings.HasPrefix(w, "$") {
			w = "x"
		}
		words = append(words, w)
	}
	root := newRootCommand()
	root.InitDefaultCompletionCmd()
	cmd, rest, err := root.Find(words)
	if err != nil || cmd == root {
		t.Errorf("%s: kubeletcfg %s: no such command (%v)", where, line, err)
		return
	}
	if err := cmd.ParseFlags(rest); err != nil {
		t.Errorf("%s: kubeletcfg %s: %v", where, line, err)
		return
	}
	if err := cmd.ValidateArgs(cmd.Flags().Args()); err != nil {
		t.Errorf("%s: kubeletcfg %s: %v", where, line, err)
	}
	if f := cmd.Flags().Lookup("output"); f != nil && f.Changed && f.Value.String() != "x" {
		if _, err := report.For(f.Value.String()); err != nil {
			t.Errorf("%s: kubeletcfg %s: %v", where, line, err)
		}
	}
}

// kubeletcfgInvocation finds "kubeletcfg ..." run as a command in a script
// line (not as part of a path such as .../cmd/kubeletcfg@v1).
var kubeletcfgInvocation = regexp.MustCompile(`(?:^|[\s;&|(])kubeletcfg(\s.*|$)`)

// scriptLines joins backslash-continued lines.
func scriptLines(script string) []string {
	return strings.Split(strings.ReplaceAll(script, "\\\n", " "), "\n")
}

func readRepoFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestPreCommitHooks(t *testing.T) {
	var hooks []struct {
		ID            string   `json:"id"`
		Name          string   `json:"name"`
		Description   string   `json:"description"`
		Language      string   `json:"language"`
		Entry         string   `json:"entry"`
		Args          []string `json:"args"`
		Files         string   `json:"files"`
		PassFilenames *bool    `json:"pass_filenames"`
	}
	if err := yaml.UnmarshalStrict(readRepoFile(t, ".pre-commit-hooks.yaml"), &hooks, yaml.DisallowUnknownFields); err != nil {
		t.Fatalf(".pre-commit-hooks.yaml: %v", err)
	}
	found := false
	for _, h := range hooks {
		if h.ID != "kubeletcfg-lint" {
			continue
		}
		found = true
		if h.Language != "golang" {
			t.Errorf("language %q: pre-commit builds the hook with go install ./... only for golang", h.Language)
		}
		entry, ok := strings.CutPrefix(h.Entry, "kubeletcfg ")
		if !ok {
			t.Fatalf("entry %q does not run kubeletcfg", h.Entry)
		}
		line := entry + " " + strings.Join(h.Args, " ")
		if h.PassFilenames == nil || *h.PassFilenames {
			line += " changed.yaml" // pre-commit appends the changed files
		}
		checkCommandLine(t, ".pre-commit-hooks.yaml", line)

		files, err := regexp.Compile(h.Files)
		if err != nil {
			t.Fatalf("files: %v", err)
		}
		for _, name := range []string{"kubelet/config.yaml", "nodes/kubelet-config.yaml", "kubelet.json", "etc/kubernetes/kubelet.conf.d/50-crashloop.conf", "pool-a/kubelet-config.conf.d/90-local.conf", "nodes/config.yaml", "nodes/conf.d/10-pool.conf"} {
			if !files.MatchString(name) {
				t.Errorf("files does not match %s", name)
			}
		}
		// A config.yaml anywhere runs the hook (the README's layout is
		// nodes/config.yaml); it lints only the files its args name.
		for _, name := range []string{"README.md", "deploy/kubeletcfg.go", "kubelet/notes.txt", "nodes/conf.d/README.txt"} {
			if files.MatchString(name) {
				t.Errorf("files matches %s", name)
			}
		}
	}
	if !found {
		t.Error("no kubeletcfg-lint hook")
	}
	// kubeletcfg-lint-files lints the changed files, each its own node
	// (lint PATH...): bootstrappers' files are read as their tool translates them.
	found = false
	for _, h := range hooks {
		if h.ID != "kubeletcfg-lint-files" {
			continue
		}
		found = true
		entry, ok := strings.CutPrefix(h.Entry, "kubeletcfg ")
		if !ok || h.PassFilenames == nil || !*h.PassFilenames {
			t.Fatalf("kubeletcfg-lint-files: entry %q, pass_filenames %v: want kubeletcfg lint with the changed files", h.Entry, h.PassFilenames)
		}
		checkCommandLine(t, ".pre-commit-hooks.yaml", entry+" nodeconfig.yaml machineconfig.yaml")
	}
	if !found {
		t.Error("no kubeletcfg-lint-files hook")
	}
	// pre-commit runs go install ./... at the repository root.
	if _, err := os.Stat(filepath.Join(repoRoot, "cmd/kubeletcfg/main.go")); err != nil {
		t.Error(err)
	}
}

func TestAction(t *testing.T) {
	raw := readRepoFile(t, "action.yml")
	var action struct {
		Inputs map[string]struct {
			Description string `json:"description"`
		} `json:"inputs"`
		Runs struct {
			Using string `json:"using"`
			Steps []struct {
				Name string            `json:"name"`
				Uses string            `json:"uses"`
				Run  string            `json:"run"`
				Env  map[string]string `json:"env"`
				With map[string]string `json:"with"`
			} `json:"steps"`
		} `json:"runs"`
	}
	if err := yaml.Unmarshal(raw, &action); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	if action.Runs.Using != "composite" {
		t.Errorf("runs.using %q", action.Runs.Using)
	}
	for _, want := range []string{"config", "config-dir", "kubelet-version", "versions", "fail-on", "upload-sarif"} {
		if _, ok := action.Inputs[want]; !ok {
			t.Errorf("no input %s", want)
		}
	}
	for _, m := range regexp.MustCompile(`inputs\.([\w-]+)`).FindAllStringSubmatch(string(raw), -1) {
		if _, ok := action.Inputs[m[1]]; !ok {
			t.Errorf("inputs.%s is used but not declared", m[1])
		}
	}

	commands, installs, uploads := 0, 0, 0
	for _, step := range action.Runs.Steps {
		if strings.HasPrefix(step.Uses, "github/codeql-action/upload-sarif@") {
			uploads++
			if step.With["sarif_file"] == "" {
				t.Error("upload-sarif without sarif_file")
			}
		}
		if strings.Contains(step.Run, "${{") {
			t.Errorf("step %q: ${{ }} in a script is a script injection; pass it through env", step.Name)
		}
		for _, line := range scriptLines(step.Run) {
			if m := regexp.MustCompile(`go install "?` + regexp.QuoteMeta(modulePath) + `/([\w/]+)@`).FindStringSubmatch(line); m != nil {
				installs++
				if _, err := os.Stat(filepath.Join(repoRoot, m[1], "main.go")); err != nil {
					t.Errorf("go install %s/%s: %v", modulePath, m[1], err)
				}
				continue
			}
			if m := kubeletcfgInvocation.FindStringSubmatch(line); m != nil {
				commands++
				checkCommandLine(t, "action.yml step "+step.Name, strings.TrimSpace(m[1]))
			}
		}
	}
	if installs != 1 || uploads != 1 || commands < 2 {
		t.Errorf("%d go install, %d upload-sarif, %d kubeletcfg command lines", installs, uploads, commands)
	}
	if !strings.Contains(string(readRepoFile(t, "go.mod")), "module "+modulePath+"\n") {
		t.Errorf("go.mod is not module %s", modulePath)
	}
}

func TestDockerfile(t *testing.T) {
	lines := scriptLines(string(readRepoFile(t, "Dockerfile")))
	builds := 0
	for _, line := range lines {
		fields := strings.Fields(line)
		if len(fields) > 0 && fields[0] == "COPY" && !strings.HasPrefix(fields[1], "--from") {
			for _, src := range fields[1 : len(fields)-1] {
				if _, err := os.Stat(filepath.Join(repoRoot, src)); err != nil {
					t.Errorf("COPY %s: %v", src, err)
				}
			}
		}
		if !strings.Contains(line, "go build") {
			continue
		}
		builds++
		if !strings.Contains(line, "CGO_ENABLED=0") {
			t.Error("go build without CGO_ENABLED=0: the final image has no C library")
		}
		pkg := fields[len(fields)-1]
		if _, err := os.Stat(filepath.Join(repoRoot, pkg, "main.go")); err != nil {
			t.Errorf("go build %s: %v", pkg, err)
		}
		// A -X flag naming a variable that does not exist is ignored silently.
		if m := regexp.MustCompile(`-X ` + regexp.QuoteMeta(modulePath) + `/report\.(\w+)=`).FindStringSubmatch(line); m != nil {
			src := string(readRepoFile(t, "report/sarif.go"))
			if !regexp.MustCompile(`(?m)^var ` + m[1] + ` string$`).MatchString(src) {
				t.Errorf("-X report.%s: no such string variable in report/sarif.go", m[1])
			}
		}
	}
	if builds != 1 {
		t.Errorf("%d go build lines, want 1", builds)
	}
	df := string(readRepoFile(t, "Dockerfile"))
	for _, want := range []string{"USER nonroot", `ENTRYPOINT ["/usr/local/bin/kubeletcfg"]`, "FROM gcr.io/distroless/static"} {
		if !strings.Contains(df, want) {
			t.Errorf("Dockerfile has no %s", want)
		}
	}

	// .dockerignore must keep what the build needs.
	var ignore []string
	for _, l := range strings.Split(string(readRepoFile(t, ".dockerignore")), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			ignore = append(ignore, l)
		}
	}
	for _, need := range []string{"go.mod", "go.sum", "cmd/kubeletcfg/main.go", "kubelets/data/1.37/gates.json", "report/sarif.go"} {
		for _, pat := range ignore {
			for _, p := range []string{pat, strings.TrimPrefix(pat, "**/")} {
				for dir := need; dir != "."; dir = filepath.Dir(dir) {
					if ok, _ := filepath.Match(p, dir); ok || (strings.HasPrefix(pat, "**/") && filepath.Base(dir) == p) {
						t.Errorf(".dockerignore %s excludes %s", pat, need)
					}
				}
			}
		}
	}
}
