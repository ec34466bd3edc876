package input

import (
	"fmt"
	"os"
	"testing"
)

func TestKindNodeGroups(t *testing.T) {
	multi, err := os.ReadFile("../testdata/inputs/kind.yaml")
	if err != nil {
		t.Fatal(err)
	}
	one := []byte("kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nnodes:\n- role: control-plane\n")
	twins := []byte("kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nnodes:\n- role: control-plane\n- role: worker\n")
	config := []byte("apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n")
	for _, tc := range []struct {
		name string
		data []byte
		f    Format
		want string
	}{
		{"several nodes", multi, Auto, "[[dev-control-plane] [dev-worker] [dev-worker2]]"},
		{"several nodes, forced", multi, Kind, "[[dev-control-plane] [dev-worker] [dev-worker2]]"},
		{"two alike", twins, Auto, "[[kind-control-plane kind-worker]]"},
		{"one node", one, Auto, "[]"},
		{"a config file", config, Auto, "[]"},
		{"read as another format", multi, Config, "[]"},
		{"not kind, forced", config, Kind, "[]"},
	} {
		if got := fmt.Sprint(KindNodeGroups("f.yaml", tc.data, tc.f, Options{})); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}
