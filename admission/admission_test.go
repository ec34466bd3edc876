package admission

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	admissionv1 "k8s.io/api/admission/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

func minors(t *testing.T, vs ...string) []*kubelets.Minor {
	t.Helper()
	var out []*kubelets.Minor
	for _, v := range vs {
		m, err := kubelets.Lookup(v)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

func ec2NodeClass(kubelet string) []byte {
	doc := "apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\nmetadata:\n  name: default\nspec:\n  role: KarpenterNodeRole\n" +
		"  amiSelectorTerms:\n  - alias: al2023@latest\n  subnetSelectorTerms:\n  - tags: {karpenter.sh/discovery: demo}\n" +
		"  securityGroupSelectorTerms:\n  - tags: {karpenter.sh/discovery: demo}\n"
	if kubelet != "" {
		doc += "  kubelet:\n" + kubelet
	}
	j, err := yaml.YAMLToJSON([]byte(doc))
	if err != nil {
		panic(err)
	}
	return j
}

func kubeletConfigMap(namespace, name, kubelet string, labels map[string]string) []byte {
	cm := map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": name, "namespace": namespace, "labels": labels},
		"data":     map[string]string{"kubelet": "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n" + kubelet}}
	j, _ := json.Marshal(cm)
	return j
}

func request(op admissionv1.Operation, group, kind, namespace, name string, obj, old []byte) *admissionv1.AdmissionRequest {
	return &admissionv1.AdmissionRequest{UID: "uid-1", Operation: op,
		Kind:      metav1.GroupVersionKind{Group: group, Version: "v1", Kind: kind},
		Namespace: namespace, Name: name,
		Object: runtime.RawExtension{Raw: obj}, OldObject: runtime.RawExtension{Raw: old}}
}

// TestReview: per kind, an object the kubelet (or the bootstrapper) would
// refuse is denied with the rule, field, the kubelet's words and the minor;
// a good one is admitted; an UPDATE is denied only for what it makes worse.
func TestReview(t *testing.T) {
	const badEviction = "    evictionHard:\n      memory.available: 500Mx\n"
	const goodEviction = "    evictionHard:\n      memory.available: 500Mi\n"
	const nodeSwap = "featureGates:\n  NodeSwap: true\n"
	tests := []struct {
		name    string
		minors  []string
		req     *admissionv1.AdmissionRequest
		allowed bool
		code    int32
		says    []string // in the status message
	}{
		{"EC2NodeClass, good", []string{"1.37"},
			request(admissionv1.Create, "karpenter.k8s.aws", "EC2NodeClass", "", "default", ec2NodeClass(goodEviction), nil), true, 0, nil},
		{"EC2NodeClass, an eviction threshold no kubelet parses", []string{"1.36", "1.37"},
			request(admissionv1.Create, "karpenter.k8s.aws", "EC2NodeClass", "", "default", ec2NodeClass(badEviction), nil), false, http.StatusForbidden,
			[]string{"ec2nodeclass/default would not run", "evictionHard[memory.available]", "(kubelets 1.36, 1.37)"}},
		{"UPDATE of a broken object that does not make it worse", []string{"1.37"},
			request(admissionv1.Update, "karpenter.k8s.aws", "EC2NodeClass", "", "default", ec2NodeClass(badEviction+"    maxPods: 40\n"), ec2NodeClass(badEviction)), true, 0, nil},
		{"UPDATE that breaks a good object", []string{"1.37"},
			request(admissionv1.Update, "karpenter.k8s.aws", "EC2NodeClass", "", "default", ec2NodeClass(badEviction), ec2NodeClass(goodEviction)), false, http.StatusForbidden,
			[]string{"evictionHard[memory.available]"}},
		{"kubelet-config ConfigMap, a gate 1.38 removed", []string{"1.38"},
			request(admissionv1.Create, "", "ConfigMap", "kube-system", "kubelet-config", kubeletConfigMap("kube-system", "kubelet-config", nodeSwap, nil), nil), false, http.StatusForbidden,
			[]string{"NodeSwap", "(kubelet 1.38)"}},
		{"kubelet-config ConfigMap, the same gate at 1.37", []string{"1.37"},
			request(admissionv1.Create, "", "ConfigMap", "kube-system", "kubelet-config", kubeletConfigMap("kube-system", "kubelet-config", nodeSwap, nil), nil), true, 0, nil},
		{"another ConfigMap is not judged", []string{"1.38"},
			request(admissionv1.Create, "", "ConfigMap", "default", "app", kubeletConfigMap("default", "app", nodeSwap, nil), nil), true, 0, nil},
		{"a ConfigMap that opts in", []string{"1.38"},
			request(admissionv1.Create, "", "ConfigMap", "default", "pool-a", kubeletConfigMap("default", "pool-a", nodeSwap, map[string]string{OptInLabel: "true"}), nil), false, http.StatusForbidden,
			[]string{"configmap/default/pool-a would not run"}},
		{"a kind not judged", []string{"1.37"},
			request(admissionv1.Create, "apps", "Deployment", "default", "web", []byte(`{}`), nil), false, http.StatusBadRequest,
			[]string{"kubeletcfg does not judge Deployment.apps"}},
		{"an object that is not JSON", []string{"1.37"},
			request(admissionv1.Create, "karpenter.k8s.aws", "EC2NodeClass", "", "default", []byte(`{"spec": [`), nil), false, http.StatusUnprocessableEntity,
			[]string{"kubeletcfg cannot read EC2NodeClass"}},
		{"DELETE is not judged", []string{"1.37"},
			request(admissionv1.Delete, "karpenter.k8s.aws", "EC2NodeClass", "", "default", nil, ec2NodeClass(badEviction)), true, 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := New(Config{Minors: minors(t, tt.minors...)})
			if err != nil {
				t.Fatal(err)
			}
			for _, dryRun := range []bool{false, true} {
				// A dry run is judged the same (sideEffects: None).
				tt.req.DryRun = &dryRun
				resp, d := r.Review(context.Background(), tt.req)
				if resp.UID != tt.req.UID || resp.Allowed != tt.allowed || d.Allowed != tt.allowed {
					t.Fatalf("dry run %v: allowed %v (decision %v), want %v; %+v", dryRun, resp.Allowed, d.Allowed, tt.allowed, resp.Result)
				}
				if tt.allowed {
					if resp.Result != nil {
						t.Errorf("an admitted object has a status: %+v", resp.Result)
					}
					continue
				}
				if resp.Result == nil || resp.Result.Code != tt.code {
					t.Fatalf("status %+v, want code %d", resp.Result, tt.code)
				}
				for _, s := range tt.says {
					if !strings.Contains(resp.Result.Message, s) {
						t.Errorf("message %q does not say %q", resp.Result.Message, s)
					}
				}
			}
		})
	}
}

