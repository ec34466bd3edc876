package input

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
	"github.com/kubeletcfg/kubeletcfg/source"
	"github.com/kubeletcfg/kubeletcfg/validate"
)

const mkProfileJSON = `{
	"Name": "dev",
	"Driver": "docker",
	"KubernetesConfig": {
		"KubernetesVersion": "v1.34.1",
		"DNSDomain": "dev.local",
		"ContainerRuntime": "containerd",
		"ServiceCIDR": "10.100.0.0/16",
		"ExtraOptions": [
			{
				"Component": "kubelet",
				"Key": "max-pods",
				"Value": "-1"
			},
			{
				"Component": "kubelet",
				"Key": "runtime-request-timeout",
				"Value": "10m"
			}
		]
	},
	"Nodes": [
		{
			"Name": "",
			"IP": "192.168.49.2",
			"ControlPlane": true
		}
	]
}
`

func TestMinikubeProfile(t *testing.T) {
	for _, tt := range []struct {
		name, data string
		format     Format
		opt        Options
		err        string
		// the converted document must contain
		has string
		// a flag of the command line
		flag string
		// a rule whose finding must be at line:column
		rule, path   string
		line, column int
	}{
		{name: "extra-config flag, finding at its Key", data: mkProfileJSON, format: Auto,
			has: "clusterDNS:\n- 10.100.0.10\nclusterDomain: dev.local\n", flag: "--max-pods=-1",
			rule: "KC4025", path: "maxPods", line: 12, column: 5},
		{name: "config-file key from extra-config", data: mkProfileJSON, format: Minikube,
			has: "runtimeRequestTimeout: 10m0s\n", flag: "--hostname-override=dev"},
		{name: "as written", data: mkProfileJSON, format: Minikube, opt: Options{AsWritten: true},
			has: "clusterDomain: \"dev.local\"\n", flag: "--node-ip=192.168.49.2"},
		{name: "cgroup v1 host: cgroupfs", data: mkProfileJSON, format: Minikube, opt: Options{Minikube: MinikubeOptions{CgroupVersion: 1}},
			has: "cgroupDriver: cgroupfs\n"},
		{name: "not a profile", data: "{\"Name\": \"x\"}\n", format: Minikube, err: "is not a minikube profile"},
		{name: "too old", data: strings.Replace(mkProfileJSON, "v1.34.1", "v1.30.0", 1), format: Minikube, err: "1.31 and later"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, err := ConvertOptions("config.json", []byte(tt.data), tt.format, tt.opt)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if s.Format != Minikube {
				t.Fatalf("format %s", s.Format)
			}
			if !strings.Contains(string(s.Data), tt.has) {
				t.Errorf("document lacks %q:\n%s", tt.has, s.Data)
			}
			if tt.flag != "" && !strings.Contains(strings.Join(s.Flags, " "), tt.flag) {
				t.Errorf("flags %v lack %s", s.Flags, tt.flag)
			}
			for _, f := range s.Flags {
				if strings.HasPrefix(f, "--config=") || strings.HasPrefix(f, "--runtime-request-timeout") {
					t.Errorf("flag %s: minikube's config file, not the command line", f)
				}
			}
			if tt.rule == "" {
				return
			}
			r := settle(t, s)
			f := findingOf(r, tt.rule, tt.path)
			if f == nil {
				t.Fatalf("no %s finding on %s: %v", tt.rule, tt.path, r.Findings)
			}
			if f.File != "config.json" || f.Line != tt.line || f.Column != tt.column {
				t.Errorf("%s at %s, want config.json:%d:%d", tt.rule, f.Position, tt.line, tt.column)
			}
		})
	}
}

