package input

import (
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/input/bootstrap"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
	"github.com/kubeletcfg/kubeletcfg/validate"
)

// A v1beta4 InitConfiguration with kubeletExtraArgs; line numbers below are this file's.
const nodeFile = `apiVersion: kubeadm.k8s.io/v1beta4
kind: InitConfiguration
nodeRegistration:
  criSocket: unix:///run/containerd/containerd.sock
  kubeletExtraArgs:
  - name: node-labels
    value: node-role.kubernetes.io/worker=,tier=gold
  - name: max-pods
    value: "150"
---
apiVersion: kubeadm.k8s.io/v1beta4
kind: ClusterConfiguration
---
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
cgroupDriver: systemd
`

// settleAt runs the pipeline on s at minor m and settles the result.
func settleAt(t *testing.T, s *Source, m *kubelets.Minor) *pipeline.Result {
	t.Helper()
	var in pipeline.Input
	applyTo(s, &in)
	r, err := pipeline.Evaluate(m, in)
	if err != nil {
		t.Fatal(err)
	}
	if err := settleResult(s, r); err != nil {
		t.Fatal(err)
	}
	return r
}

func lookup(t *testing.T, v string) *kubelets.Minor {
	t.Helper()
	m, err := kubelets.Lookup(v)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestKubeadmFlagsPositions: kubeadm-flags.env reaches the kubelet as its first flags;
// the kubelet's refusal of a node-role label (ValidateKubeletFlags) points at the
// kubeletExtraArgs entry in the kubeadm file, and the origin of maxPods names it.
func TestKubeadmFlagsPositions(t *testing.T) {
	s, err := Convert("kubeadm.yaml", []byte(nodeFile), Auto)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"--node-labels=node-role.kubernetes.io/worker=,tier=gold", "--max-pods=150"}
	if strings.Join(s.Flags, " ") != strings.Join(want, " ") {
		t.Fatalf("flags %q, want %q", s.Flags, want)
	}
	if !strings.Contains(string(s.Data), "containerRuntimeEndpoint: unix:///run/containerd/containerd.sock\n") {
		t.Errorf("config.yaml lacks the instance configuration's endpoint:\n%s", s.Data)
	}
	r := settle(t, s)
	f := findingOf(r, validate.FlagNodeLabels.ID, "")
	if f == nil {
		t.Fatalf("no %s finding: %+v", validate.FlagNodeLabels.ID, r.Findings)
	}
	if f.Position.File != "kubeadm.yaml" || f.Line != 6 || f.Column != 5 {
		t.Errorf("node-labels finding at %s, want kubeadm.yaml:6:5", f.Position)
	}
	// Without the label the kubelet starts: the origins of what the flags set.
	if s, err = Convert("kubeadm.yaml", []byte(strings.Replace(nodeFile, "node-role.kubernetes.io/worker=,", "", 1)), Auto); err != nil {
		t.Fatal(err)
	}
	r = settle(t, s)
	note := r.OriginNotes["maxPods"]
	if !strings.Contains(note, "set by kubeadm from nodeRegistration.kubeletExtraArgs[max-pods] at kubeadm.yaml:8:5") {
		t.Errorf("maxPods origin note %q", note)
	}
	if p := r.Origins["maxPods"]; p.Line != 8 || p.Column != 5 {
		t.Errorf("maxPods origin %s, want line 8:5", p)
	}
	// The instance configuration's endpoint is criSocket's.
	if p := r.Origins["containerRuntimeEndpoint"]; p.Line != 4 || p.Column != 3 {
		t.Errorf("containerRuntimeEndpoint origin %s, want line 4:3", p)
	}
}

