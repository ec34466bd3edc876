package backoff

import (
	"testing"

	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
)

// Evaluate names where each duration comes from, as the pipeline recorded it,
// and gives no curve to a configuration the kubelet refuses.
func TestEvaluateSources(t *testing.T) {
	const dir = "../testdata/backoff/"
	tests := []struct {
		file, minor          string
		starts               bool
		initialFrom, maxFrom string
	}{
		{"default.yaml", "1.31", true, "kubelet default", "kubelet default"},
		{"default.yaml", "1.37", true, "kubelet default", "crashLoopBackOff.maxContainerRestartPeriod, defaulted"},
		{"reduced.yaml", "1.34", true, "ReduceDefaultCrashLoopBackOffDecay", "ReduceDefaultCrashLoopBackOffDecay"},
		{"cap30s.yaml", "1.37", true, "kubelet default", "crashLoopBackOff.maxContainerRestartPeriod, " + dir + "cap30s.yaml:8:3"},
		{"cap1s.yaml", "1.37", true, "= the cap", "crashLoopBackOff.maxContainerRestartPeriod, " + dir + "cap1s.yaml:7:3"},
		{"cap10m.yaml", "1.37", false, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.file+"@"+tt.minor, func(t *testing.T) {
			m, err := kubelets.Lookup(tt.minor)
			if err != nil {
				t.Fatal(err)
			}
			es, err := Evaluate([]pipeline.Input{{Config: dir + tt.file}}, []*kubelets.Minor{m}, nil)
			if err != nil {
				t.Fatal(err)
			}
			e := es[0]
			if e.Starts != tt.starts || e.InitialFrom != tt.initialFrom || e.MaxFrom != tt.maxFrom {
				t.Errorf("starts %v, initial from %q, cap from %q; want %v, %q, %q", e.Starts, e.InitialFrom, e.MaxFrom, tt.starts, tt.initialFrom, tt.maxFrom)
			}
			if (e.Curve != nil) != tt.starts || (e.Stop != nil) == tt.starts {
				t.Errorf("curve %v, stop %v", e.Curve, e.Stop)
			}
		})
	}
}
