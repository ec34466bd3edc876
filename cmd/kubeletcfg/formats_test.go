package main

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"

	"github.com/kubeletcfg/kubeletcfg"
	"github.com/kubeletcfg/kubeletcfg/internal/manpage"
	"github.com/kubeletcfg/kubeletcfg/report"
)

// TestCLIFormats runs lint and skew with the CI output formats against golden
// files (go test ./cmd/kubeletcfg -run TestCLIFormats -update rewrites them).
func TestCLIFormats(t *testing.T) {
	files := []string{"-c", example + "/config.yaml", "-d", example + "/conf.d"}
	tests := []struct {
		name string
		args []string
		exit int
	}{
		{"junit-lint-example", append([]string{"lint", "-o", "junit"}, files...), exitFindings},
		{"junit-lint-main-only", []string{"lint", "-o", "junit", "-c", example + "/config.yaml"}, exitClean},
		{"junit-skew-example", append([]string{"skew", "-o", "junit", "--versions", "1.34..1.37"}, files...), exitFindings},
		{"github-lint-example", append([]string{"lint", "-o", "github"}, files...), exitFindings},
		{"github-lint-main-only", []string{"lint", "-o", "github", "-c", example + "/config.yaml"}, exitClean},
		{"github-skew-example", append([]string{"skew", "-o", "github", "--versions", "1.34..1.37"}, files...), exitFindings},
		{"github-lint-fail-on-warning", []string{"lint", "-o", "github", "-c", example + "/config.yaml", "--fail-on", "warning"}, exitFindings},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { runGolden(t, tt.name, tt.args, tt.exit) })
	}
}

var sarifRuleIndex = regexp.MustCompile(`"ruleIndex": -?\d+`)

// withoutRuleTable replaces the rule table of SARIF output: the referenced
// rules of the registry in SARIF form, checked against the registry and
// docs/rules.md by report's TestSARIFRuleTable. The goldens leave it (and the
// indexes into it) out so that editing a rule's text does not rewrite them.
func withoutRuleTable(out string) string {
	var b strings.Builder
	end := ""
	for _, line := range strings.SplitAfter(out, "\n") {
		switch {
		case end != "":
			if last := strings.TrimSuffix(line, "\n"); strings.TrimSuffix(last, ",") == end {
				b.WriteString(strings.TrimSuffix(end, "]") + `"rules": "(the rules the results reference, in ID order: see report.TestSARIFRuleTable)"` + strings.TrimPrefix(last, end) + "\n")
				end = ""
			}
		case strings.TrimSpace(line) == `"rules": [`:
			end = line[:len(line)-len(strings.TrimLeft(line, " "))] + "]"
		default:
			b.WriteString(line)
		}
	}
	return sarifRuleIndex.ReplaceAllString(b.String(), `"ruleIndex": "(index in rules)"`)
}

// TestCLISARIF is TestCLIFormats for -o sarif.
func TestCLISARIF(t *testing.T) {
	files := []string{"-c", example + "/config.yaml", "-d", example + "/conf.d"}
	tests := []struct {
		name string
		args []string
		exit int
	}{
		{"sarif-lint-example", append([]string{"lint", "-o", "sarif"}, files...), exitFindings},
		{"sarif-lint-main-only", []string{"lint", "-o", "sarif", "-c", example + "/config.yaml", "--kubelet-version", "1.33"}, exitClean},
		{"sarif-skew-example", append([]string{"skew", "-o", "sarif", "--versions", "1.34..1.37"}, files...), exitFindings},
		{"sarif-lint-behind", []string{"lint", "-o", "sarif", "-c", casesDir + "/780-behind-gate-crashloop-reserved/kubelet.yaml", "--kubelet-version", "1.38"}, exitFindings},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(tt.args, &stdout, &stderr)
			if code != tt.exit {
				t.Errorf("exit code %d, want %d\nstderr: %s", code, tt.exit, stderr.String())
			}
			var log struct {
				Runs []struct {
					Tool struct {
						Driver struct {
							Rules []json.RawMessage `json:"rules"`
						} `json:"driver"`
					} `json:"tool"`
				} `json:"runs"`
			}
			if err := json.Unmarshal(stdout.Bytes(), &log); err != nil {
				t.Fatalf("not JSON: %v", err)
			}
			if len(log.Runs) != 1 || len(log.Runs[0].Tool.Driver.Rules) == 0 {
				t.Fatalf("want one run with the rule table")
			}
			got := "$ kubeletcfg " + strings.Join(tt.args, " ") + "\n" + withoutRuleTable(stdout.String())
			if stderr.Len() > 0 {
				got += "--- stderr\n" + stderr.String()
			}
			checkGolden(t, tt.name, got)
		})
	}
}

