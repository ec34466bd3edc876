package nodeadm

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/input/bootstrap"
)

// TestPositions: every field of spec.kubelet.config is positioned at its key
// in the user's file, through MIME parts (the line in the user data), and a
// finding on a value points there.
func TestPositions(t *testing.T) {
	data := userData(
		"Content-Type: text/x-shellscript\n\n#!/bin/bash\necho hello",
		"Content-Type: application/node.eks.aws\n\n"+nodeConfigYAML("  kubelet:\n    config:\n      featureGates:\n        NodeSwap: true\n      kubeReserved: {cpu: 100m}\n    flags:\n      - --v=4\n    maxPods: 3\n"))
	out, err := Translate("ud.txt", []byte(data), bootstrap.Options{Minor: "1.37"})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(data, "\n")
	at := func(line, col int) string { return fmt.Sprintf("ud.txt:%d:%d", line, col) }
	lineOf := func(s string) int {
		for i, l := range lines {
			if strings.Contains(l, s) {
				return i + 1
			}
		}
		t.Fatalf("no line %q", s)
		return 0
	}
	for path, want := range map[string]string{
		"featureGates":           at(lineOf("featureGates:"), 7),
		"featureGates[NodeSwap]": at(lineOf("NodeSwap: true"), 9),
		"kubeReserved[cpu]":      at(lineOf("kubeReserved: {cpu"), 22),
		"clusterDNS":             at(lineOf("cidr:"), 5), // nodeadm derives it from the CIDR
	} {
		if got := out.Positions[path].String(); got != want {
			t.Errorf("Positions[%s] = %s, want %s", path, got, want)
		}
	}
	if got := out.FlagPositions[len(out.FlagPositions)-1].String(); got != at(lineOf("- --v=4"), 9) || out.Flags[len(out.Flags)-1] != "--v=4" {
		t.Errorf("the user's flag %s at %s", out.Flags[len(out.Flags)-1], got)
	}
	f := findingWith(out, bootstrap.Drops.ID, `"spec.kubelet.maxPods"`)
	if f == nil || f.Position.String() != at(lineOf("    maxPods: 3"), 5) || !strings.Contains(f.Hint, "spec.kubelet.config") {
		t.Errorf("the misplaced maxPods: %+v", f)
	}
	// nodeadm's own gate beside the user's: a note of its own, no position.
	if _, ok := out.Positions["featureGates[RotateKubeletServerCertificate]"]; ok || !strings.Contains(out.Notes["featureGates[RotateKubeletServerCertificate]"], "defaultKubeletSubConfig") {
		t.Errorf("nodeadm's gate: position %v, note %q", out.Positions["featureGates[RotateKubeletServerCertificate]"], out.Notes["featureGates[RotateKubeletServerCertificate]"])
	}
	if out.Anchor.String() != at(lineOf("kind: NodeConfig"), 1) {
		t.Errorf("anchor %s", out.Anchor)
	}
}

// TestEncodedPart: a base64 (or gzip) part is decoded as nodeadm does; its
// positions are the part's Content-Type line.
func TestEncodedPart(t *testing.T) {
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	w.Write([]byte(nodeConfigYAML("  kubelet:\n    config:\n      maxPods: 17\n")))
	w.Close()
	data := userData("Content-Type: application/node.eks.aws\nContent-Transfer-Encoding: base64\n\n" + base64.StdEncoding.EncodeToString(gz.Bytes()))
	out, err := Translate("ud.txt", []byte(data), bootstrap.Options{Minor: "1.37"})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.DropIns) != 1 || !strings.Contains(string(out.DropIns[0].Data), `"maxPods": 17`) {
		t.Fatalf("drop-ins %+v", out.DropIns)
	}
	if got := out.Positions["maxPods"].String(); got != "ud.txt:5:1" {
		t.Errorf("maxPods at %s, want the part's Content-Type line ud.txt:5:1", got)
	}
}

