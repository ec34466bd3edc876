package matrix

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/pipeline"
	"github.com/kubeletcfg/kubeletcfg/skew"
)

const (
	exampleConfig = "../testdata/examples/node/config.yaml"
	exampleDir    = "../testdata/examples/node/conf.d"
	cases         = "../testdata/conformance/cases/"
)

// fakeCatalog is a catalogue of minors for window tests; "1.38:v1.38.0-beta.0"
// is a minor generated from that release (here a pre-release).
func fakeCatalog(entries ...string) ([]string, func(string) (*skew.Minor, error)) {
	byVersion := map[string]*skew.Minor{}
	var vs []string
	for _, e := range entries {
		v, patch, _ := strings.Cut(e, ":")
		byVersion[v] = &skew.Minor{Version: v, Patch: patch}
		vs = append(vs, v)
	}
	return vs, func(v string) (*skew.Minor, error) {
		v = strings.TrimPrefix(strings.TrimSpace(v), "v")
		if parts := strings.Split(v, "."); len(parts) == 3 {
			v = parts[0] + "." + parts[1]
		}
		if m, ok := byVersion[v]; ok {
			return m, nil
		}
		return nil, fmt.Errorf("unsupported kubelet version %q (supported: %s)", v, strings.Join(vs, ", "))
	}
}

