package nodeadm

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/input/bootstrap"
)

// cases is nodeadm's own e2e suite (nodeadm/test/e2e/cases at v20260724,
// copied to testdata/bootstrappers/nodeadm/cases, ORIGIN.md): each run.sh
// mocks the kubelet version (mock::kubelet, here Minor) and the instance
// (mock::aws: IMDS from infra/aemm-default-config.json, an m4.xlarge
// i-1234567890abcdef0 in us-west-2f; two CPUs from infra/mock/cpu), whose
// values only the instance knows are passed as Set: maxPods from the
// instance type (58 for m4.xlarge, 110 for mock-type.large, the
// maxPodsExpression's result), kubeReserved[cpu] 70m for two CPUs and the
// providerID. kubeReserved[memory] is not given: the translation computes it
// from maxPods as nodeadm does.
const casesDir = "../../testdata/bootstrappers/nodeadm/cases"

func instance(maxPods string) map[string]string {
	return map[string]string{
		"maxPods":           maxPods,
		"kubeReserved[cpu]": "70m",
		"providerID":        "aws:///us-west-2f/i-1234567890abcdef0",
	}
}

func TestPeerCases(t *testing.T) {
	tests := []struct {
		name, config, minor, maxPods, expected, dropIn string
	}{
		{"kubelet-config-dir/json", "kubelet-config-dir/config.kubelet-config-json.yaml", "1.29", "58",
			"kubelet-config-dir/expected-kubelet-config.json", "kubelet-config-dir/expected-kubelet-config-drop-in.json"},
		{"kubelet-config-dir/yaml", "kubelet-config-dir/config.kubelet-config-yaml.yaml", "1.29", "58",
			"kubelet-config-dir/expected-kubelet-config.json", "kubelet-config-dir/expected-kubelet-config-drop-in.json"},
		{"kubelet-config-new-instance-type", "kubelet-config-new-instance-type/config.kubelet-config-json.yaml", "1.35", "110",
			"kubelet-config-new-instance-type/expected-kubelet-config.json", "kubelet-config-new-instance-type/expected-kubelet-config-drop-in.json"},
		{"kubelet-config-set-empty", "kubelet-config-set-empty/config.yaml", "1.35", "58",
			"kubelet-config-set-empty/expected-kubelet-config.json", "kubelet-config-set-empty/expected-kubelet-config-drop-in.json"},
		{"mime-userdata-merge", "mime-userdata-merge/config.yaml", "1.35", "58",
			"mime-userdata-merge/expected-kubelet-config.json", "mime-userdata-merge/expected-kubelet-config-drop-in.json"},
		// ((default_enis -1) * (ips_per_eni - 1)) + 2 for an m4.xlarge (4 ENIs, 15 IPs each).
		{"custom-max-pods-expression/custom-networking", "custom-max-pods-expression/scenarios/custom-networking/config.yaml", "1.32", "44",
			"custom-max-pods-expression/scenarios/custom-networking/expected.json", ""},
		// max_pods + 2; run.sh's drop-in check never runs (it looks for the file
		// under the scenario folder), but its expected-dropin.json is checked here.
		{"custom-max-pods-expression/kubelet-config-max-pods", "custom-max-pods-expression/scenarios/kubelet-config-max-pods/config.yaml", "1.32", "60",
			"custom-max-pods-expression/scenarios/kubelet-config-max-pods/expected.json", "custom-max-pods-expression/scenarios/kubelet-config-max-pods/expected-dropin.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := translateCase(t, tt.config, bootstrap.Options{Minor: tt.minor, Set: instance(tt.maxPods)})
			for _, f := range out.Findings {
				if f.Rule == bootstrap.Refuses.ID || f.Rule == bootstrap.Drops.ID || f.Rule == bootstrap.Overrides.ID {
					t.Errorf("unexpected finding %s %s: %s", f.Rule, f.Position, f.Message)
				}
			}
			if out.Config == nil || out.Config.Path != "/etc/kubernetes/kubelet/config.json" {
				t.Fatalf("config: %+v", out.Config)
			}
			jsonEqual(t, "config.json", out.Config.Data, readCase(t, tt.expected))
			if tt.dropIn == "" {
				if len(out.DropIns) != 0 || out.ConfigDir != "" {
					t.Errorf("no spec.kubelet.config, yet drop-ins %v in %q", out.DropIns, out.ConfigDir)
				}
				return
			}
			if out.ConfigDir != "/etc/kubernetes/kubelet/config.json.d" || len(out.DropIns) != 1 || out.DropIns[0].Path != "/etc/kubernetes/kubelet/config.json.d/40-nodeadm.conf" {
				t.Fatalf("drop-ins %+v in %q", out.DropIns, out.ConfigDir)
			}
			jsonEqual(t, "40-nodeadm.conf", out.DropIns[0].Data, readCase(t, tt.dropIn))
		})
	}
}