// TestMerge is api/merge.go's semantics on NodeConfig parts: kubelet config
// objects merge deeply and later scalars and lists win, flags append, a
// later empty string does not clear, enableOutpost: false does not turn a
// true off, and the drop-in gets kind and apiVersion.
func TestMerge(t *testing.T) {
	part := func(spec string) string {
		return "Content-Type: application/node.eks.aws\n\napiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n" + spec
	}
	data := userData(
		part("  cluster:\n    name: a\n    apiServerEndpoint: https://x\n    certificateAuthority: Y2E=\n    cidr: 10.100.0.0/16\n    enableOutpost: true\n    id: abc\n  kubelet:\n    flags: [--v=2]\n    config:\n      evictionHard: {memory.available: 1Gi}\n      clusterDNS: [1.1.1.1, 2.2.2.2]\n      registerNode: true\n"),
		part("  cluster:\n    name: \"\"\n    enableOutpost: false\n  kubelet:\n    flags: [--v=3]\n    config:\n      evictionHard: {nodefs.available: 5%}\n      clusterDNS: [3.3.3.3]\n      registerNode: false\n"))
	out, err := Translate("ud.txt", []byte(data), bootstrap.Options{Minor: "1.37"})
	if err != nil {
		t.Fatal(err)
	}
	if f := findingWith(out, bootstrap.Refuses.ID, ""); f != nil {
		t.Fatalf("refused: %s", f.Message)
	}
	jsonEqual(t, "40-nodeadm.conf", out.DropIns[0].Data, []byte(`{"kind":"KubeletConfiguration","apiVersion":"kubelet.config.k8s.io/v1beta1",
		"evictionHard":{"memory.available":"1Gi","nodefs.available":"5%"},"clusterDNS":["3.3.3.3"],"registerNode":false}`))
	if n := len(out.Flags); out.Flags[n-2] != "--v=2" || out.Flags[n-1] != "--v=3" {
		t.Errorf("flags %q: want both parts' appended", out.Flags)
	}
	if !contains(out.Flags, "--bootstrap-kubeconfig=/var/lib/kubelet/bootstrap-kubeconfig") {
		t.Errorf("enableOutpost: false turned the first part's true off: %q", out.Flags)
	}
}

// TestFirstDocumentOnly: of a YAML stream nodeadm decodes the first
// document (sigs.k8s.io/yaml); the second is not merged.
func TestFirstDocumentOnly(t *testing.T) {
	data := nodeConfigYAML("  kubelet:\n    config:\n      maxPods: 10\n") + "---\napiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  kubelet:\n    config:\n      maxPods: 20\n"
	out, err := Translate("f.yaml", []byte(data), bootstrap.Options{Minor: "1.37"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out.DropIns[0].Data), `"maxPods": 10`) {
		t.Errorf("drop-in %s: want the first document's maxPods", out.DropIns[0].Data)
	}
}

