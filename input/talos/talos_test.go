package talos

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/input/bootstrap"
	"github.com/kubeletcfg/kubeletcfg/rule"
)

// doc is a worker machine configuration with kubelet lines under
// machine.kubelet (indented by the caller as under "  kubelet:").
func doc(kubelet ...string) string {
	s := "version: v1alpha1\nmachine:\n  type: worker\n  kubelet:\n"
	if len(kubelet) == 0 {
		s = "version: v1alpha1\nmachine:\n  type: worker\n"
	}
	for _, l := range kubelet {
		s += "    " + l + "\n"
	}
	return s + "cluster:\n  network:\n    dnsDomain: cluster.local\n"
}

// boot gives every value only the node knows, so that the tests below see
// only the findings they are about.
var boot = map[string]string{"--hostname-override": "n1", "--node-ip": "10.0.0.2", "staticPodURL": "http://127.0.0.1:40000"}

// TestFindings has a passing and a failing case for every finding the
// translator emits: the rule, the field path, and the line:column in the
// user's file.
func TestFindings(t *testing.T) {
	for _, tc := range []struct {
		name string
		data string
		set  map[string]string
		// want: rule, path, line, column and a part of the message; empty: no finding
		rule      *rule.Rule
		path      string
		line, col int
		msg       string
	}{
		// KC9001: protected extraConfig fields (prepareExtraConfig, KubeletConfig.Validate)
		{name: "protected staticPodPath", data: doc("extraConfig:", "  staticPodPath: /etc/pods"),
			rule: bootstrap.Refuses, path: "staticPodPath", line: 6, col: 7, msg: `field "staticPodPath" can't be overridden`},
		{name: "protected kind", data: doc("extraConfig:", "  kind: KubeletConfiguration"),
			rule: bootstrap.Refuses, path: "", line: 6, col: 7, msg: `field "kind" can't be overridden`},
		{name: "not protected staticPodURL is no refusal", data: doc("extraConfig:", "  maxPods: 50")},
		// KC9001: strict decoding of extraConfig
		{name: "unknown extraConfig key", data: doc("extraConfig:", "  maxPod: 50"),
			rule: bootstrap.Refuses, line: 6, col: 7, msg: `strict decoding error: unknown field "maxPod"`},
		{name: "extraConfig value of the wrong type", data: doc("extraConfig:", "  maxPods: fifty"),
			rule: bootstrap.Refuses, line: 6, col: 16, msg: "error unmarshalling extra kubelet configuration"},
		{name: "a field newer than Talos's k8s.io/kubelet", data: doc("extraConfig:", "  defaultPodSysctls:", "    - name: net.ipv4.ip_forward", "      value: \"1\""),
			rule: bootstrap.Refuses, line: 6, col: 7, msg: `unknown field "defaultPodSysctls": Talos v1.13.9 links k8s.io/kubelet v0.36.3`},
		{name: "extraConfig nested keys", data: doc("extraConfig:", "  evictionHard:", "    memory.available: 100Mi", "  featureGates:", "    NodeSwap: true")},
		// KC9001: denied extraArgs (argsbuilder.MergeDenied)
		{name: "denied extraArg", data: doc("extraArgs:", "  config: /etc/other.yaml"),
			rule: bootstrap.Refuses, line: 6, col: 7, msg: `extra arg "config" is not allowed`},
		{name: "allowed extraArg", data: doc("extraArgs:", "  max-pods: \"50\"")},
		// KC9001: unknown keys of the machine configuration (xyaml.CheckUnknownKeys)
		{name: "misspelled machine.kubelet key", data: doc("extraConfigs:", "  maxPods: 50"),
			rule: bootstrap.Refuses, line: 5, col: 5, msg: "unknown key machine.kubelet.extraConfigs"},
		{name: "misspelled machine key", data: strings.Replace(doc(), "  type: worker\n", "  type: worker\n  kublet: {}\n", 1),
			rule: bootstrap.Refuses, line: 4, col: 3, msg: "unknown key machine.kublet"},
		// KC9001: a value of the wrong type in the machine configuration
		{name: "bool of the wrong type", data: doc("skipNodeRegistration: maybe"),
			rule: bootstrap.Refuses, line: 5, col: 1, msg: "does not decode"},
		{name: "extraArgs value of the wrong type", data: doc("extraArgs:", "  node-labels:", "    a: b"),
			rule: bootstrap.Refuses, msg: "arg value must be a string or list of strings"},
		// KC9001: KubeletConfig.Validate nodeIP.validSubnets
		{name: "invalid validSubnets", data: doc("nodeIP:", "  validSubnets:", "    - 10.0.0.0/33"),
			rule: bootstrap.Refuses, line: 7, col: 11, msg: "kubelet nodeIP subnet is not valid"},
		{name: "valid validSubnets", data: doc("nodeIP:", "  validSubnets:", "    - 10.0.0.0/8", "    - '!10.0.0.3'")},
		// KC9001: machine.type and cluster.network.serviceSubnets
		{name: "unknown machine type is not refused (MachineConfig.Type ignores the error)", data: strings.Replace(doc(), "type: worker", "type: master", 1)},
		{name: "invalid service subnet", data: doc() + "    serviceSubnets:\n      - 10.96.0.0\n",
			rule: bootstrap.Refuses, path: "clusterDNS", line: 7, col: 5, msg: "error building DNS service IPs"},
		// KC9002: values Talos replaces
		{name: "staticPodURL replaced", data: doc("extraConfig:", "  staticPodURL: http://example.com/pods"),
			rule: bootstrap.Overrides, path: "staticPodURL", line: 6, col: 7, msg: "is replaced by the URL of machined's static pod server"},
		{name: "containerRuntimeEndpoint replaced", data: doc("extraConfig:", "  containerRuntimeEndpoint: unix:///run/crio.sock"),
			rule: bootstrap.Overrides, path: "containerRuntimeEndpoint", line: 6, col: 7, msg: "unix:///run/containerd/containerd.sock"},
		{name: "image-credential-provider-config replaced", data: doc("extraArgs:", "  image-credential-provider-config: /etc/mine.yaml",
			"credentialProviderConfig:", "  apiVersion: kubelet.config.k8s.io/v1", "  kind: CredentialProviderConfig"),
			rule: bootstrap.Overrides, line: 6, col: 7, msg: "--image-credential-provider-config=/etc/kubernetes/kubelet-credentialproviderconfig.yaml"},
		{name: "image-credential-provider-config kept without credentialProviderConfig", data: doc("extraArgs:", "  image-credential-provider-config: /etc/mine.yaml")},
		// KC9004: values only the node knows
		{name: "node name at boot", data: doc("registerWithFQDN: true"), set: map[string]string{"--node-ip": "10.0.0.2", "staticPodURL": "http://127.0.0.1:1"},
			rule: bootstrap.AtBoot, line: 5, col: 5, msg: "--hostname-override"},
		{name: "node IP at boot", data: doc("nodeIP:", "  validSubnets:", "    - 10.0.0.0/8"), set: map[string]string{"hostname-override": "n1", "staticPodURL": "http://127.0.0.1:1"},
			rule: bootstrap.AtBoot, line: 6, col: 7, msg: "--node-ip"},
		{name: "static pod URL at boot", data: doc("image: ghcr.io/siderolabs/kubelet:v1.35.0"), set: map[string]string{"hostname-override": "n1", "node-ip": "10.0.0.2"},
			rule: bootstrap.AtBoot, path: "staticPodURL", line: 4, col: 3, msg: "machined's static pod server"},
		{name: "node IP given in extraArgs", data: doc("extraArgs:", "  node-ip: 10.0.0.9"), set: map[string]string{"hostname-override": "n1", "staticPodURL": "http://127.0.0.1:1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			set := tc.set
			if set == nil {
				set = boot
			}
			out, err := Translate("mc.yaml", []byte(tc.data), bootstrap.Options{Set: set})
			if err != nil {
				t.Fatal(err)
			}
			if tc.rule == nil {
				if len(out.Findings) != 0 {
					t.Errorf("findings on a file Talos accepts as written: %v", out.Findings)
				}
				return
			}
			if len(out.Findings) != 1 {
				t.Fatalf("want one finding, have %d: %v", len(out.Findings), out.Findings)
			}
			f := out.Findings[0]
			if f.Rule != tc.rule.ID || f.Severity != tc.rule.Severity || f.Path != tc.path || !strings.Contains(f.Message, tc.msg) {
				t.Errorf("got %s %s path %q %q\nwant %s %s path %q, message with %q", f.Rule, f.Severity, f.Path, f.Message, tc.rule.ID, tc.rule.Severity, tc.path, tc.msg)
			}
			if tc.line != 0 && (f.File != "mc.yaml" || f.Line != tc.line || f.Column != tc.col) {
				t.Errorf("at %v, want mc.yaml:%d:%d", f.Position, tc.line, tc.col)
			}
			if !strings.HasPrefix(f.Message, "Talos "+Tool.Release+": ") || f.Hint == "" && tc.rule != bootstrap.Refuses {
				t.Errorf("message must name Talos and its release, with a hint: %q / %q", f.Message, f.Hint)
			}
		})
	}
}

