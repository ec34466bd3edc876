package backoff

import (
	"fmt"
	"time"

	"github.com/kubeletcfg/kubeletcfg/internal/kubeletdata"
)

// Windows the restarts are counted in.
const (
	Window10m = 10 * time.Minute
	Window1h  = time.Hour
)

// maxInput bounds initial and max so that doubling never overflows; the kubelet
// allows at most 300s.
const maxInput = 24 * time.Hour

// Duration is a time.Duration that reads and writes as Go prints it ("5m0s").
type Duration time.Duration

func (d Duration) String() string { return time.Duration(d).String() }

// MarshalText writes the duration as time.Duration.String does.
func (d Duration) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText reads what MarshalText writes.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return err
	}
	*d = Duration(v)
	return nil
}

// Step is one restart of a container that keeps crashing.
type Step struct {
	// Restart counts from 1: the restart after the first crash.
	Restart int `json:"restart"`
	// Delay is how long the kubelet waits after the crash before this restart.
	Delay Duration `json:"delay"`
	// At is when the restart happens, counted from the first crash.
	At Duration `json:"at"`
}

// Curve is the crash-loop backoff of one kubelet minor with one (initial, max).
type Curve struct {
	KubeletVersion string   `json:"kubeletVersion"`
	Initial        Duration `json:"initial"`
	Max            Duration `json:"max"`
	// Steps are the restarts up to and including the first that waits the full
	// cap; every later restart waits the cap too.
	Steps []Step `json:"steps"`
	// CapReachedAfter is when the first full-cap wait starts, counted from the
	// first crash.
	CapReachedAfter Duration `json:"capReachedAfter"`
	// RestartsIn10m and RestartsIn1h count the restarts at a time t with
	// 0 <= t < 10m (1h) after the first crash.
	RestartsIn10m int `json:"restartsIn10m"`
	RestartsIn1h  int `json:"restartsIn1h"`
	// ResetAfter: the kubelet forgets a container's backoff once more than this
	// has passed since its last restart. A container that runs longer than this
	// before crashing restarts at once, and its delays start again from Initial.
	ResetAfter Duration `json:"resetAfter"`
	// ResetRule says where ResetAfter comes from at this minor.
	ResetRule string `json:"resetRule"`
}

// resetRule is how a kubelet minor decides that a backoff entry has expired.
type resetRule struct {
	// fixed is the kubelet's HasExpiredFunc threshold; 0: client-go's default,
	// twice the cap.
	fixed time.Duration
	text  string
}

const (
	// client-go's hasExpired when HasExpiredFunc is nil:
	// eventTime.Sub(lastUpdate) > maxDuration*2 (util/flowcontrol/backoff.go).
	textDefault = "client-go default: 2 × cap (the kubelet sets no HasExpiredFunc)"
	// The kubelet's HasExpiredFunc: eventTime.Sub(lastUpdate) > 600*time.Second.
	textFixed = "kubelet HasExpiredFunc: fixed 600s"
)

// resetRules holds each minor's expiry rule, read in k8s.io/kubernetes'
// pkg/kubelet/kubelet.go, NewMainKubelet. Both Next (at a crash) and GC (the
// kubelet's housekeeping, every 2s) use it.
var resetRules = map[int]resetRule{
	// v1.31.0 line 876: klet.backOff = flowcontrol.NewBackOff(backOffPeriod,
	// MaxContainerBackOff), no HasExpiredFunc (client-go v0.31 has none).
	31: {text: textDefault},
	// v1.32.13 lines 938-940: klet.backOff.HasExpiredFunc = ... > 600*time.Second.
	32: {fixed: 600 * time.Second, text: textFixed},
	// v1.33.13 lines 977-979 (klet.crashLoopBackOff from here on).
	33: {fixed: 600 * time.Second, text: textFixed},
	// v1.34.4 lines 1004-1006.
	34: {fixed: 600 * time.Second, text: textFixed},
	// v1.35.4 lines 1010-1012.
	35: {fixed: 600 * time.Second, text: textFixed},
	// v1.36.3 lines 1069-1071.
	36: {fixed: 600 * time.Second, text: textFixed},
	// v1.37.2 lines 1088-1090.
	37: {fixed: 600 * time.Second, text: textFixed},
	// v1.38.0-beta.0 lines 1112-1114.
	38: {fixed: 600 * time.Second, text: textFixed},
}

// minorNumber is 37 for "1.37", "v1.37" or "v1.37.2": the key of resetRules.
func minorNumber(minor string) (int, error) {
	v, ok := kubeletdata.ParseVersion(minor)
	if !ok || v.Major != 1 {
		return 0, fmt.Errorf("backoff: %q is not a kubelet version", minor)
	}
	n := v.Minor
	if _, ok := resetRules[n]; !ok {
		return 0, fmt.Errorf("backoff: no reset rule for kubelet 1.%d", n)
	}
	return n, nil
}

