//go:build kube1_31 || kube1_32 || kube1_33

package main

import (
	"context"
	_ "unsafe" // for go:linkname

	kubeletconfiginternal "k8s.io/kubernetes/pkg/kubelet/apis/config"
)

// Before 1.34: loadConfigFile has no context parameter.

//go:linkname kubeletLoadConfigFile k8s.io/kubernetes/cmd/kubelet/app.loadConfigFile
func kubeletLoadConfigFile(name string) (*kubeletconfiginternal.KubeletConfiguration, error)

func init() { linkedFuncs = append(linkedFuncs, kubeletLoadConfigFile) }

func loadConfigFile(_ context.Context, name string) (*kubeletconfiginternal.KubeletConfiguration, error) {
	return kubeletLoadConfigFile(name)
}
