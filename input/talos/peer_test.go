package talos

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	kubeletconfig "k8s.io/kubelet/config/v1beta1"
	"sigs.k8s.io/yaml"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/input/bootstrap"
)

const fixtures = "../../testdata/bootstrappers/talos"

// generated decodes the KubeletConfiguration the translation wrote.
func generated(t *testing.T, out *bootstrap.Output) map[string]any {
	t.Helper()
	if out.Config == nil {
		t.Fatal("no configuration written")
	}
	if out.Config.Path != "/etc/kubernetes/kubelet.yaml" {
		t.Errorf("config path %s, want /etc/kubernetes/kubelet.yaml", out.Config.Path)
	}
	var m map[string]any
	if err := yaml.Unmarshal(out.Config.Data, &m); err != nil {
		t.Fatalf("generated configuration: %v", err)
	}
	return m
}

// typed decodes a KubeletConfiguration document (JSON or YAML) strictly and
// encodes it again as JSON: two documents that mean the same configuration
// compare equal.
func typed(t *testing.T, data []byte) string {
	t.Helper()
	var c kubeletconfig.KubeletConfiguration
	if err := yaml.UnmarshalStrict(data, &c); err != nil {
		t.Fatalf("KubeletConfiguration: %v", err)
	}
	b, err := json.Marshal(&c)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func readCase(t *testing.T, dir, name string) ([]byte, bool) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if os.IsNotExist(err) {
		return nil, false
	}
	if err != nil {
		t.Fatal(err)
	}
	return b, true
}

func byRule(out *bootstrap.Output, rule string) []finding.Finding {
	var fs []finding.Finding
	for _, f := range out.Findings {
		if f.Rule == rule {
			fs = append(fs, f)
		}
	}
	return fs
}

// TestKubeletSpecPeerSuite runs the cases of Talos v1.13.9's
// internal/app/machined/pkg/controllers/k8s/kubelet_spec_test.go
// (testdata/bootstrappers/talos/kubelet_spec_test, ORIGIN.md) through the
// translator: the configuration Talos expects (semantically: both decoded
// into the v1beta1 type), the flags it expects, in order, and its refusals.
func TestKubeletSpecPeerSuite(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join(fixtures, "kubelet_spec_test", "*"))
	if err != nil || len(dirs) != 15 {
		t.Fatalf("want the 15 cases of kubelet_spec_test.go, have %d (%v)", len(dirs), err)
	}
	// the cases are the same at v1.14.0-rc.1 (kubelet_spec_test.go differs
	// in the cgroup constants' spelling and in the control plane's taint
	// coming through KubeletConfigSpec.RegisterWithTaints, which the
	// v1alpha1 shim fills from machine.type): each runs at every release.
	for _, rel := range Releases {
		for _, dir := range dirs {
			t.Run(rel.Name+"/"+filepath.Base(dir), func(t *testing.T) {
				path := filepath.Join(dir, "machineconfig.yaml")
				data, _ := readCase(t, dir, "machineconfig.yaml")
				if !Detect(path, data) {
					t.Fatal("not detected as a Talos machine configuration")
				}
				opt := bootstrap.Options{Minor: rel.Minor}
				if b, ok := readCase(t, dir, "set.json"); ok {
					if err := json.Unmarshal(b, &opt.Set); err != nil {
						t.Fatal(err)
					}
				}
				out, err := Translate(path, data, opt)
				if err != nil {
					t.Fatal(err)
				}
				if out.Tool.Release != rel.Name {
					t.Fatalf("Talos %s used for kubelet %s, want %s", out.Tool.Release, rel.Minor, rel.Name)
				}
				refused := byRule(out, bootstrap.Refuses.ID)
				if b, ok := readCase(t, dir, "expected-errors.txt"); ok {
					var want []string
					for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
						if !strings.HasPrefix(line, "#") {
							want = append(want, line)
						}
					}
					if len(refused) != len(want) {
						t.Errorf("%d KC9001 findings, want %d: %v", len(refused), len(want), refused)
					}
					for _, w := range want {
						if !slices.ContainsFunc(refused, func(f finding.Finding) bool { return strings.Contains(f.Message, w) }) {
							t.Errorf("no KC9001 finding says %q; have %v", w, refused)
						}
					}
					return
				}
				if len(refused) > 0 {
					t.Errorf("Talos accepts this case; KC9001: %v", refused)
				}
				if b, ok := readCase(t, dir, "expected-config.json"); ok {
					if got, want := typed(t, out.Config.Data), typed(t, b); got != want {
						t.Errorf("configuration differs from Talos's expectation\n got: %s\nwant: %s", got, want)
					}
				}
				if b, ok := readCase(t, dir, "expected-config-subset.json"); ok {
					var want map[string]any
					if err := json.Unmarshal(b, &want); err != nil {
						t.Fatal(err)
					}
					got := generated(t, out)
					for k, w := range want {
						if g := got[k]; !reflect.DeepEqual(g, w) && !(w == "" && g == nil) {
							t.Errorf("%s: got %#v, want %#v", k, g, w)
						}
					}
				}
				if b, ok := readCase(t, dir, "expected-flags.json"); ok {
					var want []string
					if err := json.Unmarshal(b, &want); err != nil {
						t.Fatal(err)
					}
					if !slices.Equal(out.Flags, want) {
						t.Errorf("flags\n got: %q\nwant: %q", out.Flags, want)
					}
				}
			})
		}
	}
}

