package main

import (
	"errors"

	kubeletconfig "k8s.io/kubelet/config/v1beta1"
)

// mutateResolverConfig is kubeadm's on Linux nodes only (componentconfigs/kubelet_unix.go;
// on Windows kubeletConfig.Mutate rewrites the paths instead). The kubeadm goldens
// are what kubeadm writes on a Linux node: the Linux harness records them.
func mutateResolverConfig(*kubeletconfig.KubeletConfiguration, func(string) (bool, error)) error {
	return errors.New("harness kubeadm: kubeadm's goldens are recorded by the Linux harness")
}
