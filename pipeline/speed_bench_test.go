package pipeline

import (
	"testing"

	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

// benchInput is the input of issue 11's speed targets: the kubelet config file
// kubeadm writes (init defaults) and three drop-ins.
var benchInput = Input{Config: "../testdata/bench/kubeadm-3dropins/kubelet.yaml", ConfigDir: "../testdata/bench/kubeadm-3dropins/conf.d"}

// BenchmarkLintOneMinor is `kubeletcfg lint` on benchInput at the newest minor,
// the files read afresh each time (the per-minor tables are built once per
// process, so whole-process figures come from internal/floor/measure.sh).
func BenchmarkLintOneMinor(b *testing.B) {
	m := kubelets.Default()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Evaluate(m, benchInput); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSkewSevenMinors is `kubeletcfg skew --versions 1.31..1.37` on
// benchInput: the files loaded once, then evaluated at each minor.
func BenchmarkSkewSevenMinors(b *testing.B) {
	var ms []*kubelets.Minor
	for _, v := range kubelets.Supported() {
		m, err := kubelets.Lookup(v)
		if err != nil {
			b.Fatal(err)
		}
		ms = append(ms, m)
	}
	b.ReportAllocs()
	for b.Loop() {
		l, err := Load(benchInput)
		if err != nil {
			b.Fatal(err)
		}
		for _, m := range ms {
			if _, err := l.Evaluate(m); err != nil {
				b.Fatal(err)
			}
		}
	}
}
