package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGenerated fails when input/k0s/keys_gen.go is not what the program
// writes from k0s's source. It needs a k0s git directory: K0S_GIT (a bare
// mirror will do), at the release keys_gen.go names.
func TestGenerated(t *testing.T) {
	gitDir := os.Getenv("K0S_GIT")
	if gitDir == "" {
		t.Skip("K0S_GIT is not set to a k0s git directory")
	}
	root := filepath.Join("..", "..")
	got, err := os.ReadFile(filepath.Join(root, outFile))
	if err != nil {
		t.Fatal(err)
	}
	tag := strings.Fields(strings.SplitN(string(got), " from k0s ", 2)[1])[0]
	want, err := generate(gitSource{dir: gitDir, rev: tag}, tag, modCache)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is stale: run go run ./internal/k0skeys -git %s -tag %s", outFile, gitDir, tag)
	}
}

// The files of a k0s tree made up for the tests: each way a type decodes.
const fakeAPI = `package v1beta1

import (
	"bytes"
	"encoding/json"
	"time"
)

type Meta struct {
	Kind string ` + "`json:\"kind\"`" + `
}

type ClusterConfig struct {
	Meta ` + "`json:\",inline\"`" + `
	Spec *Spec ` + "`json:\"spec,omitempty\"`" + `
}

func (c *ClusterConfig) UnmarshalJSON(data []byte) error {
	type config ClusterConfig
	jc := (*config)(c)
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	return d.Decode(jc)
}

type Names []string

type Spec struct {
	Network  *Network                  ` + "`json:\"network\"`" + `
	Plain    Plain                     ` + "`json:\"plain\"`" + `
	Values   json.RawMessage           ` + "`json:\"values\"`" + `
	Any      interface{}               ` + "`json:\"any\"`" + `
	Wait     time.Duration             ` + "`json:\"wait\"`" + `
	ByName   map[string][]Plain        ` + "`json:\"byName\"`" + `
	Names    Names                     ` + "`json:\"names\"`" + `
	Skipped  string                    ` + "`json:\"-\"`" + `
	Untagged bool
	hidden   bool
	Custom   Custom                    ` + "`json:\"custom\"`" + `
}

type Network struct {
	Provider string ` + "`json:\"provider\"`" + `
}

func (n *Network) UnmarshalJSON(data []byte) error {
	n.Provider = "kuberouter"
	type network Network
	return json.Unmarshal(data, (*network)(n))
}

type Plain struct {
	Inner
	Name string ` + "`json:\"name\"`" + `
}

type Inner struct {
	Name  string ` + "`json:\"name\"`" + `
	Depth int    ` + "`json:\"depth\"`" + `
}

type Custom struct{ X int }

func (c *Custom) UnmarshalJSON(data []byte) error {
	var s string
	return json.Unmarshal(data, &s)
}
`

func TestGenerate(t *testing.T) {
	dir := t.TempDir()
	api := filepath.Join(dir, "pkg", "apis", "k0s", "v1beta1")
	if err := os.MkdirAll(api, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{
		filepath.Join(dir, "go.mod"):           "module github.com/k0sproject/k0s\n\ngo 1.26\n",
		filepath.Join(api, "types.go"):         fakeAPI,
		filepath.Join(api, "types_test.go"):    "package v1beta1\n\ntype Test struct{}\n",
		filepath.Join(api, "types_windows.go"): "package v1beta1\n\ntype Meta struct{ Other int }\n",
	} {
		if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	noModules := func(mod, version string) (string, error) { return "", errors.New("no module needed") }
	out, err := generate(dirSource(dir), "v0.0.0-test", noModules)
	if err != nil {
		t.Fatal(err)
	}
	got := string(out)
	for _, want := range []string{
		// ClusterConfig's own Decoder with DisallowUnknownFields: strict;
		// the inline Meta's fields promoted.
		`"k0s/v1beta1.ClusterConfig": {decode: fieldsStrict, method: "types.go ClusterConfig.UnmarshalJSON", fields: []keyField{
		{"kind", "string"},
		{"spec", "k0s/v1beta1.Spec"},`,
		// json.Unmarshal into an alias: lenient.
		`"k0s/v1beta1.Network": {decode: fieldsLenient, method: "types.go Network.UnmarshalJSON"`,
		// Not into an alias of its own type: free-form, no fields.
		`"k0s/v1beta1.Custom": {decode: freeForm, method: "types.go Custom.UnmarshalJSON"},`,
		`"json.RawMessage": {decode: freeForm, method: "stream.go RawMessage.UnmarshalJSON"},`,
		// No UnmarshalJSON; pointers dropped, maps of any key, named
		// non-struct types by their underlying type, interface{} as any,
		// json:"-" and unexported fields left out, an untagged field by its
		// Go name.
		`"k0s/v1beta1.Spec": {decode: fieldsInherit, fields: []keyField{
		{"network", "k0s/v1beta1.Network"},
		{"plain", "k0s/v1beta1.Plain"},
		{"values", "json.RawMessage"},
		{"any", "any"},
		{"wait", "int64"},
		{"byName", "map[string][]k0s/v1beta1.Plain"},
		{"names", "[]string"},
		{"Untagged", "bool"},
		{"custom", "k0s/v1beta1.Custom"},
	}},`,
		// The shallower of two fields of one name wins.
		`"k0s/v1beta1.Plain": {decode: fieldsInherit, fields: []keyField{
		{"name", "string"},
		{"depth", "int"},
	}},`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("generated lacks\n%s\n--- got:\n%s", want, got)
		}
	}
	if strings.Contains(got, "Other") || strings.Contains(got, "Test") {
		t.Errorf("a test file or another OS's file was read:\n%s", got)
	}
}

func TestRequires(t *testing.T) {
	gomod := "module x\n\nrequire (\n\tk8s.io/api v0.36.0 // indirect\n\tsigs.k8s.io/yaml v1.6.0\n)\n\nrequire k8s.io/apimachinery v0.36.0\n\nreplace (\n\t// a comment\n\tk8s.io/api => k8s.io/api v0.36.3\n\tk8s.io/other => ../other\n)\n\nreplace k8s.io/apimachinery => k8s.io/apimachinery v0.36.3\n"
	got := requires([]byte(gomod))
	for mod, want := range map[string]string{"k8s.io/api": "v0.36.3", "k8s.io/apimachinery": "v0.36.3", "sigs.k8s.io/yaml": "v1.6.0"} {
		if got[mod] != want {
			t.Errorf("%s: %q, want %q", mod, got[mod], want)
		}
	}
	if _, ok := got["k8s.io/other"]; ok {
		t.Errorf("a replace to a folder is not a version: %v", got)
	}
}
