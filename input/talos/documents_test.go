package talos

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/input/bootstrap"
)

const v1alpha1Worker = "version: v1alpha1\nmachine:\n  type: worker\ncluster:\n  controlPlane:\n    endpoint: https://cp:6443\n"

// TestDocuments: Talos v1.14.0-rc.1 reads the kubelet's settings from the
// KubeletConfig, KubeNodeConfig, KubeNetworkConfig and
// KubeCredentialProviderConfig documents (the document wins over the v1alpha1
// fields, which it refuses beside it), and refuses kinds its registry does
// not know.
func TestDocuments(t *testing.T) {
	for _, tc := range []struct {
		name, file string
		refused    []string // parts of KC9001 messages, one each
		want       map[string]any
		absent     []string
	}{
		{name: "network document gives domain and DNS", file: v1alpha1Worker +
			"---\napiVersion: v1alpha1\nkind: KubeNetworkConfig\ndnsDomain: corp.example\npodSubnets: [10.244.0.0/16]\nserviceSubnets: [10.100.0.0/16]\n",
			want: map[string]any{"clusterDomain": "corp.example", "clusterDNS": []any{"10.100.0.10"}, "staticPodPath": "/etc/kubernetes/manifests"}},
		{name: "no network at all: no kubelet", file: v1alpha1Worker,
			refused: []string{"neither cluster.network nor a KubeNetworkConfig document"}},
		{name: "network beside cluster.network", file: "version: v1alpha1\nmachine: {type: worker}\ncluster:\n  network:\n    dnsDomain: old.example\n" +
			"---\napiVersion: v1alpha1\nkind: KubeNetworkConfig\ndnsDomain: new.example\npodSubnets: [10.244.0.0/16]\nserviceSubnets: [10.96.0.0/12]\n",
			refused: []string{"cluster network config is already set in the v1alpha1 config (.machine.cluster.network). Please remove it and use only the new KubeNetworkConfig document to avoid conflicts"},
			want:    map[string]any{"clusterDomain": "new.example"}},
		{name: "kubelet document", file: "version: v1alpha1\nmachine: {type: worker}\ncluster:\n  network: {serviceSubnets: [10.96.0.0/12]}\n" +
			"---\napiVersion: v1alpha1\nkind: KubeletConfig\nimage: ghcr.io/siderolabs/kubelet:v1.37.0\nclusterDNS: [169.254.2.53]\ndefaultRuntimeSeccompProfileEnabled: true\nconfig:\n  maxPods: 150\n",
			want:   map[string]any{"clusterDNS": []any{"169.254.2.53"}, "seccompDefault": true, "maxPods": float64(150)},
			absent: []string{"staticPodPath"}},
		{name: "kubelet document beside machine.kubelet", file: "version: v1alpha1\nmachine:\n  type: worker\n  kubelet:\n    defaultRuntimeSeccompProfileEnabled: false\ncluster:\n  network: {}\n" +
			"---\napiVersion: v1alpha1\nkind: KubeletConfig\nimage: ghcr.io/siderolabs/kubelet:v1.37.0\ndefaultRuntimeSeccompProfileEnabled: true\n",
			refused: []string{"kubelet config is already set in v1alpha1 config (.machine.kubelet)"},
			want:    map[string]any{"seccompDefault": true}},
		{name: "kubelet document without image", file: "version: v1alpha1\nmachine: {type: worker}\ncluster:\n  network: {}\n" +
			"---\napiVersion: v1alpha1\nkind: KubeletConfig\nconfig: {}\n",
			refused: []string{"KubeletConfig: kubelet image cannot be empty"}},
		{name: "kubelet document protected field", file: "version: v1alpha1\nmachine: {type: worker}\ncluster:\n  network: {}\n" +
			"---\napiVersion: v1alpha1\nkind: KubeletConfig\nimage: ghcr.io/siderolabs/kubelet:v1.37.0\nconfig:\n  seccompDefault: true\n",
			refused: []string{`field "seccompDefault" can't be overridden`}},
		{name: "unknown key in a document", file: "version: v1alpha1\nmachine: {type: worker}\ncluster:\n  network: {}\n" +
			"---\napiVersion: v1alpha1\nkind: KubeletConfig\nimage: ghcr.io/siderolabs/kubelet:v1.37.0\nextraConfig: {}\n",
			refused: []string{"unknown key extraConfig of the KubeletConfig document"}},
		{name: "unknown kind", file: "version: v1alpha1\nmachine: {type: worker}\ncluster:\n  network: {}\n" +
			"---\napiVersion: v1alpha1\nkind: KubeletConfg\nimage: x\n",
			refused: []string{`error decoding document v1alpha1/KubeletConfg/ (line 6): "KubeletConfg" "v1alpha1": not registered`}},
		{name: "missing apiVersion", file: "version: v1alpha1\nmachine: {type: worker}\ncluster:\n  network: {}\n" +
			"---\nkind: HostnameConfig\nauto: stable\n",
			refused: []string{"/HostnameConfig/ (line 6): missing apiVersion"}},
		{name: "node document: taints and skip registration", file: "version: v1alpha1\nmachine: {type: controlplane}\ncluster:\n  network: {}\n" +
			"---\napiVersion: v1alpha1\nkind: KubeNodeConfig\ntaints:\n  dedicated: gpu:NoExecute\n  zone: PreferNoSchedule\n",
			want: map[string]any{"registerWithTaints": []any{
				map[string]any{"key": "dedicated", "value": "gpu", "effect": "NoExecute"},
				map[string]any{"key": "zone", "effect": "PreferNoSchedule"}}}},
		{name: "node document: bad taint effect", file: "version: v1alpha1\nmachine: {type: worker}\ncluster:\n  network: {}\n" +
			"---\napiVersion: v1alpha1\nkind: KubeNodeConfig\ntaints:\n  dedicated: gpu:NoRun\n",
			refused: []string{`KubeNodeConfig: invalid node taints: invalid taint effect: "NoRun"`}},
		{name: "node document beside nodeTaints", file: "version: v1alpha1\nmachine:\n  type: worker\n  nodeTaints: {a: NoSchedule}\ncluster:\n  network: {}\n" +
			"---\napiVersion: v1alpha1\nkind: KubeNodeConfig\nskipNodeRegistration: true\n",
			refused: []string{".machine.nodeTaints is already set in v1alpha1 config"},
			want:    map[string]any{"authorization": map[string]any{"mode": "AlwaysAllow", "webhook": map[string]any{"cacheAuthorizedTTL": "0s", "cacheUnauthorizedTTL": "0s"}}}},
		{name: "v1alpha1 nodeTaints reach the kubelet from v1.14", file: "version: v1alpha1\nmachine:\n  type: controlplane\n  nodeTaints: {dedicated: gpu:NoSchedule}\ncluster:\n  network: {}\n",
			want: map[string]any{"registerWithTaints": []any{
				map[string]any{"key": "dedicated", "value": "gpu", "effect": "NoSchedule"},
				map[string]any{"key": "node-role.kubernetes.io/control-plane", "effect": "NoSchedule"}}}},
		{name: "network document refused", file: "version: v1alpha1\nmachine: {type: worker}\ncluster: {}\n" +
			"---\napiVersion: v1alpha1\nkind: KubeNetworkConfig\npodSubnets: [10.244.0.0/16]\nserviceSubnets: [10.0.0.0/8]\n",
			refused: []string{"KubeNetworkConfig: service subnets: invalid subnet: 10.0.0.0/8 is too large, it must be at least /12 (at most 20 host identifier bits)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := Translate("mc.yaml", []byte(tc.file), bootstrap.Options{Minor: "1.37"})
			if err != nil {
				t.Fatal(err)
			}
			refused := byRule(out, bootstrap.Refuses.ID)
			if len(refused) != len(tc.refused) {
				t.Errorf("%d KC9001, want %d: %v", len(refused), len(tc.refused), refused)
			}
			for i, w := range tc.refused {
				if i < len(refused) && (!strings.Contains(refused[i].Message, w) || refused[i].Line == 0 || refused[i].Hint == "") {
					t.Errorf("KC9001 %q at line %d hint %q, want one saying %q, at a line, with a hint", refused[i].Message, refused[i].Line, refused[i].Hint, w)
				}
			}
			got := generated(t, out)
			for k, w := range tc.want {
				if !reflect.DeepEqual(got[k], w) {
					t.Errorf("%s: %#v, want %#v", k, got[k], w)
				}
			}
			for _, k := range tc.absent {
				if v, ok := got[k]; ok {
					t.Errorf("%s written: %v", k, v)
				}
			}
		})
	}
}

