package input

import (
	"testing"

	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
)

// TestK0sPositions runs the kubelet's pipeline on a k0s worker profile: a
// finding of the kubelet's on a value points at that value's key in k0s.yaml,
// and the origin of a value k0s derives from spec is the key it comes from.
func TestK0sPositions(t *testing.T) {
	data := []byte(`apiVersion: k0s.k0sproject.io/v1beta1
kind: ClusterConfig
spec:
  network:
    serviceCIDR: 10.100.0.0/16
  workerProfiles:
    - name: pool
      values:
        maxPods: 58
        imageGCHighThresholdPercent: 150
`)
	if f := DetectPath("k0s.yaml", data); f != "k0s" {
		t.Fatalf("DetectPath = %q, want k0s", f)
	}
	m, err := kubelets.Lookup("1.36")
	if err != nil {
		t.Fatal(err)
	}
	s, err := ConvertOptions("k0s.yaml", data, Auto, Options{Minor: m.Version})
	if err != nil {
		t.Fatal(err)
	}
	var in pipeline.Input
	applyTo(s, &in)
	r, err := pipeline.Evaluate(m, in)
	if err != nil {
		t.Fatal(err)
	}
	if err := settleResult(s, r); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, f := range r.Findings {
		if f.Path == "imageGCHighThresholdPercent" {
			found = true
			if f.Position.String() != "k0s.yaml:10:9" {
				t.Errorf("%s on imageGCHighThresholdPercent at %s, want k0s.yaml:10:9", f.Rule, f.Position)
			}
		}
	}
	if !found {
		t.Errorf("no finding on imageGCHighThresholdPercent: %v", rulesOf(r.Findings))
	}
	for path, want := range map[string]string{"maxPods": "k0s.yaml:9:9", "clusterDNS": "k0s.yaml:5:5"} {
		if got := r.Origins[path].String(); got != want {
			t.Errorf("origin of %s %s, want %s", path, got, want)
		}
	}
	if r.Effective == nil || r.Effective.MaxPods != 58 || r.Effective.ClusterDNS[0] != "10.100.0.10" {
		t.Errorf("effective: %+v", r.Effective)
	}
}
