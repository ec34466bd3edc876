package admission

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	admissionv1 "k8s.io/api/admission/v1"
	"sigs.k8s.io/yaml"
)

// sleepGate is a kubelet feature gate 1.37 removed (locked on from 1.34):
// 1.34-1.36 start with it set, 1.37 refuses it.
const sleepGate = "PodLifecycleSleepAction"

// toJSON is a YAML object as the API server sends it.
func toJSON(t *testing.T, doc string) []byte {
	t.Helper()
	j, err := yaml.YAMLToJSON([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	return j
}

// kubeadmControlPlane is a KubeadmControlPlane of apiVersion
// controlplane.cluster.x-k8s.io/<version> running Kubernetes spec.version
// kubeVersion whose kubelets get --feature-gates gates ("": none): v1beta1
// spells kubeletExtraArgs as a map, v1beta2 as a list.
func kubeadmControlPlane(t *testing.T, version, kubeVersion, gates string) []byte {
	t.Helper()
	return kubeadmControlPlanePhases(t, version, kubeVersion, gates, gates)
}

// kubeadmControlPlanePhases is kubeadmControlPlane with the --feature-gates
// of its first machine (initConfiguration) and of its joining machines
// (joinConfiguration) apart; joinGates "-": no joinConfiguration.
func kubeadmControlPlanePhases(t *testing.T, version, kubeVersion, initGates, joinGates string) []byte {
	t.Helper()
	doc := "apiVersion: controlplane.cluster.x-k8s.io/" + version + "\nkind: KubeadmControlPlane\nmetadata:\n  name: cp\n  namespace: default\n" +
		"spec:\n  replicas: 3\n  version: " + kubeVersion + "\n" + machineTemplate(version) + "  kubeadmConfigSpec:\n" +
		phaseRegistration(version, "    ", "initConfiguration", initGates)
	if joinGates != "-" {
		doc += phaseRegistration(version, "    ", "joinConfiguration", joinGates)
	}
	return toJSON(t, doc)
}

// kubeadmControlPlaneTemplate is a KubeadmControlPlaneTemplate (no
// spec.version: a ClusterClass's topology gives it).
func kubeadmControlPlaneTemplate(t *testing.T, version, gates string) []byte {
	t.Helper()
	doc := "apiVersion: controlplane.cluster.x-k8s.io/" + version + "\nkind: KubeadmControlPlaneTemplate\nmetadata:\n  name: cp\n  namespace: default\n" +
		"spec:\n  template:\n    spec:\n      kubeadmConfigSpec:\n" + nodeRegistration(version, "        ", gates)
	return toJSON(t, doc)
}

func machineTemplate(version string) string {
	if version == "v1beta1" {
		return "  machineTemplate:\n    infrastructureRef:\n      apiVersion: infrastructure.cluster.x-k8s.io/v1beta1\n      kind: DockerMachineTemplate\n      name: cp\n"
	}
	return "  machineTemplate:\n    spec:\n      infrastructureRef:\n        apiGroup: infrastructure.cluster.x-k8s.io\n        kind: DockerMachineTemplate\n        name: cp\n"
}

// nodeRegistration is kubeadmConfigSpec's init and join configurations,
// indented by in, with the kubelet's --feature-gates.
func nodeRegistration(version, in, gates string) string {
	return phaseRegistration(version, in, "initConfiguration", gates) + phaseRegistration(version, in, "joinConfiguration", gates)
}

// phaseRegistration is one of kubeadmConfigSpec's phases (initConfiguration,
// joinConfiguration), indented by in, with the kubelet's --feature-gates.
func phaseRegistration(version, in, phase, gates string) string {
	var out strings.Builder
	fmt.Fprintf(&out, "%s%s:\n%s  nodeRegistration:\n%s    criSocket: unix:///run/containerd/containerd.sock\n", in, phase, in, in)
	switch {
	case gates == "":
	case version == "v1beta1":
		fmt.Fprintf(&out, "%s    kubeletExtraArgs:\n%s      feature-gates: %s\n", in, in, gates)
	default:
		fmt.Fprintf(&out, "%s    kubeletExtraArgs:\n%s    - name: feature-gates\n%s      value: %s\n", in, in, in, gates)
	}
	return out.String()
}

// k0sClusterConfig is a k0s ClusterConfig as k0s's controller keeps it in the
// API (kube-system/k0s) with spec.workerProfiles profiles (YAML, indented
// four spaces: "- name: a\n  values: {...}").
func k0sClusterConfig(t *testing.T, spec string) []byte {
	t.Helper()
	return toJSON(t, "apiVersion: k0s.k0sproject.io/v1beta1\nkind: ClusterConfig\nmetadata:\n  name: k0s\n  namespace: kube-system\nspec:\n"+spec)
}

// reviewCase is one request at the configured minors: admitted, or denied
// (403) saying says and not saying notSays.
type reviewCase struct {
	name    string
	minors  []string
	req     *admissionv1.AdmissionRequest
	allowed bool
	code    int32
	says    []string
	notSays []string
}

func runReviewCases(t *testing.T, tests []reviewCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := New(Config{Minors: minors(t, tt.minors...)})
			if err != nil {
				t.Fatal(err)
			}
			resp, d := r.Review(context.Background(), tt.req)
			if resp.Allowed != tt.allowed || d.Allowed != tt.allowed {
				t.Fatalf("allowed %v (decision %v), want %v; %+v", resp.Allowed, d.Allowed, tt.allowed, resp.Result)
			}
			if tt.allowed {
				if resp.Result != nil {
					t.Errorf("an admitted object has a status: %+v", resp.Result)
				}
				return
			}
			code := tt.code
			if code == 0 {
				code = http.StatusForbidden
			}
			if resp.Result == nil || resp.Result.Code != code {
				t.Fatalf("status %+v, want code %d", resp.Result, code)
			}
			for _, s := range tt.says {
				if !strings.Contains(resp.Result.Message, s) {
					t.Errorf("message %q does not say %q", resp.Result.Message, s)
				}
			}
			for _, s := range tt.notSays {
				if strings.Contains(resp.Result.Message, s) {
					t.Errorf("message %q says %q", resp.Result.Message, s)
				}
			}
		})
	}
}

