//go:build !windows

package main

import (
	_ "unsafe" // for go:linkname

	kubeletconfig "k8s.io/kubelet/config/v1beta1"
	kubeadmapi "k8s.io/kubernetes/cmd/kubeadm/app/apis/kubeadm"
)

// kubeadm's resolver mutation (componentconfigs/kubelet_unix.go), which `kubeadm init
// phase kubelet-start` runs on the node through kubeletConfig.Mutate with the host's
// init system as the oracle; the harness calls it with a fixed answer instead.
//
//go:linkname mutateResolverConfig k8s.io/kubernetes/cmd/kubeadm/app/componentconfigs.mutateResolverConfig
func mutateResolverConfig(cfg *kubeletconfig.KubeletConfiguration, isServiceActiveFunc func(string) (bool, error)) error

func init() { linkedFuncs = append(linkedFuncs, mutateResolverConfig) }

// mutateNodeLocal is kubeletConfig.Mutate on a Linux node (componentconfigs/kubelet_unix.go)
// with the answer to "is systemd-resolved active" fixed to resolved.
func mutateNodeLocal(cfg kubeadmapi.ComponentConfig, resolved bool) error {
	return mutateResolverConfig(cfg.Get().(*kubeletconfig.KubeletConfiguration), func(string) (bool, error) { return resolved, nil })
}
