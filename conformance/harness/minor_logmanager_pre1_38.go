//go:build kube1_31 || kube1_32 || kube1_33 || kube1_34 || kube1_35 || kube1_36 || kube1_37

package main

import (
	kubeletconfiginternal "k8s.io/kubernetes/pkg/kubelet/apis/config"
	kubecontainer "k8s.io/kubernetes/pkg/kubelet/container"
	"k8s.io/kubernetes/pkg/kubelet/logs"
)

// Before 1.38 NewContainerLogManager takes no logger. The runtime service is the
// CRI's; the constructor only stores it.
func newContainerLogManager(kc *kubeletconfiginternal.KubeletConfiguration) error {
	_, err := logs.NewContainerLogManager(nil, kubecontainer.RealOS{}, kc.ContainerLogMaxSize,
		int(kc.ContainerLogMaxFiles), int(kc.ContainerLogMaxWorkers), kc.ContainerLogMonitorInterval)
	return err
}
