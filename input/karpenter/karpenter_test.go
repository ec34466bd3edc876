package karpenter

import (
	"encoding/json"
	"io"
	"mime"
	"mime/multipart"
	"net/mail"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"

	sigsyaml "sigs.k8s.io/yaml"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/input/bootstrap"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/rule"
)

const testdata = "../../testdata/bootstrappers/karpenter/"

// The values Karpenter's launchtemplate suite runs with
// (pkg/providers/launchtemplate/suite_test.go): the kube-dns IP it
// discovers and the instance type's pods.
var suiteSet = bootstrap.Options{Set: map[string]string{"maxPods": "110", "clusterDNS": "10.0.100.10"}}

func read(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(testdata + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func jsonOf(t *testing.T, doc []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := sigsyaml.Unmarshal(doc, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// nodeConfigs are the NodeConfig parts of a MIME user data golden.
func nodeConfigs(t *testing.T, userData string) []map[string]any {
	t.Helper()
	msg, err := mail.ReadMessage(strings.NewReader(userData))
	if err != nil {
		t.Fatal(err)
	}
	_, params, _ := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	r := multipart.NewReader(msg.Body, params["boundary"])
	var out []map[string]any
	for {
		p, err := r.NextPart()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(p)
		if p.Header.Get("Content-Type") == "application/node.eks.aws" {
			out = append(out, jsonOf(t, body))
		}
	}
}

func nodeClassYAML(family, kubelet, userData string) string {
	s := "apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\nmetadata:\n  name: test\nspec:\n  amiSelectorTerms:\n  - alias: " + family + "\n"
	if kubelet != "" {
		s += "  kubelet:\n" + kubelet
	}
	if userData != "" {
		s += "  userData: |\n    " + strings.ReplaceAll(strings.TrimRight(userData, "\n"), "\n", "\n    ") + "\n"
	}
	return s
}

func translate(t *testing.T, data string, opt bootstrap.Options) *bootstrap.Output {
	t.Helper()
	if !Detect("nc.yaml", []byte(data)) {
		t.Fatal("Detect = false")
	}
	out, err := Translate("nc.yaml", []byte(data), opt)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sub(m map[string]any, keys ...string) any {
	var v any = m
	for _, k := range keys {
		mm, _ := v.(map[string]any)
		v = mm[k]
	}
	return v
}

// TestGoldenAL2023Unmerged: pkg/providers/launchtemplate/testdata/al2023_userdata_unmerged.golden,
// the NodeConfig Karpenter generates for an EC2NodeClass without spec.kubelet
// or user data: kubeletcfg's generated NodeConfig agrees, the cluster details
// and the NodePool's --node-labels aside.
func TestGoldenAL2023Unmerged(t *testing.T) {
	want := nodeConfigs(t, read(t, "al2023_userdata_unmerged.golden"))[0]
	y, err := NodeConfig("nc.yaml", []byte(nodeClassYAML("al2023@latest", "", "")), suiteSet)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(y), "# Karpenter Generated NodeConfig\n") {
		t.Errorf("header: %q", y)
	}
	got := jsonOf(t, y)
	for _, k := range [][]string{{"apiVersion"}, {"kind"}, {"metadata"}, {"spec", "containerd"}, {"spec", "instance"}, {"spec", "kubelet", "config"}} {
		if g, w := sub(got, k...), sub(want, k...); !reflect.DeepEqual(g, w) {
			t.Errorf("%v: got %v, want %v", k, g, w)
		}
	}
}

// TestGoldenAL2023YAMLMerged: al2023_yaml_userdata_input.golden as spec.userData
// gives al2023_yaml_userdata_merged.golden: the user's NodeConfig first,
// Karpenter's after, and the user's maxPods: 42 is overridden (Karpenter's
// KC9002). On the node nodeadm reads that archive: the input's
// certificateAuthority "cluster-ca" is not base64, so nodeadm cannot decode
// it (nodeadm's KC9001). With the CA base64-encoded, nodeadm drops its
// clusterEndpoint, not a NodeConfig field (nodeadm's KC9003, at the key), and
// the drop-in it writes is the merge of the golden's two kubelet.configs.
func TestGoldenAL2023YAMLMerged(t *testing.T) {
	ncs := nodeConfigs(t, read(t, "al2023_yaml_userdata_merged.golden"))
	if len(ncs) != 2 {
		t.Fatalf("%d NodeConfigs in the golden", len(ncs))
	}
	input := read(t, "al2023_yaml_userdata_input.golden")
	out := translate(t, nodeClassYAML("al2023@latest", "", input), suiteSet)
	rules := map[string]int{}
	for _, f := range out.Findings {
		rules[owner(f)+" "+f.Rule]++
		if f.Rule == bootstrap.Overrides.ID && (f.Path != "maxPods" || f.Line != 19 || f.Column != 11) {
			t.Errorf("KC9002 %+v", f)
		}
	}
	if want := map[string]int{"Karpenter KC9002": 1, "EKS nodeadm KC9001": 1}; !reflect.DeepEqual(rules, want) {
		t.Errorf("findings %v, want %v", rules, want)
	}
	if out.Config != nil {
		t.Errorf("nodeadm refuses the user data, yet config %s", out.Config.Data)
	}

	want := map[string]any{"apiVersion": kubeletAPI, "kind": "KubeletConfiguration"}
	for _, nc := range ncs {
		for k, v := range sub(nc, "spec", "kubelet", "config").(map[string]any) {
			want[k] = v // top-level keys only: mergo merges objects, these are values
		}
	}
	fixed := strings.Replace(input, "certificateAuthority: cluster-ca", "certificateAuthority: Y2EtYnVuZGxlCg==", 1)
	out = translate(t, nodeClassYAML("al2023@latest", "", fixed), suiteSet)
	if len(out.DropIns) != 1 || out.DropIns[0].Path != nodeadmDropIn || out.ConfigDir != nodeadmDropInDir {
		t.Fatalf("drop-ins %+v in %q", out.DropIns, out.ConfigDir)
	}
	if got := jsonOf(t, out.DropIns[0].Data); !reflect.DeepEqual(got, want) {
		t.Errorf("drop-in\n got %v\nwant %v", got, want)
	}
	rules = map[string]int{}
	for _, f := range out.Findings {
		if f.Rule != bootstrap.AtBoot.ID {
			rules[owner(f)+" "+f.Rule]++
		}
		if f.Rule == bootstrap.Drops.ID && (f.Line != 14 || f.Column != 9 || !strings.Contains(f.Message, `"spec.cluster.clusterEndpoint"`)) {
			t.Errorf("KC9003 %+v", f)
		}
	}
	if want := map[string]int{"Karpenter KC9002": 1, "EKS nodeadm KC9003": 1}; !reflect.DeepEqual(rules, want) {
		t.Errorf("findings %v, want %v", rules, want)
	}
}

// owner is the tool a finding's message names first.
func owner(f finding.Finding) string {
	for _, who := range []string{"Karpenter", "EKS nodeadm"} {
		if strings.HasPrefix(f.Message, who) {
			return who
		}
	}
	return f.Message
}

// TestAL2023ConfigJSON: config.json is nodeadm's for the kubelet version.
// With the values only the instance knows given (as nodeadm's peer suite
// gives them), an EC2NodeClass's config.json is the one nodeadm's e2e case
// kubelet-config-dir expects at kubelet 1.29 (nodeadm's
// testdata/bootstrappers/nodeadm/cases), and at 1.33 and 1.34 it has
// nodeadm's version toggles.
func TestAL2023ConfigJSON(t *testing.T) {
	set := map[string]string{"maxPods": "58", "kubeReserved[cpu]": "70m", "providerID": "aws:///us-west-2f/i-1234567890abcdef0", "clusterDNS": "10.100.0.10"}
	out := translate(t, nodeClassYAML("al2023@latest", "", ""), bootstrap.Options{Minor: "1.29", Set: set})
	if out.Config == nil || out.Config.Path != nodeadmConfig {
		t.Fatalf("config %+v", out.Config)
	}
	want := jsonOf(t, []byte(read(t, "../nodeadm/cases/kubelet-config-dir/expected-kubelet-config.json")))
	if got := jsonOf(t, out.Config.Data); !reflect.DeepEqual(got, want) {
		t.Errorf("config.json\n got %v\nwant %v", got, want)
	}
	// nodeadm's flags first, none of the user's; then the at-boot ones are nodeadm's findings.
	if len(out.Flags) == 0 || out.Flags[0] != "--cloud-provider=external" {
		t.Errorf("flags %q", out.Flags)
	}
	for _, tt := range []struct {
		minor    string
		dra, sgp bool
	}{{"1.32", false, false}, {"1.33", true, false}, {"1.34", true, true}, {"1.37", true, true}} {
		out := translate(t, nodeClassYAML("al2023@latest", "", ""), bootstrap.Options{Minor: tt.minor})
		got := jsonOf(t, out.Config.Data)
		_, dra := sub(got, "featureGates").(map[string]any)["DynamicResourceAllocation"]
		_, sgp := got["shutdownGracePeriod"]
		if dra != tt.dra || sgp != tt.sgp || got["cgroupDriver"] != "systemd" || got["readOnlyPort"] != float64(0) {
			t.Errorf("%s: DynamicResourceAllocation %v, shutdownGracePeriod %v in %v", tt.minor, dra, sgp, got)
		}
		// Without --set: Karpenter's maxPods and clusterDNS, nodeadm's
		// providerID, kubeReserved[cpu] and [memory] are at boot and left out.
		for _, k := range []string{"maxPods", "clusterDNS", "providerID"} {
			if v, ok := got[k]; ok && v != nil {
				t.Errorf("%s: config.json %s = %v, an at-boot value", tt.minor, k, v)
			}
		}
		owners := map[string]string{}
		for _, f := range out.Findings {
			if f.Rule == bootstrap.AtBoot.ID && f.Path != "" {
				owners[f.Path] = owner(f)
			}
		}
		wantOwners := map[string]string{"maxPods": "Karpenter", "clusterDNS": "Karpenter", "providerID": "EKS nodeadm", "kubeReserved[cpu]": "EKS nodeadm", "kubeReserved[memory]": "EKS nodeadm"}
		if !reflect.DeepEqual(owners, wantOwners) {
			t.Errorf("%s: KC9004 owners %v, want %v", tt.minor, owners, wantOwners)
		}
	}
}

// TestGoldenBottlerocket: br_userdata_unmerged.golden's kubelet settings
// (cluster-dns-ip, max-pods, the unregistered taint) are the kubelet fields
// kubeletcfg's Bottlerocket translation sets.
func TestGoldenBottlerocket(t *testing.T) {
	golden := read(t, "br_userdata_unmerged.golden")
	dns := regexp.MustCompile(`cluster-dns-ip = '([^']*)'`).FindStringSubmatch(golden)[1]
	maxPods := regexp.MustCompile(`max-pods = (\d+)`).FindStringSubmatch(golden)[1]
	out := translate(t, nodeClassYAML("bottlerocket@latest", "", ""), suiteSet)
	got := jsonOf(t, out.Config.Data)
	if !reflect.DeepEqual(got["clusterDNS"], []any{dns}) || got["maxPods"] != json.Number(maxPods) && got["maxPods"] != float64(110) {
		t.Errorf("config %v, want clusterDNS [%s] maxPods %s", got, dns, maxPods)
	}
	if !strings.Contains(golden, `'karpenter.sh/unregistered' = [':NoExecute']`) || len(out.Flags) == 0 || out.Flags[0] != "--register-with-taints=karpenter.sh/unregistered=:NoExecute" {
		t.Errorf("taints %q", out.Flags)
	}
}

// TestGoldenAL2: al2_userdata_unmerged.golden's --kubelet-extra-args (the
// NodePool's --node-labels aside) are the flags, --dns-cluster-ip the config's
// clusterDNS.
func TestGoldenAL2(t *testing.T) {
	golden := read(t, "al2_userdata_unmerged.golden")
	extra := regexp.MustCompile(`--kubelet-extra-args '([^']*)'`).FindStringSubmatch(golden)[1]
	var want []string
	for _, f := range strings.Fields(extra) {
		if !strings.HasPrefix(f, "--node-labels") {
			want = append(want, strings.ReplaceAll(f, `"`, ""))
		}
	}
	out := translate(t, nodeClassYAML("al2@latest", "", ""), suiteSet)
	if !reflect.DeepEqual(out.Flags, want) {
		t.Errorf("flags %q, want %q", out.Flags, want)
	}
	dns := regexp.MustCompile(`--dns-cluster-ip '([^']*)'`).FindStringSubmatch(golden)[1]
	if got := jsonOf(t, out.Config.Data)["clusterDNS"]; !reflect.DeepEqual(got, []any{dns}) {
		t.Errorf("clusterDNS %v", got)
	}
}

// TestAL2023Fields ports the suite's "should specify KubletConfiguration field
// when specified in NodePool" table: each spec.kubelet field reaches the
// NodeConfig's kubelet.config as Karpenter's KubeletConfiguration marshals it.
func TestAL2023Fields(t *testing.T) {
	for _, tt := range []struct{ field, yaml, want string }{
		{"systemReserved", "    systemReserved:\n      cpu: 500m\n      memory: 1Gi\n      ephemeral-storage: 2Gi\n", `{"cpu":"500m","memory":"1Gi","ephemeral-storage":"2Gi"}`},
		{"kubeReserved", "    kubeReserved:\n      cpu: 500m\n      memory: 1Gi\n      ephemeral-storage: 2Gi\n", `{"cpu":"500m","memory":"1Gi","ephemeral-storage":"2Gi"}`},
		{"evictionHard", "    evictionHard:\n      memory.available: 10%\n      nodefs.available: 15%\n      nodefs.inodesFree: 5%\n", `{"memory.available":"10%","nodefs.available":"15%","nodefs.inodesFree":"5%"}`},
		{"evictionSoftGracePeriod", "    evictionSoft:\n      memory.available: 10%\n      nodefs.available: 15%\n      nodefs.inodesFree: 5%\n    evictionSoftGracePeriod:\n      memory.available: 1m\n      nodefs.available: 180s\n      nodefs.inodesFree: 5m\n", `{"memory.available":"1m0s","nodefs.available":"3m0s","nodefs.inodesFree":"5m0s"}`},
		{"evictionMaxPodGracePeriod", "    evictionMaxPodGracePeriod: 300\n", `300`},
		{"podsPerCore", "    podsPerCore: 2\n", `2`},
		{"clusterDNS", "    clusterDNS: [10.0.100.0]\n", `["10.0.100.0"]`},
		{"imageGCHighThresholdPercent", "    imageGCHighThresholdPercent: 50\n", `50`},
		{"imageGCLowThresholdPercent", "    imageGCLowThresholdPercent: 50\n", `50`},
		{"cpuCFSQuota", "    cpuCFSQuota: false\n", `false`},
	} {
		y, err := NodeConfig("nc.yaml", []byte(nodeClassYAML("al2023@latest", tt.yaml, "")), suiteSet)
		if err != nil {
			t.Fatal(err)
		}
		var want any
		_ = json.Unmarshal([]byte(tt.want), &want)
		if got := sub(jsonOf(t, y), "spec", "kubelet", "config", tt.field); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %v, want %v", tt.field, got, want)
		}
	}
}

// TestFindings: a failing and a passing case for every finding.
func TestFindings(t *testing.T) {
	for _, tt := range []struct {
		name, family, kubelet, userData string
		rule                            *rule.Rule // nil: none
		line, col                       int
		path                            string
	}{
		{"all fields valid", "al2023@latest", "    maxPods: 20\n    clusterDNS: [10.0.0.10]\n    systemReserved:\n      cpu: 100m\n    imageGCHighThresholdPercent: 85\n    imageGCLowThresholdPercent: 80\n", "", nil, 0, 0, ""},
		{"systemReserved key (CEL)", "al2023@latest", "    maxPods: 20\n    clusterDNS: [10.0.0.10]\n    systemReserved:\n      gpu: 1\n", "", bootstrap.Refuses, 12, 7, "systemReserved[gpu]"},
		{"negative kubeReserved (CEL)", "al2023@latest", "    maxPods: 20\n    clusterDNS: [10.0.0.10]\n    kubeReserved:\n      cpu: -100m\n", "", bootstrap.Refuses, 12, 12, "kubeReserved[cpu]"},
		{"imageGC high <= low (CEL)", "al2023@latest", "    maxPods: 20\n    clusterDNS: [10.0.0.10]\n    imageGCHighThresholdPercent: 50\n    imageGCLowThresholdPercent: 60\n", "", bootstrap.Refuses, 11, 34, "imageGCHighThresholdPercent"},
		{"evictionSoft without grace period (CEL)", "al2023@latest", "    maxPods: 20\n    clusterDNS: [10.0.0.10]\n    evictionSoft:\n      memory.available: 500Mi\n", "", bootstrap.Refuses, 12, 7, "evictionSoft[memory.available]"},
		{"maxPods not an integer (schema)", "al2023@latest", "    maxPods: true\n    clusterDNS: [10.0.0.10]\n", "", bootstrap.Refuses, 9, 14, "maxPods"},
		{"unmanaged key unknown to the upstream type (v1.15)", "al2023@latest", "    maxPods: 20\n    clusterDNS: [10.0.0.10]\n    shutdownGracePeriodd: 30s\n", "", bootstrap.Refuses, 11, 5, "shutdownGracePeriodd"},
		{"unmanaged key unknown below a struct (v1.15)", "al2023@latest", "    maxPods: 20\n    clusterDNS: [10.0.0.10]\n    logging:\n      formatt: json\n", "", bootstrap.Refuses, 12, 7, "logging.formatt"},
		{"unmanaged key the upstream type has (v1.15)", "al2023@latest", "    maxPods: 20\n    clusterDNS: [10.0.0.10]\n    shutdownGracePeriod: 30s\n    logging:\n      format: json\n", "", nil, 0, 0, ""},
		{"maxPods a CEL expression (v1.15: known at launch)", "al2023@latest", "    maxPods: \"vcpus * 10\"\n    clusterDNS: [10.0.0.10]\n", "", bootstrap.AtBoot, 9, 14, "maxPods"},
		{"kubeReserved a CEL expression (v1.15: known at launch)", "al2023@latest", "    maxPods: 20\n    clusterDNS: [10.0.0.10]\n    kubeReserved:\n      cpu: \"vcpus * 10\"\n", "", bootstrap.AtBoot, 12, 12, "kubeReserved[cpu]"},
		{"alias without version (CEL)", "al2023", "    maxPods: 20\n    clusterDNS: [10.0.0.10]\n", "", bootstrap.Refuses, 7, 12, ""},
		{"userData NodeConfig maxPods under Karpenter's", "al2023@latest", "    maxPods: 20\n    clusterDNS: [10.0.0.10]\n", "apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  kubelet:\n    config:\n      maxPods: 42\n", bootstrap.Overrides, 17, 11, "maxPods"},
		{"userData NodeConfig other key kept", "al2023@latest", "    maxPods: 20\n    clusterDNS: [10.0.0.10]\n", "apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  kubelet:\n    config:\n      shutdownGracePeriod: 30s\n", nil, 0, 0, ""},
		{"Bottlerocket user max-pods overwritten", "bottlerocket@latest", "    maxPods: 20\n    clusterDNS: [10.0.0.10]\n", "[settings.kubernetes]\nmax-pods = 50\n", bootstrap.Overrides, 13, 5, "maxPods"},
		{"AL2023 passes featureGates through (v1.15)", "al2023@latest", "    maxPods: 20\n    clusterDNS: [10.0.0.10]\n    featureGates:\n      InPlacePodVerticalScaling: true\n", "", nil, 0, 0, ""},
		{"Bottlerocket refuses featureGates (v1.15)", "bottlerocket@latest", "    maxPods: 20\n    clusterDNS: [10.0.0.10]\n    featureGates:\n      InPlacePodVerticalScaling: true\n", "", bootstrap.Refuses, 11, 5, ""},
		{"AL2 refuses featureGates (v1.15)", "al2@latest", "    maxPods: 20\n    clusterDNS: [10.0.0.10]\n    featureGates:\n      InPlacePodVerticalScaling: true\n", "", bootstrap.Refuses, 11, 5, ""},
		{"Bottlerocket refuses podsPerCore (v1.15)", "bottlerocket@latest", "    maxPods: 20\n    clusterDNS: [10.0.0.10]\n    podsPerCore: 4\n", "", bootstrap.Refuses, 11, 5, "podsPerCore"},
		{"Bottlerocket takes one clusterDNS", "bottlerocket@latest", "    maxPods: 20\n    clusterDNS: [10.0.0.10]\n", "", nil, 0, 0, ""},
		{"Bottlerocket refuses a second clusterDNS (v1.15)", "bottlerocket@latest", "    maxPods: 20\n    clusterDNS: [10.0.0.10, 10.0.0.11]\n", "", bootstrap.Refuses, 10, 29, "clusterDNS[1]"},
		{"AL2 keeps podsPerCore", "al2@latest", "    maxPods: 20\n    clusterDNS: [10.0.0.10]\n    podsPerCore: 4\n", "", nil, 0, 0, ""},
		{"AL2023 keeps podsPerCore", "al2023@latest", "    maxPods: 20\n    clusterDNS: [10.0.0.10]\n    podsPerCore: 4\n", "", nil, 0, 0, ""},
		{"AL2 refuses a second clusterDNS (v1.15)", "al2@latest", "    maxPods: 20\n    clusterDNS: [10.0.0.10, 10.0.0.11]\n", "", bootstrap.Refuses, 10, 29, "clusterDNS[1]"},
		{"maxPods from the instance type", "al2023@latest", "    clusterDNS: [10.0.0.10]\n", "", bootstrap.AtBoot, 8, 3, "maxPods"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out := translate(t, nodeClassYAML(tt.family, tt.kubelet, tt.userData), bootstrap.Options{})
			var got []finding.Finding
			for _, f := range out.Findings {
				// Karpenter's own findings (nodeadm's are input/nodeadm's, tested there).
				if strings.HasPrefix(f.Message, "Karpenter: ") && (f.Rule != bootstrap.AtBoot.ID || tt.rule == bootstrap.AtBoot) {
					got = append(got, f)
				}
			}
			if tt.rule == nil {
				if len(got) != 0 {
					t.Fatalf("findings %+v", got)
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("want one %s, got %+v", tt.rule.ID, got)
			}
			f := got[0]
			if f.Rule != tt.rule.ID || f.Line != tt.line || f.Column != tt.col || f.Path != tt.path || f.File != "nc.yaml" {
				t.Errorf("got %s at %s path %q (%s)\nwant %s at %d:%d path %q", f.Rule, f.Position, f.Path, f.Message, tt.rule.ID, tt.line, tt.col, tt.path)
			}
			if f.Severity != tt.rule.Severity || !strings.HasPrefix(f.Message, "Karpenter: ") || f.Hint == "" {
				t.Errorf("severity %s message %q hint %q", f.Severity, f.Message, f.Hint)
			}
		})
	}
}

// TestPositions: the drop-in's values point at spec.kubelet's keys and at
// the NodeConfig inside spec.userData, in the manifest.
func TestPositions(t *testing.T) {
	out := translate(t, read(t, "al2023-userdata-nodeconfig.yaml"), bootstrap.Options{})
	if p := out.Positions["systemReserved[cpu]"]; p != (finding.Position{File: "nc.yaml", Line: 11, Column: 7}) {
		t.Errorf("systemReserved[cpu] at %s", p)
	}
	var kc9002 *finding.Finding
	for i, f := range out.Findings {
		if f.Rule == bootstrap.Overrides.ID {
			kc9002 = &out.Findings[i]
		}
	}
	// maxPods: 42 of the user data is line 23, column 11 of the manifest.
	if kc9002 == nil || kc9002.Line != 23 || kc9002.Column != 11 {
		t.Errorf("KC9002 %+v", kc9002)
	}
	if _, ok := out.AtBoot["maxPods"]; !ok {
		t.Errorf("maxPods is Karpenter's, from the instance type: %v", out.AtBoot)
	}
	if _, err := Translate("x.yaml", []byte("kind: Pod\n"), bootstrap.Options{}); err == nil || !strings.HasPrefix(err.Error(), "x.yaml: ") {
		t.Errorf("err %v", err)
	}
}

// suitePool is the NodePool of the launch template suite's Bottlerocket
// user data tests (pkg/providers/launchtemplate/suite_test.go: taints foo=bar,
// startup taints baz=bin, both NoExecute).
const suitePool = "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata:\n  name: default\nspec:\n  template:\n    spec:\n      nodeClassRef:\n        group: karpenter.k8s.aws\n        kind: EC2NodeClass\n        name: test\n      taints:\n      - key: foo\n        value: bar\n        effect: NoExecute\n      startupTaints:\n      - key: baz\n        value: bin\n        effect: NoExecute\n---\n"

// TestNodePoolTaints: a NodePool in the same file that refers to the
// EC2NodeClass gives the taints (br_userdata_unmerged.golden's node-taints:
// foo, baz, then karpenter.sh/unregistered).
func TestNodePoolTaints(t *testing.T) {
	golden := read(t, "br_userdata_unmerged.golden")
	for _, line := range []string{"baz = ['bin:NoExecute']", "foo = ['bar:NoExecute']", "'karpenter.sh/unregistered' = [':NoExecute']"} {
		if !strings.Contains(golden, line) {
			t.Fatalf("golden lacks %q", line)
		}
	}
	want := []any{
		map[string]any{"key": "foo", "value": "bar", "effect": "NoExecute"},
		map[string]any{"key": "baz", "value": "bin", "effect": "NoExecute"},
		map[string]any{"key": "karpenter.sh/unregistered", "effect": "NoExecute"},
	}
	out := translate(t, suitePool+nodeClassYAML("bottlerocket@latest", "", ""), suiteSet)
	// Bottlerocket's join_node_taints: key=value:effect, in key order.
	if out.Flags[0] != "--register-with-taints=baz=bin:NoExecute,foo=bar:NoExecute,karpenter.sh/unregistered=:NoExecute" {
		t.Errorf("bottlerocket flags %q", out.Flags)
	}
	if p := out.Positions["registerWithTaints"]; p.Line != 12 || p.Column != 7 {
		t.Errorf("registerWithTaints at %s", p)
	}
	out = translate(t, suitePool+nodeClassYAML("al2023@latest", "", ""), suiteSet)
	if got := jsonOf(t, out.DropIns[0].Data)["registerWithTaints"]; !reflect.DeepEqual(got, want) {
		t.Errorf("al2023 taints %v", got)
	}
	out = translate(t, suitePool+nodeClassYAML("al2@latest", "", ""), suiteSet)
	if out.Flags[0] != "--register-with-taints=foo=bar:NoExecute,baz=bin:NoExecute,karpenter.sh/unregistered:NoExecute" {
		t.Errorf("al2 flags %q", out.Flags)
	}
	// Another EC2NodeClass's pool gives nothing.
	out = translate(t, strings.Replace(suitePool, "name: test", "name: other", 1)+nodeClassYAML("bottlerocket@latest", "", ""), suiteSet)
	if out.Flags[0] != "--register-with-taints=karpenter.sh/unregistered=:NoExecute" {
		t.Errorf("other pool: flags %q", out.Flags)
	}
}

// TestCustom: amiFamily Custom passes spec.userData as is; spec.kubelet's
// fields are KC9003 and nothing is at boot.
func TestCustom(t *testing.T) {
	data := "apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\nmetadata:\n  name: c\nspec:\n  amiFamily: Custom\n  amiSelectorTerms:\n  - id: ami-123\n  kubelet:\n    maxPods: 20\n"
	out := translate(t, data, bootstrap.Options{})
	if len(out.Findings) != 1 || out.Findings[0].Rule != bootstrap.Drops.ID || out.Findings[0].Line != 10 || len(out.AtBoot) != 0 {
		t.Errorf("findings %+v at boot %v", out.Findings, out.AtBoot)
	}
}

// TestAL2023AtBootReplaces: Karpenter's maxPods, known only at launch,
// replaces the user data's maxPods: 42, so the drop-in has neither (KC9004
// and Karpenter's KC9002), and keeps the user's other keys.
func TestAL2023AtBootReplaces(t *testing.T) {
	ud := "apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  kubelet:\n    config:\n      maxPods: 42\n      shutdownGracePeriod: 30s\n"
	out := translate(t, nodeClassYAML("al2023@latest", "", ud), bootstrap.Options{})
	got := jsonOf(t, out.DropIns[0].Data)
	if _, ok := got["maxPods"]; ok || got["shutdownGracePeriod"] != "30s" {
		t.Errorf("drop-in %v", got)
	}
	if p := out.Positions["shutdownGracePeriod"]; p.Line != 15 || p.Column != 11 {
		t.Errorf("shutdownGracePeriod at %s", p)
	}
	if _, ok := out.Positions["maxPods"]; ok {
		t.Errorf("maxPods has a position %s; it is Karpenter's, at launch", out.Positions["maxPods"])
	}
}

// TestWindowsFamilies: a Windows AMI family (by alias or amiFamily) is a
// Windows node, its kubelet settings are Start-EKSBootstrap.ps1's
// -KubeletExtraArgs (podsPerCore included: PodsPerCoreEnabled), the keys the
// family cannot apply are refused as for AL2, and the Linux families say no OS.
func TestWindowsFamilies(t *testing.T) {
	kubelet := "    maxPods: 30\n    podsPerCore: 2\n    clusterDNS: [10.100.0.10]\n"
	tests := []struct {
		name, alias, kubelet string
		wantOS               kubelets.OS
		wantFlags            []string
		wantRefused          string
	}{
		{"windows2022 alias", "windows2022@latest", kubelet, kubelets.Windows,
			[]string{"--cgroups-per-qos=false", "--enforce-node-allocatable=", "--register-with-taints=karpenter.sh/unregistered:NoExecute", "--max-pods=30", "--pods-per-core=2"}, ""},
		{"windows2019, an unmanaged key", "windows2019@latest", kubelet + "    cpuManagerPolicy: static\n", kubelets.Windows, nil, "cpuManagerPolicy"},
		{"al2 is Linux", "al2@latest", kubelet, "",
			[]string{"--register-with-taints=karpenter.sh/unregistered:NoExecute", "--max-pods=30", "--pods-per-core=2"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := translate(t, nodeClassYAML(tt.alias, tt.kubelet, ""), bootstrap.Options{})
			if out.OS != tt.wantOS {
				t.Errorf("OS %q, want %q", out.OS, tt.wantOS)
			}
			if tt.wantOS == kubelets.Windows && (out.Config == nil || out.Config.Path != windowsKubeletConfig || !strings.Contains(out.OSFrom, tt.alias)) {
				t.Errorf("config %+v, OS from %q", out.Config, out.OSFrom)
			}
			if tt.wantFlags != nil && !reflect.DeepEqual(out.Flags, tt.wantFlags) {
				t.Errorf("flags %q, want %q", out.Flags, tt.wantFlags)
			}
			refused := ""
			for _, f := range out.Findings {
				if f.Rule == bootstrap.Refuses.ID && strings.Contains(f.Message, "not applied by the") {
					refused = f.Message
				}
			}
			if (tt.wantRefused == "") != (refused == "") || !strings.Contains(refused, tt.wantRefused) {
				t.Errorf("refusal %q, want one naming %q", refused, tt.wantRefused)
			}
			if cfg := jsonOf(t, out.Config.Data); !jsonEqual(cfg["clusterDNS"], []string{"10.100.0.10"}) {
				t.Errorf("clusterDNS %v", cfg["clusterDNS"])
			}
		})
	}
}

// TestDocumentsParsedOnce: a file's documents are parsed once and shared
// (a file is translated once per minor); an EC2NodeClass before a document
// that does not parse is still read, one after it is not, and the error is
// the parser's, as when each call parsed the file itself.
func TestDocumentsParsedOnce(t *testing.T) {
	const class = "apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\nmetadata:\n  name: a\n"
	a, errA := documents([]byte(class))
	b, errB := documents([]byte(class))
	if errA != nil || errB != nil || len(a) != 1 || a[0] != b[0] {
		t.Fatalf("twice: %p %v, %p %v", a, errA, b, errB)
	}
	tests := []struct {
		name, data string
		found      bool
		err        string
	}{
		{"the class, then a broken document", class + "---\nkind: [\n", true, ""},
		{"a broken document, then the class", "kind: [\n---\n" + class, false, "did not find expected node content"},
		{"no class", "apiVersion: v1\nkind: ConfigMap\n", false, "no karpenter.k8s.aws/v1 EC2NodeClass document"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, err := nodeClass([]byte(tt.data))
			if (root != nil) != tt.found || (tt.err == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tt.err) {
				t.Errorf("nodeClass: %v, %v", root != nil, err)
			}
		})
	}
	j := []byte(`{"apiVersion":"node.eks.aws/v1alpha1","kind":"NodeConfig","spec":{"kubelet":{"config":{"maxPods":110}}}}`)
	want, _ := sigsyaml.JSONToYAML(j)
	for range 2 {
		if got, err := jsonToYAML(j); err != nil || string(got) != string(want) {
			t.Errorf("jsonToYAML: %q, %v; want %q", got, err, want)
		}
	}
}
