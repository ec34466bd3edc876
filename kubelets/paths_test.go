package kubelets

import (
	"fmt"
	"testing"
)

func TestSteps(t *testing.T) {
	for _, tc := range []struct {
		path string
		want string
		ok   bool
	}{
		{"", "[]", true},
		{"maxPods", "[{maxPods false}]", true},
		{"crashLoopBackOff.maxContainerRestartPeriod", "[{crashLoopBackOff false} {maxContainerRestartPeriod false}]", true},
		{"evictionHard[memory.available]", "[{evictionHard false} {memory.available true}]", true},
		{"reservedMemory[0].limits[memory]", "[{reservedMemory false} {0 true} {limits false} {memory true}]", true},
		{"a[k][0].b", "[{a false} {k true} {0 true} {b false}]", true},
		{"a.b[unclosed", "[{a false} {b false}]", false},
	} {
		got, ok := Steps(tc.path)
		if fmt.Sprint(got) != tc.want || ok != tc.ok {
			t.Errorf("Steps(%q) = %v, %v; want %s, %v", tc.path, got, ok, tc.want, tc.ok)
		}
	}
}
