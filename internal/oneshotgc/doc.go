// Package oneshotgc turns the proportional garbage collector off for a
// one-shot run of the kubeletcfg command, from the start of package
// initialisation: importing it (for its side effect) is the whole API, and
// Undo gives a long-running mode the collector back.
//
// lint and skew allocate a few tens of MB in all and exit, so below a heap of
// MemoryLimit the collector only costs: a third of skew's CPU at GOGC=100, and
// 2-3 ms of lint's start-up, most of it while the dependencies' package
// initialisers run, before main could change anything. It depends on nothing
// but the runtime and os, and its import path sorts before the heavy
// initialisers (k8s.io/..., sigs.k8s.io/...), so Go's initialisation order
// (dependencies first, then by import path) runs it early.
//
// GOGC or GOMEMLIMIT in the environment win, and test binaries (os.Args[0]
// ending in .test) are left alone.
package oneshotgc
