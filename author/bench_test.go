package author

import (
	"path/filepath"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
)

// BenchmarkCheck is dropin new's work after parsing: the new file evaluated
// with the example node's files at the four minors of the skew window.
func BenchmarkCheck(b *testing.B) {
	s, err := SchemaOf(kubelets.Default())
	if err != nil {
		b.Fatal(err)
	}
	set, err := s.ParseSet("crashLoopBackOff.maxContainerRestartPeriod=30s")
	if err != nil {
		b.Fatal(err)
	}
	gate, _ := FeatureGate("KubeletCrashLoopBackOffMax=true")
	doc, err := NewDocument([]Setting{set, gate})
	if err != nil {
		b.Fatal(err)
	}
	content, err := doc.YAML()
	if err != nil {
		b.Fatal(err)
	}
	minors, err := kubelets.Window("", "")
	if err != nil {
		b.Fatal(err)
	}
	node := "../testdata/dropin/node"
	target := filepath.Join(node, "conf.d", "50-crashloop.conf")
	in := pipeline.Input{Config: filepath.Join(node, "config.yaml"), ConfigDir: filepath.Join(node, "conf.d"), Virtual: map[string][]byte{target: content}}
	b.ReportAllocs()
	for b.Loop() {
		vs, err := Check(in, target, doc, minors)
		if err != nil || len(vs) != len(minors) || !vs[len(vs)-1].OK() {
			b.Fatalf("%v %+v", err, vs)
		}
	}
}
