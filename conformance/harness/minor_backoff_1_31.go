//go:build kube1_31

package main

import (
	"time"

	"k8s.io/client-go/util/flowcontrol"
	"k8s.io/utils/clock"
)

// newKubeletCrashLoopBackOff builds the crash-loop backoff as NewMainKubelet does:
// klet.backOff = flowcontrol.NewBackOff(backOffPeriod, MaxContainerBackOff)
// (k8s.io/kubernetes@v1.31.0/pkg/kubelet/kubelet.go line 876), on the given clock.
// client-go v0.31.0's Backoff has no HasExpiredFunc: its own hasExpired
// (eventTime.Sub(lastUpdate) > 2*maxDuration) applies.
func newKubeletCrashLoopBackOff(base, boMax time.Duration, clk clock.Clock) *flowcontrol.Backoff {
	b := flowcontrol.NewBackOff(base, boMax)
	b.Clock = clk
	return b
}

const crashLoopHasExpiredSource = "none: client-go's own hasExpired (eventTime.Sub(lastUpdate) > maxDuration*2)"