// TestStabilityConfigs translates the machine configurations of Talos's
// v1alpha1 stability testdata (multi-document, as talosctl gen config writes
// them): Talos accepts them, and what it writes follows from their keys.
func TestStabilityConfigs(t *testing.T) {
	for _, tc := range []struct {
		file                 string
		memory               string
		controlPlaneTaint    bool
		domain               string
		seccomp, fsQuota     bool
		staticPodPathWritten bool
	}{
		{file: "base-worker.yaml", memory: "384Mi", domain: "cluster.local", seccomp: true, fsQuota: true},
		{file: "base-controlplane.yaml", memory: "512Mi", controlPlaneTaint: true, domain: "cluster.local", seccomp: true, fsQuota: true},
		{file: "overrides-worker.yaml", memory: "384Mi", domain: "example.com", seccomp: true, fsQuota: true},
		{file: "overrides-controlplane.yaml", memory: "512Mi", domain: "example.com", seccomp: true, fsQuota: true},
	} {
		t.Run(tc.file, func(t *testing.T) {
			path := filepath.Join(fixtures, "stability", tc.file)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !Detect(path, data) {
				t.Fatal("not detected")
			}
			out, err := Translate(path, data, bootstrap.Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range out.Findings {
				if f.Rule != bootstrap.AtBoot.ID {
					t.Errorf("unexpected finding %s %s", f.Rule, f.Message)
				}
			}
			if out.KubeletVersion != "1.28.0" {
				t.Errorf("KubeletVersion %q, want 1.28.0 (machine.kubelet.image)", out.KubeletVersion)
			}
			got := generated(t, out)
			if got["systemReserved"].(map[string]any)["memory"] != tc.memory {
				t.Errorf("systemReserved: %v", got["systemReserved"])
			}
			_, taint := got["registerWithTaints"]
			if taint != tc.controlPlaneTaint {
				t.Errorf("registerWithTaints %v, want present=%v", got["registerWithTaints"], tc.controlPlaneTaint)
			}
			if got["clusterDomain"] != tc.domain {
				t.Errorf("clusterDomain %v, want %s", got["clusterDomain"], tc.domain)
			}
			if (got["seccompDefault"] == true) != tc.seccomp {
				t.Errorf("seccompDefault %v", got["seccompDefault"])
			}
			if _, ok := got["staticPodPath"]; ok {
				t.Errorf("staticPodPath written though disableManifestsDirectory is true: %v", got["staticPodPath"])
			}
			if gates, _ := got["featureGates"].(map[string]any); (gates["LocalStorageCapacityIsolationFSQuotaMonitoring"] == true) != tc.fsQuota {
				t.Errorf("featureGates %v", got["featureGates"])
			}
			if !slices.Equal(out.Flags, []string{
				"--bootstrap-kubeconfig=/etc/kubernetes/bootstrap-kubeconfig",
				"--cert-dir=/var/lib/kubelet/pki",
				"--config=/etc/kubernetes/kubelet.yaml",
				"--kubeconfig=/etc/kubernetes/kubeconfig-kubelet",
			}) {
				t.Errorf("flags %q", out.Flags)
			}
			for _, p := range []string{"staticPodURL", "--hostname-override", "--node-ip"} {
				if _, ok := out.AtBoot[p]; !ok {
					t.Errorf("%s not AtBoot", p)
				}
			}
		})
	}
}

// TestDocsExample translates the machine.kubelet example of Talos's
// configuration reference (website/content/v1.13/.../v1alpha1/config.md).
func TestDocsExample(t *testing.T) {
	path := filepath.Join(fixtures, "docs", "kubelet-example.yaml")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !Detect(path, data) {
		t.Fatal("not detected")
	}
	out, err := Translate(path, data, bootstrap.Options{Set: map[string]string{"--hostname-override": "worker-1", "node-ip": "10.0.0.7"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range out.Findings {
		if f.Rule != bootstrap.AtBoot.ID || f.Path != "staticPodURL" {
			t.Errorf("finding on the reference's own example: %s %s", f.Rule, f.Message)
		}
	}
	want := []string{
		"--bootstrap-kubeconfig=/etc/kubernetes/bootstrap-kubeconfig",
		"--cert-dir=/var/lib/kubelet/pki",
		"--config=/etc/kubernetes/kubelet.yaml",
		"--feature-gates=ServerSideApply=true",
		"--hostname-override=worker-1",
		"--image-credential-provider-bin-dir=/usr/local/lib/kubelet/credentialproviders",
		"--image-credential-provider-config=/etc/kubernetes/kubelet-credentialproviderconfig.yaml",
		"--kubeconfig=/etc/kubernetes/kubeconfig-kubelet",
		"--node-ip=10.0.0.7",
	}
	if !slices.Equal(out.Flags, want) {
		t.Errorf("flags\n got: %q\nwant: %q", out.Flags, want)
	}
	got := generated(t, out)
	if !reflect.DeepEqual(got["clusterDNS"], []any{"10.96.0.10", "169.254.2.53"}) || got["serverTLSBootstrap"] != true {
		t.Errorf("clusterDNS %v serverTLSBootstrap %v", got["clusterDNS"], got["serverTLSBootstrap"])
	}
	if _, ok := out.AtBoot["--node-ip"]; ok {
		t.Error("--node-ip given by Set is still AtBoot")
	}
	if out.KubeletVersion != "1.36.3" {
		t.Errorf("KubeletVersion %q", out.KubeletVersion)
	}
	// the user's flag points at its value
	i := slices.Index(out.Flags, "--feature-gates=ServerSideApply=true")
	if p := out.FlagPositions[i]; p.Line != 10 || p.Column != 28 {
		t.Errorf("--feature-gates at %v, want line 10 column 28", p)
	}
}
