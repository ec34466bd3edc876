package kubelets

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// fakeCatalog is a catalogue of minors for window tests; "1.38:v1.38.0-beta.0"
// is a minor generated from that release (here a pre-release).
func fakeCatalog(entries ...string) ([]string, func(string) (*Minor, error)) {
	byVersion := map[string]*Minor{}
	var vs []string
	for _, e := range entries {
		v, patch, _ := strings.Cut(e, ":")
		byVersion[v] = &Minor{Version: v, Patch: patch}
		vs = append(vs, v)
	}
	return vs, func(v string) (*Minor, error) {
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
		{"unsupported", seven, "1.12", "", "Options.Versions: unsupported kubelet version", true},
		{"unsupported range end", seven, "1.30..1.37", "", "Options.Versions: unsupported kubelet version", true},
		{"reversed range", seven, "1.37..1.34", "", "Options.Versions 1.37..1.34: 1.37 is newer than 1.34", true},
		{"unsupported control plane", seven, "", "1.38", "Options.ControlPlane: unsupported kubelet version", true},
		{"both", seven, "1.34..1.37", "1.37", "Options.Versions and Options.ControlPlane", true},
		{"empty list item", seven, "1.34,", "", "Options.Versions: unsupported kubelet version", true},
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
// version is validated with Lookup.
func TestWindowSupported(t *testing.T) {
	got, err := Window("", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 || len(got) > Skew+1 || got[len(got)-1] != Default() {
		t.Errorf("default window %v", got)
	}
	if _, err := Window("1.12", ""); err == nil || !strings.Contains(err.Error(), Default().Version) {
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
	got := Flatten(obj, Default().Fields())
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Flatten:\n got %v\nwant %v", got, want)
	}
	// Without a tree every object is a struct.
	if _, ok := Flatten(obj, nil)["evictionHard.memory.available"]; !ok {
		t.Error("Flatten without a tree: evictionHard.memory.available missing")
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
}