// TestReviewWarnings: findings below fail-on are admission warnings, the rule
// ID first, each within the API server's length; an UPDATE that keeps a
// refusal warns of it.
func TestReviewWarnings(t *testing.T) {
	r, err := New(Config{Minors: minors(t, "1.37")})
	if err != nil {
		t.Fatal(err)
	}
	bad := ec2NodeClass("    evictionHard:\n      memory.available: 500Mx\n")
	resp, d := r.Review(context.Background(), request(admissionv1.Update, "karpenter.k8s.aws", "EC2NodeClass", "", "default", bad, bad))
	if !resp.Allowed || len(resp.Warnings) == 0 || len(d.Warned) == 0 {
		t.Fatalf("allowed %v, warnings %q", resp.Allowed, resp.Warnings)
	}
	kept := false
	for _, w := range resp.Warnings {
		if len(w) > maxWarning || !strings.HasPrefix(w, "KC") {
			t.Errorf("warning %q: not rule-first or longer than %d", w, maxWarning)
		}
		kept = kept || strings.Contains(w, "evictionHard[memory.available]")
	}
	if !kept {
		t.Errorf("the refusal the update keeps is not warned of: %q", resp.Warnings)
	}
	// A misspelled key the kubelet drops is a warning: admitted at fail-on
	// error, denied at fail-on warning.
	typo := request(admissionv1.Create, "", "ConfigMap", "kube-system", "kubelet-config", kubeletConfigMap("kube-system", "kubelet-config", "maxPod: 10\n", nil), nil)
	if resp, _ := r.Review(context.Background(), typo); !resp.Allowed || len(resp.Warnings) == 0 {
		t.Errorf("fail-on error: allowed %v, warnings %q", resp.Allowed, resp.Warnings)
	}
	warning, info := finding.Warning, finding.Info
	strict, _ := New(Config{Minors: minors(t, "1.37"), FailOn: &warning})
	if resp, _ := strict.Review(context.Background(), typo); resp.Allowed || !strings.Contains(resp.Result.Message, "maxPod") {
		t.Errorf("fail-on warning: allowed %v, %+v", resp.Allowed, resp.Result)
	}
	// Info, the zero severity, is a fail-on of its own, not the default's.
	clean := request(admissionv1.Create, "karpenter.k8s.aws", "EC2NodeClass", "", "default", ec2NodeClass("    maxPods: 40\n"), nil)
	strictest, _ := New(Config{Minors: minors(t, "1.37"), FailOn: &info})
	if resp, _ := strictest.Review(context.Background(), clean); resp.Allowed || !strings.Contains(resp.Result.Message, "KC9004") {
		t.Errorf("fail-on info: an EC2NodeClass with info findings (KC9004: what nodeadm writes at boot) allowed")
	}
	if resp, _ := r.Review(context.Background(), clean); !resp.Allowed {
		t.Errorf("fail-on error: %+v", resp.Result)
	}
}

