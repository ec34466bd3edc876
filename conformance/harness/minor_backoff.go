//go:build !kube1_31

package main

import (
	"time"

	"k8s.io/client-go/util/flowcontrol"
	"k8s.io/utils/clock"
)

// newKubeletCrashLoopBackOff builds the crash-loop backoff as NewMainKubelet does:
// flowcontrol.NewBackOff(base, boMax) and its HasExpiredFunc (klet.backOff in 1.32,
// klet.crashLoopBackOff from 1.33), on the given clock. The HasExpiredFunc is a
// closure inside NewMainKubelet, so it cannot be linked; it is copied verbatim from
// k8s.io/kubernetes pkg/kubelet/kubelet.go:
//
//	v1.32.13 lines 937-940    v1.33.13 lines 976-979    v1.34.4 lines 1003-1006
//	v1.35.4  lines 1009-1012  v1.36.3  lines 1068-1071  v1.37.2 lines 1087-1090
func newKubeletCrashLoopBackOff(base, boMax time.Duration, clk clock.Clock) *flowcontrol.Backoff {
	b := flowcontrol.NewBackOff(base, boMax)
	b.Clock = clk
	b.HasExpiredFunc = func(eventTime time.Time, lastUpdate time.Time, maxDuration time.Duration) bool {
		return eventTime.Sub(lastUpdate) > 600*time.Second
	}
	return b
}

const crashLoopHasExpiredSource = "kubelet HasExpiredFunc (pkg/kubelet/kubelet.go, NewMainKubelet): eventTime.Sub(lastUpdate) > 600*time.Second"
