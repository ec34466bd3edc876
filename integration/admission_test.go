package integration

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/yaml"
)

// lockedBuffer is a buffer a process writes to while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// warnings collects the admission warnings the API server relays.
type warnings struct {
	mu   sync.Mutex
	said []string
}

func (w *warnings) HandleWarningHeader(_ int, _ string, text string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.said = append(w.said, text)
}

func (w *warnings) take() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := w.said
	w.said = nil
	return out
}

var ec2NodeClassGVR = schema.GroupVersionResource{Group: "karpenter.k8s.aws", Version: "v1", Resource: "ec2nodeclasses"}

func ec2NodeClass(t testing.TB, name, kubelet string) *unstructured.Unstructured {
	t.Helper()
	doc := "apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\nmetadata:\n  name: " + name + "\nspec:\n  role: KarpenterNodeRole\n" +
		"  amiSelectorTerms:\n  - alias: al2023@latest\n  subnetSelectorTerms:\n  - tags: {karpenter.sh/discovery: demo}\n" +
		"  securityGroupSelectorTerms:\n  - tags: {karpenter.sh/discovery: demo}\n"
	if kubelet != "" {
		doc += "  kubelet:\n" + kubelet
	}
	u := &unstructured.Unstructured{}
	check(t, yaml.Unmarshal([]byte(doc), &u.Object))
	return u
}

// admissionEnv is a real kube-apiserver with Karpenter's, Cluster API's and
// k0s's CRDs and kubeletcfg webhook (the command, --control-plane 1.37) registered
// with failurePolicy Fail.
type admissionEnv struct {
	e           *env
	ctx         context.Context
	said        *warnings
	dyn         dynamic.Interface
	nodeClasses dynamic.NamespaceableResourceInterface
	vwc         *admissionregistrationv1.ValidatingWebhookConfiguration
	certFile    string
	keyFile     string
	dryRun      metav1.CreateOptions
	stop        func()
	pid         int
	// webhookCA verifies the webhook's serving certificate (its /metrics).
	webhookCA []byte
}

const badEviction = "    evictionHard:\n      memory.available: 500Mx\n"