// TestReviewDeadline: an evaluation cut at the Reviewer's deadline admits
// the object with a warning that it was not judged.
func TestReviewDeadline(t *testing.T) {
	r, err := New(Config{Minors: minors(t, "1.37"), Timeout: time.Nanosecond})
	if err != nil {
		t.Fatal(err)
	}
	resp, d := r.Review(context.Background(), request(admissionv1.Create, "karpenter.k8s.aws", "EC2NodeClass", "", "default", ec2NodeClass(""), nil))
	if !resp.Allowed || d.Unjudged != "cut at the deadline" || len(resp.Warnings) != 1 || !strings.Contains(resp.Warnings[0], "not judged") {
		t.Errorf("allowed %v, unjudged %q, warnings %q", resp.Allowed, d.Unjudged, resp.Warnings)
	}
}

// TestReadReview: a body that is not an admission.k8s.io/v1 AdmissionReview
// with a request, or is larger than the API server sends, is a clear error.
func TestReadReview(t *testing.T) {
	good, _ := json.Marshal(admissionv1.AdmissionReview{TypeMeta: metav1.TypeMeta{APIVersion: "admission.k8s.io/v1", Kind: "AdmissionReview"},
		Request: request(admissionv1.Create, "karpenter.k8s.aws", "EC2NodeClass", "", "default", ec2NodeClass(""), nil)})
	tests := []struct {
		name, body, err string
	}{
		{"a review", string(good), ""},
		{"not JSON", "{", "not an AdmissionReview"},
		{"v1beta1", `{"apiVersion":"admission.k8s.io/v1beta1","kind":"AdmissionReview","request":{}}`, "not an admission.k8s.io/v1 AdmissionReview"},
		{"no request", `{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview"}`, "has no request"},
		{"too large", `{"x":"` + strings.Repeat("a", MaxRequestBytes) + `"}`, "the API server's limit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadReview(bytes.NewReader([]byte(tt.body)))
			if (err == nil) != (tt.err == "") || err != nil && !strings.Contains(err.Error(), tt.err) {
				t.Errorf("error %v, want %q", err, tt.err)
			}
		})
	}
}

