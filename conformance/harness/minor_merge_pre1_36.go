//go:build kube1_31 || kube1_32 || kube1_33 || kube1_34 || kube1_35

package main

import (
	_ "unsafe" // for go:linkname

	kubeletconfiginternal "k8s.io/kubernetes/pkg/kubelet/apis/config"
)

// Before 1.36: mergeKubeletConfigurations returns only an error. (1.31's is a different
// algorithm with the same signature: it patches json.Marshal of the internal struct.)

//go:linkname kubeletMergeKubeletConfigurations k8s.io/kubernetes/cmd/kubelet/app.mergeKubeletConfigurations
func kubeletMergeKubeletConfigurations(kubeletConfig *kubeletconfiginternal.KubeletConfiguration, kubeletDropInConfigDir string) error

func init() { linkedFuncs = append(linkedFuncs, kubeletMergeKubeletConfigurations) }

func mergeKubeletConfigurations(kubeletConfig *kubeletconfiginternal.KubeletConfiguration, kubeletDropInConfigDir string) ([]string, error) {
	return nil, kubeletMergeKubeletConfigurations(kubeletConfig, kubeletDropInConfigDir)
}