// TestReviewKubeadmControlPlane: a KubeadmControlPlane names the Kubernetes
// its machines run (spec.version) and is judged at that minor alone, not at
// the configured minors, in v1beta1 and v1beta2; a version kubeletcfg does
// not know is a clear error. A KubeadmControlPlaneTemplate names none: the
// configured minors.
func TestReviewKubeadmControlPlane(t *testing.T) {
	window := []string{"1.34", "1.35", "1.36", "1.37"}
	gate := sleepGate + "=true"
	kcp := func(version, kubeVersion, gates string) *admissionv1.AdmissionRequest {
		return request(admissionv1.Create, "controlplane.cluster.x-k8s.io", "KubeadmControlPlane", "default", "cp", kubeadmControlPlane(t, version, kubeVersion, gates), nil)
	}
	kcpPhases := func(version, kubeVersion, initGates, joinGates string) *admissionv1.AdmissionRequest {
		return request(admissionv1.Create, "controlplane.cluster.x-k8s.io", "KubeadmControlPlane", "default", "cp", kubeadmControlPlanePhases(t, version, kubeVersion, initGates, joinGates), nil)
	}
	kcpt := func(version, gates string) *admissionv1.AdmissionRequest {
		return request(admissionv1.Create, "controlplane.cluster.x-k8s.io", "KubeadmControlPlaneTemplate", "default", "cp", kubeadmControlPlaneTemplate(t, version, gates), nil)
	}
	var tests []reviewCase
	for _, v := range []string{"v1beta1", "v1beta2"} {
		tests = append(tests,
			reviewCase{name: v + " KubeadmControlPlane, clean", minors: window, req: kcp(v, "v1.37.1", ""), allowed: true},
			reviewCase{name: v + " KubeadmControlPlane at v1.36.2 with a gate 1.37 removed", minors: window, req: kcp(v, "v1.36.2", gate), allowed: true},
			reviewCase{name: v + " KubeadmControlPlane at v1.37.1 with a gate 1.37 removed", minors: window, req: kcp(v, "v1.37.1", gate),
				says:    []string{"kubeadmcontrolplane/default/cp would not run", sleepGate, "(kubelet 1.37)"},
				notSays: []string{"(kubelet 1.34)", "(kubelet 1.35)", "(kubelet 1.36)"}},
			// spec.version wins over the configured minors either way.
			reviewCase{name: v + " KubeadmControlPlane at v1.37.1, the webhook configured for 1.36", minors: []string{"1.36"}, req: kcp(v, "v1.37.1", gate),
				says: []string{"(kubelet 1.37)"}, notSays: []string{"(kubelet 1.36)"}},
			// An upgrade to a minor that refuses what the object already sets
			// is what the change makes worse: denied.
			reviewCase{name: v + " KubeadmControlPlane upgraded from v1.36.2 to v1.37.1 keeping a gate 1.37 removed", minors: window,
				req: request(admissionv1.Update, "controlplane.cluster.x-k8s.io", "KubeadmControlPlane", "default", "cp",
					kubeadmControlPlane(t, v, "v1.37.1", gate), kubeadmControlPlane(t, v, "v1.36.2", gate)),
				says: []string{sleepGate, "(kubelet 1.37)"}},
			reviewCase{name: v + " KubeadmControlPlane at a minor kubeletcfg does not know", minors: window, req: kcp(v, "v1.99.0", ""),
				code: http.StatusUnprocessableEntity, says: []string{"kubeletcfg cannot read KubeadmControlPlane", "it names Kubernetes v1.99.0, a kubelet kubeletcfg does not know"}},
			reviewCase{name: v + " KubeadmControlPlaneTemplate with a gate 1.37 removed: the configured minors", minors: window, req: kcpt(v, gate),
				says:    []string{"kubeadmcontrolplanetemplate/default/cp would not run", sleepGate, "(kubelet 1.37)"},
				notSays: []string{"(kubelet 1.34)", "(kubelet 1.35)", "(kubelet 1.36)"}},
			reviewCase{name: v + " KubeadmControlPlaneTemplate with a gate 1.37 removed, judged up to 1.36", minors: []string{"1.35", "1.36"}, req: kcpt(v, gate), allowed: true},
			reviewCase{name: v + " KubeadmControlPlaneTemplate, clean", minors: window, req: kcpt(v, ""), allowed: true},
			// Its first machine runs kubeadm init (initConfiguration), every
			// later one kubeadm join --control-plane (joinConfiguration): each
			// is judged, and a refusal names the machines it is for.
			reviewCase{name: v + " KubeadmControlPlane with a gate 1.37 removed in joinConfiguration alone", minors: window,
				req:     kcpPhases(v, "v1.37.1", "", gate),
				says:    []string{"kubeadmcontrolplane/default/cp would not run", "joining control plane machines featureGates[" + sleepGate + "]", "(kubelet 1.37)"},
				notSays: []string{"first control plane machine"}},
			reviewCase{name: v + " KubeadmControlPlane with a gate 1.37 removed in initConfiguration and no joinConfiguration", minors: window,
				req:     kcpPhases(v, "v1.37.1", gate, "-"),
				says:    []string{"first control plane machine featureGates[" + sleepGate + "]", "(kubelet 1.37)"},
				notSays: []string{"joining control plane machines"}},
			reviewCase{name: v + " KubeadmControlPlane with a gate 1.37 removed in both", minors: window,
				req:  kcpPhases(v, "v1.37.1", gate, gate),
				says: []string{"first control plane machine featureGates[" + sleepGate + "]", "joining control plane machines featureGates[" + sleepGate + "]"}},
			// On UPDATE, what the change adds, machines by machines: the
			// joining machines' gate was there before, the first machine's is new.
			reviewCase{name: v + " KubeadmControlPlane updated to break its first machine as its joining ones were", minors: window,
				req: request(admissionv1.Update, "controlplane.cluster.x-k8s.io", "KubeadmControlPlane", "default", "cp",
					kubeadmControlPlanePhases(t, v, "v1.37.1", gate, gate), kubeadmControlPlanePhases(t, v, "v1.37.1", "", gate)),
				says:    []string{"first control plane machine featureGates[" + sleepGate + "]"},
				notSays: []string{"joining control plane machines"}},
			reviewCase{name: v + " KubeadmControlPlaneTemplate with a gate 1.37 removed in joinConfiguration alone", minors: window,
				req: request(admissionv1.Create, "controlplane.cluster.x-k8s.io", "KubeadmControlPlaneTemplate", "default", "cp",
					toJSON(t, "apiVersion: controlplane.cluster.x-k8s.io/"+v+"\nkind: KubeadmControlPlaneTemplate\nmetadata:\n  name: cp\n  namespace: default\n"+
						"spec:\n  template:\n    spec:\n      kubeadmConfigSpec:\n"+phaseRegistration(v, "        ", "initConfiguration", "")+phaseRegistration(v, "        ", "joinConfiguration", gate)), nil),
				says:    []string{"kubeadmcontrolplanetemplate/default/cp would not run", "joining control plane machines featureGates[" + sleepGate + "]", "(kubelet 1.37)"},
				notSays: []string{"first control plane machine", "(kubelet 1.36)"}},
		)
	}
	runReviewCases(t, tests)
}

