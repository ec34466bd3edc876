package admission

import (
	"bytes"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/yaml"
)

// resources are the plural resources of the kinds Review judges.
var resources = map[string]string{"EC2NodeClass": "ec2nodeclasses", "KubeadmConfig": "kubeadmconfigs",
	"KubeadmConfigTemplate": "kubeadmconfigtemplates", "KubeadmControlPlane": "kubeadmcontrolplanes",
	"KubeadmControlPlaneTemplate": "kubeadmcontrolplanetemplates", "ConfigMap": "configmaps", "ClusterConfig": "clusterconfigs"}

// TestDeployWebhook: deploy/webhook/webhook.yaml decodes strictly into the
// API's types and is what docs/admission.md says: read-only RBAC for the
// machines that use a template, two non-root replicas with
// a read-only root filesystem and a PodDisruptionBudget, the Service on the
// container's port, the key pair from cert-manager's Secret, and a webhook
// registration that sends every kind Review judges (and nothing of its own
// namespace), fails open, within 5 seconds, without side effects.
func TestDeployWebhook(t *testing.T) {
	data, err := os.ReadFile("../deploy/webhook/webhook.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var ns *corev1.Namespace
	var dep *appsv1.Deployment
	var pdb *policyv1.PodDisruptionBudget
	var svc *corev1.Service
	var vwc *admissionregistrationv1.ValidatingWebhookConfiguration
	var role *rbacv1.ClusterRole
	var binding *rbacv1.ClusterRoleBinding
	for _, doc := range bytes.Split(data, []byte("\n---\n")) {
		var meta struct{ Kind string }
		if err := yaml.Unmarshal(doc, &meta); err != nil {
			t.Fatal(err)
		}
		var into any
		switch meta.Kind {
		case "Namespace":
			ns = &corev1.Namespace{}
			into = ns
		case "ServiceAccount":
			into = &corev1.ServiceAccount{}
		case "ClusterRole":
			role = &rbacv1.ClusterRole{}
			into = role
		case "ClusterRoleBinding":
			binding = &rbacv1.ClusterRoleBinding{}
			into = binding
		case "Deployment":
			dep = &appsv1.Deployment{}
			into = dep
		case "PodDisruptionBudget":
			pdb = &policyv1.PodDisruptionBudget{}
			into = pdb
		case "Service":
			svc = &corev1.Service{}
			into = svc
		case "ValidatingWebhookConfiguration":
			vwc = &admissionregistrationv1.ValidatingWebhookConfiguration{}
			into = vwc
		default:
			t.Fatalf("unexpected kind %q", meta.Kind)
		}
		if err := yaml.UnmarshalStrict(doc, into); err != nil {
			t.Fatalf("%s: %v", meta.Kind, err)
		}
	}
	if ns == nil || dep == nil || pdb == nil || svc == nil || vwc == nil {
		t.Fatal("webhook.yaml lacks a Namespace, Deployment, PodDisruptionBudget, Service or ValidatingWebhookConfiguration")
	}
	// Read-only, and only what MachineVersions lists.
	if role == nil || binding == nil || len(role.Rules) != 1 || !slices.Equal(role.Rules[0].Verbs, []string{"list"}) ||
		!slices.Equal(role.Rules[0].Resources, []string{"machinedeployments", "machinepools"}) || binding.Subjects[0].Name != dep.Spec.Template.Spec.ServiceAccountName {
		t.Errorf("RBAC: role %+v, binding %+v", role, binding)
	}
	pod := dep.Spec.Template.Spec
	c := pod.Containers[0]
	if *dep.Spec.Replicas != 2 || !*pod.SecurityContext.RunAsNonRoot || !*c.SecurityContext.ReadOnlyRootFilesystem ||
		*c.SecurityContext.AllowPrivilegeEscalation || pdb.Spec.MinAvailable.IntValue() != 1 {
		t.Errorf("deployment: replicas %d, non-root %v, read-only %v, PDB %v", *dep.Spec.Replicas, *pod.SecurityContext.RunAsNonRoot, *c.SecurityContext.ReadOnlyRootFilesystem, pdb.Spec.MinAvailable)
	}
	env := map[string]string{}
	for _, e := range c.Env {
		env[e.Name] = e.Value
	}
	if limit := env["GOMEMLIMIT"]; limit == "" || c.Resources.Limits.Memory().Cmp(resource.MustParse(strings.TrimSuffix(limit, "B"))) <= 0 {
		t.Errorf("GOMEMLIMIT %q is not below the memory limit %v", limit, c.Resources.Limits.Memory())
	}
	if gc, err := strconv.Atoi(env["GOGC"]); err != nil || gc <= 100 {
		t.Errorf("GOGC %q: want a percentage above the default 100 (a review's garbage over a small live heap)", env["GOGC"])
	}
	args := strings.Join(c.Args, " ")
	for _, want := range []string{"webhook", "--tls-cert-file=/tls/tls.crt", "--tls-private-key-file=/tls/tls.key", "--secure-port=8443", "--control-plane="} {
		if !strings.Contains(args, want) {
			t.Errorf("args %q lack %s", args, want)
		}
	}
	if svc.Spec.Ports[0].TargetPort.String() != c.Ports[0].Name || pod.Volumes[0].Secret.SecretName != "kubeletcfg-webhook-tls" {
		t.Errorf("service target %s, container port %s, secret %s", svc.Spec.Ports[0].TargetPort.String(), c.Ports[0].Name, pod.Volumes[0].Secret.SecretName)
	}
	sent := map[string]bool{}
	for _, w := range vwc.Webhooks {
		if *w.FailurePolicy != admissionregistrationv1.Ignore || *w.TimeoutSeconds != 5 || *w.SideEffects != admissionregistrationv1.SideEffectClassNone ||
			!slices.Equal(w.AdmissionReviewVersions, []string{"v1"}) || w.ClientConfig.Service.Path == nil || *w.ClientConfig.Service.Path != "/validate" {
			t.Errorf("%s: failurePolicy %v, timeout %v, side effects %v, path %v", w.Name, *w.FailurePolicy, *w.TimeoutSeconds, *w.SideEffects, w.ClientConfig.Service.Path)
		}
		own := w.NamespaceSelector.MatchExpressions[0]
		if own.Key != "kubeletcfg.dev/webhook" || !slices.Contains(own.Values, ns.Labels[own.Key]) {
			t.Errorf("%s: the webhook's own namespace is not excluded", w.Name)
		}
		for _, r := range w.Rules {
			for _, res := range r.Resources {
				sent[res] = true
			}
		}
		if slices.Contains(w.Rules[0].Resources, "configmaps") {
			expr := w.MatchConditions[0].Expression
			if !strings.Contains(expr, "'kubelet-config'") || !strings.Contains(expr, OptInLabel) {
				t.Errorf("configmaps: matchConditions %q do not send kubelet-config and the opted-in ConfigMaps alone", expr)
			}
		}
	}
	for _, gk := range Kinds() {
		if !sent[resources[gk.Kind]] {
			t.Errorf("the webhook registration sends no %s (%s)", gk, resources[gk.Kind])
		}
	}
	cert, err := os.ReadFile("../deploy/webhook/certificate.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(cert, []byte("secretName: kubeletcfg-webhook-tls")) || !bytes.Contains(cert, []byte("- "+svc.Name+"."+svc.Namespace+".svc\n")) {
		t.Error("certificate.yaml does not issue the Secret the pods read for the Service's name")
	}
}