func startAdmissionEnv(t testing.TB) *admissionEnv {
	e := startEnv(t)
	ctx := context.Background()
	cfg := &rest.Config{Host: e.host, BearerToken: e.tokens[userAdmin], TLSClientConfig: rest.TLSClientConfig{CAData: e.caPEM}, QPS: 1000, Burst: 2000}
	said := &warnings{}
	cfg.WarningHandler = said
	dyn, err := dynamic.NewForConfig(cfg)
	check(t, err)
	ext, err := apiextensionsclient.NewForConfig(cfg)
	check(t, err)

	// The projects' own CRDs (testdata/crds/ORIGIN.md), all created, then
	// waited for until established.
	var crds []string
	for _, file := range []string{"karpenter.k8s.aws_ec2nodeclasses.yaml", "cluster.x-k8s.io_machinedeployments.yaml", "bootstrap.cluster.x-k8s.io_kubeadmconfigtemplates.yaml",
		"controlplane.cluster.x-k8s.io_kubeadmcontrolplanes.yaml", "k0s.k0sproject.io_clusterconfigs.yaml"} {
		crdYAML, err := os.ReadFile(filepath.Join("testdata", "crds", file))
		check(t, err)
		var crd apiextensionsv1.CustomResourceDefinition
		check(t, yaml.Unmarshal(crdYAML, &crd))
		_, err = ext.ApiextensionsV1().CustomResourceDefinitions().Create(ctx, &crd, metav1.CreateOptions{})
		check(t, err)
		crds = append(crds, crd.Name)
	}
	for _, name := range crds {
		established := false
		for i := 0; i < 100 && !established; i++ {
			got, err := ext.ApiextensionsV1().CustomResourceDefinitions().Get(ctx, name, metav1.GetOptions{})
			check(t, err)
			for _, c := range got.Status.Conditions {
				established = established || c.Type == apiextensionsv1.Established && c.Status == apiextensionsv1.ConditionTrue
			}
			if !established {
				time.Sleep(100 * time.Millisecond)
			}
		}
		if !established {
			t.Fatalf("the CRD %s is not established", name)
		}
	}
	nodeClasses := dyn.Resource(ec2NodeClassGVR)
	// A broken object that exists before the webhook does (an UPDATE of it is judged below).
	_, err = nodeClasses.Create(ctx, ec2NodeClass(t, "broken", badEviction), metav1.CreateOptions{})
	check(t, err)

	// The webhook: the command itself, its serving certificate from a CA of the test.
	ca, err := newCA("kubeletcfg-webhook-ca")
	check(t, err)
	certPEM, keyPEM, err := ca.issue("kubeletcfg-webhook", []net.IP{net.ParseIP("127.0.0.1")}, false)
	check(t, err)
	certFile, keyFile := filepath.Join(e.dir, "webhook.crt"), filepath.Join(e.dir, "webhook.key")
	check(t, os.WriteFile(certFile, certPEM, 0o644))
	check(t, os.WriteFile(keyFile, keyPEM, 0o600))
	const port = 9443
	webhook := exec.Command(os.Getenv(binEnv), "webhook", "--tls-cert-file", certFile, "--tls-private-key-file", keyFile,
		"--secure-port", fmt.Sprint(port), "--control-plane", "1.37")
	// The machines that use a template; the runtime's settings deploy/webhook
	// gives its pods (GOMEMLIMIT, GOGC), so that the benchmark measures them.
	webhook.Env = append(append(os.Environ(), "KUBECONFIG="+e.kubeconfig("admin", e.tokens[userAdmin])), deployedEnv(t)...)
	webhook.Stdout, webhook.Stderr = &prefixWriter{prefix: "webhook: ", w: os.Stderr}, &prefixWriter{prefix: "webhook: ", w: os.Stderr}
	check(t, webhook.Start())
	stopped := false
	stop := func() {
		if !stopped {
			stopped = true
			_ = webhook.Process.Kill()
			_ = webhook.Wait()
		}
	}
	t.Cleanup(stop)

	fail := admissionregistrationv1.Fail
	none := admissionregistrationv1.SideEffectClassNone
	timeout := int32(5)
	url := fmt.Sprintf("https://127.0.0.1:%d/validate", port)
	hook := func(name string, rules []admissionregistrationv1.RuleWithOperations, conditions []admissionregistrationv1.MatchCondition) admissionregistrationv1.ValidatingWebhook {
		return admissionregistrationv1.ValidatingWebhook{Name: name, AdmissionReviewVersions: []string{"v1"}, SideEffects: &none,
			FailurePolicy: &fail, TimeoutSeconds: &timeout, Rules: rules, MatchConditions: conditions,
			ClientConfig: admissionregistrationv1.WebhookClientConfig{URL: &url, CABundle: pemBlock("CERTIFICATE", ca.cert.Raw)}}
	}
	create := []admissionregistrationv1.OperationType{admissionregistrationv1.Create, admissionregistrationv1.Update}
	vwc := &admissionregistrationv1.ValidatingWebhookConfiguration{ObjectMeta: metav1.ObjectMeta{Name: "kubeletcfg-webhook"},
		Webhooks: []admissionregistrationv1.ValidatingWebhook{
			// deploy/webhook/webhook.yaml's rules.
			hook("nodeconfig.kubeletcfg.dev", []admissionregistrationv1.RuleWithOperations{{Operations: create,
				Rule: admissionregistrationv1.Rule{APIGroups: []string{"karpenter.k8s.aws"}, APIVersions: []string{"*"}, Resources: []string{"ec2nodeclasses"}}},
				{Operations: create, Rule: admissionregistrationv1.Rule{APIGroups: []string{"bootstrap.cluster.x-k8s.io"}, APIVersions: []string{"*"}, Resources: []string{"kubeadmconfigs", "kubeadmconfigtemplates"}}},
				{Operations: create, Rule: admissionregistrationv1.Rule{APIGroups: []string{"controlplane.cluster.x-k8s.io"}, APIVersions: []string{"*"}, Resources: []string{"kubeadmcontrolplanes", "kubeadmcontrolplanetemplates"}}},
				{Operations: create, Rule: admissionregistrationv1.Rule{APIGroups: []string{"k0s.k0sproject.io"}, APIVersions: []string{"*"}, Resources: []string{"clusterconfigs"}}}}, nil),
			hook("configmaps.kubeletcfg.dev", []admissionregistrationv1.RuleWithOperations{{Operations: create,
				Rule: admissionregistrationv1.Rule{APIGroups: []string{""}, APIVersions: []string{"v1"}, Resources: []string{"configmaps"}}}},
				[]admissionregistrationv1.MatchCondition{{Name: "kubelet-configmaps", Expression: "object.metadata.namespace == 'kube-system' && object.metadata.name == 'kubelet-config'"}}),
		}}
	vwc, err = e.client.AdmissionregistrationV1().ValidatingWebhookConfigurations().Create(ctx, vwc, metav1.CreateOptions{})
	check(t, err)

	// The API server picks the registration up, and the webhook its port, in
	// their own time: a dry-run create of a refused object until it is denied.
	dryRun := metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}}
	var denied error
	for i := 0; i < 120; i++ {
		_, denied = nodeClasses.Create(ctx, ec2NodeClass(t, "probe", badEviction), dryRun)
		if denied != nil && strings.Contains(denied.Error(), "would not run") {
			break
		}
		time.Sleep(250 * time.Millisecond)
	}
	if denied == nil || !strings.Contains(denied.Error(), "would not run") {
		t.Fatalf("the webhook never denied the refused EC2NodeClass: %v", denied)
	}

	return &admissionEnv{e: e, ctx: ctx, said: said, dyn: dyn, nodeClasses: nodeClasses, vwc: vwc, certFile: certFile, keyFile: keyFile, dryRun: dryRun, stop: stop, pid: webhook.Process.Pid, webhookCA: pemBlock("CERTIFICATE", ca.cert.Raw)}
}

