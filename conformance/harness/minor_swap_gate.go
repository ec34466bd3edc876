//go:build kube1_32 || kube1_33 || kube1_34 || kube1_35 || kube1_36 || kube1_37

package main

import (
	"errors"

	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/kubernetes/pkg/features"
	kubeletconfiginternal "k8s.io/kubernetes/pkg/kubelet/apis/config"
	kubelettypes "k8s.io/kubernetes/pkg/kubelet/types"
	kubeletutil "k8s.io/kubernetes/pkg/kubelet/util"
)

// 1.32-1.37: LimitedSwap off cgroup v2 is refused when the NodeSwap gate is on.
func limitedSwap(s *kubeletconfiginternal.KubeletConfiguration) error {
	if utilfeature.DefaultFeatureGate.Enabled(features.NodeSwap) {
		if !kubeletutil.IsCgroup2UnifiedMode() && string(s.MemorySwap.SwapBehavior) == string(kubelettypes.LimitedSwap) {
			return errors.New("swap feature is enabled and LimitedSwap but it is only supported with cgroupv2")
		}
	}
	return nil
}
