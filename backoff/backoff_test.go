package backoff

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

const s = time.Second

func TestCompute(t *testing.T) {
	tests := []struct {
		name           string
		minor          string
		initial, max   time.Duration
		delays         []time.Duration // the steps' delays
		capReached     time.Duration
		in10m, in1h    int
		resetAfter     time.Duration
		resetRuleStart string
	}{
		// The kubelet's defaults: 10s doubling to 5m0s.
		{"default", "1.37", 10 * s, 300 * s, []time.Duration{0, 10 * s, 20 * s, 40 * s, 80 * s, 160 * s, 300 * s}, 310 * s, 6, 16, 600 * s, "kubelet"},
		// 1.31 has no HasExpiredFunc: 2 × cap, which is also 10m0s with its fixed cap.
		{"default 1.31", "v1.31.0", 10 * s, 300 * s, []time.Duration{0, 10 * s, 20 * s, 40 * s, 80 * s, 160 * s, 300 * s}, 310 * s, 6, 16, 600 * s, "client-go"},
		// ReduceDefaultCrashLoopBackOffDecay at 1.33/1.34 (KubeletCrashLoopBackOffMax off).
		{"reduced", "1.33", 1 * s, 60 * s, []time.Duration{0, 1 * s, 2 * s, 4 * s, 8 * s, 16 * s, 32 * s, 60 * s}, 63 * s, 15, 65, 600 * s, "kubelet"},
		// ReduceDefaultCrashLoopBackOffDecay at 1.35+: KubeletCrashLoopBackOffMax is on
		// and defaults the cap to 5m0s.
		{"reduced 1.35", "1.35", 1 * s, 300 * s, []time.Duration{0, 1 * s, 2 * s, 4 * s, 8 * s, 16 * s, 32 * s, 64 * s, 128 * s, 256 * s, 300 * s}, 511 * s, 10, 20, 600 * s, "kubelet"},
		// A 30s cap: a restart lands exactly on 10m0s and is not counted in it.
		{"cap 30s", "1.37", 10 * s, 30 * s, []time.Duration{0, 10 * s, 20 * s, 30 * s}, 30 * s, 21, 121, 600 * s, "kubelet"},
		// A 1s cap: the kubelet lowered initial to it; the cap is reached at once.
		{"cap 1s", "1.37", 1 * s, 1 * s, []time.Duration{0, 1 * s}, 0, 600, 3600, 600 * s, "kubelet"},
		// A cap that is not initial × 2^n.
		{"cap 45s", "1.36", 10 * s, 45 * s, []time.Duration{0, 10 * s, 20 * s, 40 * s, 45 * s}, 70 * s, 15, 82, 600 * s, "kubelet"},
		// Initial above the cap (only raw client-go): Next does not cap the first delay.
		{"initial above cap", "1.37", 20 * s, 10 * s, []time.Duration{0, 20 * s, 10 * s}, 20 * s, 59, 359, 600 * s, "kubelet"},
		// 1.31's rule with another cap (client-go semantics; the 1.31 kubelet always uses 5m0s).
		{"2 × cap", "1.31", 10 * s, 30 * s, []time.Duration{0, 10 * s, 20 * s, 30 * s}, 30 * s, 21, 121, 60 * s, "client-go"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Compute(tt.minor, tt.initial, tt.max)
			if err != nil {
				t.Fatal(err)
			}
			var delays []time.Duration
			var at time.Duration
			for i, st := range c.Steps {
				delays = append(delays, time.Duration(st.Delay))
				at += time.Duration(st.Delay)
				if st.Restart != i+1 || time.Duration(st.At) != at {
					t.Errorf("step %d: %+v, want restart %d at %s", i, st, i+1, at)
				}
			}
			if !slices.Equal(delays, tt.delays) {
				t.Errorf("delays %v, want %v", delays, tt.delays)
			}
			if got := time.Duration(c.CapReachedAfter); got != tt.capReached {
				t.Errorf("cap reached after %s, want %s", got, tt.capReached)
			}
			if c.RestartsIn10m != tt.in10m || c.RestartsIn1h != tt.in1h {
				t.Errorf("restarts %d in 10m, %d in 1h; want %d, %d", c.RestartsIn10m, c.RestartsIn1h, tt.in10m, tt.in1h)
			}
			if got := len(c.Restarts(Window10m)); got != tt.in10m {
				t.Errorf("Restarts(10m) has %d, want %d", got, tt.in10m)
			}
			if got := len(c.Restarts(Window1h)); got != tt.in1h {
				t.Errorf("Restarts(1h) has %d, want %d", got, tt.in1h)
			}
			if time.Duration(c.ResetAfter) != tt.resetAfter || !strings.HasPrefix(c.ResetRule, tt.resetRuleStart) {
				t.Errorf("reset after %s (%s), want %s (%s...)", c.ResetAfter, c.ResetRule, tt.resetAfter, tt.resetRuleStart)
			}
		})
	}
}

