package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestGenerated fails when a generated list is stale: a rule declared outside
// validate that is not registered, a removed one still listed, or an emitting
// package missing from the imports of the rules reference.
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
		t.Errorf("%s registers rules its package no longer declares: run go generate ./internal/rulesgen", rel)
	}
	if len(want) < 3 {
		t.Errorf("found no rule declared outside validate (%d files)", len(want))
	}
}