// TestReviewDeterministic: the same request gets byte-identical answers
// (findings come out in one order, whatever Go's map order).
func TestReviewDeterministic(t *testing.T) {
	r, err := New(Config{Minors: minors(t, "1.35", "1.36", "1.37")})
	if err != nil {
		t.Fatal(err)
	}
	req := request(admissionv1.Update, "karpenter.k8s.aws", "EC2NodeClass", "", "default",
		ec2NodeClass("    evictionHard:\n      memory.available: 500Mx\n      nodefs.available: 5x\n    featureGates:\n      A: true\n      B: true\n      C: true\n"),
		ec2NodeClass("    maxPods: 10\n"))
	var first []byte
	for i := 0; i < 5; i++ {
		resp, _ := r.Review(context.Background(), req)
		out, _ := json.Marshal(resp)
		if i == 0 {
			first = out
		} else if !bytes.Equal(out, first) {
			t.Fatalf("run %d differs:\n%s\n%s", i, first, out)
		}
	}
}

// BenchmarkReview: one typical EC2NodeClass CREATE judged at a four-minor
// window (the webhook's work per review, without the HTTP round trip).
func BenchmarkReview(b *testing.B) {
	var ms []*kubelets.Minor
	for _, v := range []string{"1.34", "1.35", "1.36", "1.37"} {
		m, _ := kubelets.Lookup(v)
		ms = append(ms, m)
	}
	r, err := New(Config{Minors: ms})
	if err != nil {
		b.Fatal(err)
	}
	nodeClass := func(maxPods int) *admissionv1.AdmissionRequest {
		return request(admissionv1.Create, "karpenter.k8s.aws", "EC2NodeClass", "", "default", ec2NodeClass(fmt.Sprintf("    maxPods: %d\n    kubeReserved:\n      cpu: 100m\n", maxPods)), nil)
	}
	// Each review a different object: evaluated at the four minors.
	b.Run("evaluated", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			i++
			if resp, d := r.Review(context.Background(), nodeClass(1000+i)); !resp.Allowed || d.Evaluated != 1 {
				b.Fatal(resp.Result, d)
			}
		}
	})
	// The same object again (a re-apply): from the cache.
	b.Run("cached", func(b *testing.B) {
		req := nodeClass(40)
		r.Review(context.Background(), req)
		b.ReportAllocs()
		for b.Loop() {
			if resp, d := r.Review(context.Background(), req); !resp.Allowed || d.Cached != 1 {
				b.Fatal(resp.Result, d)
			}
		}
	})
}

