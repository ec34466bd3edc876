package kubeadm

import (
	"strings"
	"testing"
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
