package main

import (
	"os/exec"
	"testing"
)

// TestUpstreamVariantBuilds: the -tags upstream floor is not built by go test
// ./... or go vet ./...; it must keep compiling.
func TestUpstreamVariantBuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go vet")
	}
	if out, err := exec.Command("go", "vet", "-tags", "upstream", ".").CombinedOutput(); err != nil {
		t.Fatalf("go vet -tags upstream: %v\n%s", err, out)
	}
}