// TestReviewTemplateVersions: a KubeadmConfigTemplate is judged at the
// minors of the machines that use it, when Config.Templates finds them; at
// the configured minors, with a warning, when it cannot.
func TestReviewTemplateVersions(t *testing.T) {
	tmpl, err := yaml.YAMLToJSON([]byte("apiVersion: bootstrap.cluster.x-k8s.io/v1beta1\nkind: KubeadmConfigTemplate\nmetadata:\n  name: md-0\n  namespace: default\n" +
		"spec:\n  template:\n    spec:\n      joinConfiguration:\n        nodeRegistration:\n          kubeletExtraArgs:\n            feature-gates: PodLifecycleSleepAction=true\n"))
	if err != nil {
		t.Fatal(err)
	}
	req := request(admissionv1.Create, "bootstrap.cluster.x-k8s.io", "KubeadmConfigTemplate", "default", "md-0", tmpl, nil)
	tests := []struct {
		name      string
		templates TemplateVersions
		allowed   bool
		says      string
	}{
		{"no lookup: the window, 1.37 removed the gate", nil, false, "(kubelet 1.37)"},
		{"its machines run 1.36", func(context.Context, string, string) ([]string, error) { return []string{"v1.36.2"}, nil }, true, ""},
		{"its machines run 1.36 and 1.37", func(context.Context, string, string) ([]string, error) { return []string{"v1.36.2", "v1.37.1"}, nil },
			false, "the minors of the machines that use the template: v1.36.2, v1.37.1"},
		{"no machine uses it yet", func(context.Context, string, string) ([]string, error) { return nil, nil }, false, "(kubelet 1.37)"},
		{"the lookup fails", func(context.Context, string, string) ([]string, error) {
			return nil, errors.New("listing machinedeployments: 403 Forbidden")
		}, false, "(kubelet 1.37)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := New(Config{Minors: minors(t, "1.34", "1.35", "1.36", "1.37"), Templates: tt.templates})
			if err != nil {
				t.Fatal(err)
			}
			resp, _ := r.Review(context.Background(), req)
			if resp.Allowed != tt.allowed {
				t.Fatalf("allowed %v, want %v: %+v", resp.Allowed, tt.allowed, resp.Result)
			}
			if !tt.allowed && !strings.Contains(resp.Result.Message, tt.says) {
				t.Errorf("message %q does not say %q", resp.Result.Message, tt.says)
			}
			if tt.name == "the lookup fails" && (len(resp.Warnings) == 0 || !strings.Contains(resp.Warnings[0], "403 Forbidden")) {
				t.Errorf("warnings %q, want the lookup's failure", resp.Warnings)
			}
		})
	}
}

