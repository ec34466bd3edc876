package fleet

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/skew"
)

func TestRunEvaluatesEachKeyOnce(t *testing.T) {
	keys := []string{"a", "b", "", "a", "c", "b", "a"}
	var calls atomic.Int64
	seen := make([]atomic.Int64, len(keys))
	got := Run(keys, 3, func(i int) string {
		calls.Add(1)
		seen[i].Add(1)
		return fmt.Sprint(keys[i], "@", i)
	})
	want := []string{"a@0", "b@1", "", "a@0", "c@4", "b@1", "a@0"}
	if !slices.Equal(got, want) {
		t.Errorf("Run = %v, want %v", got, want)
	}
	if calls.Load() != 3 {
		t.Errorf("%d evaluations, want 3 (one per distinct key, the first input of each)", calls.Load())
	}
	for _, i := range []int{0, 1, 4} {
		if seen[i].Load() != 1 {
			t.Errorf("input %d evaluated %d times", i, seen[i].Load())
		}
	}
}

func TestEachBoundsWorkersAndReraisesPanics(t *testing.T) {
	var running, peak atomic.Int64
	block := make(chan struct{})
	go func() {
		for peak.Load() < 2 {
			runtime.Gosched()
		}
		close(block)
	}()
	Each(20, 2, func(int) {
		n := running.Add(1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		<-block
		running.Add(-1)
	})
	if peak.Load() != 2 {
		t.Errorf("%d workers at once, want 2", peak.Load())
	}
	defer func() {
		if p := recover(); p != "boom" {
			t.Errorf("recovered %v, want the worker's panic", p)
		}
	}()
	Each(5, 2, func(i int) {
		if i == 3 {
			panic("boom")
		}
	})
}

func TestHasherSeparatesParts(t *testing.T) {
	if NewHasher().String("ab").String("c").Sum() == NewHasher().String("a").String("bc").Sum() {
		t.Error("(ab, c) and (a, bc) hash the same")
	}
	if NewHasher().Strings([]string{"a", "b"}).String("").Sum() == NewHasher().Strings([]string{"a"}).String("b").Sum() {
		t.Error("a list and its last element moved out hash the same")
	}
	a, b := NewHasher().String("x"), NewHasher().String("x")
	if a.Sum() != b.Sum() {
		t.Error("not deterministic")
	}
}

func TestMinorOf(t *testing.T) {
	for in, want := range map[string]string{
		"v1.34.4-eks-4a3c1b2": "1.34", "v1.37.0": "1.37", "1.31.2+k3s1": "1.31", "v1.30": "1.30",
		"": "", "vX": "", "v1": "", "v1.3x.0": "",
	} {
		if got := MinorOf(in); got != want {
			t.Errorf("MinorOf(%q) = %q, want %q", in, got, want)
		}
	}
}

func flagzPage(sep string, flags ...string) []byte {
	var b strings.Builder
	b.WriteString("\nkubelet flagz\nWarning: This endpoint is not meant to be machine parseable, has no formatting compatibility guarantees and is for debugging purposes only.\n\n")
	for i := 0; i+1 < len(flags); i += 2 {
		b.WriteString(flags[i] + sep + flags[i+1] + "\n")
	}
	return []byte(b.String())
}

func TestParseFlagz(t *testing.T) {
	m := skew.Default()
	// Every flag listed, most at their defaults, as the kubelet serves it.
	flags := []string{
		"cert-dir", "/var/lib/kubelet/pki", // default
		"cloud-provider", "external", // set
		"config", "/var/lib/kubelet/config.yaml", // a file kubeletcfg does not read
		"exit-on-lock-contention", "false", // default bool
		"hostname-override", "", // default string
		"max-pods", "250", // a configuration flag: in configz already
		"maximum-dead-containers", "-1", // default
		"node-ip", "10.0.0.7", // set
		"node-labels", "pool=gpu,zone=a", // set
		"root-dir", "/data/kubelet", // set
		"seccomp-default", "true", // set
		"bootstrap-kubeconfig", "CLASSIFIED",
		"not-a-kubelet-flag", "x", // unknown to this minor
	}
	want := []string{"--cloud-provider=external", "--node-ip=10.0.0.7", "--node-labels=pool=gpu,zone=a", "--root-dir=/data/kubelet", "--seccomp-default=true"}
	for _, sep := range []string{":", ": ", "=", " "} {
		got, err := ParseFlagz(flagzPage(sep, flags...), m)
		if err != nil {
			t.Fatalf("separator %q: %v", sep, err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("separator %q: %v, want %v", sep, got, want)
		}
	}
	if got, err := ParseFlagz(flagzPage("=", "cert-dir", "/var/lib/kubelet/pki"), m); err != nil || len(got) != 0 {
		t.Errorf("all defaults: %v, %v; want no arguments", got, err)
	}
	for name, body := range map[string]string{
		"no header":      "node-ip=1\n",
		"mixed":          "\nkubelet flagz\n\nnode-ip=1\nroot-dir:/x\n",
		"not a flag row": "\nkubelet flagz\n\n=x\n",
	} {
		if _, err := ParseFlagz([]byte(body), m); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
