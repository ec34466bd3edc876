package pipeline

import (
	"testing"

	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

// BenchmarkEvaluateExample is the README example: a kubeadm-style main file and
// three drop-in folder entries, through the whole pipeline.
func BenchmarkEvaluateExample(b *testing.B) {
	m := kubelets.Default()
	in := Input{Config: "../testdata/examples/node/config.yaml", ConfigDir: "../testdata/examples/node/conf.d"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Evaluate(m, in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEvaluateMainOnly is a main file without drop-ins.
func BenchmarkEvaluateMainOnly(b *testing.B) {
	m := kubelets.Default()
	in := Input{Config: "../testdata/examples/node/config.yaml"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Evaluate(m, in); err != nil {
			b.Fatal(err)
		}
	}
}
