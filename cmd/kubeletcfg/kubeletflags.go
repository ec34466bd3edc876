package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kubeletcfg/kubeletcfg/discover"
	"github.com/kubeletcfg/kubeletcfg/input/kubeletcmd"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
	"github.com/kubeletcfg/kubeletcfg/validate"
)

// kubeletCmdFlags are the flags that give the kubelet's own command line
// (kubeletflags.go): written out, in a file, or discovered on this host.
type kubeletCmdFlags struct {
	discover bool
	hostRoot string
	pid      int
	procRoot string // hidden: tests scan the real /proc with a temporary host root
	unit     string

	// done, args and discovered cache the command line: input() may run more than once.
	done       bool
	args       []kubeletcmd.Arg
	discovered *discover.Kubelet
	// fromCmdline says that config/configDir came from the kubelet's command line.
	fromCmdline bool
}

// registerKubeletFlags adds --kubelet-flags and --kubelet-flags-file: the
// kubelet's own command line, which most nodes use besides the files (kubeadm's
// kubeadm-flags.env, a systemd unit's ExecStart, KUBELET_EXTRA_ARGS).
func (f *inputFlags) registerKubeletFlags(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.kubeletFlags, "kubelet-flags", "", "the kubelet's own command line, one shell-quoted string ('--max-pods=50 --feature-gates=A=true', or a line copied from ps: the binary is dropped); its --config and --config-dir are read; the flags win over the files as the kubelet applies them")
	fl.StringVar(&f.kubeletFlagsFile, "kubelet-flags-file", "", "a file with the kubelet's command line: an env file (kubeadm-flags.env, /etc/default/kubelet, EKS's /etc/eks/kubelet/environment), a systemd unit or drop-in (ExecStart=, Environment=, EnvironmentFile=; a *.service gets its *.service.d/*.conf), a copy of /proc/PID/cmdline, or a line copied from ps")
}

// registerDiscover adds --discover, --host-root and --pid: the inputs of the
// kubelet running on this host (package discover).
func (f *inputFlags) registerDiscover(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.BoolVar(&f.kc.discover, "discover", false, "evaluate the kubelet running on this host: its command line, systemd unit, --config and --config-dir files; --kubelet-version and --cgroup-version default to what it runs with (see kubeletcfg discover)")
	fl.StringVar(&f.kc.hostRoot, "host-root", "", "read the host's files under this folder (a pod with the host's / mounted at /host and hostPID: --host-root /host); /proc is <host-root>/proc")
	fl.IntVar(&f.kc.pid, "pid", 0, "with --discover: the kubelet process to read when several run")
	fl.StringVar(&f.kc.unit, "unit", "", "with --discover: the kubelet's systemd unit (default: the service its cgroup is in, else kubelet.service)")
	fl.StringVar(&f.kc.procRoot, "proc-root", "", "the proc file system to scan (default <host-root>/proc)")
	_ = fl.MarkHidden("proc-root")
	_ = cmd.MarkFlagDirname("host-root")
}

// discoverOptions are the options of --discover and kubeletcfg discover.
func (k *kubeletCmdFlags) discoverOptions() discover.Options {
	return discover.Options{HostRoot: k.hostRoot, ProcRoot: k.procRoot, PID: k.pid, Unit: k.unit}
}

// kubeletArgs reads the kubelet's command line: the discovered kubelet's, then
// --kubelet-flags-file's, then --kubelet-flags (later flags win, as in one
// command line).
func (f *inputFlags) kubeletArgs() ([]kubeletcmd.Arg, error) {
	k := &f.kc
	if k.done {
		return k.args, nil
	}
	var args []kubeletcmd.Arg
	if k.discover {
		d, err := discover.Discover(k.discoverOptions())
		if err != nil {
			return nil, err
		}
		k.discovered = d
		args = append(args, d.Args...)
		f.applyDiscovered(d)
	} else if k.pid != 0 || k.unit != "" {
		return nil, errors.New("--pid and --unit choose what --discover reads; add --discover")
	}
	if f.kubeletFlagsFile != "" {
		a, err := kubeletcmd.ReadFile(k.root(), f.kubeletFlagsFile)
		if err != nil {
			return nil, fmt.Errorf("--kubelet-flags-file: %w", unwrapPath(err, f.kubeletFlagsFile))
		}
		args = append(args, a...)
	}
	if f.kubeletFlags != "" {
		a, err := kubeletcmd.FromLine(f.kubeletFlags, validate.Position{File: pipeline.CommandLine})
		if err != nil {
			return nil, fmt.Errorf("--kubelet-flags: %w", err)
		}
		args = append(args, a...)
	}
	k.args, k.done = args, true
	return args, nil
}

