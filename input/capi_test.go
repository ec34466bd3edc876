package input

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	sigsyaml "sigs.k8s.io/yaml"

	kf "github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/input/bootstrap"
	"github.com/kubeletcfg/kubeletcfg/input/capi"
	"github.com/kubeletcfg/kubeletcfg/input/kubeadm"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/rule"
)

const capiTestdata = "../testdata/bootstrappers/capi/"

// capiKubeadmConfigYAML is where kubeadm writes the kubelet's configuration.
const capiKubeadmConfigYAML = "/var/lib/kubelet/config.yaml"

func capiTranslate(t *testing.T, name, data, minor string) *bootstrap.Output {
	t.Helper()
	out, err := capi.Translate(name, []byte(data), bootstrap.Options{Minor: minor})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func capiFixture(t *testing.T, name, minor string) *bootstrap.Output {
	t.Helper()
	data, err := os.ReadFile(capiTestdata + name)
	if err != nil {
		t.Fatal(err)
	}
	if !capi.Detect(name, data) {
		t.Fatalf("%s: capi.Detect = false", name)
	}
	return capiTranslate(t, name, string(data), minor)
}

// asJSON decodes a YAML or JSON document for a semantic comparison.
func asJSON(t *testing.T, doc []byte) map[string]any {
	t.Helper()
	j, err := sigsyaml.YAMLToJSON(doc)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(j, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// kubeadmWrites is the kubelet configuration kubeadm writes at minor with
// its default networking, patched with patch (JSON, strategic merge of
// plain maps) and containerRuntimeEndpoint set.
func kubeadmWrites(t *testing.T, minor string, set map[string]any) map[string]any {
	t.Helper()
	m, err := kubelets.Lookup(minor)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := kubeadm.KubeletConfigAt(nil, kubeadm.DefaultNetworking(), KubeadmOptions{}, m)
	if err != nil {
		t.Fatal(err)
	}
	want := asJSON(t, doc)
	for k, v := range set {
		if v == nil {
			delete(want, k)
		} else {
			want[k] = v
		}
	}
	return want
}

var (
	capiBase     = []string{"--bootstrap-kubeconfig=/etc/kubernetes/bootstrap-kubelet.conf", "--kubeconfig=/etc/kubernetes/kubelet.conf"}
	capiTaint    = "--register-with-taints=node.cluster.x-k8s.io/uninitialized:NoSchedule"
	capiReserved = []string{"--kube-reserved=cpu=1,memory=2Gi,ephemeral-storage=1Gi", "--system-reserved=cpu=500m,memory=1Gi,ephemeral-storage=1Gi", "--eviction-hard=memory.available<500Mi,nodefs.available<10%"}
	capiPatch    = map[string]any{
		"kubeReserved":   map[string]any{"cpu": "1", "memory": "2Gi", "ephemeral-storage": "1Gi"},
		"systemReserved": map[string]any{"cpu": "500m", "memory": "1Gi", "ephemeral-storage": "1Gi"},
		"evictionHard":   map[string]any{"memory.available": "500Mi", "nodefs.available": "10%"},
	}
	containerd = "unix:///var/run/containerd/containerd.sock"
)

func with(base map[string]any, kv ...any) map[string]any {
	out := map[string]any{}
	for k, v := range base {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i].(string)] = kv[i+1]
	}
	return out
}

// TestCAPIFixtures is the peer suite: CAPI's book examples and e2e
// templates, with the flags and kubelet configuration kubeadm writes from
// the kubeadm YAML CAPI generates.
func TestCAPIFixtures(t *testing.T) {
	for _, tt := range []struct {
		fixture, minor string
		flags          []string
		configPath     string
		config         map[string]any // nil: the file's own KubeletConfiguration (files-config)
		atBoot         bool
	}{
		{"extra-args-kcpt.yaml", "1.37", append(slices.Clone(capiBase), capiReserved...), capiKubeadmConfigYAML, map[string]any{"containerRuntimeEndpoint": containerd}, false},
		{"extra-args-kct.yaml", "1.37", append(append(slices.Clone(capiBase), capiTaint), capiReserved...), capiKubeadmConfigYAML, map[string]any{"containerRuntimeEndpoint": containerd}, false},
		// v1beta1's map: sorted by name (ConvertToArgs).
		{"v1beta1-extra-args-kct.yaml", "1.37", append(slices.Clone(capiBase), capiTaint, capiReserved[2], capiReserved[0], capiReserved[1]), capiKubeadmConfigYAML, map[string]any{"containerRuntimeEndpoint": containerd}, false},
		{"patch-kcpt.yaml", "1.37", capiBase, capiKubeadmConfigYAML, with(capiPatch, "containerRuntimeEndpoint", containerd), false},
		{"patch-kct.yaml", "1.37", append(slices.Clone(capiBase), capiTaint), capiKubeadmConfigYAML, with(capiPatch, "containerRuntimeEndpoint", containerd), false},
		{"files-config-kcpt.yaml", "1.37", capiBase, "/etc/kubernetes/kubelet/config.yaml", nil, false},
		{"files-config-kct.yaml", "1.37", append(slices.Clone(capiBase), capiTaint), "/etc/kubernetes/kubelet/config.yaml", nil, false},
		// No criSocket: kubeadm's zero value stays (kubeadm detects the socket on the node).
		{"md-ipv6.yaml", "1.37", append(slices.Clone(capiBase), capiTaint, "--node-ip=::"), capiKubeadmConfigYAML, map[string]any{}, true},
		{"kcp-ipv6.yaml", "1.37", append(slices.Clone(capiBase), "--node-ip=::"), capiKubeadmConfigYAML, map[string]any{}, true},
		// kubeadm 1.33: the CRI socket and the pause image as flags (NodeLocalCRISocket off).
		{"extra-args-kct.yaml", "1.33", append(append(slices.Clone(capiBase), "--container-runtime-endpoint="+containerd, "--pod-infra-container-image=registry.k8s.io/pause:3.10", capiTaint), capiReserved...), capiKubeadmConfigYAML, map[string]any{}, false},
		// kubeadm 1.34: NodeLocalCRISocket on, the pause image 3.10.1 still a flag.
		{"patch-kct.yaml", "1.34", append(slices.Clone(capiBase), "--pod-infra-container-image=registry.k8s.io/pause:3.10.1", capiTaint), capiKubeadmConfigYAML, with(capiPatch, "containerRuntimeEndpoint", containerd), false},
	} {
		t.Run(tt.fixture+"@"+tt.minor, func(t *testing.T) {
			out := capiFixture(t, tt.fixture, tt.minor)
			if !reflect.DeepEqual(out.Flags, tt.flags) {
				t.Errorf("flags\n got %q\nwant %q", out.Flags, tt.flags)
			}
			if len(out.FlagPositions) != len(out.Flags) || len(out.FlagNotes) != len(out.Flags) {
				t.Errorf("%d flags, %d positions, %d notes", len(out.Flags), len(out.FlagPositions), len(out.FlagNotes))
			}
			if out.Config == nil || out.Config.Path != tt.configPath {
				t.Fatalf("config %+v, want at %s", out.Config, tt.configPath)
			}
			var want map[string]any
			if tt.config == nil {
				data, _ := os.ReadFile(capiTestdata + tt.fixture)
				want = asJSON(t, []byte(capiBlock(string(data))))
			} else {
				want = kubeadmWrites(t, tt.minor, tt.config)
			}
			if got := asJSON(t, out.Config.Data); !reflect.DeepEqual(got, want) {
				gj, _ := json.Marshal(got)
				wj, _ := json.Marshal(want)
				t.Errorf("config\n got %s\nwant %s", gj, wj)
			}
			if _, ok := out.AtBoot["containerRuntimeEndpoint"]; ok != tt.atBoot {
				t.Errorf("AtBoot %v", out.AtBoot)
			}
			for _, f := range out.Findings {
				if f.Rule != "KC9004" {
					t.Errorf("unexpected finding %s %s: %s", f.Rule, f.Position, f.Message)
				}
			}
		})
	}
}

// capiBlock is the first files[] content block of a manifest, dedented.
func capiBlock(data string) string {
	_, rest, _ := strings.Cut(data, "content: |\n")
	lines := strings.Split(rest, "\n")
	indent := len(lines[0]) - len(strings.TrimLeft(lines[0], " "))
	var b strings.Builder
	for _, l := range lines {
		if strings.TrimSpace(l) != "" && len(l)-len(strings.TrimLeft(l, " ")) < indent {
			break
		}
		if len(l) >= indent {
			l = l[indent:]
		}
		b.WriteString(l + "\n")
	}
	return b.String()
}

const capiKCT = `apiVersion: bootstrap.cluster.x-k8s.io/v1beta2
kind: KubeadmConfigTemplate
metadata:
  name: workers
spec:
  template:
    spec:
`

// TestCAPIFindings: a failing and a passing case for every finding the
// translator emits.
func TestCAPIFindings(t *testing.T) {
	for _, tt := range []struct {
		name, spec string
		rule       string // "": no finding but KC9004s
		line, col  int
		path       string
	}{
		{"unique kubeletExtraArgs", "      joinConfiguration:\n        nodeRegistration:\n          criSocket: unix:///run/containerd/containerd.sock\n          kubeletExtraArgs:\n          - name: max-pods\n            value: \"50\"\n          - name: node-labels\n            value: a=b\n", "", 0, 0, ""},
		{"kubeletExtraArgs name twice (CEL)", "      joinConfiguration:\n        nodeRegistration:\n          criSocket: unix:///run/containerd/containerd.sock\n          kubeletExtraArgs:\n          - name: max-pods\n            value: \"50\"\n          - name: max-pods\n            value: \"60\"\n", "KC9001", 14, 19, ""},
		{"content and contentFrom (webhook)", "      files:\n      - path: /etc/a\n        content: x\n        contentFrom:\n          secret:\n            name: s\n            key: k\n      joinConfiguration:\n        nodeRegistration:\n          criSocket: unix:///run/containerd/containerd.sock\n", "KC9001", 11, 9, ""},
		{"path twice (webhook)", "      files:\n      - path: /etc/a\n        content: x\n      - path: /etc/a\n        content: y\n      joinConfiguration:\n        nodeRegistration:\n          criSocket: unix:///run/containerd/containerd.sock\n", "KC9001", 11, 15, ""},
		{"bad patch type (kubeadm)", "      files:\n      - path: /etc/kubernetes/patches/kubeletconfiguration+foo.yaml\n        content: |\n          maxPods: 10\n      joinConfiguration:\n        nodeRegistration:\n          criSocket: unix:///run/containerd/containerd.sock\n        patches:\n          directory: /etc/kubernetes/patches\n", "KC9001", 9, 15, ""},
		{"extra arg replaces kubeadm's taints flag", "      joinConfiguration:\n        nodeRegistration:\n          criSocket: unix:///run/containerd/containerd.sock\n          kubeletExtraArgs:\n          - name: register-with-taints\n            value: dedicated=gpu:NoSchedule\n", "KC9002", 12, 19, ""},
		{"patch sets containerRuntimeEndpoint under criSocket", "      files:\n      - path: /etc/kubernetes/patches/kubeletconfiguration.yaml\n        content: |\n          containerRuntimeEndpoint: unix:///run/crio/crio.sock\n      joinConfiguration:\n        nodeRegistration:\n          criSocket: unix:///run/containerd/containerd.sock\n        patches:\n          directory: /etc/kubernetes/patches\n", "KC9002", 11, 11, "containerRuntimeEndpoint"},
		{"patch without patches.directory", "      files:\n      - path: /etc/kubernetes/patches/kubeletconfiguration.yaml\n        content: |\n          maxPods: 10\n      joinConfiguration:\n        nodeRegistration:\n          criSocket: unix:///run/containerd/containerd.sock\n", "KC9003", 9, 15, ""},
		{"patch with the wrong extension", "      files:\n      - path: /etc/kubernetes/patches/kubeletconfiguration.yml\n        content: |\n          maxPods: 10\n      joinConfiguration:\n        nodeRegistration:\n          criSocket: unix:///run/containerd/containerd.sock\n        patches:\n          directory: /etc/kubernetes/patches\n", "KC9003", 9, 15, ""},
		{"KubeletConfiguration file nothing names", "      files:\n      - path: /etc/kubernetes/kubelet.yaml\n        content: |\n          apiVersion: kubelet.config.k8s.io/v1beta1\n          kind: KubeletConfiguration\n      joinConfiguration:\n        nodeRegistration:\n          criSocket: unix:///run/containerd/containerd.sock\n", "KC9003", 9, 15, ""},
		{"kubeletExtraArgs value not a string (CRD schema)", "      joinConfiguration:\n        nodeRegistration:\n          criSocket: unix:///run/containerd/containerd.sock\n          kubeletExtraArgs:\n          - name: max-pods\n            value: 50\n", "KC9001", 13, 20, ""},
		{"misspelled kubeletExtraArgs (pruned)", "      joinConfiguration:\n        nodeRegistration:\n          criSocket: unix:///run/containerd/containerd.sock\n          kubeletExtraArg:\n          - name: max-pods\n            value: \"50\"\n", "KC9003", 11, 11, ""},
		{"extra arg rendered at boot", "      joinConfiguration:\n        nodeRegistration:\n          criSocket: unix:///run/containerd/containerd.sock\n          kubeletExtraArgs:\n          - name: node-ip\n            value: '{{ ds.meta_data.local_ipv4 }}'\n", "KC9004", 12, 19, ""},
		{"node name rendered at boot", "      joinConfiguration:\n        nodeRegistration:\n          criSocket: unix:///run/containerd/containerd.sock\n          name: '{{ ds.meta_data.local_hostname }}'\n", "KC9004", 11, 17, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out := capiTranslate(t, "m.yaml", capiKCT+tt.spec, "1.37")
			var got []kf.Finding
			for _, f := range out.Findings {
				if tt.rule == "" && f.Rule == "KC9004" {
					continue
				}
				got = append(got, f)
			}
			if tt.rule == "" {
				if len(got) > 0 {
					t.Fatalf("findings %+v", got)
				}
				return
			}
			if len(got) != 1 && tt.rule != "KC9004" {
				t.Fatalf("want one %s, got %+v", tt.rule, got)
			}
			f := got[0]
			if f.Rule != tt.rule || f.Line != tt.line || f.Column != tt.col || f.Path != tt.path || f.File != "m.yaml" {
				t.Errorf("got %s at %s path %q (%s), want %s at %d:%d path %q", f.Rule, f.Position, f.Path, f.Message, tt.rule, tt.line, tt.col, tt.path)
			}
			if !strings.HasPrefix(f.Message, "Cluster API: ") || f.Hint == "" {
				t.Errorf("message %q hint %q", f.Message, f.Hint)
			}
			wantSev := map[string]kf.Severity{"KC9001": kf.Error, "KC9002": kf.Warning, "KC9003": kf.Warning, "KC9004": kf.Info}[tt.rule]
			if r, ok := rule.Lookup(f.Rule); f.Severity != wantSev || !ok || r.Severity != f.Severity {
				t.Errorf("severity %s (validate's %s: %+v)", f.Severity, f.Rule, r)
			}
		})
	}
}