// Every command that takes -o offers the CI formats where it reports findings,
// and refuses an unknown one naming them.
func TestCLIFormatsOffered(t *testing.T) {
	root := newRootCommand()
	for _, name := range []string{"lint", "skew"} {
		cmd, _, err := root.Find([]string{name})
		if err != nil {
			t.Fatal(err)
		}
		usage := cmd.Flags().Lookup("output").Usage
		for _, f := range []string{"sarif", "junit", "github", "json", "text"} {
			if !strings.Contains(usage, f) {
				t.Errorf("%s -o: %q does not offer %s", name, usage, f)
			}
		}
		var stdout, stderr bytes.Buffer
		run([]string{cobra.ShellCompRequestCmd, name, "-o", ""}, &stdout, &stderr)
		if !strings.Contains(stdout.String(), "sarif\n") {
			t.Errorf("%s -o does not complete sarif: %q", name, stdout.String())
		}
	}
}

// TestCLIVersion pins the build information so that the goldens do not depend
// on the toolchain; TestVersionBuildInfo checks the real one.
func TestCLIVersion(t *testing.T) {
	real := buildInfo
	t.Cleanup(func() { buildInfo = real })
	buildInfo = func() kubeletcfg.VersionInfo {
		return kubeletcfg.VersionInfo{Version: "v1.2.3", Commit: "0123456789abcdef0123456789abcdef01234567", Go: "go1.26.0", Platform: "linux/amd64"}
	}
	tests := []struct {
		name string
		args []string
		exit int
	}{
		{"version-text", []string{"version"}, exitClean},
		{"version-json", []string{"version", "-o", "json"}, exitClean},
		{"version-bad-output", []string{"version", "-o", "yaml"}, exitUsage},
		{"version-args", []string{"version", "extra"}, exitUsage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { runGolden(t, tt.name, tt.args, tt.exit) })
	}
}

func TestVersionBuildInfo(t *testing.T) {
	v := buildInfo()
	// A test binary is built from the source tree: no module version.
	if v.Version != "(devel)" || v.Go != runtime.Version() || v.Platform != runtime.GOOS+"/"+runtime.GOARCH {
		t.Errorf("build info %+v", v)
	}
	if report.Version() != v.Version {
		t.Errorf("SARIF says version %s, kubeletcfg version %s", report.Version(), v.Version)
	}
}

// TestDocsMan generates the man pages into a temporary folder: one page per
// command a user can run, named as man expects, and nothing else.
func TestDocsMan(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "man")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"docs", "man", dir}, &stdout, &stderr); code != exitClean {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}

	root := newRootCommand()
	root.InitDefaultCompletionCmd() // as Execute adds it
	var want []string
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		want = append(want, strings.ReplaceAll(c.CommandPath(), " ", "-")+".1")
		for _, sub := range c.Commands() {
			if sub.IsAvailableCommand() && !sub.IsAdditionalHelpTopicCommand() {
				walk(sub)
			}
		}
	}
	walk(root)
	sort.Strings(want)

	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("man pages:\n%v\nwant one per command:\n%v", got, want)
	}
	for _, name := range []string{"kubeletcfg-lint.1", "kubeletcfg-skew.1", "kubeletcfg-version.1"} {
		page, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(page, []byte(".nh\n.TH ")) || !bytes.Contains(page, []byte("output format:")) {
			t.Errorf("%s does not look like a man page of a command with -o:\n%.300s", name, page)
		}
	}
	for _, hidden := range []string{"kubeletcfg-docs.1", "kubeletcfg-docs-man.1", "kubeletcfg-help.1"} {
		if _, err := os.Stat(filepath.Join(dir, hidden)); err == nil {
			t.Errorf("%s written", hidden)
		}
	}
	// The packaging command stays out of the help users read.
	stdout.Reset()
	run([]string{"--help"}, &stdout, &stderr)
	if strings.Contains(stdout.String(), "docs") || !strings.Contains(stdout.String(), "version") {
		t.Errorf("kubeletcfg --help lists docs or misses version:\n%s", stdout.String())
	}
}