func TestDetectMinikube(t *testing.T) {
	for _, tt := range []struct {
		name, data string
		want       Format
	}{
		{"profile", mkProfileJSON, Minikube},
		{"profile, compact", `{"Name":"minikube","KubernetesConfig":{"KubernetesVersion":"v1.35.0"},"Nodes":[]}`, Minikube},
		{"profile without nodes, with a driver", `{"Driver":"kvm2","KubernetesConfig":{}}`, Minikube},
		{"KubernetesConfig alone", `{"KubernetesConfig":{}}`, Config},
		{"KubernetesConfig not an object", `{"KubernetesConfig":"x","Nodes":[]}`, Config},
		{"a kubelet config in JSON naming it", `{"apiVersion":"kubelet.config.k8s.io/v1beta1","kind":"KubeletConfiguration","staticPodPath":"/KubernetesConfig"}`, Config},
		{"YAML", "KubernetesConfig: {}\nNodes: []\n", Config},
		{"configz", `{"kubeletconfig":{"maxPods":10}}`, Configz},
	} {
		if got := Detect([]byte(tt.data)); got != tt.want {
			t.Errorf("%s: Detect = %s, want %s", tt.name, got, tt.want)
		}
	}
}

// TestMinikubeOrigins: a value's origin is the profile entry that caused it, a
// value minikube or kubeadm sets on its own is at the KubernetesConfig key, and a
// kubelet default has none in the profile.
func TestMinikubeOrigins(t *testing.T) {
	s, err := ConvertOptions("config.json", []byte(mkProfileJSON), Auto, Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := settle(t, s)
	for path, want := range map[string]int{
		"maxPods":                  12, // --max-pods: the extra-config Key
		"runtimeRequestTimeout":    17, // extra-config, into the config file
		"clusterDomain":            6,  // DNSDomain
		"clusterDNS":               8,  // ServiceCIDR
		"containerRuntimeEndpoint": 7,  // ContainerRuntime
		"hairpinMode":              4,  // minikube's own: KubernetesConfig
		"rotateCertificates":       4,  // kubeadm's
		"syncFrequency":            0,  // the kubelet's default
	} {
		got, ok := r.Origins[path]
		if want == 0 {
			if ok && got.File == "config.json" {
				t.Errorf("%s: origin %s, want the kubelet's default", path, got)
			}
			continue
		}
		if !ok || got.File != "config.json" || got.Line != want {
			t.Errorf("%s: origin %v, want config.json:%d", path, got, want)
		}
	}
}

// TestMinikubeFlagOverride: a flag that overrides minikube's template is reported
// at its extra-config entry, and the message names where the overridden value came
// from in the profile (the KubernetesConfig key: minikube's template), not a line of
// the converted document.
func TestMinikubeFlagOverride(t *testing.T) {
	data := strings.Replace(mkProfileJSON, `"Key": "max-pods",
				"Value": "-1"`, `"Key": "image-gc-high-threshold",
				"Value": "90"`, 1)
	s, err := ConvertOptions("config.json", []byte(data), Minikube, Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := settle(t, s)
	f := findingOf(r, validate.FlagOverridesFile.ID, "imageGCHighThresholdPercent")
	if f == nil {
		t.Fatalf("no KC2504: %v", r.Findings)
	}
	if f.Line != 12 || !strings.HasSuffix(f.Message, "from config.json:4:2") {
		t.Errorf("%s: %s, want at line 12, from config.json:4:2", f.Position, f.Message)
	}
	if got := r.Origins["imageGCHighThresholdPercent"]; got.Line != 12 {
		t.Errorf("origin %s, want the flag's line 12", got)
	}
}

const mkTwoNodes = `{
	"Name": "dev",
	"Driver": "kvm2",
	"KubernetesConfig": {
		"KubernetesVersion": "v1.35.0",
		"ContainerRuntime": "crio"
	},
	"Nodes": [
		{"Name": "", "IP": "192.168.39.10", "ControlPlane": true, "Worker": true},
		{"Name": "m02", "IP": "192.168.39.11", "ControlPlane": false, "Worker": true}
	]
}
`

// TestMinikubeNodes: each node of a multi-node profile gets the control plane's
// config.yaml and its own flags, by minikube's machine names.
func TestMinikubeNodes(t *testing.T) {
	for _, tt := range []struct {
		node, err string
		flags     []string
		line      int // of --node-ip
	}{
		{node: "", flags: []string{"--hostname-override=dev", "--node-ip=192.168.39.10"}, line: 9},
		{node: "dev", flags: []string{"--hostname-override=dev", "--node-ip=192.168.39.10"}, line: 9},
		{node: "dev-m02", flags: []string{"--hostname-override=dev-m02", "--node-ip=192.168.39.11"}, line: 10},
		{node: "dev-m03", err: `has no node "dev-m03" (dev, dev-m02)`},
	} {
		s, err := ConvertOptions("config.json", []byte(mkTwoNodes), Auto, Options{Minikube: MinikubeOptions{Node: tt.node}})
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%q: err %v, want %q", tt.node, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Join(s.Flags, " ")
		for _, f := range tt.flags {
			if !strings.Contains(got, f) {
				t.Errorf("%q: flags %s lack %s", tt.node, got, f)
			}
		}
		for i, f := range s.Flags {
			if strings.HasPrefix(f, "--node-ip=") && s.FlagPositions[i].Line != tt.line {
				t.Errorf("%q: --node-ip at %s, want line %d", tt.node, s.FlagPositions[i], tt.line)
			}
		}
		if !strings.Contains(s.Note, "(of dev, dev-m02)") {
			t.Errorf("%q: note %s", tt.node, s.Note)
		}
	}
}

// TestFlagOverrideMessageKubeadm: for a kubeadm file too, the KC2504 message names
// where the user's file sets the overridden value.
func TestFlagOverrideMessageKubeadm(t *testing.T) {
	data := initDoc + "---\n" + "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nmaxPods: 20\n"
	s, err := ConvertOptions("kubeadm.yaml", []byte(data), Auto, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var in pipeline.Input
	applyTo(s, &in)
	in.Flags = []string{"--max-pods=30"}
	r, err := pipeline.Evaluate(kubelets.Default(), in)
	if err != nil {
		t.Fatal(err)
	}
	if err := settleResult(s, r); err != nil {
		t.Fatal(err)
	}
	f := findingOf(r, validate.FlagOverridesFile.ID, "maxPods")
	if f == nil {
		t.Fatalf("no KC2504: %v", r.Findings)
	}
	if !strings.HasSuffix(f.Message, "from kubeadm.yaml:6:1") {
		t.Errorf("message %q, want the maxPods line of the file (6:1)", f.Message)
	}
}

// TestMinikubeMiscased: minikube writes the extra-config key FailCgroupV1 as given,
// which kubeadm drops (field names are case-sensitive); the finding is at the entry.
func TestMinikubeMiscased(t *testing.T) {
	data := strings.Replace(mkProfileJSON, `"Key": "max-pods",
				"Value": "-1"`, `"Key": "FailCgroupV1",
				"Value": "false"`, 1)
	s, err := ConvertOptions("config.json", []byte(data), Minikube, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(s.written), "\nFailCgroupV1: false\n") {
		t.Errorf("minikube's document lacks FailCgroupV1 as given:\n%s", s.written)
	}
	r := settle(t, s)
	f := findingOf(r, source.CaseMismatch.ID, "")
	if f == nil {
		t.Fatalf("no %s: %v", source.CaseMismatch.ID, r.Findings)
	}
	if f.Line != 12 {
		t.Errorf("%s at %s, want line 12", f.Rule, f.Position)
	}
	if got := r.Effective.FailCgroupV1; got == nil || !*got {
		t.Errorf("failCgroupV1 %v, want the default true", got)
	}
}

func TestMinikubeNodeNames(t *testing.T) {
	one := strings.Replace(mkTwoNodes, `,
		{"Name": "m02", "IP": "192.168.39.11", "ControlPlane": false, "Worker": true}`, "", 1)
	for _, tc := range []struct {
		name string
		data string
		f    Format
		want string
	}{
		{"two nodes", mkTwoNodes, Auto, "[dev dev-m02]"},
		{"two nodes, forced", mkTwoNodes, Minikube, "[dev dev-m02]"},
		{"one node", one, Auto, "[]"},
		{"read as a config file", mkTwoNodes, Config, "[]"},
		{"not a profile", `{"apiVersion": "kubelet.config.k8s.io/v1beta1"}`, Auto, "[]"},
	} {
		if got := fmt.Sprint(MinikubeNodes("config.json", []byte(tc.data), tc.f)); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}
