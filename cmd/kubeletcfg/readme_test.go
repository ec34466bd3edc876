package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/kubeletcfg/kubeletcfg"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

// readDoc reads a Markdown file of the module, README.md or docs/NAME.md.
func readDoc(t *testing.T, name string) string {
	t.Helper()
	raw, err := os.ReadFile("../../" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// jsonTags are the JSON names of a struct's fields, embedded structs flattened.
func jsonTags(t reflect.Type) []string {
	var out []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.Anonymous {
			out = append(out, jsonTags(f.Type)...)
			continue
		}
		if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name != "" && name != "-" {
			out = append(out, name)
		}
	}
	return out
}

// The JSON example of docs/json.md shows every top-level key lint -o json can
// print.
func TestREADMEJSONExampleKeys(t *testing.T) {
	text := readDoc(t, "docs/json.md")
	_, rest, ok := strings.Cut(text, "`kubeletcfg lint -o json` prints one document")
	if !ok {
		t.Fatal("docs/json.md: no lint -o json section")
	}
	_, block, _ := strings.Cut(rest, "```json\n")
	block, _, _ = strings.Cut(block, "```")
	shown := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(block), "\n") {
		var doc map[string]any
		if err := json.Unmarshal([]byte(line), &doc); err != nil {
			t.Fatalf("docs/json.md JSON example %q: %v", line, err)
		}
		for k := range doc {
			shown[k] = true
		}
	}
	var missing []string
	for _, k := range jsonTags(reflect.TypeOf(kubeletcfg.LintReport{})) {
		if !shown[k] {
			missing = append(missing, k)
		}
		delete(shown, k)
	}
	for k := range shown {
		missing = append(missing, "(no such key) "+k)
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("docs/json.md JSON example: %s", strings.Join(missing, ", "))
	}
}

// The README's command table names every command.
func TestREADMECommandTable(t *testing.T) {
	text := readDoc(t, "README.md")
	_, table, _ := strings.Cut(text, "## Commands\n")
	table, _, _ = strings.Cut(table, "\n\n")
	for _, c := range newRootCommand().Commands() {
		if c.Name() == "help" {
			continue
		}
		if !strings.Contains(table, "| `kubeletcfg "+c.Name()) {
			t.Errorf("README command table has no row for kubeletcfg %s", c.Name())
		}
	}
}

// The corpus figure (docs/fidelity.md) is the number of cases, and every
// minor has a golden for each.
func TestREADMECaseCount(t *testing.T) {
	m := regexp.MustCompile(`\((\d+) cases at each\s+of the (\d+) minors\)`).FindStringSubmatch(readDoc(t, "docs/fidelity.md"))
	if m == nil {
		t.Fatal("docs/fidelity.md: no corpus figure")
	}
	cases, err := os.ReadDir("../../testdata/conformance/cases")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range cases {
		if c.IsDir() {
			n++
			// "at each of the 7 minors": every case has a golden at every minor.
			for _, v := range kubelets.Supported() {
				if _, err := os.Stat("../../testdata/conformance/golden/" + v + "/" + c.Name() + ".json"); err != nil {
					t.Errorf("case %s has no golden at kubelet %s", c.Name(), v)
				}
			}
		}
	}
	if got, _ := strconv.Atoi(m[1]); got != n {
		t.Errorf("README says %d cases, the corpus has %d", got, n)
	}
	if got, _ := strconv.Atoi(m[2]); got != len(kubelets.Supported()) {
		t.Errorf("README says %d minors, kubeletcfg supports %d", got, len(kubelets.Supported()))
	}
}

// The pre-commit hook fires on the layout the README and docs/ci.md show: its
// files pattern (a Python regular expression, searched; this one is also RE2)
// matches the --config file and a drop-in of the --config-dir of each example's
// args.
func TestPreCommitFilesMatchREADME(t *testing.T) {
	var hooks []struct {
		Files string `json:"files"`
	}
	raw, err := os.ReadFile("../../.pre-commit-hooks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(raw, &hooks); err != nil || len(hooks) == 0 {
		t.Fatalf(".pre-commit-hooks.yaml: %v", err)
	}
	re := regexp.MustCompile(hooks[0].Files)
	for _, doc := range []string{"README.md", "docs/ci.md"} {
		args := regexp.MustCompile(`args: \[--config, ([^,]+), --config-dir, ([^,\]]+)`).FindStringSubmatch(readDoc(t, doc))
		if args == nil {
			t.Fatalf("%s: no pre-commit args", doc)
		}
		for _, p := range []string{args[1], args[2] + "/10-example.conf", "/var/lib/kubelet/config.yaml", "etc/kubernetes/kubelet.conf.d/50-x.conf", "kubelet-config.json"} {
			if !re.MatchString(p) {
				t.Errorf("%s: pre-commit files %q does not match %s", doc, hooks[0].Files, p)
			}
		}
		for _, p := range []string{"README.md", "cmd/kubeletcfg/main.go", args[2] + "/README.txt"} {
			if re.MatchString(p) {
				t.Errorf("%s: pre-commit files %q matches %s", doc, hooks[0].Files, p)
			}
		}
	}
}

// No "1 errors" and no "in 0 files" in any output the goldens, the README and
// docs/ show.
func TestNoPluralSlips(t *testing.T) {
	slip := regexp.MustCompile(`(^|[^0-9.])1 (errors|warnings|files|minors|nodes|keys|findings|gates|schema files|top-level keys)\b| in 0 files`)
	goldens, _ := filepathGlob(t, "testdata/*.golden")
	docs, _ := filepathGlob(t, "../../docs/*.md")
	for _, name := range append(append(goldens, "../../README.md"), docs...) {
		raw, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(raw), "\n") {
			if line != "" && line[0] != '$' && slip.MatchString(line) {
				t.Errorf("%s:%d: %s", name, i+1, line)
			}
		}
	}
}

func filepathGlob(t *testing.T, pattern string) ([]string, error) {
	t.Helper()
	m, err := filepath.Glob(pattern)
	if err != nil || len(m) == 0 {
		t.Fatalf("no %s", pattern)
	}
	return m, err
}
