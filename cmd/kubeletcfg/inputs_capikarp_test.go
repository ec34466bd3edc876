package main

import "testing"

const bootstrappers = "../../testdata/bootstrappers/"

// TestCLIInputsCAPIKarpenter runs the whole pipeline on Cluster API and
// Karpenter manifests, detected by apiVersion and kind: go test
// ./cmd/kubeletcfg -run TestCLIInputsCAPIKarpenter -update rewrites these
// goldens only.
func TestCLIInputsCAPIKarpenter(t *testing.T) {
	tests := []struct {
		name string
		args []string
		exit int
	}{
		{"inputs-capi-patch", []string{"lint", bootstrappers + "capi/patch-kct.yaml"}, exitClean},
		{"inputs-capi-patch-origin", []string{"effective", bootstrappers + "capi/patch-kct.yaml", "--show-origin"}, exitClean},
		{"inputs-capi-mistakes", []string{"lint", bootstrappers + "capi/mistakes-kct.yaml"}, exitFindings},
		{"inputs-capi-kcp-1.33", []string{"lint", bootstrappers + "capi/extra-args-kcpt.yaml", "--kubelet-version", "1.33"}, exitClean},
		{"inputs-capi-skew", []string{"skew", "-c", bootstrappers + "capi/files-config-kct.yaml", "--versions", "1.33,1.37"}, exitClean},
		{"inputs-karpenter-mistakes", []string{"lint", bootstrappers + "karpenter/mistakes.yaml"}, exitFindings},
		{"inputs-karpenter-set", []string{"lint", bootstrappers + "karpenter/mistakes.yaml", "--set", "maxPods=58"}, exitFindings},
		{"inputs-karpenter-origin", []string{"effective", bootstrappers + "karpenter/nodeclasses-doc.yaml", "--show-origin"}, exitClean},
		// AL2023: config.json is nodeadm's for the kubelet version, the drop-in the merged NodeConfigs (input/nodeadm).
		{"inputs-karpenter-al2023-origin", []string{"effective", bootstrappers + "karpenter/mistakes.yaml", "--show-origin", "--set", "maxPods=58"}, exitFindings},
		{"inputs-karpenter-bottlerocket", []string{"lint", bootstrappers + "karpenter/example-bottlerocket.yaml", "--input-format", "karpenter"}, exitClean},
		// Bottlerocket: the docs' spec.userData settings TOML, then Bottlerocket's kubelet-config template and defaults.
		{"inputs-karpenter-bottlerocket-origin", []string{"effective", bootstrappers + "karpenter/nodeclasses-doc-bottlerocket.yaml", "--show-origin"}, exitClean},
		{"inputs-karpenter-bottlerocket-settings", []string{"lint", bootstrappers + "karpenter/bottlerocket-userdata-settings.yaml", "--kubelet-version", "1.31"}, exitClean},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runGolden(t, tt.name, tt.args, tt.exit)
		})
	}
}
