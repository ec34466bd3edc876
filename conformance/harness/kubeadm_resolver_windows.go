package main

import (
	kubeadmapi "k8s.io/kubernetes/cmd/kubeadm/app/apis/kubeadm"
)

// mutateNodeLocal is kubeletConfig.Mutate as kubeadm runs it on a Windows node
// (componentconfigs/kubelet_windows.go): resolvConf emptied, the drive of the
// running executable put before staticPodPath and clientCAFile when they start
// with "/". Under Wine the harness runs from Z:, so the goldens say Z:. Windows
// has no systemd-resolved: resolved plays no part.
func mutateNodeLocal(cfg kubeadmapi.ComponentConfig, _ bool) error {
	return cfg.Mutate()
}
