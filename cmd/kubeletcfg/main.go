package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/kubeletcfg/kubeletcfg"
	"github.com/kubeletcfg/kubeletcfg/source"
)

// Exit codes: 0 clean, 1 findings at or above --fail-on, 2 usage or input errors.
const (
	exitClean    = 0
	exitFindings = 1
	exitUsage    = 2
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	root := newRootCommand()
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.Execute()
	var fe *kubeletcfg.FindingsError
	var ie *source.InputError
	switch {
	case err == nil:
		return exitClean
	case errors.As(err, &fe):
		return exitFindings
	case errors.As(err, &ie):
		// An input error is printed alone (whatever wraps it names no more), an
		// option it names in the command's words.
		fmt.Fprintf(stderr, "kubeletcfg: %s\n", kubeletcfg.CommandWords(ie))
		return exitUsage
	default:
		fmt.Fprintf(stderr, "kubeletcfg: %s\n", kubeletcfg.CommandWords(err))
		return exitUsage
	}
}