// deployedEnv is the environment deploy/webhook/webhook.yaml's Deployment
// gives the webhook's container, as NAME=value.
func deployedEnv(t testing.TB) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "deploy", "webhook", "webhook.yaml"))
	check(t, err)
	for _, doc := range strings.Split(string(data), "\n---\n") {
		var dep appsv1.Deployment
		if yaml.Unmarshal([]byte(doc), &dep) != nil || dep.Kind != "Deployment" {
			continue
		}
		var env []string
		for _, e := range dep.Spec.Template.Spec.Containers[0].Env {
			env = append(env, e.Name+"="+e.Value)
		}
		if len(env) == 0 {
			t.Fatal("deploy/webhook/webhook.yaml: the Deployment sets no environment (GOMEMLIMIT, GOGC)")
		}
		return env
	}
	t.Fatal("deploy/webhook/webhook.yaml: no Deployment")
	return nil
}

// TestAdmission: kubeletcfg webhook, the command, registered with a real
// kube-apiserver (Karpenter's own EC2NodeClass CRD installed): a refused
// EC2NodeClass is denied with the finding's words, a good one admitted with
// warnings, a dry run judged the same, an UPDATE that does not make a broken
// object worse admitted, kubeadm's kubelet-config ConfigMap with a gate the
// cluster's minor (1.37) removed denied, a KubeadmControlPlane judged at its
// spec.version and for its first and its joining machines, a k0s
// ClusterConfig for each worker profile; with the webhook
// down, failurePolicy Ignore admits and Fail refuses.
func TestAdmission(t *testing.T) {
	a := startAdmissionEnv(t)
	e, ctx, said, dyn, nodeClasses, vwc, certFile, keyFile, dryRun, stop := a.e, a.ctx, a.said, a.dyn, a.nodeClasses, a.vwc, a.certFile, a.keyFile, a.dryRun, a.stop
	t.Run("a refused EC2NodeClass is denied with the finding", func(t *testing.T) {
		_, err := nodeClasses.Create(ctx, ec2NodeClass(t, "refused", badEviction), metav1.CreateOptions{})
		for _, want := range []string{`admission webhook "nodeconfig.kubeletcfg.dev" denied the request`, "KC9001 evictionHard[memory.available] (kubelets 1.34..1.37): Karpenter", "500Mx"} {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("error %v, want %q", err, want)
			}
		}
	})
	t.Run("a dry run is judged the same", func(t *testing.T) {
		if _, err := nodeClasses.Create(ctx, ec2NodeClass(t, "dry", badEviction), dryRun); err == nil || !strings.Contains(err.Error(), "KC9001") {
			t.Errorf("dry run: %v", err)
		}
	})
	t.Run("a good EC2NodeClass is admitted with warnings", func(t *testing.T) {
		said.take()
		_, err := nodeClasses.Create(ctx, ec2NodeClass(t, "good", "    maxPods: 40\n"), metav1.CreateOptions{})
		check(t, err)
		// nodeadm sets gates of its own that 1.36 and 1.37 have locked (KC3005).
		got := said.take()
		found := false
		for _, w := range got {
			found = found || strings.HasPrefix(w, "KC3005 featureGates[")
		}
		if !found {
			t.Errorf("warnings %q, want the locked gates nodeadm sets", got)
		}
	})
	t.Run("an UPDATE's old object, judged when it was created, comes from the cache", func(t *testing.T) {
		const cached = `kubeletcfg_webhook_objects_total{source="cache"}`
		const evaluated = `kubeletcfg_webhook_objects_total{source="evaluated"}`
		cached0, evaluated0 := a.metric(t, cached), a.metric(t, evaluated)
		u, err := nodeClasses.Get(ctx, "good", metav1.GetOptions{})
		check(t, err)
		// The stored object: the API server's uid, resourceVersion,
		// managedFields; the change: a label.
		u.SetLabels(map[string]string{"team": "nodes"})
		_, err = nodeClasses.Update(ctx, u, metav1.UpdateOptions{})
		check(t, err)
		if c, e := a.metric(t, cached)-cached0, a.metric(t, evaluated)-evaluated0; c != 1 || e != 1 {
			t.Errorf("an update: %v objects from the cache, %v evaluated; want the old one from the cache, the new one evaluated", c, e)
		}
	})
	t.Run("an UPDATE that does not make a broken object worse is admitted", func(t *testing.T) {
		u, err := nodeClasses.Get(ctx, "broken", metav1.GetOptions{})
		check(t, err)
		check(t, unstructured.SetNestedField(u.Object, int64(50), "spec", "kubelet", "maxPods"))
		if _, err := nodeClasses.Update(ctx, u, metav1.UpdateOptions{}); err != nil {
			t.Errorf("update: %v", err)
		}
		u, err = nodeClasses.Get(ctx, "broken", metav1.GetOptions{})
		check(t, err)
		check(t, unstructured.SetNestedField(u.Object, "5x", "spec", "kubelet", "evictionHard", "nodefs.available"))
		if _, err := nodeClasses.Update(ctx, u, metav1.UpdateOptions{}); err == nil || !strings.Contains(err.Error(), "evictionHard[nodefs.available]") || strings.Contains(err.Error(), "evictionHard[memory.available]") {
			t.Errorf("an update that adds a refusal: %v", err)
		}
	})
	t.Run("kubeadm's kubelet-config with a gate the cluster's minor removed is denied", func(t *testing.T) {
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "kubelet-config", Namespace: "kube-system"},
			Data: map[string]string{"kubelet": "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nfeatureGates:\n  PodLifecycleSleepAction: true\n"}}
		_, err := e.client.CoreV1().ConfigMaps("kube-system").Create(ctx, cm, metav1.CreateOptions{})
		// 1.37 removed the gate; 1.34..1.36, the rest of the window, still have it.
		if err == nil || !strings.Contains(err.Error(), "featureGates[PodLifecycleSleepAction] (kubelet 1.37)") || strings.Contains(err.Error(), "(kubelet 1.36)") {
			t.Errorf("error %v", err)
		}
		other := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "app", Namespace: "default"}, Data: cm.Data}
		if _, err := e.client.CoreV1().ConfigMaps("default").Create(ctx, other, metav1.CreateOptions{}); err != nil {
			t.Errorf("a ConfigMap the webhook does not judge: %v", err)
		}
	})
	t.Run("a KubeadmConfigTemplate is judged at its machines' minors", func(t *testing.T) {
		templates := dyn.Resource(schema.GroupVersionResource{Group: "bootstrap.cluster.x-k8s.io", Version: "v1beta1", Resource: "kubeadmconfigtemplates"})
		tmpl := func(name string) *unstructured.Unstructured {
			u := &unstructured.Unstructured{}
			check(t, yaml.Unmarshal([]byte("apiVersion: bootstrap.cluster.x-k8s.io/v1beta1\nkind: KubeadmConfigTemplate\nmetadata:\n  name: "+name+"\n  namespace: default\n"+
				"spec:\n  template:\n    spec:\n      joinConfiguration:\n        nodeRegistration:\n          kubeletExtraArgs:\n            feature-gates: PodLifecycleSleepAction=true\n"), &u.Object))
			return u
		}
		// No machine uses it: the window, and 1.37 removed the gate.
		if _, err := templates.Namespace("default").Create(ctx, tmpl("unused"), dryRun); err == nil || !strings.Contains(err.Error(), "featureGates[PodLifecycleSleepAction] (kubelet 1.37)") {
			t.Errorf("a template no machine uses: %v", err)
		}
		// A MachineDeployment of 1.36 uses md-136: judged at 1.36 alone, admitted.
		md := &unstructured.Unstructured{}
		check(t, yaml.Unmarshal([]byte("apiVersion: cluster.x-k8s.io/v1beta2\nkind: MachineDeployment\nmetadata:\n  name: workers\n  namespace: default\n"+
			"spec:\n  clusterName: demo\n  selector: {matchLabels: {pool: workers}}\n  template:\n    metadata: {labels: {pool: workers}}\n    spec:\n"+
			"      clusterName: demo\n      version: v1.36.2\n      bootstrap:\n        configRef: {apiGroup: bootstrap.cluster.x-k8s.io, kind: KubeadmConfigTemplate, name: md-136}\n"+
			"      infrastructureRef: {apiGroup: infrastructure.cluster.x-k8s.io, kind: DockerMachineTemplate, name: workers}\n"), &md.Object))
		_, err := dyn.Resource(schema.GroupVersionResource{Group: "cluster.x-k8s.io", Version: "v1beta2", Resource: "machinedeployments"}).Namespace("default").Create(ctx, md, metav1.CreateOptions{})
		check(t, err)
		if _, err := templates.Namespace("default").Create(ctx, tmpl("md-136"), metav1.CreateOptions{}); err != nil {
			t.Errorf("a template its 1.36 machines take: %v", err)
		}
	})
	t.Run("a KubeadmControlPlane is judged at its spec.version", func(t *testing.T) {
		kcps := dyn.Resource(schema.GroupVersionResource{Group: "controlplane.cluster.x-k8s.io", Version: "v1beta2", Resource: "kubeadmcontrolplanes"}).Namespace("default")
		kcp := func(name, version string) *unstructured.Unstructured {
			u := &unstructured.Unstructured{}
			check(t, yaml.Unmarshal([]byte("apiVersion: controlplane.cluster.x-k8s.io/v1beta2\nkind: KubeadmControlPlane\nmetadata:\n  name: "+name+"\n  namespace: default\n"+
				"spec:\n  replicas: 1\n  version: "+version+"\n  machineTemplate:\n    spec:\n      infrastructureRef: {apiGroup: infrastructure.cluster.x-k8s.io, kind: DockerMachineTemplate, name: cp}\n"+
				"  kubeadmConfigSpec:\n    initConfiguration:\n      nodeRegistration:\n        kubeletExtraArgs:\n        - {name: feature-gates, value: PodLifecycleSleepAction=true}\n"+
				"    joinConfiguration:\n      nodeRegistration:\n        kubeletExtraArgs:\n        - {name: feature-gates, value: PodLifecycleSleepAction=true}\n"), &u.Object))
			return u
		}
		// 1.36 has the gate 1.37 removed: admitted, though 1.37 is in the window.
		if _, err := kcps.Create(ctx, kcp("cp-136", "v1.36.2"), metav1.CreateOptions{}); err != nil {
			t.Errorf("a control plane of v1.36.2: %v", err)
		}
		_, err := kcps.Create(ctx, kcp("cp-137", "v1.37.1"), metav1.CreateOptions{})
		for _, want := range []string{`admission webhook "nodeconfig.kubeletcfg.dev" denied the request`, "kubeadmcontrolplane/default/cp-137 would not run", "featureGates[PodLifecycleSleepAction] (kubelet 1.37)"} {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("a control plane of v1.37.1: %v, want %q", err, want)
			}
		}
		if err != nil && strings.Contains(err.Error(), "(kubelet 1.36)") {
			t.Errorf("a control plane of v1.37.1 judged at 1.36: %v", err)
		}
		// v1beta1 (its kubeletExtraArgs a map), served too.
		v1beta1 := &unstructured.Unstructured{}
		check(t, yaml.Unmarshal([]byte("apiVersion: controlplane.cluster.x-k8s.io/v1beta1\nkind: KubeadmControlPlane\nmetadata:\n  name: cp-v1beta1\n  namespace: default\n"+
			"spec:\n  replicas: 1\n  version: v1.37.1\n  machineTemplate:\n    infrastructureRef: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta1, kind: DockerMachineTemplate, name: cp}\n"+
			"  kubeadmConfigSpec:\n    initConfiguration:\n      nodeRegistration:\n        kubeletExtraArgs: {feature-gates: PodLifecycleSleepAction=true}\n"), &v1beta1.Object))
		_, err = dyn.Resource(schema.GroupVersionResource{Group: "controlplane.cluster.x-k8s.io", Version: "v1beta1", Resource: "kubeadmcontrolplanes"}).Namespace("default").Create(ctx, v1beta1, dryRun)
		if err == nil || !strings.Contains(err.Error(), "featureGates[PodLifecycleSleepAction] (kubelet 1.37)") || strings.Contains(err.Error(), "(kubelet 1.36)") {
			t.Errorf("a v1beta1 control plane of v1.37.1: %v", err)
		}
		// Its upgrade to 1.37 is what the change makes worse: denied.
		u, err := kcps.Get(ctx, "cp-136", metav1.GetOptions{})
		check(t, err)
		check(t, unstructured.SetNestedField(u.Object, "v1.37.1", "spec", "version"))
		if _, err := kcps.Update(ctx, u, metav1.UpdateOptions{}); err == nil || !strings.Contains(err.Error(), "featureGates[PodLifecycleSleepAction] (kubelet 1.37)") {
			t.Errorf("an upgrade to v1.37.1: %v", err)
		}
	})
	t.Run("a KubeadmControlPlane is judged for its joining machines too", func(t *testing.T) {
		kcps := dyn.Resource(schema.GroupVersionResource{Group: "controlplane.cluster.x-k8s.io", Version: "v1beta2", Resource: "kubeadmcontrolplanes"}).Namespace("default")
		u := &unstructured.Unstructured{}
		// The first machine (kubeadm init) is clean; the later ones (kubeadm
		// join --control-plane) get the gate 1.37 removed.
		check(t, yaml.Unmarshal([]byte("apiVersion: controlplane.cluster.x-k8s.io/v1beta2\nkind: KubeadmControlPlane\nmetadata:\n  name: cp-join\n  namespace: default\n"+
			"spec:\n  replicas: 3\n  version: v1.37.1\n  machineTemplate:\n    spec:\n      infrastructureRef: {apiGroup: infrastructure.cluster.x-k8s.io, kind: DockerMachineTemplate, name: cp}\n"+
			"  kubeadmConfigSpec:\n    initConfiguration:\n      nodeRegistration:\n        criSocket: unix:///run/containerd/containerd.sock\n"+
			"    joinConfiguration:\n      nodeRegistration:\n        kubeletExtraArgs:\n        - {name: feature-gates, value: PodLifecycleSleepAction=true}\n"), &u.Object))
		_, err := kcps.Create(ctx, u, metav1.CreateOptions{})
		for _, want := range []string{"kubeadmcontrolplane/default/cp-join would not run", "joining control plane machines featureGates[PodLifecycleSleepAction] (kubelet 1.37)"} {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("a control plane refused in joinConfiguration alone: %v, want %q", err, want)
			}
		}
		if err != nil && strings.Contains(err.Error(), "first control plane machine") {
			t.Errorf("the first machine, which is clean, named: %v", err)
		}
	})
	t.Run("a k0s ClusterConfig is judged for each worker profile", func(t *testing.T) {
		configs := dyn.Resource(schema.GroupVersionResource{Group: "k0s.k0sproject.io", Version: "v1beta1", Resource: "clusterconfigs"}).Namespace("kube-system")
		cc := func(memory string) *unstructured.Unstructured {
			u := &unstructured.Unstructured{}
			check(t, yaml.Unmarshal([]byte("apiVersion: k0s.k0sproject.io/v1beta1\nkind: ClusterConfig\nmetadata:\n  name: k0s\n  namespace: kube-system\n"+
				"spec:\n  workerProfiles:\n  - name: pool-a\n    values:\n      maxPods: 50\n  - name: pool-b\n    values:\n      evictionHard:\n        memory.available: "+memory+"\n"), &u.Object))
			return u
		}
		_, err := configs.Create(ctx, cc("500Mx"), metav1.CreateOptions{})
		for _, want := range []string{"clusterconfig/kube-system/k0s would not run", "worker profile pool-b evictionHard[memory.available] (kubelets 1.34..1.37)"} {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("a refused worker profile: %v, want %q", err, want)
			}
		}
		// The API server defaults the rest of the spec from the CRD's schema: it is what the webhook reads.
		if _, err := configs.Create(ctx, cc("500Mi"), metav1.CreateOptions{}); err != nil {
			t.Errorf("a good ClusterConfig: %v", err)
		}
	})
	t.Run("without --control-plane, the API server's minor", func(t *testing.T) {
		v, err := e.client.Discovery().ServerVersion()
		check(t, err)
		cmd := exec.Command(os.Getenv(binEnv), "webhook", "--tls-cert-file", certFile, "--tls-private-key-file", keyFile, "--secure-port", "9444")
		cmd.Env = append(os.Environ(), "KUBECONFIG="+e.kubeconfig("admin", e.tokens[userAdmin]))
		stderr := &lockedBuffer{}
		cmd.Stderr = stderr
		check(t, cmd.Start())
		deadline := time.Now().Add(30 * time.Second)
		for time.Now().Before(deadline) && !strings.Contains(stderr.String(), "serving on") && cmd.ProcessState == nil {
			time.Sleep(100 * time.Millisecond)
			if strings.Contains(stderr.String(), "kubeletcfg:") {
				break
			}
		}
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		// The test server is built without a release version (v0.0.0-master): the
		// command then says to name the minor; a released one names its window.
		want := "reports no Kubernetes minor"
		if v.Major != "" && v.Minor != "" {
			want = "kubelets "
		}
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("API server version %q (%s.%s): the webhook said %q, want %q", v.GitVersion, v.Major, v.Minor, stderr.String(), want)
		}
		t.Logf("API server %s: %s", v.GitVersion, strings.TrimSpace(stderr.String()))
	})
	t.Run("the webhook down: Ignore admits, Fail refuses", func(t *testing.T) {
		stop()
		if _, err := nodeClasses.Create(ctx, ec2NodeClass(t, "while-down", badEviction), dryRun); err == nil || !strings.Contains(err.Error(), "failed calling webhook") {
			t.Errorf("failurePolicy Fail: %v", err)
		}
		ignore := admissionregistrationv1.Ignore
		current, err := e.client.AdmissionregistrationV1().ValidatingWebhookConfigurations().Get(ctx, vwc.Name, metav1.GetOptions{})
		check(t, err)
		for i := range current.Webhooks {
			current.Webhooks[i].FailurePolicy = &ignore
		}
		_, err = e.client.AdmissionregistrationV1().ValidatingWebhookConfigurations().Update(ctx, current, metav1.UpdateOptions{})
		check(t, err)
		var last error
		for i := 0; i < 120; i++ { // until the API server has the new policy
			if _, last = nodeClasses.Create(ctx, ec2NodeClass(t, "while-down", badEviction), dryRun); last == nil {
				break
			}
			time.Sleep(250 * time.Millisecond)
		}
		if last != nil {
			t.Errorf("failurePolicy Ignore: %v", last)
		}
	})
}

