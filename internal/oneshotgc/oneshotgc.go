package oneshotgc

import (
	"math"
	"os"
	"runtime/debug"
	"strings"
)

// MemoryLimit is the heap at which a one-shot run starts collecting: a run
// that reads thousands of drop-ins stays bounded.
const MemoryLimit = 512 << 20

// tuned records that init turned the proportional collector off.
var tuned bool

func init() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" || strings.HasSuffix(os.Args[0], ".test") {
		return
	}
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(MemoryLimit)
	tuned = true
}

// Undo restores the collector's defaults (GOGC=100, no memory limit) if init
// changed them: a run over many nodes keeps thousands of parsed
// configurations alive and needs the proportional collector.
func Undo() {
	if tuned {
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(math.MaxInt64)
		tuned = false
	}
}
