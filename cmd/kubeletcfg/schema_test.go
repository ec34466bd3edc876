package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"text/template"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

// runSchema runs kubeletcfg with args and returns the exit code, stdout and stderr.
func runSchema(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func TestSchemaCLI(t *testing.T) {
	dir := t.TempDir()
	notDir := filepath.Join(dir, "file")
	if err := os.WriteFile(notDir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		exit int
	}{
		{"schema-help", []string{"schema", "--help"}, exitClean},
		{"schema-bad-version", []string{"schema", "--kubelet-version", "1.12"}, exitUsage},
		{"schema-kubeconform-and-version", []string{"schema", "--kubeconform", filepath.Join(dir, "out"), "--kubelet-version", "1.37"}, exitUsage},
		{"schema-force-alone", []string{"schema", "--force"}, exitUsage},
		{"schema-args", []string{"schema", "1.37"}, exitUsage},
		{"schema-kubeconform", []string{"schema", "--kubeconform", filepath.Join(dir, "out")}, exitClean},
		{"schema-kubeconform-again-verbose", []string{"schema", "--kubeconform", filepath.Join(dir, "out"), "--verbose"}, exitClean},
		// -v is the root's --version; schema's verbose has no shorthand.
		{"schema-v", []string{"schema", "-v"}, exitUsage},
		{"schema-kubeconform-not-dir", []string{"schema", "--kubeconform", notDir}, exitUsage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runSchema(t, tt.args...)
			if code != tt.exit {
				t.Errorf("exit code %d, want %d\nstderr: %s", code, tt.exit, stderr)
			}
			got := "$ kubeletcfg " + strings.Join(tt.args, " ") + "\n" + stdout
			if stderr != "" {
				got += "--- stderr\n" + stderr
				if strings.Count(stderr, "\n") != 1 || strings.Contains(stderr, "goroutine") {
					t.Errorf("want a one-line error, got %q", stderr)
				}
			}
			checkGolden(t, tt.name, strings.ReplaceAll(got, dir, "DIR"))
		})
	}
}

// Printing the schema is the embedded data/<minor>/schema.json, byte for byte.
func TestSchemaPrints(t *testing.T) {
	want, err := kubelets.Default().Schema()
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"schema"},
		{"schema", "--kubelet-version", kubelets.Default().Version},
		{"schema", "--kubelet-version", kubelets.Default().Patch},
	} {
		code, stdout, stderr := runSchema(t, args...)
		if code != exitClean || stderr != "" || stdout != string(want) {
			t.Errorf("%v: exit %d, stderr %q, stdout is the schema: %v", args, code, stderr, stdout == string(want))
		}
	}
	for _, v := range kubelets.Supported() {
		m, _ := kubelets.Lookup(v)
		raw, err := m.Schema()
		if err != nil {
			t.Logf("%s: %v", v, err) // older minors get theirs from make generate
			continue
		}
		if code, stdout, _ := runSchema(t, "schema", "--kubelet-version", v); code != exitClean || stdout != string(raw) {
			t.Errorf("%s: exit %d or not its schema", v, code)
		}
	}
}

