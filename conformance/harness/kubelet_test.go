package main

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"

	kubeletconfiginternal "k8s.io/kubernetes/pkg/kubelet/apis/config"
	"sigs.k8s.io/randfill"
)

func flattenJSON(prefix string, v any, out map[string]string) {
	if m, ok := v.(map[string]any); ok {
		for k, x := range m {
			flattenJSON(prefix+"."+k, x, out)
		}
		return
	}
	b, _ := json.Marshal(v)
	out[strings.TrimPrefix(prefix, ".")] = string(b)
}

// TestFlagPrecedenceResets records a kubelet behaviour the goldens' "effective" (taken
// before the flags step) cannot show: kubeletConfigFlagPrecedence re-registers the
// flags on the loaded configuration, and pflag.BoolVar writes the flag's default into
// the field. The logging flags log-text-split-stream and log-json-split-stream are
// registered with a literal false, so the file's splitStream values are lost whenever
// --config or --config-dir is used. No other field changes.
func TestFlagPrecedenceResets(t *testing.T) {
	changed := map[string]bool{}
	for seed := int64(0); seed < 40; seed++ {
		kc := &kubeletconfiginternal.KubeletConfiguration{}
		randfill.NewWithSeed(seed).NilChance(0).Fill(kc)
		kc.FeatureGates = map[string]bool{}
		before, _ := json.Marshal(kc)
		if err := kubeletConfigFlagPrecedence(kc, nil); err != nil {
			t.Fatal(err)
		}
		after, _ := json.Marshal(kc)
		var a, b any
		_ = json.Unmarshal(before, &a)
		_ = json.Unmarshal(after, &b)
		fa, fb := map[string]string{}, map[string]string{}
		flattenJSON("", a, fa)
		flattenJSON("", b, fb)
		for k, v := range fa {
			if fb[k] != v {
				changed[k] = true
			}
		}
	}
	var got []string
	for k := range changed {
		got = append(got, k)
	}
	sort.Strings(got)
	want := "Logging.options.json.splitStream,Logging.options.text.splitStream"
	if strings.Join(got, ",") != want {
		t.Errorf("fields changed by kubeletConfigFlagPrecedence: %v, want %s", got, want)
	}
}
