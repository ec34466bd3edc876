package input

import (
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/input/kind"
	"github.com/kubeletcfg/kubeletcfg/input/kubeadm"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
	"github.com/kubeletcfg/kubeletcfg/source"
)

const (
	initDoc    = "apiVersion: kubeadm.k8s.io/v1beta4\nkind: InitConfiguration\n"
	clusterDoc = "apiVersion: kubeadm.k8s.io/v1beta4\nkind: ClusterConfiguration\nnetworking:\n  serviceSubnet: 10.100.0.0/16\n  dnsDomain: example.internal\n"
	joinDoc    = "apiVersion: kubeadm.k8s.io/v1beta4\nkind: JoinConfiguration\n"
	kcDoc      = "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nmaxPods: -1\n"
)

// settle runs the pipeline on s at the newest minor and settles the result.
func settle(t *testing.T, s *Source) *pipeline.Result {
	t.Helper()
	var in pipeline.Input
	applyTo(s, &in)
	r, err := pipeline.Evaluate(kubelets.Default(), in)
	if err != nil {
		t.Fatal(err)
	}
	if err := settleResult(s, r); err != nil {
		t.Fatal(err)
	}
	return r
}

func findingOf(r *pipeline.Result, rule, path string) *finding.Finding {
	for i, f := range r.Findings {
		if f.Rule == rule && (path == "" || f.Path == path) {
			return &r.Findings[i]
		}
	}
	return nil
}

func TestDetectKubeadmAndKind(t *testing.T) {
	for _, tt := range []struct {
		name, data string
		want       Format
	}{
		{"init + cluster + kubelet", initDoc + "---\n" + clusterDoc + "---\n" + kcDoc, KubeadmConfig},
		{"kubelet first", kcDoc + "---\n" + initDoc, KubeadmConfig},
		{"join + kubelet", joinDoc + "---\n" + kcDoc, KubeadmConfig},
		{"cluster only", clusterDoc, KubeadmConfig},
		{"kubelet only, two documents", kcDoc + "---\n" + kcDoc, Config},
		{"kubeadm named in a value only", kcDoc + "staticPodPath: /kubeadm.k8s.io\n", Config},
		{"kind", "kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\n", Kind},
		{"kind without patches", "kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nnodes:\n- role: worker\n", Kind},
		{"another Cluster", "kind: Cluster\napiVersion: cluster.x-k8s.io/v1beta1\n", Config},
	} {
		if got := Detect([]byte(tt.data)); got != tt.want {
			t.Errorf("%s: Detect = %s, want %s", tt.name, got, tt.want)
		}
	}
}