// TestCAPIPositions: the generated config's values point into the user's
// manifest, at the key inside the files[] content block.
func TestCAPIPositions(t *testing.T) {
	out := capiFixture(t, "patch-kct.yaml", "1.37")
	// "memory": "2Gi" of kubeReserved is line 22, column 15 of the manifest.
	if p := out.Positions["kubeReserved[memory]"]; p != (kf.Position{File: "patch-kct.yaml", Line: 22, Column: 15}) {
		t.Errorf("kubeReserved[memory] at %s", p)
	}
	out = capiFixture(t, "extra-args-kct.yaml", "1.37")
	i := slices.Index(out.Flags, capiReserved[0])
	if p := out.FlagPositions[i]; p.Line != 14 || p.Column != 21 {
		t.Errorf("--kube-reserved at %s", p)
	}
	// A YAML patch's key: the line and column of maxPods in the block.
	out = capiTranslate(t, "m.yaml", capiKCT+"      files:\n      - path: /p/kubeletconfiguration+merge.yaml\n        content: |\n          maxPods: 10\n      joinConfiguration:\n        nodeRegistration:\n          criSocket: unix:///run/containerd/containerd.sock\n        patches:\n          directory: /p/\n", "1.37")
	if p := out.Positions["maxPods"]; p.Line != 11 || p.Column != 11 {
		t.Errorf("maxPods at %s", p)
	}
	if got := asJSON(t, out.Config.Data)["maxPods"]; got != float64(10) {
		t.Errorf("maxPods = %v", got)
	}
}

