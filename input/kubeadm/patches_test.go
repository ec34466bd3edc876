package kubeadm

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseKubeadmPatchName(t *testing.T) {
	for _, tt := range []struct {
		name, target, typ string
		ok                bool
		err               bool
	}{
		{name: "kubeletconfiguration.yaml", target: "kubeletconfiguration", typ: "strategic", ok: true},
		{name: "kubeletconfiguration0+merge.yaml", target: "kubeletconfiguration", typ: "merge", ok: true},
		{name: "kubeletconfiguration-x+json.json", target: "kubeletconfiguration", typ: "json", ok: true},
		{name: "etcd.yaml", target: "etcd", typ: "strategic", ok: true},
		{name: "kubeletconfiguration.yml"},              // kubeadm knows json and yaml only
		{name: "README.md"},                             // another extension: ignored
		{name: "kubelet.yaml"},                          // no known target: ignored
		{name: "kubeletconfiguration+.yaml", err: true}, // a + without a type stops kubeadm
		{name: "kubeletconfiguration+patch.yaml", err: true},
	} {
		target, typ, ok, err := ParsePatchName(tt.name)
		if (err != nil) != tt.err || ok != tt.ok || target != tt.target || typ != tt.typ {
			t.Errorf("%s: %q %q %v %v, want %q %q %v error %v", tt.name, target, typ, ok, err, tt.target, tt.typ, tt.ok, tt.err)
		}
	}
}

func TestPointerPaths(t *testing.T) {
	for in, want := range map[string][]string{
		"/maxPods":                       {"maxPods"},
		"/evictionHard/memory.available": {"evictionHard[memory.available]", "evictionHard.memory.available"},
		"/clusterDNS/0":                  {"clusterDNS[0]"},
		"/a~1b/c~0d":                     {"a/b[c~d]", "a/b.c~d"},
	} {
		if got := pointerPaths(strings.Split(in[1:], "/")); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %q, want %q", in, got, want)
		}
	}
}
