//go:build !(kube1_31 || kube1_32 || kube1_33)

package main

import (
	"context"

	"k8s.io/kubernetes/cmd/kubelet/app"
	"k8s.io/kubernetes/cmd/kubelet/app/options"
	kubeletconfiginternal "k8s.io/kubernetes/pkg/kubelet/apis/config"
)

// 1.34+: InitializeTLS takes the command's context (contextual logging).
func initializeTLS(kf *options.KubeletFlags, kc *kubeletconfiginternal.KubeletConfiguration) error {
	_, err := app.InitializeTLS(context.Background(), kf, kc)
	return err
}