// TestPositions: a finding on a value points at the value, and every key of
// extraConfig (map keys in brackets, list items by index) maps to its line.
func TestPositions(t *testing.T) {
	data := doc(
		"extraConfig:",                // 5
		"  maxPods: 250",              // 6
		"  featureGates:",             // 7
		"    NodeSwap: true",          // 8
		"  evictionHard:",             // 9
		"    memory.available: 200Mi", // 10
		"  logging:",                  // 11
		"    verbosity: 4",            // 12
		"  allowedUnsafeSysctls:",     // 13
		"    - net.core.somaxconn",    // 14
		"  podPidsLimit: lots",        // 15
	)
	out, err := Translate("mc.yaml", []byte(data), bootstrap.Options{Set: boot})
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string][2]int{
		"maxPods":                        {6, 7},
		"featureGates":                   {7, 7},
		"featureGates[NodeSwap]":         {8, 9},
		"evictionHard[memory.available]": {10, 9},
		"logging.verbosity":              {12, 9},
		"allowedUnsafeSysctls[0]":        {14, 11},
		"clusterDomain":                  {18, 5},
	} {
		p := out.Positions[path]
		if p.File != "mc.yaml" || p.Line != want[0] || p.Column != want[1] {
			t.Errorf("%s at %v, want mc.yaml:%d:%d", path, p, want[0], want[1])
		}
	}
	// the value of the wrong type: the finding points at "lots"
	if len(out.Findings) != 1 || out.Findings[0].Line != 15 || out.Findings[0].Column != 21 {
		t.Errorf("podPidsLimit: lots: want one finding at 15:21, have %v", out.Findings)
	}
	if out.Notes["port"] == "" || out.Notes["tlsMinVersion"] == "" {
		t.Errorf("Talos's own fields have no note: %v", out.Notes)
	}
	if _, ok := out.Positions["port"]; ok {
		t.Error("port has a position though the user did not write it")
	}
	// the user's extraArgs flags point at their values; Talos's carry a note
	out, err = Translate("mc.yaml", []byte(doc("extraArgs:", "  node-labels:", "    - a=b", "    - c=d")), bootstrap.Options{Set: boot})
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range out.Flags {
		p, note := out.FlagPositions[i], out.FlagNotes[i]
		switch f {
		case "--node-labels=a=b":
			if p.Line != 7 || p.Column != 11 {
				t.Errorf("%s at %v, want 7:11", f, p)
			}
		case "--node-labels=c=d":
			if p.Line != 8 || p.Column != 11 {
				t.Errorf("%s at %v, want 8:11", f, p)
			}
		default:
			if p != (finding.Position{}) || note == "" {
				t.Errorf("%s: Talos's own flag at %v, note %q", f, p, note)
			}
		}
	}
}