func TestWindow(t *testing.T) {
	seven := []string{"1.31", "1.32", "1.33", "1.34", "1.35", "1.36", "1.37"}
	withBeta := append(append([]string(nil), seven...), "1.38:v1.38.0-beta.0")
	tests := []struct {
		name                   string
		supported              []string
		versions, controlPlane string
		want                   string // comma list, or the error's start
		err                    bool
	}{
		{"default n-3", seven, "", "", "1.34,1.35,1.36,1.37", false},
		{"default with one minor", []string{"1.37"}, "", "", "1.37", false},
		{"default with two minors", []string{"1.36", "1.37"}, "", "", "1.36,1.37", false},
		{"control plane", seven, "", "1.36", "1.33,1.34,1.35,1.36", false},
		{"control plane clamped", seven, "", "1.32", "1.31,1.32", false},
		{"control plane patch", seven, "", "v1.35.4", "1.32,1.33,1.34,1.35", false},
		{"range", seven, "1.33..1.35", "", "1.33,1.34,1.35", false},
		{"range of one", seven, "1.35..1.35", "", "1.35", false},
		{"list sorted, deduplicated", seven, "1.37,1.33,v1.33.1", "", "1.33,1.37", false},
		{"single", seven, "1.36", "", "1.36", false},
		{"unsupported", seven, "1.12", "", "--versions: unsupported kubelet version", true},
		{"unsupported range end", seven, "1.30..1.37", "", "--versions: unsupported kubelet version", true},
		{"reversed range", seven, "1.37..1.34", "", "--versions 1.37..1.34: 1.37 is newer than 1.34", true},
		{"unsupported control plane", seven, "", "1.38", "--control-plane: unsupported kubelet version", true},
		{"both", seven, "1.34..1.37", "1.37", "--versions and --control-plane", true},
		{"empty list item", seven, "1.34,", "", "--versions: unsupported kubelet version", true},
		{"default ends at the newest release, not a pre-release", withBeta, "", "", "1.34,1.35,1.36,1.37", false},
		{"pre-release in a range", withBeta, "1.35..1.38", "", "1.35,1.36,1.37,1.38", false},
		{"pre-release control plane", withBeta, "", "1.38", "1.35,1.36,1.37,1.38", false},
		{"pre-release alone", withBeta, "1.38", "", "1.38", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			supported, lookup := fakeCatalog(tt.supported...)
			got, err := window(supported, lookup, tt.versions, tt.controlPlane)
			if tt.err {
				if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
					t.Fatalf("error %v, want one starting %q", err, tt.want)
				}
				if strings.Contains(err.Error(), "unsupported") && !strings.Contains(err.Error(), "1.31, 1.32") {
					t.Errorf("error %q does not list the supported minors", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var vs []string
			for _, m := range got {
				vs = append(vs, m.Version)
			}
			if strings.Join(vs, ",") != tt.want {
				t.Errorf("got %v, want %s", vs, tt.want)
			}
		})
	}
}

// The real catalogue: the default window ends at the newest minor, and every
// version is validated with skew.Lookup.
func TestWindowSupported(t *testing.T) {
	got, err := Window("", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 || len(got) > Skew+1 || got[len(got)-1] != skew.Default() {
		t.Errorf("default window %v", got)
	}
	if _, err := Window("1.12", ""); err == nil || !strings.Contains(err.Error(), skew.Default().Version) {
		t.Errorf("1.12: %v, want an error listing the supported minors", err)
	}
}

func TestFlatten(t *testing.T) {
	obj := map[string]any{
		"apiVersion": "kubelet.config.k8s.io/v1beta1",
		"kind":       "KubeletConfiguration",
		"maxPods":    float64(110),
		"featureGates": map[string]any{
			"NodeSwap":      true,
			"Odd.Gate.Name": false,
		},
		"evictionHard":     map[string]any{"memory.available": "100Mi"},
		"authentication":   map[string]any{"anonymous": map[string]any{"enabled": false}},
		"clusterDNS":       []any{"10.96.0.10"},
		"crashLoopBackOff": map[string]any{},
		"systemReserved":   map[string]any{},
	}
	want := map[string]any{
		"maxPods":                          float64(110),
		"featureGates[NodeSwap]":           true,
		"featureGates[Odd.Gate.Name]":      false,
		"evictionHard[memory.available]":   "100Mi",
		"authentication.anonymous.enabled": false,
		"clusterDNS":                       []any{"10.96.0.10"},
	}
	got := Flatten(obj, skew.Default().Fields())
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Flatten:\n got %v\nwant %v", got, want)
	}
	// Without a tree every object is a struct.
	if _, ok := Flatten(obj, nil)["evictionHard.memory.available"]; !ok {
		t.Error("Flatten without a tree: evictionHard.memory.available missing")
	}
}

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

func TestFormat(t *testing.T) {
	for v, want := range map[any]string{nil: "(unset)", "": `""`, "5m0s": "5m0s", true: "true", float64(110): "110"} {
		if got := Format(v); got != want {
			t.Errorf("Format(%#v) = %q, want %q", v, got, want)
		}
	}
	if got := Format([]any{"pods"}); got != `["pods"]` {
		t.Errorf("Format(list) = %q", got)
	}
	if got := FormatBackoff(nil); got != "-" {
		t.Errorf("FormatBackoff(nil) = %q", got)
	}
}

// TestEvaluate runs the README example (the newest kubelet refuses it) and its
// main file alone (every minor starts) over every supported minor.
func TestEvaluate(t *testing.T) {
	all := supportedMinors(t)
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
			if ref.Minor != skew.Newest() || ref.Differs != nil {
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

func supportedMinors(t testing.TB) []*skew.Minor {
	t.Helper()
	var out []*skew.Minor
	for _, v := range skew.Supported() {
		m, err := skew.Lookup(v)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

// BenchmarkSkewAllMinors is kubeletcfg skew over every supported minor on the
// README example: the files are loaded once.
func BenchmarkSkewAllMinors(b *testing.B) {
	benchmarkSkew(b, supportedMinors(b))
}

// BenchmarkSkewOneMinor is the same with the newest minor only.
func BenchmarkSkewOneMinor(b *testing.B) {
	benchmarkSkew(b, []*skew.Minor{skew.Default()})
}

func benchmarkSkew(b *testing.B, minors []*skew.Minor) {
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
// entry is the lint document inline plus dropped and effective) and the text
// table's shape.
func TestMatrixOutput(t *testing.T) {
	all := supportedMinors(t)
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
	var text bytes.Buffer
	if err := mx.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(text.String(), "\n")
	if !strings.HasPrefix(lines[0], "kubelet ") || !strings.HasSuffix(lines[0], skew.Newest().Version) || !strings.HasPrefix(lines[1], "starts ") {
		t.Errorf("table header:\n%s", text.String())
	}
	for _, l := range lines {
		if strings.HasSuffix(l, " ") {
			t.Errorf("trailing space in %q", l)
		}
	}
}