// TestCAPIControlPlaneVersion: a KubeadmControlPlane's spec.version picks
// the minor; below 1.22 CAPI refuses.
func TestCAPIControlPlaneVersion(t *testing.T) {
	kcp := "apiVersion: controlplane.cluster.x-k8s.io/v1beta2\nkind: KubeadmControlPlane\nmetadata:\n  name: cp\nspec:\n  version: %s\n  kubeadmConfigSpec:\n    initConfiguration:\n      nodeRegistration:\n        criSocket: unix:///run/containerd/containerd.sock\n"
	out := capiTranslate(t, "kcp.yaml", strings.Replace(kcp, "%s", "v1.33.2", 1), "")
	if out.KubeletVersion != "v1.33.2" || !slices.Contains(out.Flags, "--container-runtime-endpoint=unix:///run/containerd/containerd.sock") {
		t.Errorf("1.33: %s %q", out.KubeletVersion, out.Flags)
	}
	out = capiTranslate(t, "kcp.yaml", strings.Replace(kcp, "%s", "v1.21.0", 1), "1.37")
	if len(out.Findings) != 1 || out.Findings[0].Rule != "KC9001" || out.Findings[0].Line != 6 {
		t.Errorf("1.21: %+v", out.Findings)
	}
	if capi.Detect("x.yaml", []byte("apiVersion: cluster.x-k8s.io/v1beta2\nkind: Cluster\n")) {
		t.Error("a Cluster alone is not a kubeadm bootstrap document")
	}
	if _, err := capi.Translate("x.yaml", []byte("kind: Cluster\n"), bootstrap.Options{}); err == nil || !strings.HasPrefix(err.Error(), "x.yaml: ") {
		t.Errorf("err %v", err)
	}
}

