package main

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

// caseCommand starts `exe args...` inside a private mount namespace whose
// /sys/fs/cgroup is a fresh cgroup2 mount (cgroup: v2) or a tmpfs (cgroup: v1), so
// that libcontainercgroups.IsCgroup2UnifiedMode() answers what the case asks for.
func caseCommand(exe string, c *Case, args []string) *exec.Cmd {
	cmd := exec.Command(exe, append([]string{mountNSCmd, c.Cgroup, "--", exe}, args...)...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Unshareflags: syscall.CLONE_NEWNS}
	return cmd
}

// cmdMountNS runs in a fresh mount namespace (private propagation, see
// SysProcAttr.Unshareflags): it mounts the cgroup file system and execs args.
func cmdMountNS(args []string) error {
	if len(args) < 3 || args[1] != "--" {
		return errUsage
	}
	var err error
	switch args[0] {
	case "v2":
		err = syscall.Mount("none", "/sys/fs/cgroup", "cgroup2", 0, "")
	case "v1":
		err = syscall.Mount("none", "/sys/fs/cgroup", "tmpfs", 0, "mode=755")
	default:
		return fmt.Errorf("cgroup must be v1 or v2, not %q", args[0])
	}
	if err != nil {
		return fmt.Errorf("mounting the %s cgroup fs on /sys/fs/cgroup (needs root): %w", args[0], err)
	}
	return syscall.Exec(args[2], args[2:], os.Environ())
}