// TestPeerKubeletFlags is cases/kubelet-flags: the user's flags come last,
// in order, and with featureGates InstanceIdNodeName the node is named by its
// instance ID (run.sh greps --hostname-override=i-1234567890abcdef0).
func TestPeerKubeletFlags(t *testing.T) {
	out := translateCase(t, "kubelet-flags/config.yaml", bootstrap.Options{Minor: "1.35"})
	n := len(out.Flags)
	if n < 3 || strings.Join(out.Flags[n-3:], " ") != "--v=5 --node-labels=foo=bar,foo2=baz --register-with-taints=foo=bar:NoSchedule" {
		t.Errorf("flags %q: want the user's three last, in order", out.Flags)
	}
	hostname := findingWith(out, bootstrap.AtBoot.ID, "--hostname-override")
	if hostname == nil || !strings.Contains(hostname.Message, "instance ID") {
		t.Errorf("hostname-override at boot: %+v, want the instance ID (InstanceIdNodeName)", hostname)
	}
	set := translateCase(t, "kubelet-flags/config.yaml", bootstrap.Options{Minor: "1.35", Set: map[string]string{"hostname-override": "i-1234567890abcdef0"}})
	if !contains(set.Flags, "--hostname-override=i-1234567890abcdef0") {
		t.Errorf("flags %q: want --hostname-override=i-1234567890abcdef0", set.Flags)
	}
	if findingWith(set, bootstrap.AtBoot.ID, "--hostname-override") != nil {
		t.Errorf("a hostname given with --set is still reported at boot")
	}
	// kubelet-set-empty's run.sh: without the gate, the private DNS name.
	dns := translateCase(t, "kubelet-config-set-empty/config.yaml", bootstrap.Options{Minor: "1.35"})
	if f := findingWith(dns, bootstrap.AtBoot.ID, "--hostname-override"); f == nil || !strings.Contains(f.Message, "private DNS name") {
		t.Errorf("hostname-override without InstanceIdNodeName: %+v", f)
	}
}

// TestPeerKubeletVersion is cases/kubelet-version (kubelet 1.35): config.json
// has neither kubeAPIQPS nor kubeAPIBurst.
func TestPeerKubeletVersion(t *testing.T) {
	out := translateCase(t, "kubelet-version/config.yaml", bootstrap.Options{Minor: "1.35"})
	for _, k := range []string{`"kubeAPIQPS"`, `"kubeAPIBurst"`} {
		if strings.Contains(string(out.Config.Data), k) {
			t.Errorf("config.json has %s", k)
		}
	}
}

// TestPeerPodInfraContainer is cases/pod-infra-container: no
// --pod-infra-container-image flag (gone from the kubelet in 1.35).
func TestPeerPodInfraContainer(t *testing.T) {
	out := translateCase(t, "pod-infra-container/config.yaml", bootstrap.Options{Minor: "1.35"})
	for _, f := range out.Flags {
		if strings.Contains(f, "pod-infra-container-image") {
			t.Errorf("flag %s", f)
		}
	}
}

// TestPeerConfigCheck is cases/config-check (nodeadm config check): the good
// file passes, the bad one (cluster.name misspelled name-not-real) fails
// validation: the misspelled key is dropped, then the name is missing.
func TestPeerConfigCheck(t *testing.T) {
	good := translateCase(t, "config-check/config-good.yaml", bootstrap.Options{Minor: "1.31"})
	if f := findingWith(good, bootstrap.Refuses.ID, ""); f != nil {
		t.Errorf("good config refused: %s", f.Message)
	}
	bad := translateCase(t, "config-check/config-bad.yaml", bootstrap.Options{Minor: "1.31"})
	drop := findingWith(bad, bootstrap.Drops.ID, `"spec.cluster.name-not-real"`)
	if drop == nil || drop.Line != 6 || drop.Column != 5 {
		t.Errorf("drop of name-not-real: %+v, want at 6:5", drop)
	}
	refuse := findingWith(bad, bootstrap.Refuses.ID, "Name is missing in cluster configuration")
	if refuse == nil || refuse.Line != 5 || refuse.Column != 3 {
		t.Errorf("refusal: %+v, want at spec.cluster (5:3)", refuse)
	}
}

func translateCase(t *testing.T, name string, opt bootstrap.Options) *bootstrap.Output {
	t.Helper()
	path := filepath.Join(casesDir, name)
	data := readCase(t, name)
	if !Detect(path, data) {
		t.Fatalf("Detect(%s) = false", name)
	}
	out, err := Translate(path, data, opt)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func readCase(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(casesDir, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func jsonEqual(t *testing.T, what string, got, want []byte) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("%s: %v\n%s", what, err, got)
	}
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatalf("%s (expected): %v", what, err)
	}
	if !reflect.DeepEqual(g, w) {
		gs, _ := json.MarshalIndent(g, "", "  ")
		ws, _ := json.MarshalIndent(w, "", "  ")
		t.Errorf("%s differs from nodeadm's:\ngot  %s\nwant %s", what, gs, ws)
	}
}
