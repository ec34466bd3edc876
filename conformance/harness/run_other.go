//go:build !linux

package main

import (
	"errors"
	"os/exec"
)

// caseCommand starts `exe args...` as a plain child process. Off Linux there are no
// cgroups: the kubelet's IsCgroup2UnifiedMode is false whatever the case's cgroup:
// (pkg/kubelet/util/util_windows.go), and the golden still records the case's value.
func caseCommand(exe string, _ *Case, args []string) *exec.Cmd {
	return exec.Command(exe, args...)
}

func cmdMountNS([]string) error {
	return errors.New(mountNSCmd + " is Linux only")
}
