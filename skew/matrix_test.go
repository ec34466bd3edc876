package skew

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
)

const (
	exampleConfig = "../testdata/examples/node/config.yaml"
	exampleDir    = "../testdata/examples/node/conf.d"
	cases         = "../testdata/conformance/cases/"
)

func TestDiff(t *testing.T) {
	a := map[string]any{"same": "x", "changed": float64(1), "onlyA": true, "list": []any{"a"}}
	b := map[string]any{"same": "x", "changed": float64(2), "onlyB": "new", "list": []any{"a", "b"}}
	known := func(p string) bool { return p != "onlyA" && p != "onlyB" }
	tests := []struct {
		name           string
		knownA, knownB func(string) bool
		want           []Change
	}{
		{"paths in both only", nil, nil, []Change{
			{Path: "changed", From: float64(1), To: float64(2)},
			{Path: "list", From: []any{"a"}, To: []any{"a", "b"}},
		}},
		{"unset where the other minor has the field", func(string) bool { return true }, func(string) bool { return true }, []Change{
			{Path: "changed", From: float64(1), To: float64(2)},
			{Path: "list", From: []any{"a"}, To: []any{"a", "b"}},
			{Path: "onlyA", From: true},
			{Path: "onlyB", To: "new"},
		}},
		{"fields a minor does not have are not changes", known, known, []Change{
			{Path: "changed", From: float64(1), To: float64(2)},
			{Path: "list", From: []any{"a"}, To: []any{"a", "b"}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Diff(a, b, tt.knownA, tt.knownB); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
	if got := Diff(a, a, nil, nil); len(got) != 0 {
		t.Errorf("Diff of equal objects: %v", got)
	}
}

// TestEvaluate runs the README example (the newest kubelet refuses it) and its
// main file alone (every minor starts) over every supported minor.
func TestEvaluate(t *testing.T) {
	all := kubelets.Minors()
	tests := []struct {
		name      string
		in        pipeline.Input
		allStart  bool
		newestWhy string
	}{
		{"readme example", pipeline.Input{Config: exampleConfig, ConfigDir: exampleDir}, false, "KC4050"},
		{"main file only", pipeline.Input{Config: exampleConfig}, true, ""},
		{"unknown gate panics", pipeline.Input{Config: cases + "181-gate-unknown-main/kubelet.yaml"}, false, "KC3001"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mx, err := Evaluate(tt.in, all)
			if err != nil {
				t.Fatal(err)
			}
			if len(mx.Columns) != len(all) {
				t.Fatalf("%d columns for %d minors", len(mx.Columns), len(all))
			}
			if mx.AllStart() != tt.allStart {
				t.Errorf("AllStart = %v, want %v", mx.AllStart(), tt.allStart)
			}
			ref := mx.Reference()
			if ref.Minor != kubelets.Newest() || ref.Differs != nil {
				t.Errorf("reference %s has differences %v", ref.Minor.Version, ref.Differs)
			}
			if f := ref.Stop(); (f == nil) != (tt.newestWhy == "") || (f != nil && f.Rule != tt.newestWhy) {
				t.Errorf("newest stops with %v, want %q", f, tt.newestWhy)
			}
			for _, c := range mx.Columns {
				if (c.Effective == nil) != (c.Leaves == nil) {
					t.Errorf("%s: effective and leaves disagree", c.Minor.Version)
				}
				for _, d := range c.Differs {
					if _, ok := ref.Leaves[d.Path]; !ok {
						t.Errorf("%s: difference %s is not a path of the newest minor", c.Minor.Version, d.Path)
					}
				}
			}
		})
	}
	t.Run("unknown gate is a gate problem", func(t *testing.T) {
		mx, err := Evaluate(pipeline.Input{Config: cases + "181-gate-unknown-main/kubelet.yaml"}, all)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range mx.Columns {
			g := c.GateProblems()
			// 1.31 refuses (RunE applies the gates); later minors panic while defaulting.
			if c.Result.Starts || len(g) != 1 || GateName(g[0].Path) != "NoSuchGate" || Reason(&g[0]) != "gate-unknown" {
				t.Errorf("%s: starts %v, gate problems %v", c.Minor.Version, c.Result.Starts, g)
			}
		}
	})
	t.Run("input error", func(t *testing.T) {
		if _, err := Evaluate(pipeline.Input{Config: "does/not/exist.yaml"}, all); err == nil {
			t.Error("no error for a missing file")
		}
	})
}

// BenchmarkSkewAllMinors is kubeletcfg skew over every supported minor on the
// README example: the files are loaded once.
func BenchmarkSkewAllMinors(b *testing.B) {
	benchmarkSkew(b, kubelets.Minors())
}

// BenchmarkSkewOneMinor is the same with the newest minor only.
func BenchmarkSkewOneMinor(b *testing.B) {
	benchmarkSkew(b, []*kubelets.Minor{kubelets.Default()})
}

func benchmarkSkew(b *testing.B, minors []*kubelets.Minor) {
	in := pipeline.Input{Config: exampleConfig, ConfigDir: exampleDir}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Evaluate(in, minors); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(minors)), "minors")
}

// TestMatrixOutput checks the JSON contract of kubeletcfg skew -o json (each
// entry is the lint document inline plus dropped and effective); the text's
// shape is report/verbtext's TestMatrixText.
func TestMatrixOutput(t *testing.T) {
	all := kubelets.Minors()
	mx, err := Evaluate(pipeline.Input{Config: exampleConfig, ConfigDir: exampleDir}, all)
	if err != nil {
		t.Fatal(err)
	}
	var js bytes.Buffer
	if err := mx.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Versions []map[string]json.RawMessage `json:"versions"`
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Versions) != len(all) {
		t.Fatalf("%d versions, want %d", len(doc.Versions), len(all))
	}
	for i, v := range doc.Versions {
		for _, k := range []string{"kubeletVersion", "starts", "findings", "files", "dropped", "effective"} {
			if _, ok := v[k]; !ok {
				t.Errorf("versions[%d] has no %q", i, k)
			}
		}
		if string(v["kubeletVersion"]) != `"`+all[i].Version+`"` || string(v["dropped"]) == "null" {
			t.Errorf("versions[%d]: kubeletVersion %s, dropped %s", i, v["kubeletVersion"], v["dropped"])
		}
	}
}

func TestFormatBackoff(t *testing.T) {
	if got := FormatBackoff(nil); got != "-" {
		t.Errorf("FormatBackoff(nil) = %q", got)
	}
}
