package kubelets

import (
	"bytes"
	"encoding/json"
	"testing"

	kubeletv1beta1 "github.com/kubeletcfg/kubeletcfg/upstream/kubelet/config/v1beta1"
)

func TestWriteKnown(t *testing.T) {
	tree, err := treeFromInfos([]FieldInfo{
		{Path: "maxPods", Kind: "scalar", GoType: "int32"},
		{Path: "evictionHard", Kind: "map", GoType: "map[string]string"},
		{Path: "logging", Kind: "object", GoType: "LoggingConfiguration"},
		{Path: "logging.format", Kind: "scalar", GoType: "string"},
		{Path: "taints", Kind: "list", GoType: "[]Taint"},
		{Path: "taints[].key", Kind: "scalar", GoType: "string"},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ in, want string }{
		// nothing to drop: the input as is
		{`{"maxPods":1, "evictionHard":{"a":"b"}}`, ""},
		// a top-level key, whatever its value
		{`{"tlsCurvePreferences":"x","maxPods":1}`, `{"maxPods":1}`},
		// case-insensitive and Unicode-folded matches are kept, in order, duplicates too
		{`{"MAXPODS":1,"maxPods":2,"logging":{"ForMat":"json","ſecret":1}}`, `{"MAXPODS":1,"maxPods":2,"logging":{"ForMat":"json"}}`},
		{`{"maxpodſ":1,"new":2}`, `{"maxpodſ":1}`},
		// escaped keys are matched decoded and written as they were
		{`{"max\u0050ods":1, "n\u0065w" : [1, {"a":2}] , "logging" : { "format" : "json" } }`, `{"max\u0050ods":1,"logging":{"format":"json"}}`},
		// map keys are free-form; list items are objects of the tree
		{`{"evictionHard":{"new":"1"},"taints":[{"key":"a","new":1},{"key":"b"}]}`, `{"evictionHard":{"new":"1"},"taints":[{"key":"a"},{"key":"b"}]}`},
		// a value of the wrong shape is left for the decoder to refuse
		{`{"logging":"text","taints":{"new":1}}`, ""},
	} {
		var b bytes.Buffer
		dropped := writeKnown(&b, []byte(tc.in), tree)
		if tc.want == "" {
			if dropped {
				t.Errorf("%s: dropped something: %s", tc.in, b.String())
			}
			continue
		}
		if !dropped || b.String() != tc.want {
			t.Errorf("%s:\n got %s (dropped %v)\nwant %s", tc.in, b.String(), dropped, tc.want)
		}
	}
}

func TestKnownJSON(t *testing.T) {
	doc := []byte(`{"tlsCurvePreferences":"x","defaultPodSysctls":[],"maxPods":1}`)
	for v, want := range map[string]string{
		"1.35": `{"maxPods":1}`,
		"1.36": `{"tlsCurvePreferences":"x","maxPods":1}`,
		"1.37": string(doc),
	} {
		m, _ := Lookup(v)
		if got := string(m.KnownJSON(doc)); got != want {
			t.Errorf("%s: got %s, want %s", v, got, want)
		}
	}
	if m, _ := Lookup("1.35"); string(m.KnownJSON([]byte(`{"a":`))) != `{"a":` {
		t.Error("invalid JSON is not returned as is")
	}
}

func TestKubeletText(t *testing.T) {
	err := `no kind "X" is registered for version "v1" in scheme "` + compiledSchemeName() + `"`
	for v, want := range map[string]string{"1.31": "pkg/runtime/scheme.go:100", "1.34": "pkg/runtime/scheme.go:110", "1.37": compiledSchemeName()} {
		m, _ := Lookup(v)
		if got := m.KubeletText(err); got != `no kind "X" is registered for version "v1" in scheme "`+want+`"` {
			t.Errorf("%s: %s", v, got)
		}
	}
}

// BenchmarkKnownJSON is the cost KnownJSON adds to each drop-in merge at an
// older minor: a defaulted main config (about 3 kB of JSON) plus a newer field.
func BenchmarkKnownJSON(b *testing.B) {
	zero, err := Newest().roundTripZero()
	if err != nil {
		b.Fatal(err)
	}
	zero["tlsCurvePreferences"] = "x"
	doc, err := json.Marshal(zero)
	if err != nil {
		b.Fatal(err)
	}
	m, _ := Lookup("1.35")
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		_ = m.KnownJSON(doc)
	}
}

// BenchmarkKnownJSONBaseline is the json.Unmarshal that follows KnownJSON, for scale.
func BenchmarkKnownJSONBaseline(b *testing.B) {
	zero, err := Newest().roundTripZero()
	if err != nil {
		b.Fatal(err)
	}
	doc, err := json.Marshal(zero)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		var kc kubeletv1beta1.KubeletConfiguration
		_ = json.Unmarshal(doc, &kc)
	}
}