// ResetAfter is the expiry threshold of a minor's crash-loop backoff with the
// given cap, and where it comes from.
func ResetAfter(minor string, max time.Duration) (time.Duration, string, error) {
	n, err := minorNumber(minor)
	if err != nil {
		return 0, "", err
	}
	r := resetRules[n]
	if r.fixed == 0 {
		return 2 * max, r.text, nil
	}
	return r.fixed, r.text, nil
}

// Compute plays out the backoff of kubelet minor ("1.37" or "v1.37.2") with the
// initial delay and cap of its newCrashLoopBackOff.
func Compute(minor string, initial, max time.Duration) (*Curve, error) {
	if initial <= 0 || max <= 0 || initial > maxInput || max > maxInput {
		return nil, fmt.Errorf("backoff: initial %s and cap %s must be positive and at most %s", initial, max, maxInput)
	}
	reset, rule, err := ResetAfter(minor, max)
	if err != nil {
		return nil, err
	}
	c := &Curve{KubeletVersion: minor, Initial: Duration(initial), Max: Duration(max), ResetAfter: Duration(reset), ResetRule: rule}
	var at time.Duration
	for k := 1; ; k++ {
		d := c.Delay(k)
		at += d
		c.Steps = append(c.Steps, Step{Restart: k, Delay: Duration(d), At: Duration(at)})
		if d == max {
			c.CapReachedAfter = Duration(at - max)
			break
		}
	}
	c.RestartsIn10m = c.restartsBefore(Window10m)
	c.RestartsIn1h = c.restartsBefore(Window1h)
	return c, nil
}

// Delay is the wait before restart k (k >= 1). Restart 1 is immediate: the
// backoff has no entry yet, so IsInBackOffSince is false and Next creates the
// entry with the initial delay, not capped (the kubelet lowers initial to the cap
// itself). Each later Next doubles it, capped: min(2*backoff, max).
func (c *Curve) Delay(k int) time.Duration {
	initial, max := time.Duration(c.Initial), time.Duration(c.Max)
	if k <= 1 {
		return 0
	}
	d := initial
	for i := 2; i < k && d < max; i++ {
		d = min(2*d, max)
	}
	if k > 2 {
		d = min(d, max)
	}
	return d
}

// restartsBefore counts the restarts at a time before w: the steps, then one
// every cap after the last step.
func (c *Curve) restartsBefore(w time.Duration) int {
	n := 0
	for _, s := range c.Steps {
		if time.Duration(s.At) >= w {
			return n
		}
		n++
	}
	last := time.Duration(c.Steps[len(c.Steps)-1].At)
	return n + int((w-last-1)/time.Duration(c.Max))
}

// Restarts lists the restart times before w, counted from the first crash
// (tests compare them with the recording of the real client-go Backoff).
func (c *Curve) Restarts(w time.Duration) []time.Duration {
	var out []time.Duration
	var at time.Duration
	for k := 1; ; k++ {
		at += c.Delay(k)
		if at >= w {
			return out
		}
		out = append(out, at)
	}
}

// CleanRun is what happens when a restarted container runs cleanly for a while
// and then crashes.
type CleanRun struct {
	// Next is the wait between that crash and the next restart.
	Next time.Duration
	// Following is the wait before the restart after that, when the container
	// then exits at once.
	Following time.Duration
	// Reset: the backoff started again from the initial delay.
	Reset bool
	// ByHousekeeping: the crash came before ResetAfter but the wait would end after
	// it, so the kubelet's housekeeping (Backoff.GC, every 2s) forgets the entry
	// once ResetAfter has passed since the restart, and the container restarts
	// then: Next is that moment, reached at the first housekeeping after it.
	ByHousekeeping bool
}

// AfterCleanRun: restart k's container runs cleanly for run, then crashes.
// Next(key, finishedAt) at that crash resets the entry when finishedAt minus the
// restart time exceeds ResetAfter; otherwise the crash waits the current delay
// (Delay(k+1)) and the delay doubles, unless GC forgets the entry first.
func (c *Curve) AfterCleanRun(k int, run time.Duration) CleanRun {
	reset := time.Duration(c.ResetAfter)
	switch b := c.Delay(k + 1); {
	case run > reset:
		return CleanRun{Next: 0, Following: time.Duration(c.Initial), Reset: true}
	case run+b <= reset:
		return CleanRun{Next: b, Following: c.Delay(k + 2)}
	default:
		return CleanRun{Next: reset - run, Following: time.Duration(c.Initial), Reset: true, ByHousekeeping: true}
	}
}
