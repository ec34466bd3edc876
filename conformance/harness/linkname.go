package main

import (
	"context"
	"time"
	_ "unsafe" // for go:linkname

	// The packages whose unexported functions are called below must be linked in.
	_ "k8s.io/kubernetes/cmd/kubelet/app"
	_ "k8s.io/kubernetes/pkg/kubelet"

	kubeletconfiginternal "k8s.io/kubernetes/pkg/kubelet/apis/config"
)

// The kubelet's own start-up steps, called through go:linkname so that the harness runs
// exactly the code the kubelet binary runs (no copies). Build with
// -ldflags=-checklinkname=0 (Go 1.23+ restricts pull linknames).

//go:linkname loadConfigFile k8s.io/kubernetes/cmd/kubelet/app.loadConfigFile
func loadConfigFile(ctx context.Context, name string) (*kubeletconfiginternal.KubeletConfiguration, error)

//go:linkname mergeKubeletConfigurations k8s.io/kubernetes/cmd/kubelet/app.mergeKubeletConfigurations
func mergeKubeletConfigurations(kubeletConfig *kubeletconfiginternal.KubeletConfiguration, kubeletDropInConfigDir string) ([]string, error)

//go:linkname kubeletConfigFlagPrecedence k8s.io/kubernetes/cmd/kubelet/app.kubeletConfigFlagPrecedence
func kubeletConfigFlagPrecedence(kc *kubeletconfiginternal.KubeletConfiguration, args []string) error

//go:linkname newCrashLoopBackOff k8s.io/kubernetes/pkg/kubelet.newCrashLoopBackOff
func newCrashLoopBackOff(kubeCfg *kubeletconfiginternal.KubeletConfiguration) (time.Duration, time.Duration)
