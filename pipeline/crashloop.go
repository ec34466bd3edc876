package pipeline

import (
	"encoding/json"
	"time"

	kubeletv1beta1 "github.com/kubeletcfg/kubeletcfg/upstream/kubelet/config/v1beta1"
	"k8s.io/component-base/featuregate"

	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

// Backoff is the crash-loop backoff the kubelet applies to restarting
// containers, and where newCrashLoopBackOff took each duration from.
type Backoff struct {
	Initial time.Duration
	Max     time.Duration
	// InitialFrom and MaxFrom are recorded where the durations are decided
	// (crashLoopBackOff), so that no reader has to guess them from the values.
	// They are not part of the JSON: the goldens record what the kubelet
	// computes, and the kubelet does not say why.
	InitialFrom BackoffSource
	MaxFrom     BackoffSource
}

// MarshalJSON prints durations the way Go and the kubelet print them ("10s", "5m0s").
func (b Backoff) MarshalJSON() ([]byte, error) {
	return json.Marshal(map[string]string{"initial": b.Initial.String(), "max": b.Max.String()})
}

// BackoffSource is where newCrashLoopBackOff took one duration from. Exactly
// one field is set.
type BackoffSource struct {
	// Constant names the kubelet's built-in constant (pkg/kubelet/kubelet.go)
	// used when no gate or field changes it.
	Constant string
	// Gate names the feature gate whose constant it is
	// (ReduceDefaultCrashLoopBackOffDecay).
	Gate string
	// Field is the KubeletConfiguration path that sets it
	// (crashLoopBackOff.maxContainerRestartPeriod, with KubeletCrashLoopBackOffMax
	// on). Where it was written is Result.Origins[Field]: the one record of
	// positions, which input's Settle maps for converted documents; no entry
	// there means the value is a default.
	Field string
	// Cap: the initial delay is the cap, which the kubelet lowers it to when
	// the cap is shorter.
	Cap bool
}

// Crash-loop backoff constants of pkg/kubelet/kubelet.go.
const (
	initialCrashLoopBackOff        = 10 * time.Second
	maxCrashLoopBackOff            = 300 * time.Second
	reducedInitialCrashLoopBackOff = 1 * time.Second
	reducedMaxCrashLoopBackOff     = 60 * time.Second
)

// The path of the cap that KubeletCrashLoopBackOffMax reads.
const crashLoopMaxPath = "crashLoopBackOff.maxContainerRestartPeriod"

// crashLoopBackOff mirrors newCrashLoopBackOff in pkg/kubelet/kubelet.go (1.33+)
// and the inline code it replaced in NewMainKubelet (1.32: the same without
// ReduceDefaultCrashLoopBackOffDecay; 1.31: fixed 10s and 300s). A gate the
// minor does not register is off, so one function covers every minor.
func crashLoopBackOff(m *kubelets.Minor, gates featuregate.FeatureGate, kc *kubeletv1beta1.KubeletConfiguration) Backoff {
	b := Backoff{
		Initial: initialCrashLoopBackOff, InitialFrom: BackoffSource{Constant: "initialCrashLoopBackOff"},
		Max: maxCrashLoopBackOff, MaxFrom: BackoffSource{Constant: "maxCrashLoopBackOff"},
	}
	if gate := "ReduceDefaultCrashLoopBackOffDecay"; gateOn(m, gates, gate) {
		b.Initial, b.InitialFrom = reducedInitialCrashLoopBackOff, BackoffSource{Gate: gate}
		b.Max, b.MaxFrom = reducedMaxCrashLoopBackOff, BackoffSource{Gate: gate}
	}
	if gateOn(m, gates, "KubeletCrashLoopBackOffMax") {
		// Operator configuration wins when the gate is on (validation guarantees it is set).
		if kc.CrashLoopBackOff.MaxContainerRestartPeriod != nil {
			b.Max = kc.CrashLoopBackOff.MaxContainerRestartPeriod.Duration
		} else {
			b.Max = 0
		}
		b.MaxFrom = BackoffSource{Field: crashLoopMaxPath}
		if b.Max < b.Initial {
			b.Initial = b.Max
		}
		if b.Initial == b.Max {
			b.InitialFrom = BackoffSource{Cap: true}
		}
	}
	return b
}
