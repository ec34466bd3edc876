//go:build kube1_32

package main

import (
	"time"

	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/kubernetes/pkg/features"
	"k8s.io/kubernetes/pkg/kubelet"
	kubeletconfiginternal "k8s.io/kubernetes/pkg/kubelet/apis/config"
)

// containerBackOffPeriod is pkg/kubelet's unexported constant (kubelet.go line 206 at
// v1.32.13: "Initial period for the exponential backoff for container restarts").
const containerBackOffPeriod = time.Second * 10

// newCrashLoopBackOff: 1.32 has no such function; NewMainKubelet computes the
// crash-loop back-off inline and calls flowcontrol.NewBackOff(base, boMax). This is
// k8s.io/kubernetes@v1.32.13/pkg/kubelet/kubelet.go lines 929-936, verbatim but for
// the return (MaxContainerBackOff is the exported kubelet.MaxContainerBackOff).
func newCrashLoopBackOff(kubeCfg *kubeletconfiginternal.KubeletConfiguration) (time.Duration, time.Duration) {
	boMax := kubelet.MaxContainerBackOff
	base := containerBackOffPeriod
	if utilfeature.DefaultFeatureGate.Enabled(features.KubeletCrashLoopBackOffMax) {
		boMax = kubeCfg.CrashLoopBackOff.MaxContainerRestartPeriod.Duration
		if boMax < containerBackOffPeriod {
			base = boMax
		}
	}
	return boMax, base
}