// TestCommandDocsFresh: docs/commands holds the Markdown reference cobra/doc
// generates from the command tree, one page per command, as the man pages are
// generated ahead (TestManPagesFresh) so that the binary does not link
// cobra/doc; -update rewrites it.
func TestCommandDocsFresh(t *testing.T) {
	const dir = "../../docs/commands"
	root := newRootCommand()
	root.InitDefaultCompletionCmd() // as Execute adds it
	root.DisableAutoGenTag = true   // the generated-by footer carries the date
	tmp := t.TempDir()
	if err := doc.GenMarkdownTree(root, tmp); err != nil {
		t.Fatal(err)
	}
	generated, _ := filepath.Glob(filepath.Join(tmp, "*.md"))
	if *update {
		old, _ := filepath.Glob(filepath.Join(dir, "*.md"))
		for _, p := range old {
			os.Remove(p)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, p := range generated {
			data, _ := os.ReadFile(p)
			if err := os.WriteFile(filepath.Join(dir, filepath.Base(p)), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	committed, _ := filepath.Glob(filepath.Join(dir, "*.md"))
	names := func(paths []string) string {
		var out []string
		for _, p := range paths {
			out = append(out, filepath.Base(p))
		}
		return strings.Join(out, " ")
	}
	if names(generated) != names(committed) {
		t.Fatalf("docs/commands has %s, the commands give %s (go test ./cmd/kubeletcfg -run TestCommandDocsFresh -update)", names(committed), names(generated))
	}
	for _, p := range generated {
		want, _ := os.ReadFile(p)
		got, _ := os.ReadFile(filepath.Join(dir, filepath.Base(p)))
		if !bytes.Equal(got, want) {
			t.Errorf("docs/commands/%s is stale (go test ./cmd/kubeletcfg -run TestCommandDocsFresh -update)", filepath.Base(p))
		}
	}
}

// TestManPagesFresh: the embedded man pages (cmd/kubeletcfg/man) are what
// cobra/doc generates from the command tree, with the placeholders docs man
// fills in; -update rewrites them. docs man writes them with the date and
// source cobra/doc itself would put there.
func TestManPagesFresh(t *testing.T) {
	dir := t.TempDir()
	root := newRootCommand()
	root.InitDefaultCompletionCmd()                        // as Execute adds it
	root.DisableAutoGenTag = true                          // the generated-by footer would carry the date again
	date := time.Date(1970, 1, 15, 0, 0, 0, 0, time.Local) // mid-month: Jan 1970 in every time zone
	header := &doc.GenManHeader{Section: "1", Source: manpage.Source, Manual: "kubeletcfg manual", Date: &date}
	if got := date.Format("Jan 2006"); got != manpage.Date {
		t.Fatalf("the placeholder date formats as %q here, not %q", got, manpage.Date)
	}
	if err := doc.GenManTree(root, header, dir); err != nil {
		t.Fatal(err)
	}
	generated, _ := filepath.Glob(filepath.Join(dir, "*.1"))
	embedded, _ := fs.Glob(manPages, "man/*.1")
	if *update {
		old, _ := filepath.Glob("man/*.1")
		for _, p := range old {
			os.Remove(p)
		}
		for _, p := range generated {
			data, _ := os.ReadFile(p)
			if err := os.WriteFile(filepath.Join("man", filepath.Base(p)), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	names := func(paths []string) string {
		var out []string
		for _, p := range paths {
			out = append(out, filepath.Base(p))
		}
		return strings.Join(out, " ")
	}
	if names(generated) != names(embedded) {
		t.Fatalf("man pages %s, embedded %s (go test ./cmd/kubeletcfg -run TestManPagesFresh -update)", names(generated), names(embedded))
	}
	for _, p := range generated {
		want, _ := os.ReadFile(p)
		got, _ := manPages.ReadFile("man/" + filepath.Base(p))
		if !bytes.Equal(got, want) {
			t.Errorf("man/%s is stale (go test ./cmd/kubeletcfg -run TestManPagesFresh -update)", filepath.Base(p))
		}
	}

	// What docs man writes is what cobra/doc writes with the real header.
	when := time.Date(2026, 3, 4, 5, 6, 7, 0, time.Local)
	real := &doc.GenManHeader{Section: "1", Source: "kubeletcfg v9.9.9", Manual: "kubeletcfg manual", Date: &when}
	direct, written := filepath.Join(t.TempDir(), "direct"), filepath.Join(t.TempDir(), "written")
	os.MkdirAll(direct, 0o755)
	if err := doc.GenManTree(root, real, direct); err != nil {
		t.Fatal(err)
	}
	if err := manpage.Write(manPages, written, when, "kubeletcfg v9.9.9"); err != nil {
		t.Fatal(err)
	}
	for _, p := range generated {
		want, _ := os.ReadFile(filepath.Join(direct, filepath.Base(p)))
		got, err := os.ReadFile(filepath.Join(written, filepath.Base(p)))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("docs man's %s differs from cobra/doc's (%v)", filepath.Base(p), err)
		}
	}
}
