//go:build kube1_31 || kube1_32 || kube1_33

package main

import (
	"k8s.io/kubernetes/cmd/kubelet/app"
	"k8s.io/kubernetes/cmd/kubelet/app/options"
	kubeletconfiginternal "k8s.io/kubernetes/pkg/kubelet/apis/config"
)

// Before 1.34 InitializeTLS takes no context.
func initializeTLS(kf *options.KubeletFlags, kc *kubeletconfiginternal.KubeletConfiguration) error {
	_, err := app.InitializeTLS(kf, kc)
	return err
}