// TestDenyMessage: one entry per refusal, the minors it holds at together
// (consecutive as a range), in the order first found; bounded.
func TestDenyMessage(t *testing.T) {
	at := func(minor, rule, path, words string) Finding {
		return Finding{Finding: finding.Finding{Rule: rule, Path: path, Kubelet: words, Severity: finding.Error}, Minor: minor}
	}
	tests := []struct {
		name string
		fs   []Finding
		want string
	}{
		{"one minor", []Finding{at("1.37", "KC3001", "featureGates[X]", "unrecognized feature gate: X")},
			"kubeletcfg: EC2NodeClass ec2nodeclass/a would not run: KC3001 featureGates[X] (kubelet 1.37): unrecognized feature gate: X"},
		{"the same refusal at consecutive minors, and another at one",
			[]Finding{at("1.34", "KC9001", "evictionHard[memory.available]", "bad"), at("1.35", "KC9001", "evictionHard[memory.available]", "bad"),
				at("1.36", "KC9001", "evictionHard[memory.available]", "bad"), at("1.37", "KC3001", "featureGates[X]", "unrecognized"),
				at("1.37", "KC9001", "evictionHard[memory.available]", "bad")},
			"kubeletcfg: EC2NodeClass ec2nodeclass/a would not run: KC9001 evictionHard[memory.available] (kubelets 1.34..1.37): bad; KC3001 featureGates[X] (kubelet 1.37): unrecognized"},
		{"different words at different minors stay apart",
			[]Finding{at("1.34", "KC2001", "maxPods", "old words"), at("1.36", "KC2001", "maxPods", "new words"), at("1.37", "KC2001", "maxPods", "new words")},
			"kubeletcfg: EC2NodeClass ec2nodeclass/a would not run: KC2001 maxPods (kubelet 1.34): old words; KC2001 maxPods (kubelets 1.36, 1.37): new words"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := denyMessage("EC2NodeClass", "ec2nodeclass/a", tt.fs); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
	var many []Finding
	for i := 0; i < 200; i++ {
		many = append(many, at("1.37", "KC9001", fmt.Sprintf("evictionHard[x%d]", i), strings.Repeat("w", 40)))
	}
	if got := denyMessage("EC2NodeClass", "ec2nodeclass/a", many); len(got) > maxMessage+40 || !strings.HasSuffix(got, "more") {
		t.Errorf("200 refusals: %d bytes, ends %q", len(got), got[len(got)-30:])
	}
}

// TestReadable: the object the translators read has the same data without
// the API server's bookkeeping, indented a key a line; what is not a JSON
// object is left as it came.
func TestReadable(t *testing.T) {
	raw := []byte(`{"apiVersion":"karpenter.k8s.aws/v1","kind":"EC2NodeClass","metadata":{"name":"a","labels":{"x":"y"},"uid":"u-1","resourceVersion":"7","generation":2,"creationTimestamp":"2026-12-07T04:48:09Z","managedFields":[{"manager":"kubectl"}]},"spec":{"kubelet":{"maxPods":110,"podPidsLimit":1000000}}}`)
	got := readable(raw)
	var obj map[string]any
	if err := json.Unmarshal(got, &obj); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"apiVersion": "karpenter.k8s.aws/v1", "kind": "EC2NodeClass", "metadata": map[string]any{"name": "a", "labels": map[string]any{"x": "y"}},
		"spec": map[string]any{"kubelet": map[string]any{"maxPods": float64(110), "podPidsLimit": float64(1000000)}}}
	if !reflect.DeepEqual(obj, want) {
		t.Errorf("readable: %s", got)
	}
	if !bytes.Contains(got, []byte("\n   \"maxPods\": 110,\n")) || !bytes.Contains(got, []byte(`"podPidsLimit": 1000000`)) {
		t.Errorf("not a key a line, numbers as written: %s", got)
	}
	for _, odd := range []string{`not json`, `[1,2]`, `{"kind":`} {
		if got := readable([]byte(odd)); string(got) != odd {
			t.Errorf("readable(%q) = %q", odd, got)
		}
	}
}

// TestReviewCache: the same object (whatever the API server's bookkeeping)
// at the same minors is evaluated once, and answered the same from the
// cache; another object, or other minors, is evaluated; an UPDATE's old
// object, judged when it was the new one, comes from the cache.
func TestReviewCache(t *testing.T) {
	r, err := New(Config{Minors: minors(t, "1.36", "1.37")})
	if err != nil {
		t.Fatal(err)
	}
	bad := ec2NodeClass("    evictionHard:\n      memory.available: 500Mx\n")
	var stored map[string]any
	if err := json.Unmarshal(bad, &stored); err != nil {
		t.Fatal(err)
	}
	stored["metadata"].(map[string]any)["resourceVersion"] = "42"
	stored["metadata"].(map[string]any)["managedFields"] = []any{map[string]any{"manager": "kubectl"}}
	storedBad, _ := json.Marshal(stored)
	good := ec2NodeClass("    maxPods: 40\n")
	review := func(r *Reviewer, op admissionv1.Operation, obj, old []byte) (*admissionv1.AdmissionResponse, Decision) {
		return r.Review(context.Background(), request(op, "karpenter.k8s.aws", "EC2NodeClass", "", "default", obj, old))
	}
	first, d1 := review(r, admissionv1.Create, bad, nil)
	again, d2 := review(r, admissionv1.Create, storedBad, nil)
	if d1.Evaluated != 1 || d1.Cached != 0 || d2.Evaluated != 0 || d2.Cached != 1 {
		t.Errorf("the same object twice: %+v then %+v", d1, d2)
	}
	if !reflect.DeepEqual(first, again) || first.Allowed {
		t.Errorf("from the cache %+v, evaluated %+v", again, first)
	}
	if _, d := review(r, admissionv1.Update, good, storedBad); d.Evaluated != 1 || d.Cached != 1 {
		t.Errorf("an update of the stored object: %+v", d)
	}
	other, _ := New(Config{Minors: minors(t, "1.37")})
	other.cache = r.cache // the same cache, other minors: evaluated
	if _, d := review(other, admissionv1.Create, bad, nil); d.Evaluated != 1 {
		t.Errorf("other minors: %+v", d)
	}
}
