package main

import "testing"

// kubeadmCases are the kubeadm cases the harness records (testdata/kubeadm).
const kubeadmCases = "../../testdata/kubeadm/cases/"

// TestCLIKubeadmPatches is TestCLI for kubeadm's patches folder
// (--kubeadm-patches, patches.directory): findings on what a patch sets point
// into the patch file; a folder kubeadm cannot read stops kubeadm init.
func TestCLIKubeadmPatches(t *testing.T) {
	tests := []struct {
		name string
		args []string
		exit int
	}{
		{"inputs-kubeadm-patches", []string{"lint", "-c", kubeadmCases + "patches-kinds/kubeadm.yaml", "--kubeadm-patches", kubeadmCases + "patches-strategic/patches"}, exitFindings},
		{"inputs-kubeadm-patches-origin", []string{"effective", "-c", kubeadmCases + "patches-kinds/kubeadm.yaml", "--kubeadm-patches", kubeadmCases + "patches-kinds/patches", "--show-origin"}, exitClean},
		{"inputs-kubeadm-patches-missing", []string{"lint", "-c", kubeadmCases + "patches-kinds/kubeadm.yaml", "--kubeadm-patches", "no-such-folder"}, exitUsage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runGolden(t, tt.name, tt.args, tt.exit)
		})
	}
}
