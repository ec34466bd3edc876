package pipeline

import (
	"testing"

	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

// The crash-loop backoff says where each duration comes from, as
// newCrashLoopBackOff decides it: a constant, the reduced-decay gate, the
// cap field (with its position in Origins, or none when defaulted), or the cap.
func TestCrashLoopBackOffSources(t *testing.T) {
	const dir = "../testdata/backoff/"
	constant := func(name string) BackoffSource { return BackoffSource{Constant: name} }
	gate := BackoffSource{Gate: "ReduceDefaultCrashLoopBackOffDecay"}
	field := BackoffSource{Field: crashLoopMaxPath}
	tests := []struct {
		file, minor      string
		initial, max     BackoffSource
		maxWrittenAtLine int // 0: the cap is not written in the file
	}{
		{"default.yaml", "1.31", constant("initialCrashLoopBackOff"), constant("maxCrashLoopBackOff"), 0},
		{"default.yaml", "1.37", constant("initialCrashLoopBackOff"), field, 0},
		{"reduced.yaml", "1.34", gate, gate, 0},
		{"reduced.yaml", "1.37", gate, field, 0},
		{"cap30s.yaml", "1.37", constant("initialCrashLoopBackOff"), field, 8},
		{"cap1s.yaml", "1.37", BackoffSource{Cap: true}, field, 7},
	}
	for _, tt := range tests {
		t.Run(tt.file+"@"+tt.minor, func(t *testing.T) {
			m, err := kubelets.Lookup(tt.minor)
			if err != nil {
				t.Fatal(err)
			}
			r, err := Evaluate(m, Input{Config: dir + tt.file})
			if err != nil {
				t.Fatal(err)
			}
			b := r.CrashLoopBackOff
			if !r.Starts || b == nil {
				t.Fatalf("starts %v, backoff %v", r.Starts, b)
			}
			if b.InitialFrom != tt.initial || b.MaxFrom != tt.max {
				t.Errorf("initial from %+v, cap from %+v; want %+v, %+v", b.InitialFrom, b.MaxFrom, tt.initial, tt.max)
			}
			if pos := r.Origins[b.MaxFrom.Field]; b.MaxFrom.Field != "" && pos.Line != tt.maxWrittenAtLine {
				t.Errorf("cap written at %v, want line %d", pos, tt.maxWrittenAtLine)
			}
		})
	}
}