// kubeconformPath expands a kubeconform -schema-location template the way
// kubeconform's registry does (pkg/registry schemaPath): version "master" or
// "v"+-kubernetes-version, "-strict" with -strict, the kind lower-cased, and
// "-" + the group's first DNS label + "-" + the API version.
func kubeconformPath(t *testing.T, tpl, kind, apiVersion, k8sVersion string, strict bool) string {
	t.Helper()
	normalized := k8sVersion
	if normalized != "master" {
		normalized = "v" + normalized
	}
	strictSuffix := ""
	if strict {
		strictSuffix = "-strict"
	}
	groupParts := strings.Split(apiVersion, "/")
	kindSuffix := "-" + strings.ToLower(strings.Split(groupParts[0], ".")[0])
	if len(groupParts) > 1 {
		kindSuffix += "-" + strings.ToLower(groupParts[1])
	}
	tmpl := template.Must(template.New("").Parse(tpl))
	var b strings.Builder
	err := tmpl.Execute(&b, map[string]string{
		"NormalizedKubernetesVersion": normalized,
		"StrictSuffix":                strictSuffix,
		"ResourceKind":                strings.ToLower(kind),
		"ResourceAPIVersion":          groupParts[len(groupParts)-1],
		"Group":                       groupParts[0],
		"KindSuffix":                  kindSuffix,
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func compileFile(t *testing.T, path string) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	s, err := c.Compile(path)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return s
}

// The folder is where kubeconform looks: every GA minor's patches, a
// pre-release under its own name, and master (the default minor), strict and not; strict files are the embedded schema, non-strict ones
// accept unknown keys.
func TestSchemaKubeconformLayout(t *testing.T) {
	dir := t.TempDir()
	if code, _, stderr := runSchema(t, "schema", "--kubeconform", dir); code != exitClean {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	tpl := filepath.ToSlash(dir) + "/" + kubelets.KubeconformTemplate
	versions := map[string]*kubelets.Minor{"master": kubelets.Default()}
	for _, v := range kubelets.Supported() {
		m, _ := kubelets.Lookup(v)
		if m.PreRelease() {
			// Under its own name only: not as the GA release it precedes.
			versions[strings.TrimPrefix(m.Patch, "v")] = m
			if _, err := os.Stat(kubeconformPath(t, tpl, "KubeletConfiguration", "kubelet.config.k8s.io/v1beta1", v+".0", true)); !os.IsNotExist(err) {
				t.Errorf("pre-release %s written as %s.0: %v", m.Patch, v, err)
			}
			continue
		}
		var patch int
		if _, err := fmt.Sscanf(m.Patch, "v"+v+".%d", &patch); err != nil {
			t.Fatal(err)
		}
		for p := 0; p <= patch; p++ {
			versions[fmt.Sprintf("%s.%d", v, p)] = m
		}
	}
	want := 0
	for k8sVersion, m := range versions {
		raw, err := m.Schema()
		if err != nil {
			t.Fatal(err)
		}
		for _, strict := range []bool{true, false} {
			path := kubeconformPath(t, tpl, "KubeletConfiguration", "kubelet.config.k8s.io/v1beta1", k8sVersion, strict)
			got, err := os.ReadFile(path)
			if err != nil {
				t.Errorf("-kubernetes-version %s strict=%v: %v", k8sVersion, strict, err)
				continue
			}
			want++
			if strict != bytes.Equal(got, raw) {
				t.Errorf("%s: strict=%v, same as the embedded schema: %v", path, strict, bytes.Equal(got, raw))
			}
			if !strict && bytes.Contains(got, []byte(`"additionalProperties": false`)) {
				t.Errorf("%s: non-strict schema has closed objects", path)
			}
		}
	}
	// The template and the bare folder (kubeconform appends its template) agree.
	if got := kubeconformPath(t, tpl, "KubeletConfiguration", "kubelet.config.k8s.io/v1beta1", "master", true); got != filepath.ToSlash(filepath.Join(dir, "master-standalone-strict", "kubeletconfiguration-kubelet-v1beta1.json")) {
		t.Errorf("template expands to %s", got)
	}

	// The files are valid schemas; strict rejects an unknown key, non-strict not.
	doc := map[string]any{"apiVersion": "kubelet.config.k8s.io/v1beta1", "kind": "KubeletConfiguration", "maxPod": json.Number("110")}
	strictS := compileFile(t, kubeconformPath(t, tpl, "KubeletConfiguration", "kubelet.config.k8s.io/v1beta1", "master", true))
	looseS := compileFile(t, kubeconformPath(t, tpl, "KubeletConfiguration", "kubelet.config.k8s.io/v1beta1", "master", false))
	if err := strictS.Validate(doc); err == nil {
		t.Error("strict schema accepts maxPod")
	}
	if err := looseS.Validate(doc); err != nil {
		t.Errorf("non-strict schema rejects maxPod: %v", err)
	}
	doc["maxPods"] = "110"
	if err := looseS.Validate(doc); err == nil {
		t.Error("non-strict schema accepts a string for maxPods")
	}

	// Nothing else in the folder: no temporary files left behind.
	n := 0
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			n++
			if strings.HasSuffix(path, ".tmp") {
				t.Errorf("left behind: %s", path)
			}
		}
		return err
	})
	if err != nil || n != want {
		t.Errorf("%d files (err %v), want %d", n, err, want)
	}
}

// A file that differs is never overwritten without --force: exit 2 naming it, and
// nothing in the folder changes. Identical files are left alone (rerunning is fine).
func TestSchemaKubeconformNoClobber(t *testing.T) {
	dir := t.TempDir()
	if code, _, stderr := runSchema(t, "schema", "--kubeconform", dir); code != exitClean {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if code, _, stderr := runSchema(t, "schema", "--kubeconform", dir); code != exitClean {
		t.Fatalf("rerun: exit %d: %s", code, stderr)
	}
	strict := filepath.Join(dir, "master-standalone-strict", kubelets.KubeconformFileName)
	loose := filepath.Join(dir, "master-standalone", kubelets.KubeconformFileName)
	mine := []byte(`{"my": "schema"}`)
	if err := os.WriteFile(loose, mine, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(strict); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runSchema(t, "schema", "--kubeconform", dir)
	if code != exitUsage || stderr != fmt.Sprintf("kubeletcfg: %s already exists and differs; pass --force to overwrite it\n", loose) {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if got, _ := os.ReadFile(loose); !bytes.Equal(got, mine) {
		t.Error("the differing file was overwritten")
	}
	if _, err := os.Stat(strict); !os.IsNotExist(err) {
		t.Errorf("a refused run wrote %s", strict)
	}
	if code, _, stderr := runSchema(t, "schema", "--kubeconform", dir, "--force"); code != exitClean {
		t.Fatalf("--force: exit %d: %s", code, stderr)
	}
	want, _ := kubelets.Default().Schema()
	if got, _ := os.ReadFile(strict); !bytes.Equal(got, want) {
		t.Error("--force did not write the strict schema")
	}
	if got, _ := os.ReadFile(loose); bytes.Equal(got, mine) {
		t.Error("--force did not overwrite")
	}
}
