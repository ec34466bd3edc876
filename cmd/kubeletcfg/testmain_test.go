package main

import (
	"os"
	"testing"
)

// TestMain runs the package's tests with GOMEMLIMIT=off in the environment, so
// that fleetMemoryLimit leaves the process's memory limit alone. The tests run
// hundreds of commands in one process: the 56 MB soft limit that a one-shot
// lint --nodes or cluster run sets would stay for every later test, with a
// heap (every minor's data, decoded once and kept) near that size, and the
// collector would run without pause: 60% of the package's CPU time. What the
// commands print does not depend on it.
func TestMain(m *testing.M) {
	if os.Getenv("GOMEMLIMIT") == "" {
		os.Setenv("GOMEMLIMIT", "off")
	}
	os.Exit(m.Run())
}
