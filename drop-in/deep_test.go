package dropin

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"

	kubeletv1beta1 "github.com/kubeletcfg/kubeletcfg/upstream/kubelet/config/v1beta1"
	jsonpatch "gopkg.in/evanphx/json-patch.v4"

	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

// jsonDepth is the deepest nesting of objects and lists in a JSON document.
func jsonDepth(t *testing.T, data []byte) int {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	depth, max := 0, 0
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		if d, ok := tok.(json.Delim); ok {
			if d == '{' || d == '[' {
				depth++
				max = maxInt(max, depth)
			} else {
				depth--
			}
		}
	}
	return max
}

func maxInt(a, b int) int {
	if a > b {
		return a
	}
	return b
}

func nested(open, close string, n int, leaf string) string {
	return strings.Repeat(open, n) + leaf + strings.Repeat(close, n)
}

func TestTruncateDeep(t *testing.T) {
	tests := []struct {
		name string
		in   string
		max  int
		want string
	}{
		{"shallow", `{"a":{"b":[1,2]}}`, 3, `{"a":{"b":[1,2]}}`},
		{"exactly at the limit", `{"a":{"b":{}}}`, 3, `{"a":{"b":{}}}`},
		{"object below the limit", `{"a":{"b":{"c":{"d":1}}},"e":2}`, 2, `{"a":{"b":{}},"e":2}`},
		{"list below the limit", `{"a":[[1,[2]],3],"b":[4]}`, 2, `{"a":[[],3],"b":[4]}`},
		{"siblings", `{"a":{"x":{"y":1}},"b":{"x":[1]}}`, 2, `{"a":{"x":{}},"b":{"x":[]}}`},
		{"brackets in strings", `{"a":"{[}]","b":{"c":"\"{","d":{"e":"]\\"}}}`, 2, `{"a":"{[}]","b":{"c":"\"{","d":{}}}`},
		{"escaped backslash before a quote", `{"a":"x\\","b":{"c":{}}}`, 2, `{"a":"x\\","b":{"c":{}}}`},
		{"scalar document", `42`, 1, `42`},
		{"max 0", `{"a":1}`, 0, `{}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := truncateDeep([]byte(tc.in), tc.max)
			if string(got) != tc.want {
				t.Errorf("truncateDeep(%s, %d) = %s, want %s", tc.in, tc.max, got, tc.want)
			}
			if !json.Valid(got) {
				t.Errorf("invalid JSON %s", got)
			}
		})
	}
	// unchanged documents are returned as is, without a copy
	in := []byte(`{"a":[1]}`)
	if out := truncateDeep(in, 5); &out[0] != &in[0] {
		t.Errorf("a shallow document was copied")
	}
	deep := []byte(`{"x":` + nested(`{"a":`, `}`, 9000, "1") + `}`)
	out := truncateDeep(deep, maxPatchDepth)
	if d := jsonDepth(t, out); d != maxPatchDepth+1 || !json.Valid(out) {
		t.Errorf("depth %d after truncation, want %d", d, maxPatchDepth+1)
	}
}

// Truncating a drop-in below maxPatchDepth must not change what the kubelet
// decodes from the merge: the same config, or the same error.
func TestTruncateDeepKeepsTheMergeResult(t *testing.T) {
	base := baseConfig(t)
	const n = 300 // deep enough to be truncated, shallow enough to merge untruncated
	patches := []string{
		`{"x":` + nested(`{"a":`, `}`, n, "1") + `,"maxPods":3}`,
		`{"featureGates":` + nested(`{"a":`, `}`, n, "true") + `}`,
		`{"featureGates":{"A":true,"B":` + nested(`[`, `]`, n, "1") + `}}`,
		`{"evictionHard":{"memory.available":` + nested(`{"a":`, `}`, n, `"1Gi"`) + `}}`,
		`{"clusterDNS":` + nested(`[`, `]`, n, `"1.1.1.1"`) + `}`,
		`{"clusterDNS":[` + nested(`{"a":`, `}`, n, "null") + `]}`,
		`{"syncFrequency":` + nested(`{"a":`, `}`, n, `"1s"`) + `}`,
		`{"systemReserved":{"cpu":` + nested(`[`, `]`, n, `"1"`) + `}}`,
		`{"reservedMemory":[{"numaNode":0,"limits":{"memory":` + nested(`{"a":`, `}`, n, `"1Gi"`) + `}}]}`,
		`{"logging":{"vmodule":[{"filePattern":"x","verbosity":` + nested(`{"a":`, `}`, n, "1") + `}]}}`,
		`{"Logging":{"Options":{"JSON":{"infoBufferSize":` + nested(`{"a":`, `}`, n, "1") + `}}}}`,
		`{"authentication":{"x509":` + nested(`{"x509":`, `}`, n, "null") + `}}`,
		`{"tracing":{"endpoint":` + nested(`[`, `]`, n, `"x"`) + `}}`,
		`{"crashLoopBackOff":{"maxContainerRestartPeriod":` + nested(`{"a":`, `}`, n, `"1s"`) + `}}`,
	}
	decode := func(merged []byte) (string, string) {
		cfg := &kubeletv1beta1.KubeletConfiguration{}
		if err := json.Unmarshal(merged, cfg); err != nil {
			return "", err.Error()
		}
		out, _ := json.Marshal(cfg)
		return string(out), ""
	}
	for i, p := range patches {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			if !json.Valid([]byte(p)) {
				t.Fatalf("bad test patch %s", p)
			}
			full, err1 := jsonpatch.MergePatch(base, []byte(p))
			cut, err2 := jsonpatch.MergePatch(base, truncateDeep([]byte(p), maxPatchDepth))
			if (err1 == nil) != (err2 == nil) {
				t.Fatalf("merge errors differ: %v / %v", err1, err2)
			}
			if err1 != nil {
				return
			}
			cfg1, e1 := decode(full)
			cfg2, e2 := decode(cut)
			if cfg1 != cfg2 || e1 != e2 {
				t.Errorf("truncation changes the result:\n full: %s %s\n cut:  %s %s", cfg1, e1, cfg2, e2)
			}
			w1, p1 := lastWriters(full, kubelets.Tree(), nil)
			w2, p2 := lastWriters(cut, kubelets.Tree(), nil)
			if !reflect.DeepEqual(w1, w2) {
				t.Errorf("writers differ:\n full %v\n cut  %v", w1, w2)
			}
			for k := range p1 {
				if strings.Count(k, ".")+strings.Count(k, "[") <= 4 && !p2[k] {
					t.Errorf("written path %s lost", k)
				}
			}
		})
	}
}

// A drop-in nested as deep as the decoder allows merges within bounded memory.
func TestMergeDeepDropIn(t *testing.T) {
	for name, doc := range map[string]string{
		"unknown key": hdr + "x: " + nested("{a: ", "}", 9900, "1") + "\n",
		"map field":   hdr + "featureGates: " + nested("{a: ", "}", 9900, "1") + "\n",
		"list field":  hdr + "clusterDNS: " + nested("[", "]", 9900, "1") + "\n",
	} {
		t.Run(name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			m := merge(t, map[string]string{"10.conf": doc, "20.conf": hdr + "maxPods: 7\n"})
			runtime.ReadMemStats(&after)
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 128<<20 {
				t.Errorf("allocated %d MiB", alloc>>20)
			}
			if name == "unknown key" {
				if m.res.Refused || m.res.Config.MaxPods != 7 {
					t.Errorf("refused %v: %v", m.res.Refused, m.findings())
				}
			} else if !m.res.Refused || m.find("KC2009") == nil {
				t.Errorf("a deep value in a typed field must be a KC2009: %v", m.findings())
			}
		})
	}
}

// TestLastWritersTops checks that walking only some top-level fields (a byte scan
// of the members) answers for paths under them as the full walk does.
func TestLastWritersTops(t *testing.T) {
	tree := kubelets.Tree()
	for _, doc := range []string{
		`{"MaxPods":1,"maxPods":2}`,
		`{"maxPods":2,"MaxPods":1}`,
		` { "evictionHard" : {"a":"1"} , "EvictionHard":{"b":"\"}"},"maxPods":[1,{"x":[]}],"\u006daxpods":true } `,
		`{"authentication":{"webhook":{"enabled":true}},"Authentication":{"Webhook":null},"x":"}","y":-1.5e3,"z":null}`,
		`{}`,
	} {
		fullW, fullP := lastWriters([]byte(doc), tree, nil)
		for _, top := range []string{"maxPods", "evictionHard", "authentication"} {
			w, p := lastWriters([]byte(doc), tree, map[string]bool{top: true})
			for k, v := range fullW {
				if strings.EqualFold(topSegment(k), top) && w[k] != v {
					t.Errorf("%s %s: writer of %s is %q, want %q", doc, top, k, w[k], v)
				}
			}
			for k := range w {
				if _, ok := fullW[k]; !ok {
					t.Errorf("%s %s: extra writer %s", doc, top, k)
				}
			}
			for k, v := range fullP {
				if strings.EqualFold(topSegment(k), top) && p[k] != v {
					t.Errorf("%s %s: present %s is %v, want %v", doc, top, k, p[k], v)
				}
			}
		}
	}
}
