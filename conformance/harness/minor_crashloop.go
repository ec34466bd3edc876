//go:build !(kube1_31 || kube1_32)

package main

import (
	"time"
	_ "unsafe" // for go:linkname

	kubeletconfiginternal "k8s.io/kubernetes/pkg/kubelet/apis/config"
)

// 1.33+: pkg/kubelet.newCrashLoopBackOff.

//go:linkname newCrashLoopBackOff k8s.io/kubernetes/pkg/kubelet.newCrashLoopBackOff
func newCrashLoopBackOff(kubeCfg *kubeletconfiginternal.KubeletConfiguration) (time.Duration, time.Duration)

func init() { linkedFuncs = append(linkedFuncs, newCrashLoopBackOff) }
