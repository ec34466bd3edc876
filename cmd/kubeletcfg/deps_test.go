package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestLinkedPackages: the command links neither the real kubelet (the
// conformance harness's module does) nor client-go's typed clientset, whose
// scheme registers every API group when the program starts: about 3 ms of CPU
// in every run, lint included, although only cluster talks to the API server
// (through fleet.NewClient). Nor a JSON Schema validator: jsonschema compiles
// every draft's meta-schema at init (about 2 ms per run); the tests use it as
// the oracle of the unknown-key walk (internal/testonly/schemacheck). Nor cobra/doc and
// its Markdown renderer: the man pages are generated ahead (TestManPagesFresh).
func TestLinkedPackages(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		for _, banned := range []string{"k8s.io/kubernetes", "k8s.io/client-go/kubernetes", "github.com/santhosh-tekuri/jsonschema", "github.com/kubeletcfg/kubeletcfg/internal/testonly/schemacheck", "github.com/spf13/cobra/doc", "github.com/russross/blackfriday"} {
			if pkg == banned || strings.HasPrefix(pkg, banned+"/") {
				t.Errorf("cmd/kubeletcfg links %s", pkg)
			}
		}
	}
}

// TestCommandStaysThin: the command is flags into a request, one library call
// and output (issue 27); what grows past this belongs in the library or in
// internal/flags. The limit counts the package's non-test lines.
func TestCommandStaysThin(t *testing.T) {
	// 1,600 until the webhook verb (issue 29) added its flags and one Serve call.
	const limit = 1700
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	lines := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines += bytes.Count(data, []byte("\n"))
	}
	if lines >= limit {
		t.Errorf("package main of cmd/kubeletcfg has %d lines, limit %d: move what is not flags, one library call and output into the library", lines, limit)
	}
	t.Logf("%d lines", lines)
}
