package backoff

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/kubeletcfg/kubeletcfg/skew"
)

// recording is testdata/conformance/backoff/<minor>.json, written by
// conformance/harness backoff from the minor's real client-go Backoff.
type recording struct {
	Kubelet   string   `json:"kubelet"`
	PollEvery Duration `json:"pollEvery"`
	Window    Duration `json:"window"`
	Pairs     []struct {
		Initial, Max Duration
		Delays       []struct {
			Delay Duration
			Count int
		}
		RestartsIn10m int
		RestartsIn1h  int
		ResetAfter    Duration
		ForgetAfter   Duration
		CleanRuns     []struct {
			AfterRestart         int
			Run, Next, Following Duration
		}
	} `json:"pairs"`
}

// TestConformance checks every curve against the real kubelet's backoff, at
// every supported minor: the delays of every restart in the first hour, the
// counts, both expiry thresholds (to the nanosecond) and the clean runs.
func TestConformance(t *testing.T) {
	pairs := 0
	for _, v := range skew.Supported() {
		m, err := skew.Lookup(v)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(v, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("..", "testdata", "conformance", "backoff", v+".json"))
			if err != nil {
				t.Fatalf("%v (record it: make conformance MINOR=%s)", err, v)
			}
			var rec recording
			if err := json.Unmarshal(data, &rec); err != nil {
				t.Fatal(err)
			}
			if rec.Kubelet != m.Patch {
				t.Errorf("recorded from %s, kubeletcfg checks %s against %s", rec.Kubelet, v, m.Patch)
			}
			if len(rec.Pairs) == 0 || rec.PollEvery <= 0 || rec.Window != Duration(Window1h) {
				t.Fatalf("recording has %d pairs, poll %s, window %s", len(rec.Pairs), rec.PollEvery, rec.Window)
			}
			poll := time.Duration(rec.PollEvery)
			for _, p := range rec.Pairs {
				name := fmt.Sprintf("%s/%s", p.Initial, p.Max)
				c, err := Compute(v, time.Duration(p.Initial), time.Duration(p.Max))
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
						want = append(want, d.Delay.String())
					}
				}
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("%s: delays of the first hour\n got %v\nwant %v", name, got, want)
				}
				if c.RestartsIn10m != p.RestartsIn10m || c.RestartsIn1h != p.RestartsIn1h {
					t.Errorf("%s: %d restarts in 10m, %d in 1h; the kubelet %d, %d", name, c.RestartsIn10m, c.RestartsIn1h, p.RestartsIn10m, p.RestartsIn1h)
				}
				if c.ResetAfter != p.ResetAfter || c.ResetAfter != p.ForgetAfter {
					t.Errorf("%s: reset after %s; the kubelet resets after %s and forgets after %s", name, c.ResetAfter, p.ResetAfter, p.ForgetAfter)
				}
				for _, r := range p.CleanRuns {
					cr := c.AfterCleanRun(r.AfterRestart, time.Duration(r.Run))
					next := cr.Next
					if cr.ByHousekeeping {
						// The harness looks every poll: the first look after ResetAfter.
						next = (cr.Next/poll + 1) * poll
					}
					if Duration(next) != r.Next || Duration(cr.Following) != r.Following {
						t.Errorf("%s: clean run of %s after restart %d: next %s, following %s; the kubelet %s, %s",
							name, r.Run, r.AfterRestart, next, cr.Following, r.Next, r.Following)
					}
				}
			}
		})
	}
	t.Logf("%d (initial, max) pairs agree with the real client-go Backoff", pairs)
}
