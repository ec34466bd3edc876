package nodeadm

import (
	"testing"
)

// TestDecodeErrorsInNodeadmsWords: a NodeConfig nodeadm cannot decode is
// refused in nodeadm's words, its types named as nodeadm names them
// (v1alpha1.ClusterDetails), never kubeletcfg's. Each want is what
// bridge.DecodeNodeConfig of nodeadm v20260724 (internal/api/bridge/decode.go)
// prints for the same document, run once from that tag's module.
func TestDecodeErrorsInNodeadmsWords(t *testing.T) {
	const head = "apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n"
	tests := []struct{ name, spec, want string }{
		{"decodes", "  cluster:\n    name: my-cluster\n", ""},
		{"cluster as a string", "  cluster: my-cluster\n",
			"failed to decode node config, json: cannot unmarshal string into Go struct field NodeConfigSpec.spec.cluster of type v1alpha1.ClusterDetails"},
		{"local storage strategy as a number", "  instance:\n    localStorage:\n      strategy: 5\n",
			"failed to decode node config, json: cannot unmarshal number into Go struct field LocalStorageOptions.spec.instance.localStorage.strategy of type v1alpha1.LocalStorageStrategy"},
		{"environment as a string", "  instance:\n    environment: x\n",
			"failed to decode node config, json: cannot unmarshal string into Go struct field InstanceOptions.spec.instance.environment of type v1alpha1.EnvironmentOptions"},
		{"a gate as a string", "  featureGates:\n    InstanceIdNodeName: \"yes\"\n  kubelet:\n    flags: \"--v=2\"\n",
			"failed to decode node config, json: cannot unmarshal string into Go struct field NodeConfigSpec.spec.featureGates of type bool"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := decodeNodeConfig([]byte(head + tt.spec))
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("decode error\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}