// TestCAPIClusterAndDropIns: a Cluster in the same file gives kubeadm its
// service subnet and DNS domain (computeClusterConfigurationAndAdditionalData);
// a config-dir extra arg takes files[]' .conf files as drop-ins; config=
// with patches is a KC9003 on the patches; --set fills a templated arg.
func TestCAPIClusterAndDropIns(t *testing.T) {
	cluster := "apiVersion: cluster.x-k8s.io/v1beta2\nkind: Cluster\nmetadata:\n  name: c\nspec:\n  clusterNetwork:\n    serviceDomain: corp.internal\n    services:\n      cidrBlocks: [10.128.0.0/12]\n---\n"
	out := capiTranslate(t, "m.yaml", cluster+capiKCT+"      joinConfiguration:\n        nodeRegistration:\n          criSocket: unix:///run/containerd/containerd.sock\n", "1.37")
	got := asJSON(t, out.Config.Data)
	if !reflect.DeepEqual(got["clusterDNS"], []any{"10.128.0.10"}) || got["clusterDomain"] != "corp.internal" {
		t.Errorf("clusterDNS %v clusterDomain %v", got["clusterDNS"], got["clusterDomain"])
	}
	spec := "      files:\n      - path: /etc/kubernetes/kubelet.conf.d/50-swap.conf\n        content: |\n          apiVersion: kubelet.config.k8s.io/v1beta1\n          kind: KubeletConfiguration\n          failSwapOn: false\n" +
		"      joinConfiguration:\n        nodeRegistration:\n          criSocket: unix:///run/containerd/containerd.sock\n          kubeletExtraArgs:\n          - name: config-dir\n            value: /etc/kubernetes/kubelet.conf.d\n          - name: node-ip\n            value: '{{ ds.meta_data.local_ipv4 }}'\n"
	out, err := capi.Translate("m.yaml", []byte(capiKCT+spec), bootstrap.Options{Minor: "1.37", Set: map[string]string{"node-ip": "10.0.0.5"}})
	if err != nil {
		t.Fatal(err)
	}
	if out.ConfigDir != "/etc/kubernetes/kubelet.conf.d" || len(out.DropIns) != 1 || asJSON(t, out.DropIns[0].Data)["failSwapOn"] != false {
		t.Errorf("config dir %q drop-ins %+v", out.ConfigDir, out.DropIns)
	}
	if p := out.Positions["failSwapOn"]; p.Line != 13 || p.Column != 11 {
		t.Errorf("failSwapOn at %s", p)
	}
	if !slices.Contains(out.Flags, "--node-ip=10.0.0.5") || slices.ContainsFunc(out.Flags, func(f string) bool { return strings.HasPrefix(f, "--config-dir") }) {
		t.Errorf("flags %q", out.Flags)
	}
	for _, f := range out.Findings {
		t.Errorf("unexpected %s %s", f.Rule, f.Message)
	}
	spec = "      files:\n      - path: /etc/kubelet.yaml\n        content: |\n          apiVersion: kubelet.config.k8s.io/v1beta1\n          kind: KubeletConfiguration\n      - path: /p/kubeletconfiguration.yaml\n        content: |\n          maxPods: 10\n" +
		"      joinConfiguration:\n        nodeRegistration:\n          criSocket: unix:///run/containerd/containerd.sock\n          kubeletExtraArgs:\n          - name: config\n            value: /etc/kubelet.yaml\n        patches:\n          directory: /p\n"
	out = capiTranslate(t, "m.yaml", capiKCT+spec, "1.37")
	if out.Config.Path != "/etc/kubelet.yaml" || len(out.Findings) != 1 || out.Findings[0].Rule != "KC9003" || out.Findings[0].Line != 20 {
		t.Errorf("config %s findings %+v", out.Config.Path, out.Findings)
	}
}