func TestKubeadmConfig(t *testing.T) {
	for _, tt := range []struct {
		name, data string
		opt        Options
		err        string
		// a rule whose finding must be at line:column (0: must be absent)
		rule, path   string
		line, column int
		// the converted document must contain / must not contain
		has, hasNot string
	}{
		// maxPods: -1 is refused by the kubelet; line 15 in the file.
		{name: "node file, finding at its line", data: initDoc + "---\n" + clusterDoc + "---\n" + kcDoc,
			rule: "KC4025", path: "maxPods", line: 12, column: 1, has: "clusterDNS:\n- 10.100.0.10\nclusterDomain: example.internal\n"},
		{name: "as written", data: initDoc + "---\n" + clusterDoc + "---\n" + kcDoc, opt: Options{AsWritten: true},
			rule: "KC4025", path: "maxPods", line: 12, column: 1, hasNot: "clusterDNS"},
		{name: "kubelet document first", data: kcDoc + "---\n" + initDoc,
			rule: "KC4025", path: "maxPods", line: 3, column: 1, has: "clusterDNS:\n- 10.96.0.10\nclusterDomain: cluster.local\n"},
		// Unknown keys: kubeadm drops them from the node's file; still reported where written.
		{name: "typo kept from the file", data: initDoc + "---\n" + strings.Replace(kcDoc, "maxPods: -1", "maxPod: 10", 1),
			rule: source.UnknownField.ID, path: "maxPod", line: 6, column: 1, hasNot: "maxPod"},
		{name: "kubeadm's healthz", data: initDoc + "---\n" + kcDoc, has: "healthzBindAddress: 127.0.0.1\nhealthzPort: 10248\n"},
		{name: "file's healthz kept", data: initDoc + "---\n" + kcDoc + "healthzPort: 10250\n", has: "healthzPort: 10250\n"},
		{name: "rotateCertificates forced", data: initDoc + "---\n" + strings.Replace(kcDoc, "maxPods: -1", "rotateCertificates: false", 1), has: "rotateCertificates: true\n"},
		{name: "resolvConf on systemd-resolved", data: initDoc + "---\n" + kcDoc, opt: Options{Kubeadm: KubeadmOptions{SystemdResolved: true}}, has: "resolvConf: /run/systemd/resolve/resolv.conf\n"},
		{name: "resolvConf otherwise", data: initDoc + "---\n" + kcDoc, hasNot: "resolvConf"},
		{name: "no kubelet document", data: initDoc + "---\n" + clusterDoc, has: "cgroupDriver: systemd\n"},
		{name: "no kubelet document as written", data: initDoc, opt: Options{AsWritten: true}, err: "without a KubeletConfiguration document"},
		// kubeadm join: the cluster's kubelet-config, as kubeadm init made it of the same file.
		{name: "join: the cluster's document", data: joinDoc + "---\n" + kcDoc,
			rule: "KC4025", path: "maxPods", line: 6, column: 1, has: "clusterDNS:\n- 10.96.0.10\n"},
		{name: "join without kubelet document", data: joinDoc, has: "cgroupDriver: systemd\n"},
		{name: "two kubelet documents", data: initDoc + "---\n" + kcDoc + "---\n" + kcDoc, err: "line 9: a second KubeletConfiguration document (the first is at line 5)"},
		// kubeadm cannot decode it: the document as written, where the pipeline says why.
		{name: "undecodable", data: initDoc + "---\n" + strings.Replace(kcDoc, "maxPods: -1", "maxPods: many", 1),
			rule: source.ConfigDecode.ID, line: 6},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, err := ConvertOptions("kubeadm.yaml", []byte(tt.data), Auto, tt.opt)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if s.Format != KubeadmConfig {
				t.Fatalf("format %s", s.Format)
			}
			if tt.has != "" && !strings.Contains(string(s.Data), tt.has) {
				t.Errorf("converted document lacks %q:\n%s", tt.has, s.Data)
			}
			if tt.hasNot != "" && strings.Contains(string(s.Data), tt.hasNot) {
				t.Errorf("converted document has %q:\n%s", tt.hasNot, s.Data)
			}
			if tt.rule == "" {
				return
			}
			r := settle(t, s)
			f := findingOf(r, tt.rule, tt.path)
			if tt.line == 0 {
				if f != nil {
					t.Errorf("unexpected %+v", *f)
				}
				return
			}
			if f == nil {
				t.Fatalf("no %s finding in %+v\nconverted:\n%s", tt.rule, r.Findings, s.Data)
			}
			if f.File != "kubeadm.yaml" || f.Line != tt.line || tt.column != 0 && f.Column != tt.column {
				t.Errorf("%s at %s:%d:%d, want kubeadm.yaml:%d:%d", f.Rule, f.File, f.Line, f.Column, tt.line, tt.column)
			}
		})
	}
}

// TestKubeadmConfigPositions: what kubeadm sets is reported at the kind: line of
// the kubelet document (or of the first document), what the file sets at its key.
func TestKubeadmConfigPositions(t *testing.T) {
	data := initDoc + "---\n" + kcDoc + "authentication:\n  x509:\n    clientCAFile: /pki/ca.crt\n"
	s, err := Convert("kubeadm.yaml", []byte(data), Auto)
	if err != nil {
		t.Fatal(err)
	}
	r := settle(t, s)
	for path, want := range map[string]int{
		"maxPods":                          6,
		"authentication.x509.clientCAFile": 9,
		"authentication.webhook.enabled":   7, // kubeadm's: authentication's line
		"clusterDNS":                       5, // kubeadm's: the kind: line
	} {
		got, ok := r.Origins[path]
		if !ok {
			t.Errorf("no origin for %s", path)
			continue
		}
		if got.File != "kubeadm.yaml" || got.Line != want {
			t.Errorf("origin of %s at %s:%d, want line %d", path, got.File, got.Line, want)
		}
	}
}

