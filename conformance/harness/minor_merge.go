//go:build !(kube1_31 || kube1_32 || kube1_33 || kube1_34 || kube1_35)

package main

import (
	_ "unsafe" // for go:linkname

	kubeletconfiginternal "k8s.io/kubernetes/pkg/kubelet/apis/config"
)

// 1.36+: mergeKubeletConfigurations also returns the skipped (non-.conf) files.

//go:linkname kubeletMergeKubeletConfigurations k8s.io/kubernetes/cmd/kubelet/app.mergeKubeletConfigurations
func kubeletMergeKubeletConfigurations(kubeletConfig *kubeletconfiginternal.KubeletConfiguration, kubeletDropInConfigDir string) ([]string, error)

func init() { linkedFuncs = append(linkedFuncs, kubeletMergeKubeletConfigurations) }

func mergeKubeletConfigurations(kubeletConfig *kubeletconfiginternal.KubeletConfiguration, kubeletDropInConfigDir string) ([]string, error) {
	return kubeletMergeKubeletConfigurations(kubeletConfig, kubeletDropInConfigDir)
}
