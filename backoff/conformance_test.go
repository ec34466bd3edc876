package backoff

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/kubeletcfg/kubeletcfg/internal/kubeletdata"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

// dur reads a duration of the recording (kubeletdata keeps them as time.Duration
// strings).
func dur(t *testing.T, s string) Duration {
	t.Helper()
	var d Duration
	if err := d.UnmarshalText([]byte(s)); err != nil {
		t.Fatalf("recording: %v", err)
	}
	return d
}

// TestConformance checks every curve against the real kubelet's backoff, at
// every supported minor: the delays of every restart in the first hour, the
// counts, both expiry thresholds (to the nanosecond) and the clean runs.
func TestConformance(t *testing.T) {
	pairs := 0
	for _, v := range kubelets.Supported() {
		m, err := kubelets.Lookup(v)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(v, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("..", "testdata", "conformance", "backoff", v+".json"))
			if err != nil {
				t.Fatalf("%v (record it: make conformance MINOR=%s)", err, v)
			}
			// testdata/conformance/backoff/<minor>.json, written by conformance/harness
			// backoff from the minor's real client-go Backoff.
			var rec kubeletdata.BackoffRecording
			if err := json.Unmarshal(data, &rec); err != nil {
				t.Fatal(err)
			}
			if rec.Kubelet != m.Patch {
				t.Errorf("recorded from %s, kubeletcfg checks %s against %s", rec.Kubelet, v, m.Patch)
			}
			pollEvery, window := dur(t, rec.PollEvery), dur(t, rec.Window)
			if len(rec.Pairs) == 0 || pollEvery <= 0 || window != Duration(Window1h) {
				t.Fatalf("recording has %d pairs, poll %s, window %s", len(rec.Pairs), rec.PollEvery, rec.Window)
			}
			poll := time.Duration(pollEvery)
			for _, p := range rec.Pairs {
				name := fmt.Sprintf("%s/%s", p.Initial, p.Max)
				c, err := Compute(v, time.Duration(dur(t, p.Initial)), time.Duration(dur(t, p.Max)))
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				pairs++
				var got []string
				var prev time.Duration
				for _, at := range c.Restarts(Window1h) {
					got = append(got, (at - prev).String())
					prev = at
				}
				var want []string
				for _, d := range p.Delays {
					for range d.Count {
						want = append(want, dur(t, d.Delay).String())
					}
				}
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("%s: delays of the first hour\n got %v\nwant %v", name, got, want)
				}
				if c.RestartsIn10m != p.RestartsIn10m || c.RestartsIn1h != p.RestartsIn1h {
					t.Errorf("%s: %d restarts in 10m, %d in 1h; the kubelet %d, %d", name, c.RestartsIn10m, c.RestartsIn1h, p.RestartsIn10m, p.RestartsIn1h)
				}
				if c.ResetAfter != dur(t, p.ResetAfter) || c.ResetAfter != dur(t, p.ForgetAfter) {
					t.Errorf("%s: reset after %s; the kubelet resets after %s and forgets after %s", name, c.ResetAfter, p.ResetAfter, p.ForgetAfter)
				}
				for _, r := range p.CleanRuns {
					cr := c.AfterCleanRun(r.AfterRestart, time.Duration(dur(t, r.Run)))
					next := cr.Next
					if cr.ByHousekeeping {
						// The harness looks every poll: the first look after ResetAfter.
						next = (cr.Next/poll + 1) * poll
					}
					if Duration(next) != dur(t, r.Next) || Duration(cr.Following) != dur(t, r.Following) {
						t.Errorf("%s: clean run of %s after restart %d: next %s, following %s; the kubelet %s, %s",
							name, r.Run, r.AfterRestart, next, cr.Following, r.Next, r.Following)
					}
				}
			}
		})
	}
	t.Logf("%d (initial, max) pairs agree with the real client-go Backoff", pairs)
}