// TestReviewK0sClusterConfig: a k0s ClusterConfig is judged for what k0s
// writes for its workers' kubelets (each worker profile over k0s's defaults,
// the cluster's kubelet feature gates) at each configured minor, translated
// with the k0s release that ships it (input/k0s Train: v1.36.3+k0s.2 for
// 1.36; at a minor no ported release ships, the file's own settings with
// what that release writes around them).
func TestReviewK0sClusterConfig(t *testing.T) {
	window := []string{"1.34", "1.35", "1.36", "1.37"}
	cc := func(spec string) *admissionv1.AdmissionRequest {
		return request(admissionv1.Create, "k0s.k0sproject.io", "ClusterConfig", "kube-system", "k0s", k0sClusterConfig(t, spec), nil)
	}
	const badEviction = "  workerProfiles:\n  - name: pool-a\n    values:\n      evictionHard:\n        memory.available: 500Mx\n"
	const goodEviction = "  workerProfiles:\n  - name: pool-a\n    values:\n      evictionHard:\n        memory.available: 500Mi\n"
	const gateInProfile = "  workerProfiles:\n  - name: pool-a\n    values:\n      featureGates:\n        " + sleepGate + ": true\n"
	const clusterGate = "  featureGates:\n  - name: " + sleepGate + "\n    enabled: true\n    components: [kubelet]\n"
	const secondBad = "  workerProfiles:\n  - name: pool-a\n    values:\n      maxPods: 50\n  - name: pool-b\n    values:\n      evictionHard:\n        memory.available: 500Mx\n"
	const bothBad = "  workerProfiles:\n  - name: pool-a\n    values:\n      evictionHard:\n        memory.available: 500Mx\n  - name: pool-b\n    values:\n      evictionHard:\n        memory.available: 500Mx\n"
	runReviewCases(t, []reviewCase{
		{name: "no worker profiles: k0s's default profile", minors: window, req: cc("  network:\n    serviceCIDR: 10.96.0.0/12\n"), allowed: true},
		{name: "a clean worker profile", minors: window, req: cc(goodEviction), allowed: true},
		{name: "a worker profile with an eviction threshold no kubelet parses", minors: window, req: cc(badEviction),
			says: []string{"clusterconfig/kube-system/k0s would not run", "memory.available", "(kubelets 1.34..1.37)"}},
		{name: "a worker profile with a gate 1.37 removed", minors: window, req: cc(gateInProfile),
			says: []string{sleepGate, "(kubelet 1.37)"}, notSays: []string{"(kubelet 1.34)", "(kubelet 1.35)", "(kubelet 1.36)"}},
		{name: "a worker profile with a gate 1.37 removed, judged up to 1.36", minors: []string{"1.35", "1.36"}, req: cc(gateInProfile), allowed: true},
		{name: "a kubelet gate of spec.featureGates 1.37 removed", minors: window, req: cc(clusterGate),
			says: []string{sleepGate, "(kubelet 1.37)"}, notSays: []string{"(kubelet 1.36)"}},
		// Each profile is a node group (a worker started with --profile),
		// and default is every worker started without one.
		{name: "the second of two worker profiles refused", minors: []string{"1.36"}, req: cc(secondBad),
			says:    []string{"worker profile pool-b evictionHard[memory.available] (kubelet 1.36)"},
			notSays: []string{"worker profile pool-a", "worker profile default"}},
		{name: "an UPDATE that breaks a second profile the way the first is broken", minors: []string{"1.36"},
			req:  request(admissionv1.Update, "k0s.k0sproject.io", "ClusterConfig", "kube-system", "k0s", k0sClusterConfig(t, bothBad), k0sClusterConfig(t, badEviction)),
			says: []string{"worker profile pool-b evictionHard[memory.available]"}, notSays: []string{"worker profile pool-a"}},
		{name: "a kubelet gate of spec.featureGates 1.37 removed, in every profile", minors: []string{"1.37"}, req: cc(clusterGate + goodEviction),
			says: []string{"worker profile pool-a", "worker profile default"}},
		{name: "a key k0s's strict decoding refuses", minors: []string{"1.36"}, req: cc("  netwrok: {}\n"),
			says: []string{"netwrok"}},
	})
}
