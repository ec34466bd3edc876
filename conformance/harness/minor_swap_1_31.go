//go:build kube1_31

package main

import (
	"errors"
	_ "unsafe" // for go:linkname

	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/kubernetes/pkg/features"
	kubeletconfiginternal "k8s.io/kubernetes/pkg/kubelet/apis/config"
	kubelettypes "k8s.io/kubernetes/pkg/kubelet/types"
)

// 1.31: cmd/kubelet/app's own isCgroup2UnifiedMode (runc's), behind the NodeSwap gate.

//go:linkname isCgroup2UnifiedMode k8s.io/kubernetes/cmd/kubelet/app.isCgroup2UnifiedMode
func isCgroup2UnifiedMode() bool

func init() { linkedFuncs = append(linkedFuncs, isCgroup2UnifiedMode) }

func limitedSwap(s *kubeletconfiginternal.KubeletConfiguration) error {
	if utilfeature.DefaultFeatureGate.Enabled(features.NodeSwap) {
		if !isCgroup2UnifiedMode() && s.MemorySwap.SwapBehavior == kubelettypes.LimitedSwap {
			return errors.New("swap feature is enabled and LimitedSwap but it is only supported with cgroupv2")
		}
	}
	return nil
}
