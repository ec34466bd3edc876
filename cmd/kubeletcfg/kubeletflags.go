package main

import (
	"github.com/spf13/cobra"

	"github.com/kubeletcfg/kubeletcfg/discover"
)

// kubeletCmdFlags are --discover and where it looks (--host-root, --pid,
// --unit and the hidden --proc-root: tests scan the real /proc with a
// temporary host root), the options of kubeletcfg discover too.
type kubeletCmdFlags struct {
	discover bool
	host     discover.Options
}

// registerKubeletFlags adds --kubelet-flags and --kubelet-flags-file: the
// kubelet's own command line, which most nodes use besides the files (kubeadm's
// kubeadm-flags.env, a systemd unit's ExecStart, KUBELET_EXTRA_ARGS).
func (f *inputFlags) registerKubeletFlags(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.kubeletFlags, "kubelet-flags", "", "the kubelet's own command line, one shell-quoted string ('--max-pods=50 --feature-gates=A=true', or a line copied from ps: the binary is dropped); its --config and --config-dir are read; the flags win over the files as the kubelet applies them")
	fl.StringVar(&f.kubeletFlagsFile, "kubelet-flags-file", "", "a file with the kubelet's command line: an env file (kubeadm-flags.env, /etc/default/kubelet, EKS's /etc/eks/kubelet/environment), a systemd unit or drop-in (ExecStart=, Environment=, EnvironmentFile=; a *.service gets its *.service.d/*.conf), a copy of /proc/PID/cmdline, a saved ps listing (ps -f, ps aux: header and all, the kubelet's line is read), a line copied from ps, or flags one a line with # comments (microk8s's args/kubelet)")
}

// registerDiscover adds --discover, --host-root and --pid: the inputs of the
// kubelet running on this host (package discover).
func (f *inputFlags) registerDiscover(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.BoolVar(&f.kc.discover, "discover", false, "evaluate the kubelet running on this host: its command line, systemd unit, --config and --config-dir files; --kubelet-version and --cgroup-version default to what it runs with (see kubeletcfg discover)")
	fl.StringVar(&f.kc.host.HostRoot, "host-root", "", "read the host's files under this folder (a pod with the host's / mounted at /host and hostPID: --host-root /host); /proc is <host-root>/proc")
	fl.IntVar(&f.kc.host.PID, "pid", 0, "with --discover: the kubelet process to read when several run")
	fl.StringVar(&f.kc.host.Unit, "unit", "", "with --discover: the kubelet's systemd unit (default: the service its cgroup is in, else kubelet.service)")
	fl.StringVar(&f.kc.host.ProcRoot, "proc-root", "", "the proc file system to scan (default <host-root>/proc)")
	_ = fl.MarkHidden("proc-root")
	_ = cmd.MarkFlagDirname("host-root")
}
