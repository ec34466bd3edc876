package kubeletcfg_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg"
	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/input"
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
		// flags (no KC2508 note that it is a Windows node's flag, which the
		// Linux kubelet refuses).
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
				t.Errorf("KC2508 (a Windows-only flag on a node evaluated as Linux) reported: %v, want %v", leftOut, !tt.windowsFlag)
			}
			said := strings.Contains(l.Source.Note, "evaluated as a windows node, as the file says (")
			if said != (tt.os == "" && tt.want == kubelets.Windows) {
				t.Errorf("note %q: says why it is Windows: %v", l.Source.Note, said)
			}
		})
	}
}

// TestLintClusterTemplateObjects: a Cluster API cluster template of several
// node groups (CAPZ's Windows flavor: a control plane, its first machine and
// its joining ones, Linux and Windows workers) is linted object by object,
// the Windows workers as the Windows kubelet; naming one object reads that
// one alone.
func TestLintClusterTemplateObjects(t *testing.T) {
	const file = "testdata/peers/capz-windows-template/cluster-template-windows.yaml"
	lintObjects(t, kubeletcfg.Options{Config: file, KubeletVersion: "1.37"}, "one report for a template of three node groups: %T",
		func(r kubeletcfg.PathReport, l *kubeletcfg.Linted) string {
			return r.Object + " " + string(l.Result.OS.Or())
		},
		[]string{
			"KubeadmControlPlane/${CLUSTER_NAME}-control-plane linux",
			"KubeadmControlPlane/${CLUSTER_NAME}-control-plane (join) linux",
			"KubeadmConfigTemplate/${CLUSTER_NAME}-md-0 linux",
			"KubeadmConfigTemplate/${CLUSTER_NAME}-md-win windows",
		})
	one, err := kubeletcfg.Lint(kubeletcfg.Options{Config: file, KubeletVersion: "1.37", Read: input.Options{Object: "KubeadmConfigTemplate/${CLUSTER_NAME}-md-win"}})
	if err != nil {
		t.Fatal(err)
	}
	if one.Several != nil || one.Result.OS != kubelets.Windows {
		t.Errorf("Read.Object: several %v, OS %q", one.Several != nil, one.Result.OS)
	}
	if _, err := kubeletcfg.Lint(kubeletcfg.Options{Config: file, Read: input.Options{Object: "KubeadmConfigTemplate/nope"}}); err == nil || !strings.Contains(err.Error(), "no Cluster API object KubeadmConfigTemplate/nope") {
		t.Errorf("an object not in the file: %v", err)
	}
}

// TestLintK0sProfiles: a k0s ClusterConfig of several worker profiles is
// linted profile by profile (and k0s's default profile, the workers started
// without --profile), as a Cluster API template is object by object: a
// refusal in the second profile alone is reported, for that profile; naming
// one profile (as k0s's --profile does, or as the object Lint names)
// reads that one alone.
func TestLintK0sProfiles(t *testing.T) {
	const file = "testdata/inputs/k0s-profiles.yaml"
	lintObjects(t, kubeletcfg.Options{Config: file, KubeletVersion: "1.36"}, "one report for a ClusterConfig of two worker profiles: %T",
		func(r kubeletcfg.PathReport, _ *kubeletcfg.Linted) string {
			return fmt.Sprintf("%s errors=%d", r.Object, errorsIn(r.Findings))
		},
		[]string{"WorkerProfile/pool-a errors=0", "WorkerProfile/pool-b errors=1", "WorkerProfile/default errors=0"})
	for _, object := range []string{"WorkerProfile/pool-b", "pool-b"} {
		one, err := kubeletcfg.Lint(kubeletcfg.Options{Config: file, KubeletVersion: "1.36", Read: input.Options{Object: object}})
		if err != nil {
			t.Fatal(err)
		}
		if one.Several != nil || errorsIn(one.Report.Findings) != 1 {
			t.Errorf("Read.Object %s: several %v, %d errors, want one report of 1", object, one.Several != nil, errorsIn(one.Report.Findings))
		}
	}
	if _, err := kubeletcfg.Lint(kubeletcfg.Options{Config: file, Read: input.Options{Object: "WorkerProfile/nope"}}); err == nil || !strings.Contains(err.Error(), `no worker profile "nope"`) {
		t.Errorf("a profile not in the file: %v", err)
	}
}

// errorsIn counts the errors among fs.
func errorsIn(fs []finding.Finding) int {
	n := 0
	for _, f := range fs {
		if f.Severity == finding.Error {
			n++
		}
	}
	return n
}

// TestLintKubeadmControlPlaneJoin: a KubeadmControlPlane is two node groups,
// its first machine (kubeadm init, initConfiguration) and its joining ones
// (kubeadm join --control-plane, joinConfiguration): a refusal in
// joinConfiguration alone is reported for the joining machines; naming
// either object reads that one alone.
func TestLintKubeadmControlPlaneJoin(t *testing.T) {
	const file = "testdata/inputs/capi-kcp-join.yaml"
	lintObjects(t, kubeletcfg.Options{Config: file}, "one report for a KubeadmControlPlane: %T",
		func(r kubeletcfg.PathReport, _ *kubeletcfg.Linted) string {
			return fmt.Sprintf("%s %s errors=%d", r.Object, r.KubeletVersion, errorsIn(r.Findings))
		},
		[]string{"KubeadmControlPlane/cp 1.36 errors=0", "KubeadmControlPlane/cp (join) 1.36 errors=1"})
	for object, errs := range map[string]int{"KubeadmControlPlane/cp": 0, "KubeadmControlPlane/cp (join)": 1} {
		one, err := kubeletcfg.Lint(kubeletcfg.Options{Config: file, Read: input.Options{Object: object}})
		if err != nil {
			t.Fatal(err)
		}
		if one.Several != nil || errorsIn(one.Report.Findings) != errs {
			t.Errorf("Read.Object %s: several %v, %d errors, want one report of %d", object, one.Several != nil, errorsIn(one.Report.Findings), errs)
		}
		if join := strings.Contains(one.Source.Note, "kubeadm join --control-plane with kubeadm.k8s.io/v1beta4 joinConfiguration"); join != strings.HasSuffix(object, " (join)") {
			t.Errorf("Read.Object %s: note %q", object, one.Source.Note)
		}
	}
}

// lintObjects lints a file of several node groups (opt) and compares one
// line per object's report (line, of its report and its Linted) with want; notOne
// says what a single report would have missed.
func lintObjects(t *testing.T, opt kubeletcfg.Options, notOne string, line func(r kubeletcfg.PathReport, l *kubeletcfg.Linted) string, want []string) {
	t.Helper()
	l, err := kubeletcfg.Lint(opt)
	if err != nil {
		t.Fatal(err)
	}
	paths, ok := l.Several.(*kubeletcfg.LintedPaths)
	if !ok {
		t.Fatalf(notOne, l.Several)
	}
	var got []string
	for i, r := range paths.Report.Reports {
		got = append(got, line(r, paths.Linted[i]))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("reports\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
