package talos

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/input/bootstrap"
)

// TestReleaseTrain: Options.Minor picks the Talos release whose default
// kubelet is that minor (constants.DefaultKubernetesVersion at each tag), the
// nearest with a note when none is, the newest stable one when no minor and no
// image name one.
func TestReleaseTrain(t *testing.T) {
	const worker = "version: v1alpha1\nmachine:\n  type: worker\ncluster:\n  network:\n    dnsDomain: cluster.local\n"
	const named137 = "version: v1alpha1\nmachine:\n  type: worker\n  kubelet:\n    image: ghcr.io/siderolabs/kubelet:v1.37.1\ncluster: {}\n"
	for _, tc := range []struct {
		minor, file, release, kubelet string
		nearest                       bool
	}{
		{minor: "", file: worker, release: "v1.13.9", kubelet: "kubelet v1.36.3 (Talos v1.13.9's default image)"},
		{minor: "", file: named137, release: "v1.14.0-rc.1", kubelet: "kubelet v1.37.1"},
		{minor: "1.36", file: worker, release: "v1.13.9", kubelet: "kubelet v1.36.3"},
		{minor: "1.37", file: worker, release: "v1.14.0-rc.1", kubelet: "kubelet v1.37.0-rc.0 (Talos v1.14.0-rc.1's default image)"},
		{minor: "1.31", file: worker, release: "v1.13.9", nearest: true},
		{minor: "1.35", file: worker, release: "v1.13.9", nearest: true},
		{minor: "1.38", file: worker, release: "v1.14.0-rc.1", nearest: true},
	} {
		t.Run(tc.minor+"/"+tc.release, func(t *testing.T) {
			out, err := Translate("mc.yaml", []byte(tc.file), bootstrap.Options{Minor: tc.minor})
			if err != nil {
				t.Fatal(err)
			}
			if out.Tool.Release != tc.release {
				t.Errorf("Tool.Release %s, want %s", out.Tool.Release, tc.release)
			}
			if !strings.Contains(out.Note, "as Talos "+tc.release+" writes them for "+tc.kubelet) {
				t.Errorf("note %q does not name Talos %s and %s", out.Note, tc.release, tc.kubelet)
			}
			if got := strings.Contains(out.Note, "is the nearest"); got != tc.nearest {
				t.Errorf("note %q: says nearest %v, want %v", out.Note, got, tc.nearest)
			}
			for _, f := range out.Findings {
				if !strings.HasPrefix(f.Message, "Talos "+tc.release+": ") {
					t.Errorf("finding does not name the release used: %s", f.Message)
				}
			}
		})
	}
	// the table says what the releases' constants say
	for _, r := range Releases {
		if !strings.HasPrefix(r.Kubernetes, r.Minor+".") {
			t.Errorf("%s: default kubelet %s is not of minor %s", r.Name, r.Kubernetes, r.Minor)
		}
	}
	if Tool.Release != "v1.13.9" {
		t.Errorf("default release %s, want the newest stable one, v1.13.9", Tool.Release)
	}
}

