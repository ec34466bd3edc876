package main

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/kubeletcfg/kubeletcfg"
	"github.com/kubeletcfg/kubeletcfg/report"
	"github.com/kubeletcfg/kubeletcfg/validate"
)

// lintNodes is kubeletcfg lint --nodes DIR (kubeletcfg.Nodes): every node
// evaluated at the --kubelet-version minor (or each of --versions), nodes
// grouped by what the kubelet would do.
func lintNodes(out io.Writer, opt kubeletcfg.Options, dir, output string, threshold validate.Severity, ro report.Options) error {
	fleetMemoryLimit()
	l, err := kubeletcfg.Nodes(dir, opt)
	if err != nil {
		return err
	}
	if err := l.Write(out, output, ro); err != nil {
		return err
	}
	if n, total := l.Unread(), l.Total(); n > 0 {
		return fmt.Errorf("%d of %d %s could not be read (listed above)", n, total, plural(total, "node", "nodes"))
	}
	if n := l.CountAtLeast(threshold); n > 0 {
		return &findingsError{N: n}
	}
	return nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// fleetMemoryLimit gives a many-node run (lint --nodes, cluster) a soft memory
// limit, unless GOMEMLIMIT sets one: the garbage collector then works a little
// harder instead of letting the heap of thousands of parsed nodes grow to twice
// its live size. 10,000 configz dumps at seven minors: about 120 MB peak
// without it, about 93 MB with it, for some 0.3 s more CPU.
func fleetMemoryLimit() {
	longRunningGC()
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(56 << 20)
	}
}
