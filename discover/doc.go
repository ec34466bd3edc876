// Package discover finds the kubelet running on a host, the kube-bench way but
// exact: its process in /proc, its command line, the systemd unit and drop-ins
// that wrote it, the files its --config and --config-dir name, its version and
// the host's cgroup version, each with where it came from.
//
// Discover returns a Kubelet, the JSON of `kubeletcfg discover -o json`
// (WriteJSON) and what --discover hands to lint, effective, skew and preflight;
// the command's text is report/verbtext's.
package discover
