//go:build !(kube1_31 || kube1_32 || kube1_33)

package main

import (
	"context"
	_ "unsafe" // for go:linkname

	kubeletconfiginternal "k8s.io/kubernetes/pkg/kubelet/apis/config"
)

// 1.34+: loadConfigFile takes the command's context (contextual logging).

//go:linkname kubeletLoadConfigFile k8s.io/kubernetes/cmd/kubelet/app.loadConfigFile
func kubeletLoadConfigFile(ctx context.Context, name string) (*kubeletconfiginternal.KubeletConfiguration, error)

func init() { linkedFuncs = append(linkedFuncs, kubeletLoadConfigFile) }

func loadConfigFile(ctx context.Context, name string) (*kubeletconfiginternal.KubeletConfiguration, error) {
	return kubeletLoadConfigFile(ctx, name)
}
