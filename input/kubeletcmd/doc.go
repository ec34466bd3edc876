// Package kubeletcmd reads the kubelet's command line as it is written down on a
// node: a line copied from ps, a /proc/PID/cmdline file, kubeadm's
// kubeadm-flags.env, or a systemd unit with its drop-ins and environment files,
// expanded as systemd expands it (systemd.service(5) "Command lines",
// systemd.exec(5) Environment=/EnvironmentFile=, systemd.unit(5) drop-ins).
// Every argument keeps the file and line it was written on.
package kubeletcmd