// TestKubeadmNodeFindings: a passing and a failing case of each bootstrapper finding
// the kubeadm input emits, at the position in the user's file.
func TestKubeadmNodeFindings(t *testing.T) {
	v1beta3 := strings.ReplaceAll(`apiVersion: kubeadm.k8s.io/v1beta3
kind: InitConfiguration
nodeRegistration:
  criSocket: unix:///run/containerd/containerd.sock
  kubeletExtraArgs:
    max-pods: "90"
`, "\t", "")
	noSocket := "apiVersion: kubeadm.k8s.io/v1beta4\nkind: InitConfiguration\n"
	gateOff := noSocket + "nodeRegistration:\n  criSocket: unix:///run/crio/crio.sock\n---\napiVersion: kubeadm.k8s.io/v1beta4\nkind: ClusterConfiguration\nfeatureGates:\n  NodeLocalCRISocket: false\n"
	for _, tt := range []struct {
		name, data, minor string
		opt               Options
		rule              string
		line, column      int // 0: the rule must be absent
		msg               string
	}{
		{name: "v1beta3 refused by 1.37", data: v1beta3, minor: "1.37", rule: bootstrap.Refuses.ID, line: 1, column: 13,
			msg: `kubeadm 1.37 refuses the file and writes nothing for the kubelet: your configuration file uses an old API spec: "kubeadm.k8s.io/v1beta3" (kind: "InitConfiguration"). Please use kubeadm v1.36 instead`},
		{name: "v1beta3 read by 1.36", data: v1beta3, minor: "1.36", rule: bootstrap.Refuses.ID},
		{name: "v1beta4 read by 1.37", data: nodeFile, minor: "1.37", rule: bootstrap.Refuses.ID},
		{name: "gate unknown to 1.37", data: gateOff, minor: "1.37", rule: bootstrap.Refuses.ID, line: 9, column: 3,
			msg: "NodeLocalCRISocket is not a valid feature name."},
		{name: "gate known to 1.35", data: gateOff, minor: "1.35", rule: bootstrap.Refuses.ID},
		{name: "a number in kubeletExtraArgs", data: strings.Replace(nodeFile, `value: "150"`, "value: 150", 1), minor: "1.37", rule: bootstrap.Refuses.ID, line: 9, column: 12,
			msg: "json: cannot unmarshal number into Go struct field Arg.nodeRegistration.kubeletExtraArgs.value of type string"},
		{name: "v1beta3's map in v1beta4", data: noSocket + "nodeRegistration:\n  kubeletExtraArgs:\n    max-pods: \"150\"\n", minor: "1.35", rule: bootstrap.Refuses.ID, line: 5, column: 5,
			msg: "json: cannot unmarshal object into Go struct field NodeRegistrationOptions.nodeRegistration.kubeletExtraArgs of type []v1beta4.Arg"},
		{name: "criSocket not written", data: noSocket, minor: "1.37", rule: bootstrap.AtBoot.ID, line: 2, column: 7,
			msg: "kubeadm init 1.37 writes the container runtime socket it detects on the node as containerRuntimeEndpoint in /var/lib/kubelet/instance-config.yaml"},
		{name: "criSocket not written, 1.33", data: noSocket, minor: "1.33", rule: bootstrap.AtBoot.ID, line: 2, column: 7,
			msg: "as --container-runtime-endpoint in kubeadm-flags.env"},
		{name: "criSocket written", data: nodeFile, minor: "1.37", rule: bootstrap.AtBoot.ID},
		{name: "criSocket known to the user", data: noSocket, minor: "1.37", opt: Options{Kubeadm: KubeadmOptions{CRISocket: "unix:///run/crio/crio.sock"}}, rule: bootstrap.AtBoot.ID},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, err := ConvertOptions("kubeadm.yaml", []byte(tt.data), Auto, tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			r := settleAt(t, s, lookup(t, tt.minor))
			f := findingOf(r, tt.rule, "")
			if tt.line == 0 {
				if f != nil {
					t.Errorf("unexpected %s", f.Message)
				}
				return
			}
			if f == nil {
				t.Fatalf("no %s: %+v", tt.rule, r.Findings)
			}
			if f.Position.File != "kubeadm.yaml" || f.Line != tt.line || f.Column != tt.column {
				t.Errorf("at %s, want kubeadm.yaml:%d:%d", f.Position, tt.line, tt.column)
			}
			if !strings.Contains(f.Message, tt.msg) {
				t.Errorf("message %q lacks %q", f.Message, tt.msg)
			}
		})
	}
}

// TestKubeadmFlagsAtMinor: the flags are kubeadm's of the kubelet minor asked for
// (Options.Minor): 1.33 still writes criSocket and the pause image as flags.
func TestKubeadmFlagsAtMinor(t *testing.T) {
	for minor, want := range map[string]string{
		"1.33": "--container-runtime-endpoint=unix:///run/containerd/containerd.sock --pod-infra-container-image=registry.k8s.io/pause:3.10 --node-labels=node-role.kubernetes.io/worker=,tier=gold --max-pods=150",
		"1.37": "--node-labels=node-role.kubernetes.io/worker=,tier=gold --max-pods=150",
	} {
		s, err := ConvertOptions("kubeadm.yaml", []byte(nodeFile), Auto, Options{Minor: minor})
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(s.Flags, " "); got != want {
			t.Errorf("%s: flags %s, want %s", minor, got, want)
		}
	}
	// kubeadm 1.33's own deprecated flags are kubeadm's, not the file's to remove.
	s, err := ConvertOptions("kubeadm.yaml", []byte(nodeFile), Auto, Options{Minor: "1.33"})
	if err != nil {
		t.Fatal(err)
	}
	r := settleAt(t, s, lookup(t, "1.33"))
	var own, extra *finding.Finding
	for i, f := range r.Findings {
		switch {
		case f.Rule == validate.FlagDeprecated.ID && strings.HasPrefix(f.Message, "--pod-infra-container-image "):
			own = &r.Findings[i]
		case f.Rule == validate.FlagDeprecated.ID && strings.HasPrefix(f.Message, "--max-pods "):
			extra = &r.Findings[i]
		}
	}
	if own == nil || !strings.Contains(own.Message, "kubeadm writes it itself") {
		t.Errorf("kubeadm's --pod-infra-container-image: %+v", own)
	}
	if extra == nil || strings.Contains(extra.Message, "kubeadm writes it itself") || extra.Line != 8 {
		t.Errorf("kubeletExtraArgs' --max-pods: %+v", extra)
	}
	// --set containerRuntimeEndpoint gives the socket kubeadm would detect.
	s, err = ConvertOptions("kubeadm.yaml", []byte("apiVersion: kubeadm.k8s.io/v1beta4\nkind: InitConfiguration\n"), Auto,
		Options{Set: map[string]string{"containerRuntimeEndpoint": "unix:///run/crio/crio.sock"}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(s.Data), "containerRuntimeEndpoint: unix:///run/crio/crio.sock\n") {
		t.Errorf("--set containerRuntimeEndpoint not in config.yaml:\n%s", s.Data)
	}
	if f := findingOf(settle(t, s), bootstrap.AtBoot.ID, ""); f != nil {
		t.Errorf("unexpected %s", f.Message)
	}
}
