package main

import "testing"

const minikubeProfile = "../../testdata/minikube/config.json"

// TestCLIMinikube is TestCLI for minikube profiles (--input-format minikube, by
// content in auto mode): go test ./cmd/kubeletcfg -run Minikube -update rewrites
// these goldens only.
func TestCLIMinikube(t *testing.T) {
	for _, tt := range []struct {
		name string
		args []string
		exit int
	}{
		{"minikube-lint", []string{"lint", "-c", minikubeProfile, "--kubelet-version", "1.34"}, exitClean},
		// --kubelet-version defaults to the profile's KubernetesVersion (v1.34.1).
		{"minikube-lint-profile-version", []string{"lint", "-c", minikubeProfile, "-q"}, exitClean},
		{"minikube-lint-json", []string{"lint", "-c", minikubeProfile, "--kubelet-version", "1.34", "-o", "json"}, exitClean},
		{"minikube-as-written", []string{"lint", "-c", minikubeProfile, "--input-format", "minikube", "--as-written", "--kubelet-version", "1.34"}, exitClean},
		{"minikube-origin", []string{"effective", "-c", minikubeProfile, "--show-origin", "--kubelet-version", "1.34"}, exitClean},
		{"minikube-skew", []string{"skew", "-c", minikubeProfile, "--versions", "1.31,1.37"}, exitClean},
		{"minikube-forced-mismatch", []string{"lint", "-c", inputs + "kubeadm.yaml", "--input-format", "minikube"}, exitUsage},
		{"minikube-fix", []string{"fix", "-c", minikubeProfile, "--diff"}, exitUsage},
		{"minikube-no-such-node", []string{"lint", "-c", minikubeProfile, "--minikube-node", "dev-m02"}, exitUsage},
		{"minikube-cgroup-v1", []string{"lint", "-c", minikubeProfile, "--cgroup-version", "v1", "--kubelet-version", "1.35", "-q"}, exitFindings},
	} {
		t.Run(tt.name, func(t *testing.T) {
			runGolden(t, tt.name, tt.args, tt.exit)
		})
	}
}
