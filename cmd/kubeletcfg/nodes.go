package main

import (
	"os"
	"runtime/debug"

	"github.com/kubeletcfg/kubeletcfg/internal/oneshotgc"
)

// fleetMemoryLimit gives a many-node run (lint --nodes, cluster) a soft memory
// limit, unless GOMEMLIMIT sets one: the garbage collector then works a little
// harder instead of letting the heap of thousands of parsed nodes grow to twice
// its live size. 10,000 configz dumps at seven minors: about 120 MB peak
// without it, about 93 MB with it, for some 0.3 s more CPU.
func fleetMemoryLimit() {
	oneshotgc.Undo() // the proportional collector back (internal/oneshotgc)
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(56 << 20)
	}
}
