package kubeletcfg_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestREADMELibrary builds the program of docs/library.md (as
// examples/readme/main.go, through a build overlay: it is nowhere on disk in
// the module), runs it from the module root and compares what it prints with
// the text block that follows it. The README's "Use as a Go library" block is
// an excerpt of that program, line for line.
func TestREADMELibrary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	raw, err := os.ReadFile("docs/library.md")
	if err != nil {
		t.Fatal(err)
	}
	section := string(raw)
	block := func(fence string) string {
		_, rest, ok := strings.Cut(section, "\n"+fence+"\n")
		if !ok {
			t.Fatalf("docs/library.md: no %s block", fence)
		}
		body, after, _ := strings.Cut(rest, "\n```\n")
		section = after
		return body + "\n"
	}
	program, want := block("```go"), block("```text")
	checkREADMEExcerpt(t, program)

	tmp := t.TempDir()
	src := filepath.Join(tmp, "main.go")
	if err := os.WriteFile(src, []byte(program), 0o644); err != nil {
		t.Fatal(err)
	}
	root, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	overlay, err := json.Marshal(map[string]map[string]string{"Replace": {filepath.Join(root, "examples", "readme", "main.go"): src}})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tmp, "overlay.json"), overlay, 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(tmp, "readme")
	if out, err := exec.Command("go", "build", "-overlay", filepath.Join(tmp, "overlay.json"), "-o", bin, "./examples/readme").CombinedOutput(); err != nil {
		t.Fatalf("the README's program does not build: %v\n%s", err, out)
	}
	got, err := exec.Command(bin).Output()
	if err != nil {
		t.Fatalf("the README's program: %v", err)
	}
	if string(got) != want {
		t.Errorf("the README's program prints:\n%s\nthe README says:\n%s", got, want)
	}
}

// checkREADMEExcerpt: the Go block of the README's "Use as a Go library"
// section is consecutive lines of program, indentation aside.
func checkREADMEExcerpt(t *testing.T, program string) {
	t.Helper()
	raw, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(raw), "\n## Use as a Go library\n")
	if !ok {
		t.Fatal(`README: no "## Use as a Go library" section`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	_, excerpt, ok := strings.Cut(section, "\n```go\n")
	if !ok {
		t.Fatal("README library section: no ```go block")
	}
	excerpt, _, _ = strings.Cut(excerpt, "\n```\n")
	// The README shows the lines of main's body one tab less indented.
	var indented []string
	for _, l := range strings.Split(excerpt, "\n") {
		if l != "" {
			l = "\t" + l
		}
		indented = append(indented, l)
	}
	if !strings.Contains(program, "\n"+strings.Join(indented, "\n")+"\n") {
		t.Errorf("the README's library block is not an excerpt of docs/library.md's program:\n%s", excerpt)
	}
}
