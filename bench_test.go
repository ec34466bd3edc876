package kubeletcfg

import "testing"

// The example node: a main file and its drop-ins.
var benchNode = Options{Config: "testdata/examples/node/config.yaml", ConfigDir: "testdata/examples/node/conf.d"}

// BenchmarkLint is one Lint at the newest minor: Prepare, the pipeline,
// Settle, policy.
func BenchmarkLint(b *testing.B) {
	for b.Loop() {
		if _, err := Lint(benchNode); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSkew is Skew over every supported minor, the files read once.
func BenchmarkSkew(b *testing.B) {
	opt := benchNode
	opt.Versions = "1.31..1.37"
	for b.Loop() {
		if _, err := Skew(opt); err != nil {
			b.Fatal(err)
		}
	}
}
