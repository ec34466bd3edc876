package kubeletcfg

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// A kind cluster whose workers have no patches of their own and one worker
// with a patch that stops its kubelet.
const kindCluster = `kind: Cluster
apiVersion: kind.x-k8s.io/v1alpha4
nodes:
- role: control-plane
- role: worker
- role: worker
  kubeadmConfigPatches:
  - |
    kind: KubeletConfiguration
    healthzPort: 70000
- role: worker
`

// TestLintKindNodes: a kind cluster of nodes that get different kubelet
// configurations is one report per group of identical nodes, named by kind's
// names; a cluster of identical nodes, or --kind-node, is one Lint as before;
// the one-kubelet verbs need --kind-node.
func TestLintKindNodes(t *testing.T) {
	same := strings.Replace(kindCluster, "healthzPort: 70000", "maxPods: 90", 1)
	same = strings.Replace(same, "- role: worker\n  kubeadmConfigPatches:", "- role: worker\n  kubeadmConfigPatchesJSON6902:", 1)
	for _, tt := range []struct {
		name, data, node string
		groups           [][]string // nil: Lint reads one node
		starts           []bool
	}{
		{name: "different nodes", data: kindCluster,
			groups: [][]string{{"kind-control-plane", "kind-worker", "kind-worker3"}, {"kind-worker2"}}, starts: []bool{true, false}},
		{name: "identical nodes", data: same},
		{name: "one node picked", data: kindCluster, node: "kind-worker2"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			opt := Options{Config: "kind.yaml", ConfigData: []byte(tt.data)}
			opt.Read.KindNode = tt.node
			linted, err := Lint(opt)
			if err != nil {
				t.Fatalf("Lint: %v", err)
			}
			if tt.groups == nil {
				if linted.Several != nil {
					t.Fatalf("Lint linted %T, want one node", linted.Several)
				}
				return
			}
			var several *KindNodesError
			if _, err := Effective(opt); !errors.As(err, &several) {
				t.Fatalf("Effective: %v, want a KindNodesError", err)
			}
			if !reflect.DeepEqual(several.Groups, tt.groups) {
				t.Errorf("groups %q, want %q", several.Groups, tt.groups)
			}
			l, ok := linted.Several.(*LintedPaths)
			if !ok {
				t.Fatalf("Lint linted %T, want each node (*LintedPaths)", linted.Several)
			}
			if len(l.Report.Errors) > 0 {
				t.Fatalf("errors: %+v", l.Report.Errors)
			}
			for i, r := range l.Report.Reports {
				if !reflect.DeepEqual(r.KindNodes, tt.groups[i]) || r.Starts != tt.starts[i] {
					t.Errorf("report %d: nodes %q starts %v, want %q %v", i, r.KindNodes, r.Starts, tt.groups[i], tt.starts[i])
				}
			}
			if len(l.Report.Reports) != len(tt.groups) {
				t.Errorf("%d reports, want %d", len(l.Report.Reports), len(tt.groups))
			}
		})
	}
}