// BenchmarkAdmission drives dry-run creates of EC2NodeClasses through the
// real API server to the webhook (judging at 1.34..1.37), from 1, 2, 4 and 8
// clients at once: each request a different object (its maxPods), so that
// every one is evaluated, none answered from the webhook's cache. It reports
// the latency's p50 and p99 as the client sees it, the webhook's CPU a
// review and the rest's (the API server and the clients, this process), the
// webhook's live heap and resident memory before and after:
//
//	cd integration && go test -run XXX -bench BenchmarkAdmission -benchtime 10000x ./...
func BenchmarkAdmission(b *testing.B) {
	a := startAdmissionEnv(b)
	var serial atomic.Int64
	for _, clients := range []int{1, 2, 4, 8} {
		b.Run(fmt.Sprintf("clients=%d", clients), func(b *testing.B) {
			objs := make([]*unstructured.Unstructured, b.N)
			for i := range objs {
				objs[i] = ec2NodeClass(b, "bench", fmt.Sprintf("    maxPods: %d\n    kubeReserved:\n      cpu: 100m\n", 1000+serial.Add(1)))
			}
			cpu0, rss0 := procStat(b, a.pid)
			self0, _ := procStat(b, os.Getpid())
			heap0 := a.heapInuse(b)
			lat := make([]time.Duration, b.N)
			var next atomic.Int64
			var wg sync.WaitGroup
			b.ResetTimer()
			for w := 0; w < clients; w++ {
				wg.Go(func() {
					for {
						i := next.Add(1) - 1
						if i >= int64(b.N) {
							return
						}
						start := time.Now()
						if _, err := a.nodeClasses.Create(a.ctx, objs[i], a.dryRun); err != nil {
							b.Error(err)
							return
						}
						lat[i] = time.Since(start)
					}
				})
			}
			wg.Wait()
			b.StopTimer()
			cpu1, rss1 := procStat(b, a.pid)
			self1, _ := procStat(b, os.Getpid())
			heap1 := a.heapInuse(b)
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
			b.ReportMetric((cpu1-cpu0).Seconds()*1000/float64(b.N), "webhook-cpu-ms/review")
			// This process: the API server (and etcd's client), the clients.
			b.ReportMetric((self1-self0).Seconds()*1000/float64(b.N), "apiserver+clients-cpu-ms/review")
			b.ReportMetric(float64(heap0)/(1<<20), "heap-start-MiB")
			b.ReportMetric(float64(heap1)/(1<<20), "heap-end-MiB")
			b.ReportMetric(float64(rss0)/(1<<20), "rss-start-MiB")
			b.ReportMetric(float64(rss1)/(1<<20), "rss-end-MiB")
		})
	}
}

