//go:build kube1_31

package main

import (
	"time"

	"k8s.io/kubernetes/pkg/kubelet"
	kubeletconfiginternal "k8s.io/kubernetes/pkg/kubelet/apis/config"
)

// backOffPeriod is pkg/kubelet's unexported constant (kubelet.go line 193 at v1.31.0:
// "the base period for the exponential backoff container restarts and image pulls").
const backOffPeriod = time.Second * 10

// newCrashLoopBackOff: 1.31 has no such function and no gate for it; NewMainKubelet
// sets klet.backOff = flowcontrol.NewBackOff(backOffPeriod, MaxContainerBackOff)
// (k8s.io/kubernetes@v1.31.0/pkg/kubelet/kubelet.go line 876).
func newCrashLoopBackOff(*kubeletconfiginternal.KubeletConfiguration) (time.Duration, time.Duration) {
	return kubelet.MaxContainerBackOff, backOffPeriod
}