// TestDocumentsAtV113: Talos v1.13.9's registry knows none of the kubelet's
// documents: the decoder refuses the file, and the v1alpha1 fields are what
// the rest is checked with; nodeTaints do not reach the kubelet there.
func TestDocumentsAtV113(t *testing.T) {
	file := "version: v1alpha1\nmachine:\n  type: controlplane\n  nodeTaints: {dedicated: gpu:NoSchedule}\ncluster:\n  network: {dnsDomain: old.example}\n" +
		"---\napiVersion: v1alpha1\nkind: KubeNetworkConfig\ndnsDomain: new.example\n"
	out, err := Translate("mc.yaml", []byte(file), bootstrap.Options{Minor: "1.36"})
	if err != nil {
		t.Fatal(err)
	}
	refused := byRule(out, bootstrap.Refuses.ID)
	if len(refused) != 1 || !strings.Contains(refused[0].Message, `Talos v1.13.9: error decoding document v1alpha1/KubeNetworkConfig/ (line 8): "KubeNetworkConfig" "v1alpha1": not registered`) ||
		refused[0].Line != 9 || !strings.Contains(refused[0].Hint, "v1.14.0-rc.1") {
		t.Errorf("KC9001: %v", refused)
	}
	got := generated(t, out)
	if got["clusterDomain"] != "old.example" {
		t.Errorf("clusterDomain %v, want cluster.network's old.example", got["clusterDomain"])
	}
	if want := []any{map[string]any{"key": "node-role.kubernetes.io/control-plane", "effect": "NoSchedule"}}; !reflect.DeepEqual(got["registerWithTaints"], want) {
		t.Errorf("registerWithTaints %v, want the control plane's only", got["registerWithTaints"])
	}
}

