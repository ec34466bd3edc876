package fleet

import (
	"bytes"
	"os"
	"slices"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"sigs.k8s.io/yaml"
)

// TestDeployClusterRole: deploy/rbac.yaml grants exactly what Fetch and
// ListNodes use (list and get nodes, get nodes/proxy) to the service account
// deploy/cronjob.yaml runs as.
func TestDeployClusterRole(t *testing.T) {
	data, err := os.ReadFile("../deploy/rbac.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var role *rbacv1.ClusterRole
	var binding *rbacv1.ClusterRoleBinding
	for _, doc := range bytes.Split(data, []byte("\n---\n")) {
		var meta struct{ Kind string }
		if err := yaml.Unmarshal(doc, &meta); err != nil {
			t.Fatal(err)
		}
		switch meta.Kind {
		case "ClusterRole":
			role = &rbacv1.ClusterRole{}
			err = yaml.UnmarshalStrict(doc, role)
		case "ClusterRoleBinding":
			binding = &rbacv1.ClusterRoleBinding{}
			err = yaml.UnmarshalStrict(doc, binding)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if role == nil || binding == nil {
		t.Fatal("rbac.yaml has no ClusterRole or ClusterRoleBinding")
	}
	granted := map[string][]string{}
	for _, r := range role.Rules {
		if !slices.Equal(r.APIGroups, []string{""}) {
			t.Errorf("rule %+v: only the core group is needed", r)
		}
		for _, res := range r.Resources {
			granted[res] = append(granted[res], r.Verbs...)
		}
	}
	want := map[string][]string{"nodes": {"list", "get"}, "nodes/proxy": {"get"}}
	if len(granted) != len(want) {
		t.Errorf("granted %v, want %v", granted, want)
	}
	for res, verbs := range want {
		if !slices.Equal(granted[res], verbs) {
			t.Errorf("%s: verbs %v, want %v", res, granted[res], verbs)
		}
	}
	if binding.RoleRef.Name != role.Name || len(binding.Subjects) != 1 {
		t.Fatalf("binding %+v does not bind %s to one subject", binding, role.Name)
	}

	data, err = os.ReadFile("../deploy/cronjob.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var job batchv1.CronJob
	if err := yaml.UnmarshalStrict(data, &job); err != nil {
		t.Fatal(err)
	}
	pod := job.Spec.JobTemplate.Spec.Template.Spec
	sa := binding.Subjects[0]
	if pod.ServiceAccountName != sa.Name || job.Namespace != sa.Namespace {
		t.Errorf("the CronJob runs as %s/%s, the role is bound to %s/%s", job.Namespace, pod.ServiceAccountName, sa.Namespace, sa.Name)
	}
	if args := pod.Containers[0].Args; !slices.Equal(args[:2], []string{"cluster", "preflight"}) || !slices.Contains(args, "json") {
		t.Errorf("the CronJob runs %v, want cluster preflight -o json", args)
	}
}
