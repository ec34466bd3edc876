package kubeletcfg_test

import (
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

// TestInputSaysWindows: a file that says its node is a Windows one (CAPZ's
// Windows KubeadmConfigTemplate: an npipe criSocket; a Karpenter Windows AMI
// family; an AKS agent pool of osType Windows) is evaluated as the Windows
// kubelet without --os; --os linux still evaluates it as Linux; a Linux
// template stays Linux.
func TestInputSaysWindows(t *testing.T) {
	const capz = "testdata/bootstrappers/capi/capz-windows-md.yaml"
	tests := []struct {
		name, config, os string
		want             kubelets.OS
		// windowsFlag: --windows-priorityclass is among the Windows kubelet's
		// flags (no KC2508 note that it was left out).
		windowsFlag bool
	}{
		{"capz windows template", capz, "", kubelets.Windows, true},
		{"capz windows template, --os linux", capz, "linux", kubelets.Linux, false},
		{"capz windows template, --os windows", capz, "windows", kubelets.Windows, true},
		{"linux template", "testdata/bootstrappers/capi/extra-args-kct.yaml", "", kubelets.Linux, true},
		{"karpenter windows2025", "testdata/bootstrappers/karpenter/windows2025-kubelet.yaml", "", kubelets.Windows, true},
		{"aks windows node pool", "testdata/bootstrappers/aks/nodepool-windows.json", "", kubelets.Windows, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := kubeletcfg.Lint(kubeletcfg.Options{Config: tt.config, OS: tt.os, KubeletVersion: "1.37"})
			if err != nil {
				t.Fatal(err)
			}
			if got := l.Result.OS.Or(); got != tt.want {
				t.Fatalf("evaluated as %s, want %s", got, tt.want)
			}
			leftOut := false
			for _, f := range l.Report.Findings {
				leftOut = leftOut || f.Rule == "KC2508"
			}
			if leftOut == tt.windowsFlag {
				t.Errorf("KC2508 (a Windows-only flag left out) reported: %v, want %v", leftOut, !tt.windowsFlag)
			}
			said := strings.Contains(l.Source.Note, "evaluated as a windows node, as the file says (")
			if said != (tt.os == "" && tt.want == kubelets.Windows) {
				t.Errorf("note %q: says why it is Windows: %v", l.Source.Note, said)
			}
		})
	}
}
