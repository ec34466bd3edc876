// Package backoff computes the crash-loop backoff curve a kubelet applies to a
// container that keeps crashing: the delay before each restart, when the delay
// reaches its cap, how many restarts fit in 10 minutes and in an hour, and when
// the kubelet forgets the backoff of a container that ran cleanly.
//
// It mirrors k8s.io/client-go/util/flowcontrol.Backoff (no jitter: the kubelet
// calls NewBackOff) as the kubelet drives it in kuberuntime's doBackOff: when a
// container has exited, IsInBackOffSince(key, finishedAt) makes it wait,
// otherwise Next(key, finishedAt) moves the backoff on and the container is
// restarted. The initial delay and the cap, and where each comes from, are
// pipeline.Result's (the kubelet's newCrashLoopBackOff, pipeline.Backoff); this
// package plays them out (Compute), evaluates inputs at minors for
// `kubeletcfg backoff` (Evaluate, whose Entry is the command's JSON) and writes
// them as JSON (WriteJSON; their text, with bar charts, is report/verbtext's).
// testdata/conformance/backoff/<minor>.json, recorded by driving each minor's
// real client-go Backoff (conformance/harness backoff), checks it.
//
// Assumptions: the container exits as soon as it starts (finishedAt is the
// restart time), and the kubelet acts the instant a delay ends (sync and
// housekeeping latency ignored).
package backoff
