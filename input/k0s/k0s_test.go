package k0s

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	sigsyaml "sigs.k8s.io/yaml"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/input/bootstrap"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/rule"
)

const header = "apiVersion: k0s.k0sproject.io/v1beta1\nkind: ClusterConfig\nspec:\n  workerProfiles:\n"

// profileDoc is a ClusterConfig with one profile "p" whose values are the
// given YAML lines (indented under values, from line 7).
func profileDoc(values ...string) string {
	doc := header + "  - name: p\n    values:\n"
	for _, v := range values {
		doc += "      " + v + "\n"
	}
	return doc
}

func translateDoc(t *testing.T, doc string, opt bootstrap.Options) *bootstrap.Output {
	t.Helper()
	out, err := Translate("k0s.yaml", []byte(doc), opt)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func config(t *testing.T, out *bootstrap.Output) map[string]any {
	t.Helper()
	var cfg map[string]any
	if err := sigsyaml.Unmarshal(out.Config.Data, &cfg); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestFindings has a failing and a passing case of every finding k0s's
// translation emits.
func TestFindings(t *testing.T) {
	// A map field kubelet 1.36 does not have and a newer one does.
	var newer string
	for _, name := range kubelets.Newest().Fields().ChildNames() {
		if m, _ := kubelets.Lookup("1.36"); m.Fields().AtExact(name) == nil && kubelets.Newest().Fields().AtExact(name).Kind == kubelets.Map {
			newer = name
			break
		}
	}
	if newer == "" {
		t.Fatal("no field newer than 1.36")
	}
	tests := []struct {
		name  string
		doc   string
		minor string
		rule  *rule.Rule // nil: none of Refuses, Overrides, Drops
		path  string
		line  int
		col   int
		text  string
	}{
		{"unknown entry key", header + "  - name: p\n    value:\n      maxPods: 10\n", "", bootstrap.Refuses, "", 6, 5, `error unmarshaling JSON: while decoding JSON: json: unknown field "value" (spec.workerProfiles[0].value: WorkerProfile has no such field`},
		// k0s decodes the whole ClusterConfig strictly (ClusterConfig.UnmarshalJSON).
		{"top-level typo", "apiVersion: k0s.k0sproject.io/v1beta1\nkind: ClusterConfig\nspc: {}\n", "", bootstrap.Refuses, "", 3, 1, `error unmarshaling JSON: while decoding JSON: json: unknown field "spc"`},
		{"spec typo", "kind: ClusterConfig\nspec:\n  netwrok:\n    serviceCIDR: 10.96.0.0/12\n", "", bootstrap.Refuses, "", 3, 3, `json: unknown field "netwrok" (spec.netwrok: ClusterSpec has no such field`},
		{"spec key", "kind: ClusterConfig\nspec:\n  network:\n    serviceCIDR: 10.96.0.0/12\n", "", nil, "", 0, 0, ""},
		{"spec key in another case", "kind: ClusterConfig\nspec:\n  Network:\n    serviceCIDR: 10.96.0.0/12\n", "", nil, "", 0, 0, ""},
		{"metadata typo", "kind: ClusterConfig\nmetadata:\n  nmae: k0s\n", "", bootstrap.Refuses, "", 3, 3, `json: unknown field "nmae" (metadata.nmae: ObjectMeta has no such field`},
		{"metadata keys", "kind: ClusterConfig\nmetadata:\n  name: k0s\n  labels:\n    any-key: x\n", "", nil, "", 0, 0, ""},
		{"nested strict typo", "kind: ClusterConfig\nspec:\n  extensions:\n    helm:\n      charts:\n      - name: a\n        chartnme: b\n", "", bootstrap.Refuses, "", 7, 9, `json: unknown field "chartnme" (spec.extensions.helm.charts[0].chartnme: Chart has no such field`},
		{"nested strict key", "kind: ClusterConfig\nspec:\n  extensions:\n    helm:\n      charts:\n      - name: a\n        chartname: b\n", "", nil, "", 0, 0, ""},
		{"free-form map", "kind: ClusterConfig\nspec:\n  controllerManager:\n    extraArgs:\n      anything-goes: x\n", "", nil, "", 0, 0, ""},
		// Network, APISpec, Calico (...) have an UnmarshalJSON that decodes
		// with json.Unmarshal: their unknown keys are dropped, not refused.
		{"calico typo", "kind: ClusterConfig\nspec:\n  network:\n    provider: calico\n    calico:\n      mtuu: 1400\n", "", bootstrap.Drops, "", 6, 7, "k0s drops spec.network.calico.mtuu: Calico has no such field, and k0s decodes spec.network with json.Unmarshal"},
		{"calico key", "kind: ClusterConfig\nspec:\n  network:\n    provider: calico\n    calico:\n      mtu: 1400\n", "", nil, "", 0, 0, ""},
		{"api typo", "kind: ClusterConfig\nspec:\n  api:\n    adress: 10.0.0.1\n", "", bootstrap.Drops, "", 4, 5, "k0s drops spec.api.adress: APISpec has no such field, and k0s decodes spec.api with json.Unmarshal"},
		{"api key", "kind: ClusterConfig\nspec:\n  api:\n    address: 10.0.0.1\n    extraArgs:\n      anything-goes: x\n", "", nil, "", 0, 0, ""},
		// k0s ignores the unknown-field error of podSecurityPolicy, and panics
		// on interval's (internal/pkg/strictyaml YamlUnmarshalStrictIgnoringFields).
		{"ignored name", "kind: ClusterConfig\nspec:\n  podSecurityPolicy:\n    type: 00-k0s-privileged\n", "", bootstrap.Drops, "", 3, 3, "k0s drops spec.podSecurityPolicy: ClusterSpec has no such field, and k0s ignores the unknown-field error of a key named podSecurityPolicy"},
		{"name k0s panics on", "kind: ClusterConfig\nspec:\n  telemetry:\n    interval: 10m\n", "", bootstrap.Refuses, "", 4, 5, `k0s panics reading the ClusterConfig (runtime error: invalid memory address or nil pointer dereference): its decoding error, json: unknown field "interval"`},
		{"not an ignored name", "kind: ClusterConfig\nspec:\n  telemetry:\n    intervall: 10m\n", "", bootstrap.Refuses, "", 4, 5, `json: unknown field "intervall"`},
		{"entry keys", header + "  - name: p\n    values:\n      maxPods: 10\n", "", nil, "", 0, 0, ""},
		{"invalid name", header + "  - name: Big\n    values: {}\n", "", bootstrap.Refuses, "", 5, 11, `workerProfiles[0].name: Invalid value: "Big"`},
		{"valid name", header + "  - name: big\n    values: {}\n", "", nil, "", 0, 0, ""},
		{"no values", header + "  - name: p\n", "", bootstrap.Refuses, "", 5, 5, "nil pointer dereference"},
		{"null values", header + "  - name: p\n    values: null\n", "", bootstrap.Refuses, "", 6, 5, "nil pointer dereference"},
		{"forbidden", profileDoc("clusterDomain: example.org"), "", bootstrap.Refuses, "clusterDomain", 7, 7, "workerProfiles[0].values.clusterDomain: Forbidden: may not be used in k0s worker profiles"},
		{"wrong type", profileDoc("evictionHard:", "  memory.available: 1Gi", "maxPods: ten"), "", bootstrap.Refuses, "maxPods", 9, 7, "cannot unmarshal string into Go struct field KubeletConfiguration.maxPods of type int32"},
		{"right type", profileDoc("maxPods: 10"), "", nil, "", 0, 0, ""},
		{"null clusterDNS", profileDoc("clusterDNS: null"), "", nil, "", 0, 0, ""},
		{"empty clusterDNS", profileDoc("clusterDNS: []"), "", bootstrap.Refuses, "clusterDNS", 7, 7, "clusterDNS: Forbidden"},
		{"runtime endpoint", profileDoc("containerRuntimeEndpoint: unix:///run/containerd/containerd.sock"), "", bootstrap.Overrides, "containerRuntimeEndpoint", 7, 7, "k0s replaces containerRuntimeEndpoint"},
		{"client CA", profileDoc("authentication:", "  x509:", "    clientCAFile: /etc/ca.crt"), "", bootstrap.Overrides, "authentication.x509.clientCAFile", 9, 11, "k0s replaces authentication.x509.clientCAFile"},
		{"misspelled", profileDoc("maxPod: 10"), "", bootstrap.Drops, "maxPod", 7, 7, "k0s drops spec.workerProfiles[0].values.maxPod"},
		{"misspelled below", profileDoc("authentication:", "  anonymus:", "    enabled: true"), "", bootstrap.Drops, "authentication.anonymus", 8, 9, "k0s drops spec.workerProfiles[0].values.authentication.anonymus"},
		{"case-insensitive", profileDoc("MaxPods: 10"), "", nil, "", 0, 0, ""},
		{"newer field at 1.36", profileDoc(newer + ": {}"), "1.36", bootstrap.Drops, newer, 7, 7, "the field comes with kubelet"},
		{"newer field at its minor", profileDoc(newer + ": {}"), kubelets.Newest().Version, nil, "", 0, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := translateDoc(t, tt.doc, bootstrap.Options{Minor: tt.minor})
			var got []finding.Finding
			for _, f := range out.Findings {
				if f.Rule != bootstrap.AtBoot.ID {
					got = append(got, f)
				}
			}
			if tt.rule == nil {
				if len(got) != 0 {
					t.Errorf("findings %+v, want none", got)
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("findings %+v, want one %s", got, tt.rule.ID)
			}
			f := got[0]
			if f.Rule != tt.rule.ID || f.Path != tt.path || f.Line != tt.line || f.Column != tt.col || f.File != "k0s.yaml" {
				t.Errorf("got %s %q at %s, want %s %q at k0s.yaml:%d:%d", f.Rule, f.Path, f.Position, tt.rule.ID, tt.path, tt.line, tt.col)
			}
			if !strings.Contains(f.Message, tt.text) || !strings.Contains(f.Message, Release) || f.Hint == "" {
				t.Errorf("message %q (hint %q) lacks %q or the release", f.Message, f.Hint, tt.text)
			}
			if want := tt.rule.Severity; f.Severity != want {
				t.Errorf("severity %v, want %v", f.Severity, want)
			}
		})
	}
}

func TestMisspelledHint(t *testing.T) {
	out := translateDoc(t, profileDoc("evictionHardd:", "  memory.available: 100Mi"), bootstrap.Options{})
	for _, f := range out.Findings {
		if f.Rule == bootstrap.Drops.ID {
			if f.Hint != "Did you mean evictionHard?" {
				t.Errorf("hint %q", f.Hint)
			}
			return
		}
	}
	t.Fatal("no KC9003")
}

// TestPositions: every value the user wrote maps to its key's line:column in
// k0s.yaml, by the path the kubelet spells; k0s's own values to the keys of
// spec they come from.
func TestPositions(t *testing.T) {
	doc := `apiVersion: k0s.k0sproject.io/v1beta1
kind: ClusterConfig
spec:
  network:
    serviceCIDR: 10.100.0.0/16
  featureGates:
    - name: NodeSwap
      enabled: true
  workerProfiles:
    - name: first
      values:
        MaxPods: 58
        evictionHard:
          memory.available: 500Mi
        allowedUnsafeSysctls:
          - net.core.somaxconn
        maxPod: 1
`
	out := translateDoc(t, doc, bootstrap.Options{})
	want := map[string]string{
		"maxPods":                        "12:9",
		"evictionHard":                   "13:9",
		"evictionHard[memory.available]": "14:11",
		"allowedUnsafeSysctls[0]":        "16:13",
		"clusterDNS":                     "5:5",
		"featureGates[NodeSwap]":         "7:7",
	}
	for path, at := range want {
		p, ok := out.Positions[path]
		if got := fmt.Sprintf("%d:%d", p.Line, p.Column); !ok || got != at || p.File != "k0s.yaml" {
			t.Errorf("Positions[%s] = %v, want k0s.yaml:%s", path, p, at)
		}
	}
	if out.Anchor.Line != 10 {
		t.Errorf("anchor %v, want the profile's name (line 10)", out.Anchor)
	}
	cfg := config(t, out)
	if cfg["maxPods"] != float64(58) || cfg["clusterDNS"].([]any)[0] != "10.100.0.10" || cfg["featureGates"].(map[string]any)["NodeSwap"] != true {
		t.Errorf("config: maxPods %v clusterDNS %v featureGates %v", cfg["maxPods"], cfg["clusterDNS"], cfg["featureGates"])
	}
	for _, f := range out.Findings {
		if f.Rule == bootstrap.Drops.ID && (f.Line != 17 || f.Column != 9) {
			t.Errorf("KC9003 at %s, want k0s.yaml:17:9 (maxPod)", f.Position)
		}
	}
}

// TestOutput: the file and arguments of a worker started with the profile,
// the values known at boot, --set.
func TestOutput(t *testing.T) {
	doc := header + "  - name: p\n    values:\n      featureGates: {B: false}\n  featureGates:\n  - {name: A, enabled: true}\n  - {name: B, enabled: true, components: [kubelet]}\n  - {name: C, enabled: true, components: [kube-apiserver]}\n"
	out := translateDoc(t, doc, bootstrap.Options{Set: map[string]string{"resolvConf": "/run/systemd/resolve/resolv.conf"}})
	if out.Config.Path != "/run/k0s/kubelet/config.yaml" || out.Tool.Name != "k0s" {
		t.Errorf("config at %s by %s", out.Config.Path, out.Tool.Name)
	}
	wantFlags := "--cert-dir=/var/lib/k0s/kubelet/pki --containerd=/run/k0s/containerd.sock --kubeconfig=/var/lib/k0s/kubelet.conf " +
		"--root-dir=/var/lib/k0s/kubelet --runtime-cgroups=/system.slice/containerd.service --v=1"
	if got := strings.Join(out.Flags, " "); got != wantFlags {
		t.Errorf("flags %s\nwant %s", got, wantFlags)
	}
	if len(out.FlagPositions) != len(out.Flags) || len(out.FlagNotes) != len(out.Flags) {
		t.Errorf("%d flags, %d positions, %d notes", len(out.Flags), len(out.FlagPositions), len(out.FlagNotes))
	}
	cfg := config(t, out)
	gates, _ := json.Marshal(cfg["featureGates"])
	if string(gates) != `{"A":true,"B":false}` {
		t.Errorf("featureGates %s, want spec's A and B, the profile's B winning, not the apiserver's C", gates)
	}
	if cfg["resolvConf"] != "/run/systemd/resolve/resolv.conf" || cfg["containerRuntimeEndpoint"] != "unix:///run/k0s/containerd.sock" {
		t.Errorf("resolvConf %v containerRuntimeEndpoint %v", cfg["resolvConf"], cfg["containerRuntimeEndpoint"])
	}
	if _, ok := cfg["staticPodURL"]; ok {
		t.Error("staticPodURL without node-local load balancing")
	}
	x509, _ := json.Marshal(cfg["authentication"].(map[string]any)["x509"])
	if string(x509) != "{}" {
		t.Errorf("x509 %s: the client CA is known at boot only", x509)
	}
	for _, p := range []string{"resolvConf", "authentication.x509.clientCAFile"} {
		if out.AtBoot[p] == "" {
			t.Errorf("AtBoot[%s] missing", p)
		}
	}
	var atBoot []string
	for _, f := range out.Findings {
		if f.Rule == bootstrap.AtBoot.ID {
			atBoot = append(atBoot, f.Path)
		}
	}
	if strings.Join(atBoot, ",") != "authentication.x509.clientCAFile" || !strings.HasPrefix(out.Notes["resolvConf"], "given with --set") {
		t.Errorf("KC9004 on %v", atBoot)
	}

	// The user's resolvConf is kept (writeKubeletConfig sets it only when
	// nil): no longer a value known at boot. Node-local load balancing:
	// staticPodURL at boot, the load balancer's kubeconfig.
	nllb := strings.Replace(profileDoc("resolvConf: /etc/k0s/resolv.conf"), "spec:\n", "spec:\n  network:\n    nodeLocalLoadBalancing: {enabled: true}\n", 1)
	out = translateDoc(t, nllb, bootstrap.Options{})
	if _, ok := out.AtBoot["resolvConf"]; ok || out.AtBoot["staticPodURL"] == "" {
		t.Errorf("AtBoot %v", out.AtBoot)
	}
	if config(t, out)["resolvConf"] != "/etc/k0s/resolv.conf" || !strings.Contains(strings.Join(out.Flags, " "), "--kubeconfig=/run/k0s/nllb/kubeconfig.yaml") {
		t.Errorf("resolvConf %v, flags %v", config(t, out)["resolvConf"], out.Flags)
	}
}

// TestProfileSelection: Translate takes the first profile, else "default";
// profiles of one name merge in order; an unknown name is an error.
func TestProfileSelection(t *testing.T) {
	doc := header + "  - name: a\n    values: {maxPods: 10, evictionHard: {memory.available: 1Gi}}\n  - name: b\n    values: {maxPods: 20}\n  - name: a\n    values: {maxPods: 30, evictionHard: {nodefs.available: 5%}}\n"
	names, err := Profiles([]byte(doc))
	if err != nil || strings.Join(names, ",") != "a,b,default" {
		t.Fatalf("Profiles = %v, %v", names, err)
	}
	if got := strings.Join(Objects([]byte(doc), ""), ","); got != "WorkerProfile/a,WorkerProfile/b,WorkerProfile/default" {
		t.Errorf("Objects = %s", got)
	}
	if got := strings.Join(Objects([]byte(doc), kubelets.Windows), ","); got != "WorkerProfile/a,WorkerProfile/b,WorkerProfile/default-windows" {
		t.Errorf("Objects on Windows = %s", got)
	}
	// The object name and the bare name (k0s worker --profile) read one profile.
	for _, object := range []string{"WorkerProfile/b", "b"} {
		out := translateDoc(t, doc, bootstrap.Options{Object: object})
		if got := config(t, out)["maxPods"]; got != float64(20) {
			t.Errorf("Object %s: maxPods %v, want 20", object, got)
		}
	}
	out := translateDoc(t, doc, bootstrap.Options{})
	eh, _ := json.Marshal(config(t, out)["evictionHard"])
	if config(t, out)["maxPods"] != float64(30) || string(eh) != `{"memory.available":"1Gi","nodefs.available":"5%"}` {
		t.Errorf("a: maxPods %v evictionHard %s", config(t, out)["maxPods"], eh)
	}
	for name, want := range map[string]any{"b": float64(20), "default": nil} {
		out, err := TranslateProfile("k0s.yaml", []byte(doc), name, bootstrap.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := config(t, out)["maxPods"]; got != want {
			t.Errorf("%s: maxPods %v, want %v", name, got, want)
		}
	}
	win, err := TranslateProfile("k0s.yaml", []byte(doc), WindowsProfile, bootstrap.Options{})
	if err != nil || config(t, win)["cgroupsPerQOS"] != false {
		t.Errorf("default-windows: %v", err)
	}
	if _, err := TranslateProfile("k0s.yaml", []byte(doc), "c", bootstrap.Options{}); err == nil ||
		err.Error() != `k0s.yaml: no worker profile "c" in spec.workerProfiles (profiles: a, b, default)` {
		t.Errorf("error %v", err)
	}
	out = translateDoc(t, "apiVersion: k0s.k0sproject.io/v1beta1\nkind: ClusterConfig\n", bootstrap.Options{})
	if !strings.Contains(out.Note, `worker profile "default"`) || config(t, out)["clusterDomain"] != "cluster.local" {
		t.Errorf("no profiles: %s", out.Note)
	}
}

func TestDetectAndErrors(t *testing.T) {
	for doc, want := range map[string]bool{
		"apiVersion: k0s.k0sproject.io/v1beta1\nkind: ClusterConfig\n":            true,
		"apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n": false,
		"apiVersion: k0s.k0sproject.io/v1beta1\nkind: Chart\n":                    false,
		"apiVersion: k0sctl.k0sproject.io/v1beta1\nkind: Cluster\n":               false,
		"{{ not yaml": false,
		"- a\n":       false,
		"apiVersion: k0s.k0sproject.io/v1beta1\nkind: ClusterConfig\nspec:\n  workerProfiles: [{name: a}]": true,
		// k0sctl's smoke test writes the kind in lower case; k0s checks no kind.
		"apiVersion: k0s.k0sproject.io/v1beta1\nkind: clusterconfig\n": true,
	} {
		if got := Detect("k0s.yaml", []byte(doc)); got != want {
			t.Errorf("Detect(%q) = %v", doc, got)
		}
	}
	// --input-format k0s: ConfigFromBytes decodes any YAML map over the
	// defaults and checks neither apiVersion nor kind.
	for doc, want := range map[string]bool{
		"apiVersion: k0s.k0sproject.io/v1beta1\nkind: Cluster\nspec: {}\n": true,
		"spec:\n  workerProfiles: [{name: a, values: {maxPods: 50}}]\n":    true,
		"- a\n":   false,
		"a: [\n":  false,
		"plain\n": false,
	} {
		if got := Accepts("k0s.yaml", []byte(doc)); got != want {
			t.Errorf("Accepts(%q) = %v", doc, got)
		}
		if want {
			if _, err := Translate("k0s.yaml", []byte(doc), bootstrap.Options{}); err != nil {
				t.Errorf("Translate(%q): %v, want no error (k0s reads it)", doc, err)
			}
		}
	}
	for doc, want := range map[string]string{
		"a: [":                                 "k0s.yaml: yaml: ",
		profileDoc("maxPods: 1", "maxPods: 2"): `k0s.yaml: k0s refuses the ClusterConfig: yaml: unmarshal errors: line 8: key "maxPods" already set in map`,
		"- a\n":                                "k0s.yaml: not a k0s ClusterConfig",
		header + "  - [a]\n":                   "k0s.yaml:5:5: spec.workerProfiles[0]: k0s cannot decode",
		"apiVersion: k0s.k0sproject.io/v1beta1\nkind: ClusterConfig\nspec:\n  network:\n    serviceCIDR: nope\n": `k0s.yaml: k0s: spec.network: failed to parse service CIDR "nope"`,
	} {
		_, err := Translate("k0s.yaml", []byte(doc), bootstrap.Options{})
		if err == nil || !strings.HasPrefix(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("Translate(%q): %v, want %q...", doc, err, want)
		}
	}
}

// TestWindowsProfile: the default-windows profile is a Windows node's, and a
// Windows worker without --profile loads it; a Linux worker's profile says no OS.
func TestWindowsProfile(t *testing.T) {
	file := "apiVersion: k0s.k0sproject.io/v1beta1\nkind: ClusterConfig\nspec:\n  workerProfiles:\n  - name: custom\n    values:\n      maxPods: 50\n"
	tests := []struct {
		name, profile string
		os            kubelets.OS
		want          kubelets.OS
	}{
		{"the file's first profile", "", "", ""},
		{"default-windows named", WindowsProfile, "", kubelets.Windows},
		{"a Windows worker without --profile", "", kubelets.Windows, kubelets.Windows},
		{"a Windows worker with --profile custom", "custom", kubelets.Windows, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := TranslateProfile("k0s.yaml", []byte(file), tt.profile, bootstrap.Options{OS: tt.os})
			if err != nil {
				t.Fatal(err)
			}
			if out.OS != tt.want {
				t.Errorf("OS %q, want %q", out.OS, tt.want)
			}
		})
	}
}