// TestConfigJSON: nodeadm's config.json, field for field in its order, with
// the toggles of each kubelet version; JSON NodeConfigs read as YAML ones.
func TestConfigJSON(t *testing.T) {
	js, _ := json.Marshal(map[string]any{"apiVersion": "node.eks.aws/v1alpha1", "kind": "NodeConfig", "spec": map[string]any{
		"cluster": map[string]any{"name": "a", "apiServerEndpoint": "https://x", "certificateAuthority": "Y2E=", "cidr": "fd00:10::/108"}}})
	for _, tt := range []struct {
		minor          string
		dra, mutable   bool
		shutdownGraceP bool
	}{{"1.31", false, false, false}, {"1.33", true, false, false}, {"1.34", true, true, true}, {"1.38", true, true, true}} {
		out, err := Translate("f.json", js, bootstrap.Options{Minor: tt.minor})
		if err != nil {
			t.Fatal(err)
		}
		var kc map[string]any
		if err := json.Unmarshal(out.Config.Data, &kc); err != nil {
			t.Fatal(err)
		}
		gates := kc["featureGates"].(map[string]any)
		if gates["DynamicResourceAllocation"] == true != tt.dra || gates["MutableCSINodeAllocatableCount"] == true != tt.mutable || (kc["shutdownGracePeriod"] == "2m30s") != tt.shutdownGraceP {
			t.Errorf("%s: config.json %s", tt.minor, out.Config.Data)
		}
		if dns := kc["clusterDNS"].([]any); len(dns) != 1 || dns[0] != "fd00:10::a" {
			t.Errorf("%s: clusterDNS %v, want fd00:10::a (GetClusterDns for IPv6)", tt.minor, dns)
		}
		if len(out.DropIns) != 0 || contains(out.Flags, "--config-dir=/etc/kubernetes/kubelet/config.json.d") {
			t.Errorf("%s: no spec.kubelet.config, yet a drop-in or --config-dir", tt.minor)
		}
		if _, ok := out.AtBoot["maxPods"]; !ok {
			t.Errorf("%s: maxPods not at boot: %v", tt.minor, out.AtBoot)
		}
	}
	// json.MarshalIndent of config.go's struct: its field order.
	out, _ := Translate("f.json", js, bootstrap.Options{Minor: "1.37", Set: map[string]string{"maxPods": "29"}})
	s := string(out.Config.Data)
	if !strings.HasPrefix(s, "{\n    \"address\": \"0.0.0.0\",\n    \"authentication\": {") || !strings.HasSuffix(s, "\"kind\": \"KubeletConfiguration\",\n    \"apiVersion\": \"kubelet.config.k8s.io/v1beta1\"\n}") {
		t.Errorf("config.json not in nodeadm's order:\n%s", s)
	}
	if !strings.Contains(s, `"memory": "574Mi"`) {
		t.Errorf("kubeReserved memory for maxPods 29: want 11*29+255 = 574Mi:\n%s", s)
	}
}

func TestDetect(t *testing.T) {
	for _, tt := range []struct {
		data string
		want bool
	}{
		{nodeConfigYAML(""), true},
		{`{"apiVersion":"node.eks.aws/v1alpha1","kind":"NodeConfig"}`, true},
		{userData("Content-Type: application/node.eks.aws\n\n" + nodeConfigYAML("")), true},
		{userData("Content-Type: text/x-shellscript\n\n#!/bin/bash\n/etc/eks/bootstrap.sh my-cluster"), false},
		{"apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n", false},
		{"apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\n", false},
	} {
		if got := Detect("f", []byte(tt.data)); got != tt.want {
			t.Errorf("Detect(%.60q) = %v, want %v", tt.data, got, tt.want)
		}
	}
}

func TestTranslateErrors(t *testing.T) {
	_, err := Translate("f.yaml", []byte(nodeConfigYAML("")), bootstrap.Options{Minor: "1.37", Set: map[string]string{"maxPods": "many"}})
	if err == nil || !strings.HasPrefix(err.Error(), "f.yaml: ") || strings.Contains(err.Error(), "\n") {
		t.Errorf("bad --set: %v", err)
	}
	_, err = Translate("f.yaml", []byte(nodeConfigYAML("")), bootstrap.Options{Minor: "two"})
	if err == nil || !strings.HasPrefix(err.Error(), "f.yaml: ") {
		t.Errorf("bad minor: %v", err)
	}
	for _, junk := range []string{"", "\x00\x01", "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=x\n\n--x\nContent-Type: ;;;\n\nz\n--x--\n", ":\n- ["} {
		out, err := Translate("f.yaml", []byte(junk), bootstrap.Options{})
		if err != nil {
			t.Errorf("%q: %v (want a KC9001 finding)", junk, err)
			continue
		}
		if findingWith(out, bootstrap.Refuses.ID, "") == nil || out.Config != nil {
			t.Errorf("%q: want a refusal and no config: %v", junk, messages(out.Findings))
		}
	}
}