// unwrapPath makes "open x: no such file" errors name the file once.
func unwrapPath(err error, path string) error {
	if strings.Contains(err.Error(), path) {
		return err
	}
	return fmt.Errorf("%s: %w", path, err)
}

func (k *kubeletCmdFlags) root() string {
	if k.hostRoot == "/" {
		return ""
	}
	return k.hostRoot
}

// applyDiscovered makes the discovered minor and cgroup version the defaults of
// --kubelet-version and --cgroup-version.
func (f *inputFlags) applyDiscovered(d *discover.Kubelet) {
	changed := func(name string) bool {
		return f.cmd != nil && f.cmd.Flags().Changed(name)
	}
	if d.Minor != "" && !changed("kubelet-version") {
		f.kubeletVersion = d.Minor
	}
	if !changed("cgroup-version") {
		f.cgroupVersion = fmt.Sprintf("v%d", d.Cgroup)
	}
	if f.cmd != nil {
		v := d.Version
		if v == "" {
			v = "version unknown"
		}
		fmt.Fprintf(f.cmd.ErrOrStderr(), "kubeletcfg: discovered kubelet pid %d (%s, cgroup v%d); kubeletcfg discover shows where each piece came from\n", d.PID, v, d.Cgroup)
	}
}

// commandLineConfig honours --config and --config-dir on the kubelet's command
// line: the files it names are read (under --host-root), unless -c or -d name
// files too, which is a usage error naming both.
func (f *inputFlags) commandLineConfig(args []kubeletcmd.Arg) error {
	if f.kc.fromCmdline {
		return nil
	}
	cfg, dir := kubeletcmd.ConfigFlags(args)
	if cfg == nil && dir == nil {
		return nil
	}
	if f.config != "" || f.configDir != "" {
		given := "--config " + f.config
		if f.config == "" {
			given = "--config-dir " + f.configDir
		}
		theirs, flag := cfg, "--config"
		if theirs == nil {
			theirs, flag = dir, "--config-dir"
		}
		at := theirs.Pos.String()
		if theirs.Pos.File == pipeline.CommandLine {
			at = "in --kubelet-flags"
		}
		return fmt.Errorf("%s and the kubelet's own %s=%s (%s) both name the kubelet's files: give one of them", given, flag, theirs.Text, at)
	}
	if f.kc.discovered != nil {
		// discover resolved them against the process's working folder and checked them.
		if d := f.kc.discovered; d.Config != nil || d.ConfigDir != nil {
			if d.Config != nil {
				f.config = d.Config.Read
			}
			if d.ConfigDir != nil {
				f.configDir = d.ConfigDir.Read
			}
			f.kc.fromCmdline = true
			return nil
		}
	}
	if cfg != nil {
		f.config = f.kc.hostPath(cfg.Text)
	}
	if dir != nil {
		f.configDir = f.kc.hostPath(dir.Text)
	}
	f.kc.fromCmdline = true
	return nil
}

// hostPath is a path of the kubelet's under --host-root (a relative one is
// relative to /, systemd's working folder for services).
func (k *kubeletCmdFlags) hostPath(p string) string {
	if k.root() == "" || p == "" {
		return p
	}
	return filepath.Join(k.root(), "/", p)
}

// applyKubeletFlags puts the kubelet's command line into the pipeline input,
// each argument with where it was written.
func (f *inputFlags) applyKubeletFlags(in *pipeline.Input, args []kubeletcmd.Arg) {
	for _, a := range args {
		in.Flags = append(in.Flags, a.Text)
		in.FlagPositions = append(in.FlagPositions, a.Pos)
	}
}