// TestKubeadmOriginNotes: what kubeadm computes says so, with the
// ClusterConfiguration field it came from (and its line when written); what
// the file writes has no note.
func TestKubeadmOriginNotes(t *testing.T) {
	cluster := "apiVersion: kubeadm.k8s.io/v1beta4\nkind: ClusterConfiguration\nnetworking:\n  dnsDomain: corp.internal\n"
	data := cluster + "---\n" + kcDoc + "authentication:\n  x509:\n    clientCAFile: /pki/ca.crt\n"
	s, err := Convert("kubeadm.yaml", []byte(data), Auto)
	if err != nil {
		t.Fatal(err)
	}
	r := settle(t, s)
	for path, want := range map[string]string{
		"clusterDomain":                    "set by kubeadm from ClusterConfiguration networking.dnsDomain at kubeadm.yaml:4:3",
		"clusterDNS":                       "set by kubeadm from ClusterConfiguration networking.serviceSubnet, not written: its default 10.96.0.0/12 (its 10th address)",
		"rotateCertificates":               "set by kubeadm (always true)",
		"authentication.webhook.enabled":   "set by kubeadm (its default for the kubelet)",
		"maxPods":                          "",
		"authentication.x509.clientCAFile": "",
	} {
		if got := r.OriginNotes[path]; got != want {
			t.Errorf("note of %s: %q, want %q", path, got, want)
		}
	}
}

const kindFile = `kind: Cluster
apiVersion: kind.x-k8s.io/v1alpha4
featureGates:
  NodeSwap: true
kubeadmConfigPatches:
- |
  kind: KubeletConfiguration
  maxPods: -1
nodes:
- role: control-plane
- role: worker
  kubeadmConfigPatches:
  - |
    kind: KubeletConfiguration
    healthzPort: 70000
- role: worker
  kubeadmConfigPatches:
  - "kind: KubeletConfiguration\nmaxPods: 20\nhealthzPort: 70001\n"
  - |
    kind: ClusterConfiguration
    networking:
      dnsDomain: x
`

func TestKind(t *testing.T) {
	for _, tt := range []struct {
		name string
		opt  Options
		err  string
		// rule at line:column (line 0: absent)
		rule, path   string
		line, column int
		has, hasNot  string
	}{
		{name: "cluster patch in the first node", rule: "KC4025", path: "maxPods", line: 8, column: 3,
			has: "cgroupRoot: /kubelet\n", hasNot: "healthzPort: 70000"},
		{name: "node patch", opt: Options{KindNode: "kind-worker"}, rule: "KC4005", path: "healthzPort", line: 15, column: 5,
			has: "imageGCHighThresholdPercent: 100\n"},
		{name: "cluster patch in a worker", opt: Options{KindNode: "kind-worker"}, rule: "KC4025", path: "maxPods", line: 8, column: 3},
		// A quoted patch has no line mapping: its findings point at the string.
		{name: "quoted node patch", opt: Options{KindNode: "kind-worker2"}, rule: "KC4005", path: "healthzPort", line: 18, column: 5},
		{name: "node patch overrides cluster patch", opt: Options{KindNode: "kind-worker2"}, rule: "KC4025", line: 0, has: "maxPods: 20\n"},
		// kind writes the cluster's featureGates into the kubelet's config.
		{name: "cluster feature gates", rule: pipeline.GateGA.ID, path: "featureGates[NodeSwap]", line: 4, column: 3, has: "NodeSwap: true"},
		{name: "as written", opt: Options{AsWritten: true}, rule: "KC4025", path: "maxPods", line: 8, column: 3, hasNot: "cgroupRoot"},
		{name: "unknown node", opt: Options{KindNode: "kind-worker3"}, err: `has no node "kind-worker3" (kind-control-plane, kind-worker, kind-worker2)`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, err := ConvertOptions("kind.yaml", []byte(kindFile), Auto, tt.opt)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if s.Format != Kind {
				t.Fatalf("format %s", s.Format)
			}
			if tt.has != "" && !strings.Contains(string(s.Data), tt.has) {
				t.Errorf("converted document lacks %q:\n%s", tt.has, s.Data)
			}
			if tt.hasNot != "" && strings.Contains(string(s.Data), tt.hasNot) {
				t.Errorf("converted document has %q:\n%s", tt.hasNot, s.Data)
			}
			r := settle(t, s)
			f := findingOf(r, tt.rule, tt.path)
			if tt.line == 0 {
				if f != nil {
					t.Errorf("unexpected %+v", *f)
				}
				return
			}
			if f == nil {
				t.Fatalf("no %s finding in %+v\nconverted:\n%s", tt.rule, r.Findings, s.Data)
			}
			if f.File != "kind.yaml" || f.Line != tt.line || f.Column != tt.column {
				t.Errorf("%s at %s:%d:%d, want kind.yaml:%d:%d", f.Rule, f.File, f.Line, f.Column, tt.line, tt.column)
			}
		})
	}
}