func TestComputeRefuses(t *testing.T) {
	for _, tt := range []struct {
		minor        string
		initial, max time.Duration
		want         string
	}{
		{"1.37", 0, 300 * s, "must be positive"},
		{"1.37", 10 * s, 0, "must be positive"},
		{"1.37", -s, 300 * s, "must be positive"},
		{"1.37", 10 * s, 48 * time.Hour, "at most"},
		{"1.30", 10 * s, 300 * s, "no reset rule for kubelet 1.30"},
		{"1.39", 10 * s, 300 * s, "no reset rule"},
		{"2.0", 10 * s, 300 * s, "not a kubelet version"},
		{"", 10 * s, 300 * s, "not a kubelet version"},
	} {
		_, err := Compute(tt.minor, tt.initial, tt.max)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Compute(%q, %s, %s): %v, want an error with %q", tt.minor, tt.initial, tt.max, err, tt.want)
		}
	}
}

// Every supported minor has a reset rule; a new minor must be read first.
func TestResetRulesCoverSupported(t *testing.T) {
	for _, v := range kubelets.Supported() {
		if _, _, err := ResetAfter(v, 300*s); err != nil {
			t.Errorf("kubelet %s: %v", v, err)
		}
	}
}

func TestDelay(t *testing.T) {
	c, err := Compute("1.37", 10*s, 300*s)
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[int]time.Duration{0: 0, 1: 0, 2: 10 * s, 6: 160 * s, 7: 300 * s, 1000: 300 * s} {
		if got := c.Delay(k); got != want {
			t.Errorf("Delay(%d) = %s, want %s", k, got, want)
		}
	}
}

func TestAfterCleanRun(t *testing.T) {
	c, err := Compute("1.37", 10*s, 300*s)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		k    int
		run  time.Duration
		want CleanRun
	}{
		// Longer than 10m0s: at once, from the initial delay again.
		{12, 601 * s, CleanRun{Next: 0, Following: 10 * s, Reset: true}},
		{2, 600*s + 1, CleanRun{Next: 0, Following: 10 * s, Reset: true}},
		// Short runs: the delay goes on doubling.
		{2, 60 * s, CleanRun{Next: 20 * s, Following: 40 * s}},
		{12, 300 * s, CleanRun{Next: 300 * s, Following: 300 * s}},
		// Ends the wait exactly at 10m0s: the entry is still there.
		{2, 580 * s, CleanRun{Next: 20 * s, Following: 40 * s}},
		// The wait would pass 10m0s: housekeeping forgets the entry then.
		{12, 599 * s, CleanRun{Next: 1 * s, Following: 10 * s, Reset: true, ByHousekeeping: true}},
		{12, 600 * s, CleanRun{Next: 0, Following: 10 * s, Reset: true, ByHousekeeping: true}},
	} {
		if got := c.AfterCleanRun(tt.k, tt.run); got != tt.want {
			t.Errorf("AfterCleanRun(%d, %s) = %+v, want %+v", tt.k, tt.run, got, tt.want)
		}
	}
}

func TestCurveJSON(t *testing.T) {
	c, err := Compute("1.37", 10*s, 30*s)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"kubeletVersion":"1.37","initial":"10s","max":"30s","steps":[{"restart":1,"delay":"0s","at":"0s"},{"restart":2,"delay":"10s","at":"10s"},{"restart":3,"delay":"20s","at":"30s"},{"restart":4,"delay":"30s","at":"1m0s"}],"capReachedAfter":"30s","restartsIn10m":21,"restartsIn1h":121,"resetAfter":"10m0s","resetRule":"kubelet HasExpiredFunc: fixed 600s"}`
	if string(b) != want {
		t.Errorf("JSON\n got %s\nwant %s", b, want)
	}
	var back Curve
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(back.Steps, c.Steps) || back.Max != c.Max || back.ResetAfter != c.ResetAfter {
		t.Errorf("round trip: %+v", back)
	}
}

func BenchmarkCompute(b *testing.B) {
	for b.Loop() {
		if _, err := Compute("1.37", 1*s, 300*s); err != nil {
			b.Fatal(err)
		}
	}
}