// procStat is a process's CPU time (user and system) and resident set size
// from /proc.
func procStat(tb testing.TB, pid int) (time.Duration, int64) {
	tb.Helper()
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	check(tb, err)
	// The fields after the command name's closing parenthesis: utime and stime
	// are the 12th and 13th (clock ticks, 100 a second), rss the 22nd (pages).
	f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+2:]))
	ticks := func(s string) int64 { n, _ := strconv.ParseInt(s, 10, 64); return n }
	cpu := time.Duration(ticks(f[11])+ticks(f[12])) * 10 * time.Millisecond
	return cpu, ticks(f[21]) * int64(os.Getpagesize())
}

// heapInuse is the webhook's live heap after its last collection
// (go_gc_heap_live_bytes, from its /metrics).
func (a *admissionEnv) heapInuse(tb testing.TB) float64 {
	return a.metric(tb, "go_gc_heap_live_bytes")
}

// metric is the value of one series of the webhook's /metrics (its name and
// labels as the text format writes them).
func (a *admissionEnv) metric(tb testing.TB, series string) float64 {
	tb.Helper()
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(a.webhookCA)
	c := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	resp, err := c.Get("https://127.0.0.1:9443/metrics")
	check(tb, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	check(tb, err)
	for _, line := range strings.Split(string(body), "\n") {
		if v, ok := strings.CutPrefix(line, series+" "); ok {
			f, err := strconv.ParseFloat(v, 64)
			check(tb, err)
			return f
		}
	}
	tb.Fatalf("no %s in the webhook's /metrics", series)
	return 0
}