// TestCAPIVariablesAndControlPlaneJoin: a clusterctl variable as the
// version is no kubelet version; a KubeadmConfig joining a control plane
// (joinConfiguration.controlPlane) gets no taint flag.
func TestCAPIVariablesAndControlPlaneJoin(t *testing.T) {
	kcp := "apiVersion: controlplane.cluster.x-k8s.io/v1beta2\nkind: KubeadmControlPlane\nmetadata:\n  name: cp\nspec:\n  version: \"${KUBERNETES_VERSION}\"\n  kubeadmConfigSpec:\n    initConfiguration:\n      nodeRegistration:\n        criSocket: unix:///run/containerd/containerd.sock\n"
	out := capiTranslate(t, "kcp.yaml", kcp, "")
	if out.KubeletVersion != "" || len(out.Findings) != 0 {
		t.Errorf("version %q findings %+v", out.KubeletVersion, out.Findings)
	}
	kc := "apiVersion: bootstrap.cluster.x-k8s.io/v1beta2\nkind: KubeadmConfig\nmetadata:\n  name: cp-1\nspec:\n  joinConfiguration:\n    controlPlane: {}\n    nodeRegistration:\n      criSocket: unix:///run/containerd/containerd.sock\n"
	out = capiTranslate(t, "kc.yaml", kc, "1.37")
	if !reflect.DeepEqual(out.Flags, capiBase) {
		t.Errorf("flags %q", out.Flags)
	}
}

