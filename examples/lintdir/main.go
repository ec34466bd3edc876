package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/kubeletcfg/kubeletcfg"
	"github.com/kubeletcfg/kubeletcfg/finding"
)

func main() {
	version := flag.String("kubelet-version", "", "the kubelet minor (default the newest kubeletcfg knows)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: lintdir [-kubelet-version 1.37] DIR")
		os.Exit(2)
	}
	nodes, err := kubeletcfg.Nodes(flag.Arg(0), kubeletcfg.Options{KubeletVersion: *version, Log: os.Stderr})
	if err != nil {
		fmt.Fprintln(os.Stderr, "lintdir:", err)
		os.Exit(2)
	}
	report := nodes.Reports[0]
	failed := false
	for _, g := range report.Groups {
		verdict := "starts"
		if !g.Document.Starts {
			verdict, failed = "does NOT start", true
		}
		warnings := kubeletcfg.CountAtLeast(g.Document.Findings, finding.Warning)
		for _, name := range g.Nodes {
			fmt.Printf("%s: kubelet %s %s, %d findings at warning or above\n", name, report.KubeletVersion, verdict, warnings)
		}
	}
	for _, e := range report.Errors {
		fmt.Printf("%s: could not be read: %s\n", e.Node, e.Error)
		failed = true
	}
	if failed {
		os.Exit(1)
	}
}
