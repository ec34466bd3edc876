package admission

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	admissionv1 "k8s.io/api/admission/v1"
	appsv1 "k8s.io/api/apps/v1"
	"sigs.k8s.io/yaml"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/policy"
)

// loadPolicy writes a policy file with rules and loads it as the webhook's
// --policy does.
func loadPolicy(t *testing.T, rules string) *policy.Policy {
	t.Helper()
	file := filepath.Join(t.TempDir(), "policy.yaml")
	if err := os.WriteFile(file, []byte("apiVersion: kubeletcfg/v1\nrules:\n"+rules), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := policy.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func warned(ws []string, rule string) bool {
	for _, w := range ws {
		if strings.HasPrefix(w, rule) {
			return true
		}
	}
	return false
}

// TestReviewPolicy: Config.Policy applies to every evaluation. A warning rule
// it turns off is no longer an admission warning, one it raises to error is
// denied, and an error finding stays denied whatever the policy says.
func TestReviewPolicy(t *testing.T) {
	// An AL2023 EC2NodeClass at 1.37: nodeadm sets gates 1.37 has locked
	// (KC3005, a warning): admitted with the warning.
	good := request(admissionv1.Create, "karpenter.k8s.aws", "EC2NodeClass", "", "default", ec2NodeClass(""), nil)
	review := func(p *policy.Policy, req *admissionv1.AdmissionRequest) (*admissionv1.AdmissionResponse, Decision) {
		t.Helper()
		r, err := New(Config{Minors: minors(t, "1.37"), Policy: p})
		if err != nil {
			t.Fatal(err)
		}
		return r.Review(context.Background(), req)
	}
	if resp, _ := review(nil, good); !resp.Allowed || !warned(resp.Warnings, "KC3005") {
		t.Fatalf("no policy: allowed %v, warnings %q; want admitted with KC3005", resp.Allowed, resp.Warnings)
	}

	t.Run("off", func(t *testing.T) {
		resp, d := review(loadPolicy(t, "  KC3005: off\n"), good)
		if !resp.Allowed || warned(resp.Warnings, "KC3005") || warned(d.Warned, "KC3005") {
			t.Errorf("allowed %v, warnings %q (decision %q); want admitted without KC3005", resp.Allowed, resp.Warnings, d.Warned)
		}
	})
	t.Run("raised to error", func(t *testing.T) {
		resp, d := review(loadPolicy(t, "  gate-ga: error\n"), good)
		if resp.Allowed || resp.Result == nil || !strings.Contains(resp.Result.Message, "KC3005") || !warned(d.Denied, "KC3005") {
			t.Errorf("allowed %v, status %+v, denied %q; want denied for KC3005", resp.Allowed, resp.Result, d.Denied)
		}
	})
	t.Run("an error stays denied", func(t *testing.T) {
		// Load refuses a policy that turns an error rule off; one built in
		// code meets policy.Apply's own guard: an error is never hidden.
		bad := request(admissionv1.Create, "karpenter.k8s.aws", "EC2NodeClass", "", "default", ec2NodeClass("    evictionHard:\n      memory.available: 500Mx\n"), nil)
		resp, _ := review(nil, bad)
		if resp.Allowed || resp.Result == nil {
			t.Fatalf("no policy: allowed %v; want denied", resp.Allowed)
		}
		off := &policy.Policy{Rules: map[string]policy.Grade{}}
		for _, f := range strings.Fields(resp.Result.Message) {
			if len(f) == 6 && strings.HasPrefix(f, "KC") {
				off.Rules[f] = policy.Grade{Off: true}
			}
		}
		lowered := &policy.Policy{Rules: map[string]policy.Grade{}}
		for id := range off.Rules {
			lowered.Rules[id] = policy.Grade{Severity: finding.Info}
		}
		for name, p := range map[string]*policy.Policy{"off": off, "info": lowered} {
			if len(p.Rules) == 0 {
				t.Fatalf("no rule ID in %q", resp.Result.Message)
			}
			again, _ := review(p, bad)
			if again.Allowed || again.Result == nil || again.Result.Message != resp.Result.Message {
				t.Errorf("policy %s %v: allowed %v, status %+v; want denied as without it", name, p.Rules, again.Allowed, again.Result)
			}
		}
	})
}

// TestDeployWebhookPolicy: deploy/webhook/webhook.yaml mounts the optional
// ConfigMap kubeletcfg-policy where its commented --policy line and
// docs/admission.md read the policy from.
func TestDeployWebhookPolicy(t *testing.T) {
	data, err := os.ReadFile("../deploy/webhook/webhook.yaml")
	if err != nil {
		t.Fatal(err)
	}
	const arg = "# - --policy=/policy/policy.yaml\n"
	doc, err := os.ReadFile("../docs/admission.md")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte(arg)) || !bytes.Contains(doc, []byte("--policy=/policy/policy.yaml")) {
		t.Errorf("webhook.yaml or docs/admission.md lacks %q", arg)
	}
	for _, d := range bytes.Split(data, []byte("\n---\n")) {
		var dep appsv1.Deployment
		if err := yaml.Unmarshal(d, &dep); err != nil || dep.Kind != "Deployment" {
			continue
		}
		mounted := false
		for _, m := range dep.Spec.Template.Spec.Containers[0].VolumeMounts {
			mounted = mounted || m.Name == "policy" && m.MountPath == "/policy" && m.ReadOnly
		}
		for _, v := range dep.Spec.Template.Spec.Volumes {
			if v.Name == "policy" && mounted && v.ConfigMap != nil && v.ConfigMap.Name == "kubeletcfg-policy" && *v.ConfigMap.Optional {
				return
			}
		}
		t.Fatalf("the Deployment does not mount the optional ConfigMap kubeletcfg-policy read-only at /policy: %+v", dep.Spec.Template.Spec.Volumes)
	}
	t.Fatal("webhook.yaml has no Deployment")
}