// TestCAPIKubeadmGoldens: a Cluster API manifest holding a harness case's kubeadm
// configuration gets, at every minor, the kubeadm-flags.env kubeadm itself wrote for
// the case (testdata/kubeadm/golden/<minor>/NAME.flags.env) after 10-kubeadm.conf's
// flags, and config.yaml the instance configuration's endpoint: CAPI's flags are
// kubeadm's port's. A worker's taints get CAPI's uninitialized taint.
func TestCAPIKubeadmGoldens(t *testing.T) {
	kcp := `apiVersion: controlplane.cluster.x-k8s.io/v1beta2
kind: KubeadmControlPlaneTemplate
metadata:
  name: cp
spec:
  template:
    spec:
      kubeadmConfigSpec:
        clusterConfiguration:
          imageRepository: registry.example.com
        initConfiguration:
          localAPIEndpoint:
            advertiseAddress: 192.0.2.10
          nodeRegistration:
            name: cp-1.example.internal
            criSocket: unix:///run/containerd/containerd.sock
            kubeletExtraArgs:
            - name: node-labels
              value: node-role.kubernetes.io/control-plane=,tier=gold
            - name: max-pods
              value: "150"
            - name: v
              value: "2"
            - name: pod-infra-container-image
              value: registry.example.com/pause:3.9
`
	kct := capiKCT + `      joinConfiguration:
        nodeRegistration:
          name: worker-7
          criSocket: unix:///run/containerd/containerd.sock
          taints:
          - key: dedicated
            value: gpu
            effect: NoSchedule
          kubeletExtraArgs:
          - name: node-labels
            value: pool=gpu
          - name: max-pods
            value: "64"
`
	minors, err := os.ReadDir("../testdata/kubeadm/golden")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range minors {
		for _, tt := range []struct{ name, manifest string }{{"extra-args-v1beta4", kcp}, {"join-worker", kct}} {
			t.Run(m.Name()+"/"+tt.name, func(t *testing.T) {
				golden := "../testdata/kubeadm/golden/" + m.Name() + "/" + tt.name
				env, err := os.ReadFile(golden + ".flags.env")
				if err != nil {
					t.Skip("kubeadm writes no flags for it at this minor")
				}
				args, err := strconv.Unquote(strings.TrimSpace(strings.TrimPrefix(string(env), "KUBELET_KUBEADM_ARGS=")))
				if err != nil {
					t.Fatal(err)
				}
				want := slices.Clone(capiBase)
				for _, f := range strings.Fields(args) {
					if v, ok := strings.CutPrefix(f, "--register-with-taints="); ok {
						f = "--register-with-taints=" + v + ",node.cluster.x-k8s.io/uninitialized:NoSchedule"
					}
					want = append(want, f)
				}
				out := capiTranslate(t, "m.yaml", tt.manifest, m.Name())
				if !reflect.DeepEqual(out.Flags, want) {
					t.Errorf("flags\n got %q\nwant %q", out.Flags, want)
				}
				endpoint := asJSON(t, out.Config.Data)["containerRuntimeEndpoint"]
				if ic, err := os.ReadFile(golden + ".instance-config.yaml"); err == nil {
					if w := asJSON(t, ic)["containerRuntimeEndpoint"]; endpoint != w {
						t.Errorf("containerRuntimeEndpoint %v, instance-config.yaml %v", endpoint, w)
					}
				} else if endpoint != "" {
					t.Errorf("containerRuntimeEndpoint %v without an instance configuration", endpoint)
				}
			})
		}
	}
}