// TestCRLF: user data with CRLF line ends (as Windows editors and some
// generators write it) reads the same, at the same lines.
func TestCRLF(t *testing.T) {
	lf := userData("Content-Type: application/node.eks.aws\n\n" + nodeConfigYAML("  kubelet:\n    config:\n      maxPods: 17\n    flagz: []\n"))
	crlf := strings.ReplaceAll(lf, "\n", "\r\n")
	a, err := Translate("ud.txt", []byte(lf), bootstrap.Options{Minor: "1.37"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Translate("ud.txt", []byte(crlf), bootstrap.Options{Minor: "1.37"})
	if err != nil {
		t.Fatal(err)
	}
	jsonEqual(t, "drop-in", b.DropIns[0].Data, a.DropIns[0].Data)
	fa, fb := findingWith(a, bootstrap.Drops.ID, "flagz"), findingWith(b, bootstrap.Drops.ID, "flagz")
	if fa == nil || fb == nil || fa.Position != fb.Position || a.Positions["maxPods"] != b.Positions["maxPods"] {
		t.Errorf("LF %v %v, CRLF %v %v", fa, a.Positions["maxPods"], fb, b.Positions["maxPods"])
	}
}

// A gate entry the user's config writes and nodeadm's withVersionToggles
// writes too, at that minor, is WrittenToo: taking the user's out leaves
// nodeadm's.
func TestWrittenToo(t *testing.T) {
	const cfg = `apiVersion: node.eks.aws/v1alpha1
kind: NodeConfig
spec:
  cluster:
    name: c
    apiServerEndpoint: https://example.com
    certificateAuthority: Y2E=
    cidr: 10.100.0.0/16
  kubelet:
    config:
      featureGates:
        DynamicResourceAllocation: false
        NodeSwap: true
`
	for _, tc := range []struct {
		minor string
		want  []string
	}{
		{"1.32", nil}, // nodeadm writes DRA from 1.33 on
		{"1.33", []string{"featureGates[DynamicResourceAllocation]"}},
		{"1.37", []string{"featureGates[DynamicResourceAllocation]"}},
	} {
		out, err := Translate("nc.yaml", []byte(cfg), bootstrap.Options{Minor: tc.minor})
		if err != nil {
			t.Fatal(err)
		}
		got := slices.Sorted(maps.Keys(out.WrittenToo))
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: WrittenToo %v, want %v", tc.minor, got, tc.want)
		}
	}
}

// TestDecodeNodeConfigKept: a document decoded again answers as the first
// time (its strict errors, its error), with a copy of its own: a change to
// one answer (the merge writes into the first NodeConfig) is not seen in the
// next.
func TestDecodeNodeConfigKept(t *testing.T) {
	doc := []byte("apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  kubelet:\n    config:\n      maxPods: 58\n    flags: [--node-labels=a=b]\n  clusterr: {}\n")
	first, strict1, err1 := decodeNodeConfig(doc)
	if err1 != nil || len(strict1) != 1 || !strings.Contains(strict1[0].Error(), "clusterr") {
		t.Fatalf("first: %v, strict %v", err1, strict1)
	}
	first.Spec.Kubelet.Flags[0] = "--changed"
	delete(first.Spec.Kubelet.Config, "maxPods")
	again, strict2, err2 := decodeNodeConfig(doc)
	if err2 != nil || len(strict2) != 1 || again == first {
		t.Fatalf("again: %v, strict %v, the same pointer %v", err2, strict2, again == first)
	}
	if again.Spec.Kubelet.Flags[0] != "--node-labels=a=b" || string(again.Spec.Kubelet.Config["maxPods"].Raw) != "58" {
		t.Errorf("the kept decoding was changed through an answer: flags %q, config %v", again.Spec.Kubelet.Flags, again.Spec.Kubelet.Config)
	}
	bad := []byte("apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec: [\n")
	for range 2 {
		if cfg, _, err := decodeNodeConfig(bad); cfg != nil || err == nil || !strings.Contains(err.Error(), "failed to decode node config") {
			t.Errorf("a document that does not parse: %v, %v", cfg, err)
		}
	}
}
