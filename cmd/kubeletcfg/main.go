// Command kubeletcfg tells, before a node boots, what a kubelet version will do
// with a KubeletConfiguration file and its --config-dir drop-ins.
package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime/debug"

	"github.com/kubeletcfg/kubeletcfg/source"
)

// Exit codes: 0 clean, 1 findings at or above --fail-on, 2 usage or input errors.
const (
	exitClean    = 0
	exitFindings = 1
	exitUsage    = 2
)

func main() {
	oneShotGC()
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// oneShotMemoryLimit is the heap at which a one-shot run starts collecting.
// lint and skew allocate a few tens of MB in all and exit, so below it the
// garbage collector only costs (a third of skew's CPU at GOGC=100); a run that
// reads thousands of drop-ins still stays bounded.
const oneShotMemoryLimit = 512 << 20

// gcTuned records that oneShotGC turned the proportional collector off.
var gcTuned bool

// oneShotGC turns the proportional garbage collector off for a one-shot run,
// collecting only near oneShotMemoryLimit, unless GOGC or GOMEMLIMIT say
// otherwise. The long-running modes (lint --nodes, cluster) call
// longRunningGC first.
func oneShotGC() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(oneShotMemoryLimit)
	gcTuned = true
}

// longRunningGC undoes oneShotGC: a run over many nodes keeps thousands of
// parsed configurations alive and needs the proportional collector back.
func longRunningGC() {
	if gcTuned {
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(math.MaxInt64)
		gcTuned = false
	}
}

func run(args []string, stdout, stderr io.Writer) int {
	root := newRootCommand()
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.Execute()
	var fe *findingsError
	var ie *source.InputError
	switch {
	case err == nil:
		return exitClean
	case errors.As(err, &fe):
		return exitFindings
	case errors.As(err, &ie):
		fmt.Fprintf(stderr, "kubeletcfg: %v\n", ie)
		return exitUsage
	default:
		fmt.Fprintf(stderr, "kubeletcfg: %v\n", err)
		return exitUsage
	}
}

// findingsError reports that findings reached the --fail-on threshold; the
// findings themselves are already printed.
type findingsError struct{ n int }

func (e *findingsError) Error() string { return fmt.Sprintf("%d findings at or above --fail-on", e.n) }