// TestCAPIKubeadmFindings: what kubeadm of each minor says of the configuration CAPI
// writes comes from kubeadm's port (kubeadm.Node.Settle): the CRI socket it detects
// when criSocket is not set (KC9004, at the phase's key), and a featureGates entry
// kubeadm 1.37 does not know (KC9001, at the gate).
func TestCAPIKubeadmFindings(t *testing.T) {
	for _, tt := range []struct {
		name, manifest, minor, rule string
		line, col                   int
	}{
		{"criSocket not set", capiKCT + "      joinConfiguration:\n        nodeRegistration:\n          name: node-a\n", "1.37", "KC9004", 8, 7},
		{"criSocket set", capiKCT + "      joinConfiguration:\n        nodeRegistration:\n          criSocket: unix:///run/containerd/containerd.sock\n", "1.37", "", 0, 0},
		{"NodeLocalCRISocket gate at 1.37", "apiVersion: controlplane.cluster.x-k8s.io/v1beta2\nkind: KubeadmControlPlane\nmetadata:\n  name: cp\nspec:\n  kubeadmConfigSpec:\n    clusterConfiguration:\n      featureGates:\n        NodeLocalCRISocket: true\n    initConfiguration:\n      nodeRegistration:\n        criSocket: unix:///run/containerd/containerd.sock\n", "1.37", "KC9001", 9, 9},
		{"NodeLocalCRISocket gate at 1.35", "apiVersion: controlplane.cluster.x-k8s.io/v1beta2\nkind: KubeadmControlPlane\nmetadata:\n  name: cp\nspec:\n  kubeadmConfigSpec:\n    clusterConfiguration:\n      featureGates:\n        NodeLocalCRISocket: true\n    initConfiguration:\n      nodeRegistration:\n        criSocket: unix:///run/containerd/containerd.sock\n", "1.35", "", 0, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, err := ConvertOptions("m.yaml", []byte(tt.manifest), "cluster-api", Options{Minor: tt.minor})
			if err != nil {
				t.Fatal(err)
			}
			m, err := kubelets.Lookup(tt.minor)
			if err != nil {
				t.Fatal(err)
			}
			r := &Result{Minor: m}
			s.node.Settle(&r.Findings, r.Minor, s.pos)
			if tt.rule == "" {
				if len(r.Findings) > 0 {
					t.Fatalf("findings %+v", r.Findings)
				}
				return
			}
			if len(r.Findings) != 1 || r.Findings[0].Rule != tt.rule || r.Findings[0].Line != tt.line || r.Findings[0].Column != tt.col || r.Findings[0].File != "m.yaml" {
				t.Errorf("want %s at %d:%d, got %+v", tt.rule, tt.line, tt.col, r.Findings)
			}
		})
	}
}

// TestCAPIEmptySpec: a KubeadmConfigTemplate without spec (CAPI's own e2e
// bases/md.yaml) or with an empty template spec is a kubeadm join with
// kubeadm's defaults, not a crash.
func TestCAPIEmptySpec(t *testing.T) {
	for _, doc := range []string{
		"apiVersion: bootstrap.cluster.x-k8s.io/v1beta2\nkind: KubeadmConfigTemplate\nmetadata:\n  name: md-0\n",
		"apiVersion: bootstrap.cluster.x-k8s.io/v1beta2\nkind: KubeadmConfigTemplate\nmetadata:\n  name: md-0\nspec:\n  template:\n    spec: {}\n",
		"apiVersion: bootstrap.cluster.x-k8s.io/v1beta2\nkind: KubeadmConfig\nmetadata:\n  name: n\n",
	} {
		out := capiTranslate(t, "md.yaml", doc, "1.35")
		if out.Config == nil || !bytes.Contains(out.Config.Data, []byte("cgroupDriver: systemd")) {
			t.Errorf("%q: no kubeadm-defaulted config.yaml: %+v", doc, out.Config)
		}
	}
}
