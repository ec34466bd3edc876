//go:build !(kube1_31 || kube1_32 || kube1_33 || kube1_34 || kube1_35 || kube1_36 || kube1_37)

package main

import (
	"errors"

	kubeletconfiginternal "k8s.io/kubernetes/pkg/kubelet/apis/config"
	kubelettypes "k8s.io/kubernetes/pkg/kubelet/types"
	kubeletutil "k8s.io/kubernetes/pkg/kubelet/util"
)

// 1.38+: LimitedSwap off cgroup v2 is refused whatever the gates (NodeSwap is gone).
func limitedSwap(s *kubeletconfiginternal.KubeletConfiguration) error {
	if !kubeletutil.IsCgroup2UnifiedMode() && s.MemorySwap.SwapBehavior == string(kubelettypes.LimitedSwap) {
		return errors.New("LimitedSwap is only supported with cgroupv2")
	}
	return nil
}
