package kubeadm

import (
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

// TestArgumentsToCommand: kubeadm's order and precedence of its own flags and
// kubeletExtraArgs (util/arguments.go ArgumentsToCommand): an extra arg replaces every
// base arg of its name; 1.31 sorts everything, 1.32+ keeps the extra args' order after
// the sorted base.
func TestArgumentsToCommand(t *testing.T) {
	a := func(n, v string) Arg { return Arg{Name: n, Value: v} }
	base := []Arg{a("pod-infra-container-image", "p"), a("container-runtime-endpoint", "c"), a("hostname-override", "h")}
	extra := []Arg{a("v", "2"), a("hostname-override", "x"), a("max-pods", "10"), a("max-pods", "9")}
	for minor, want := range map[int]string{
		31: "--container-runtime-endpoint=c --hostname-override=x --max-pods=10 --max-pods=9 --pod-infra-container-image=p --v=2",
		32: "--container-runtime-endpoint=c --pod-infra-container-image=p --v=2 --hostname-override=x --max-pods=10 --max-pods=9",
		37: "--container-runtime-endpoint=c --pod-infra-container-image=p --v=2 --hostname-override=x --max-pods=10 --max-pods=9",
	} {
		got := strings.TrimSuffix(strings.TrimPrefix(string(flagsEnv(argumentsToCommand(minor, base, extra))), `KUBELET_KUBEADM_ARGS="`), "\"\n")
		if got != want {
			t.Errorf("1.%d: %s, want %s", minor, got, want)
		}
	}
}

// TestSocketOS: a node document whose criSocket is a named pipe is a Windows
// node's (and Convert then writes what kubeadm's Windows build writes); any
// other socket, or none, says nothing.
func TestSocketOS(t *testing.T) {
	tests := []struct {
		socket string
		want   kubelets.OS
	}{
		{"npipe:////./pipe/containerd-containerd", kubelets.Windows},
		{"NPIPE:////./pipe/cri-dockerd", kubelets.Windows},
		{"unix:///run/containerd/containerd.sock", ""},
		{"", ""},
	}
	for _, tt := range tests {
		t.Run(tt.socket, func(t *testing.T) {
			doc := "apiVersion: kubeadm.k8s.io/v1beta4\nkind: JoinConfiguration\nnodeRegistration:\n  criSocket: " + tt.socket + "\n"
			got, from := NodeOf("", SplitDocs([]byte(doc))).SocketOS()
			if got != tt.want || (got != "" && !strings.Contains(from, "line 4")) {
				t.Errorf("SocketOS = %q (%q), want %q at line 4", got, from, tt.want)
			}
			s, err := Convert("kubeadm.yaml", []byte(doc), Reading{})
			if err != nil {
				t.Fatal(err)
			}
			if s.OS != tt.want {
				t.Errorf("Convert: OS %q, want %q", s.OS, tt.want)
			}
			if windows := strings.Contains(string(s.Data), `resolvConf: ""`); windows != (tt.want == kubelets.Windows) {
				t.Errorf("Convert wrote resolvConf \"\" (Windows Mutate): %v\n%s", windows, s.Data)
			}
		})
	}
}
