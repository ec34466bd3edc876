package backoff_test

import (
	"fmt"
	"time"

	"github.com/kubeletcfg/kubeletcfg/backoff"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
)

// The kubelet's default crash-loop backoff at 1.37: 10s doubling to 5m0s.
func ExampleCompute() {
	c, err := backoff.Compute("1.37", 10*time.Second, 300*time.Second)
	if err != nil {
		panic(err)
	}
	for _, s := range c.Steps {
		fmt.Printf("restart %d after %s, at %s\n", s.Restart, s.Delay, s.At)
	}
	fmt.Println("cap reached after", c.CapReachedAfter, "; restarts in 1h:", c.RestartsIn1h, "; reset after", c.ResetAfter)
	// Output:
	// restart 1 after 0s, at 0s
	// restart 2 after 10s, at 10s
	// restart 3 after 20s, at 30s
	// restart 4 after 40s, at 1m10s
	// restart 5 after 1m20s, at 2m30s
	// restart 6 after 2m40s, at 5m10s
	// restart 7 after 5m0s, at 10m10s
	// cap reached after 5m10s ; restarts in 1h: 16 ; reset after 10m0s
}

// The curve of a file at two minors, and where its durations come from.
func ExampleEvaluate() {
	var minors []*kubelets.Minor
	for _, v := range []string{"1.34", "1.37"} {
		m, err := kubelets.Lookup(v)
		if err != nil {
			panic(err)
		}
		minors = append(minors, m)
	}
	entries, err := backoff.Evaluate([]pipeline.Input{{Config: "../testdata/backoff/cap30s.yaml"}}, minors, nil)
	if err != nil {
		panic(err)
	}
	for _, e := range entries {
		fmt.Printf("%s: initial %s (%s), cap %s (%s)\n", e.KubeletVersion, e.Curve.Initial, e.InitialFrom, e.Curve.Max, e.MaxFrom)
	}
	// Output:
	// 1.34: initial 10s (kubelet default), cap 30s (crashLoopBackOff.maxContainerRestartPeriod, ../testdata/backoff/cap30s.yaml:8:3)
	// 1.37: initial 10s (kubelet default), cap 30s (crashLoopBackOff.maxContainerRestartPeriod, ../testdata/backoff/cap30s.yaml:8:3)
}
