package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestGenerated fails when the generated list is stale: a rule declared
// outside validate that it does not list, or a removed one still listed.
func TestGenerated(t *testing.T) {
	root := filepath.Join("..", "..")
	want, stale, err := generate(root)
	if err != nil {
		t.Fatal(err)
	}
	for rel, data := range want {
		got, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil || !bytes.Equal(got, data) {
			t.Errorf("%s is stale or missing: run go generate ./internal/rulesgen", rel)
		}
	}
	for _, rel := range stale {
		t.Errorf("%s is left over: run go generate ./internal/rulesgen", rel)
	}
	if !bytes.Contains(want[listFile], []byte("dropin.DropInIgnored")) {
		t.Errorf("found no rule declared outside validate:\n%s", want[listFile])
	}
}
