package pipeline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	dropin "github.com/kubeletcfg/kubeletcfg/drop-in"
	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/source"
)

func evaluateText(t *testing.T, text string) *Result {
	t.Helper()
	p := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := Evaluate(kubelets.Default(), Input{Config: p, CgroupVersion: 2})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func findingOf(res *Result, rule string) *finding.Finding {
	for i := range res.Findings {
		if res.Findings[i].Rule == rule {
			return &res.Findings[i]
		}
	}
	return nil
}

// The syntax hint blames tabs only when the file has one.
func TestSyntaxHintTabs(t *testing.T) {
	const head = "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n"
	for _, tt := range []struct {
		text string
		tabs bool
	}{
		{head + "evictionHard:\n\tmemory.available: 100Mi\n", true},
		{head + "maxPods: [1\n", false},
	} {
		f := findingOf(evaluateText(t, tt.text), source.ConfigSyntax.ID)
		if f == nil {
			t.Fatalf("%q: no %s finding", tt.text, source.ConfigSyntax.ID)
		}
		if got := strings.Contains(f.Hint, "tab"); got != tt.tabs {
			t.Errorf("%q: hint %q mentions tabs: %v, want %v", tt.text, f.Hint, got, tt.tabs)
		}
	}
}

// An eviction signal written at the top level is a threshold put in the wrong place.
func TestTopLevelEvictionSignal(t *testing.T) {
	const head = "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n"
	for _, tt := range []struct{ key, want string }{
		{"nodefs.available", `did you mean "evictionHard[nodefs.available]"?`},
		{"Memory.Available", `did you mean "evictionHard[memory.available]"?`},
		{"maxPod", `did you mean "maxPods"?`},
	} {
		f := findingOf(evaluateText(t, head+tt.key+": 10%\n"), source.UnknownField.ID)
		if f == nil || !strings.HasPrefix(f.Hint, tt.want) {
			t.Errorf("%s: finding %+v, want hint %q", tt.key, f, tt.want)
		}
	}
}

// The same hint for a drop-in.
func TestTopLevelEvictionSignalDropIn(t *testing.T) {
	dir := t.TempDir()
	main := filepath.Join(dir, "config.yaml")
	conf := filepath.Join(dir, "conf.d")
	if err := os.WriteFile(main, []byte("apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(conf, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(conf, "10-x.conf"), []byte("apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nimagefs.available: 15%\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := Evaluate(kubelets.Default(), Input{Config: main, ConfigDir: conf, CgroupVersion: 2})
	if err != nil {
		t.Fatal(err)
	}
	f := findingOf(res, dropin.DropInUnknownField.ID)
	if f == nil || !strings.HasPrefix(f.Hint, `did you mean "evictionHard[imagefs.available]"?`) {
		t.Errorf("finding %+v", f)
	}
}