// TestStabilityConfigsV114 translates Talos v1.14.0-rc.1's stability machine
// configurations (v1alpha1 with KubeletConfig, KubeNodeConfig and
// KubeNetworkConfig documents, as talosctl gen config writes them at v1.14):
// at kubelet 1.37 (Talos v1.14) the documents give clusterDNS,
// clusterDomain, seccompDefault and the taints; at kubelet 1.36 (Talos
// v1.13.9) the same file is refused, its kinds unknown to that registry.
func TestStabilityConfigsV114(t *testing.T) {
	for _, tc := range []struct {
		file       string
		dns        []any
		domain     string
		taints     []any
		memory     string
		unknownV13 []string
	}{
		{file: "base-worker.yaml", dns: []any{"10.96.0.10"}, domain: "cluster.local", memory: "384Mi",
			unknownV13: []string{"DiscoveryServiceConfig", "KubeletConfig", "KubeNodeConfig", "KubeNetworkConfig"}},
		{file: "base-controlplane.yaml", dns: []any{"10.96.0.10"}, domain: "cluster.local", memory: "512Mi",
			taints:     []any{map[string]any{"key": "node-role.kubernetes.io/control-plane", "effect": "NoSchedule"}},
			unknownV13: []string{"KubeletConfig", "KubeAPIServerConfig"}},
		{file: "overrides-worker.yaml", dns: []any{"3.3.3.3"}, domain: "example.com", memory: "384Mi",
			unknownV13: []string{"KubeletConfig", "KubeNetworkConfig"}},
		// KubeNodeConfig without taints: the control plane's is not added
		{file: "overrides-controlplane.yaml", dns: []any{"3.3.3.3"}, domain: "example.com", memory: "512Mi",
			unknownV13: []string{"KubeletConfig", "UnattendedInstallConfig"}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			path := filepath.Join(fixtures, "stability", "v1.14", tc.file)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !Detect(path, data) {
				t.Fatal("not detected")
			}
			out, err := Translate(path, data, bootstrap.Options{Minor: "1.37"})
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range out.Findings {
				if f.Rule != bootstrap.AtBoot.ID {
					t.Errorf("unexpected finding %s %s", f.Rule, f.Message)
				}
			}
			if out.KubeletVersion != "1.28.0" {
				t.Errorf("KubeletVersion %q, want 1.28.0 (KubeletConfig image)", out.KubeletVersion)
			}
			got := generated(t, out)
			if !reflect.DeepEqual(got["clusterDNS"], tc.dns) || got["clusterDomain"] != tc.domain || got["seccompDefault"] != true {
				t.Errorf("clusterDNS %v clusterDomain %v seccompDefault %v, want %v %s true", got["clusterDNS"], got["clusterDomain"], got["seccompDefault"], tc.dns, tc.domain)
			}
			if !reflect.DeepEqual(got["registerWithTaints"], []any(tc.taints)) && (tc.taints != nil || got["registerWithTaints"] != nil) {
				t.Errorf("registerWithTaints %v, want %v", got["registerWithTaints"], tc.taints)
			}
			if _, ok := got["staticPodPath"]; ok {
				t.Errorf("staticPodPath %v: a KubeletConfig document turns the manifests directory off", got["staticPodPath"])
			}
			if got["systemReserved"].(map[string]any)["memory"] != tc.memory {
				t.Errorf("systemReserved %v", got["systemReserved"])
			}
			// positions point at the documents
			if p := out.Positions["clusterDomain"]; p.Line == 0 || !strings.Contains(lineOf(data, p.Line), "dnsDomain") {
				t.Errorf("clusterDomain at %v", p)
			}
			if p := out.Positions["seccompDefault"]; p.Line == 0 || !strings.Contains(lineOf(data, p.Line), "defaultRuntimeSeccompProfileEnabled") {
				t.Errorf("seccompDefault at %v", p)
			}

			old, err := Translate(path, data, bootstrap.Options{Minor: "1.36"})
			if err != nil {
				t.Fatal(err)
			}
			for _, kind := range tc.unknownV13 {
				if !slices.ContainsFunc(old.Findings, func(f finding.Finding) bool {
					return f.Rule == bootstrap.Refuses.ID && strings.Contains(f.Message, "Talos v1.13.9: error decoding document v1alpha1/"+kind+"/") &&
						strings.Contains(f.Message, `"`+kind+`" "v1alpha1": not registered`)
				}) {
					t.Errorf("Talos v1.13.9 does not refuse the %s document", kind)
				}
			}
		})
	}
}

func lineOf(data []byte, line int) string {
	lines := strings.Split(string(data), "\n")
	if line < 1 || line > len(lines) {
		return ""
	}
	return lines[line-1]
}