func TestDetect(t *testing.T) {
	worked, err := os.ReadFile(filepath.Join(fixtures, "worked-example.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, data      string
		detect, accepts bool
	}{
		{"machine config", string(worked), true, true},
		{"multi-document, v1alpha1 second", "apiVersion: v1alpha1\nkind: HostnameConfig\nauto: stable\n---\n" + doc(), true, true},
		{"KubeletConfiguration", "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nmaxPods: 10\n", false, false},
		{"kubeadm", "apiVersion: kubeadm.k8s.io/v1beta4\nkind: InitConfiguration\n", false, false},
		{"other Talos document only", "apiVersion: v1alpha1\nkind: HostnameConfig\nauto: stable\n", false, false},
		// --input-format talos takes what Talos's decoder takes: a v1alpha1
		// document without cluster: (then refused, or no kubelet written).
		{"no cluster", "version: v1alpha1\nmachine:\n  type: worker\n", false, true},
		{"two v1alpha1 documents", "version: v1alpha1\nmachine:\n  type: worker\n---\nversion: v1alpha1\nmachine: {}\n", false, true},
		{"a kind", "version: v1alpha1\nkind: Other\nmachine: {}\ncluster: {}\n", false, false},
		{"not YAML", "\t{{", false, false},
		{"empty", "", false, false},
	} {
		if got := Detect("f.yaml", []byte(tc.data)); got != tc.detect {
			t.Errorf("%s: Detect = %v, want %v", tc.name, got, tc.detect)
		}
		if got := Accepts("f.yaml", []byte(tc.data)); got != tc.accepts {
			t.Errorf("%s: Accepts = %v, want %v", tc.name, got, tc.accepts)
		}
	}
}

// TestDuplicateV1Alpha1: Talos's decoder refuses a second v1alpha1 document
// (decoder_test.go TestDoubleV1Alpha1): a KC9001 at its line, nothing written.
func TestDuplicateV1Alpha1(t *testing.T) {
	out, err := Translate("f.yaml", []byte(doc()+"---\n"+doc()), bootstrap.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("duplicate document /v1alpha1/ is not allowed (line %d)", strings.Count(doc(), "\n")+2)
	if out.Config != nil || len(out.Findings) != 1 || out.Findings[0].Rule != bootstrap.Refuses.ID || !strings.Contains(out.Findings[0].Message, want) ||
		out.Findings[0].Line != strings.Count(doc(), "\n")+2 {
		t.Errorf("config %v, findings %+v; want no config and one KC9001 %q", out.Config, out.Findings, want)
	}
}

func TestTranslateErrors(t *testing.T) {
	for _, tc := range []struct{ name, data, want string }{
		{"not YAML", "machine: [", "f.yaml: not YAML"},
		{"no v1alpha1 document", "apiVersion: v1alpha1\nkind: HostnameConfig\n", "f.yaml: no Talos v1alpha1"},
		{"no cluster", "version: v1alpha1\nmachine:\n  type: worker\n", "f.yaml: Talos writes no kubelet configuration without both"},
	} {
		_, err := Translate("f.yaml", []byte(tc.data), bootstrap.Options{})
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want one line starting %q", tc.name, err, tc.want)
		}
	}
}

// TestOddShapes: values of unexpected shapes never panic; Talos refuses them.
func TestOddShapes(t *testing.T) {
	for _, data := range []string{
		"version: v1alpha1\nmachine: []\ncluster: {}\n",
		"version: v1alpha1\nmachine:\n  kubelet: x\ncluster: x\n",
		doc("extraConfig: [1, 2]"),
		doc("extraConfig:", "  featureGates: [a]"),
		doc("extraArgs: [a]"),
		doc("nodeIP: 5"),
		doc("clusterDNS: 10.0.0.1"),
		"version: v1alpha1\nmachine: &a\n  type: worker\ncluster: *a\n",
	} {
		out, err := Translate("f.yaml", []byte(data), bootstrap.Options{})
		if err != nil {
			continue
		}
		if out.Config == nil {
			t.Errorf("%q: no configuration", data)
		}
	}
}

// TestWorkedExample is the docs' worked example (docs/bootstrappers/talos.md).
func TestWorkedExample(t *testing.T) {
	path := filepath.Join(fixtures, "worked-example.yaml")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Translate(path, data, bootstrap.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var refused []finding.Finding
	for _, f := range out.Findings {
		t.Logf("%s: %s %s: %s [%s]", f.Position, f.Severity, f.Rule, f.Message, f.Hint)
		if f.Rule == bootstrap.Refuses.ID {
			refused = append(refused, f)
		}
	}
	if len(refused) != 1 || refused[0].Path != "staticPodPath" || refused[0].Line != 9 || refused[0].Column != 7 {
		t.Errorf("want one KC9001 on staticPodPath at 9:7, have %v", refused)
	}
	if _, ok := out.Positions["staticPodPath"]; ok || out.Notes["staticPodPath"] == "" {
		t.Errorf("staticPodPath is Talos's value: want a note and no position, have %v / %q", out.Positions["staticPodPath"], out.Notes["staticPodPath"])
	}
	got := generated(t, out)
	if got["staticPodPath"] != "/etc/kubernetes/manifests" || got["maxPods"] != float64(250) {
		t.Errorf("staticPodPath %v maxPods %v", got["staticPodPath"], got["maxPods"])
	}
}