func TestParentPath(t *testing.T) {
	for in, want := range map[string]string{
		"evictionHard[memory.available]":   "evictionHard",
		"authentication.x509.clientCAFile": "authentication.x509",
		"enforceNodeAllocatable[0]":        "enforceNodeAllocatable",
		"maxPods":                          "",
	} {
		if got := kubelets.Parent(in); got != want {
			t.Errorf("kubelets.Parent(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestKubeadmKubeletConfigAt: kubeadm of an older minor marshals its own kubelet
// types, without the fields that minor lacks.
func TestKubeadmKubeletConfigAt(t *testing.T) {
	doc := []byte(kcDoc + "crashLoopBackOff:\n  maxContainerRestartPeriod: 1m\n")
	for _, tt := range []struct {
		minor string
		has   bool
	}{{"1.31", false}, {"1.32", true}, {"1.37", true}} {
		m, err := kubelets.Lookup(tt.minor)
		if err != nil {
			t.Fatal(err)
		}
		out, err := kubeadm.KubeletConfigAt(doc, kubeadm.DefaultNetworking(), KubeadmOptions{}, m)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(string(out), "crashLoopBackOff:"); got != tt.has {
			t.Errorf("%s: crashLoopBackOff written %v, want %v:\n%s", tt.minor, got, tt.has, out)
		}
		if !strings.Contains(string(out), "clusterDNS:\n- 10.96.0.10\n") {
			t.Errorf("%s: no clusterDNS:\n%s", tt.minor, out)
		}
	}
}

// TestHostileKubeadmAndKind: many documents or patches cost the file's size, not
// its square, and too many patches are refused with the line.
func TestHostileKubeadmAndKind(t *testing.T) {
	many := strings.Repeat("---\n", 200000) + initDoc + "---\n" + kcDoc
	s, err := Convert("kubeadm.yaml", []byte(many), Auto)
	if err != nil {
		t.Fatal(err)
	}
	if s.Format != KubeadmConfig || !strings.Contains(s.Note, "lines 200004-200006") {
		t.Errorf("format %s, note %q", s.Format, s.Note)
	}
	patches := "kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nkubeadmConfigPatches:\n" + strings.Repeat("- |\n  kind: KubeletConfiguration\n  maxPods: 1\n", kind.MaxPatches+1)
	if _, err := Convert("kind.yaml", []byte(patches), Auto); err == nil || !strings.Contains(err.Error(), "line 304: more than 100 KubeletConfiguration patches") {
		t.Errorf("error %v", err)
	}
	plain := strings.Repeat("---\n", 200000) + kcDoc
	if got := Detect([]byte(plain)); got != Config {
		t.Errorf("Detect = %s", got)
	}
}