// TestDocsExampleV114 translates the examples of Talos's v1.14 configuration
// reference (website/content/v1.14/reference/configuration/kubernetes:
// KubeletConfig, KubeNodeConfig, KubeNetworkConfig dual-stack,
// KubeCredentialProviderConfig) beside a minimal v1alpha1 document.
func TestDocsExampleV114(t *testing.T) {
	path := filepath.Join(fixtures, "docs", "v1.14-documents.yaml")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Translate(path, data, bootstrap.Options{Minor: "1.37", Set: map[string]string{"hostname-override": "w1.example", "node-ip": "10.0.0.7"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range out.Findings {
		if f.Rule != bootstrap.AtBoot.ID || f.Path != "staticPodURL" {
			t.Errorf("finding on the reference's own examples: %s %s", f.Rule, f.Message)
		}
	}
	got := generated(t, out)
	if !reflect.DeepEqual(got["clusterDNS"], []any{"10.96.0.10", "fc00:db8:20::a"}) || got["clusterDomain"] != "cluster.local" || got["serverTLSBootstrap"] != true {
		t.Errorf("clusterDNS %v clusterDomain %v serverTLSBootstrap %v", got["clusterDNS"], got["clusterDomain"], got["serverTLSBootstrap"])
	}
	if want := []any{map[string]any{"key": "exampletaint", "value": "examplevalue", "effect": "NoSchedule"}}; !reflect.DeepEqual(got["registerWithTaints"], want) {
		t.Errorf("registerWithTaints %v", got["registerWithTaints"])
	}
	want := []string{
		"--bootstrap-kubeconfig=/etc/kubernetes/bootstrap-kubeconfig",
		"--cert-dir=/var/lib/kubelet/pki",
		"--config=/etc/kubernetes/kubelet.yaml",
		"--feature-gates=AllBeta=true",
		"--hostname-override=w1.example",
		"--image-credential-provider-bin-dir=/usr/local/lib/kubelet/credentialproviders",
		"--image-credential-provider-config=/etc/kubernetes/kubelet-credentialproviderconfig.yaml",
		"--kubeconfig=/etc/kubernetes/kubeconfig-kubelet",
		"--node-ip=10.0.0.7",
	}
	if !reflect.DeepEqual(out.Flags, want) {
		t.Errorf("flags\n got: %q\nwant: %q", out.Flags, want)
	}
	if out.KubeletVersion != "1.37.0" {
		t.Errorf("KubeletVersion %q", out.KubeletVersion)
	}
	if p := out.Positions["registerWithTaints[0]"]; p.Line != 36 {
		t.Errorf("registerWithTaints[0] at %v, want the taint's line 36", p)
	}
}
