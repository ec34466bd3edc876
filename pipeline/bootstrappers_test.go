package pipeline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/source"
)

// A bootstrapper's file given as --config is refused as the kubelet refuses it
// (KC1002), with a hint that says what the file is.
func TestBootstrapperHint(t *testing.T) {
	for _, tc := range []struct {
		name, file, hint string
	}{
		{"EKS nodeadm", "apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec: {}\n", "an EKS nodeadm NodeConfig"},
		{"Karpenter", "apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\n", "a Karpenter EC2NodeClass"},
		{"Cluster API", "apiVersion: bootstrap.cluster.x-k8s.io/v1beta1\nkind: KubeadmConfigTemplate\n", "a Cluster API KubeadmConfigTemplate"},
		{"k0s", "apiVersion: k0s.k0sproject.io/v1beta1\nkind: ClusterConfig\n", "a k0s ClusterConfig"},
		{"read as the tool translates it", "apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\n", "drop --input-format config and kubeletcfg reads it as the tool translates it (--input-format nodeadm"},
		{"kops, not read yet", "apiVersion: kops.k8s.io/v1alpha2\nkind: InstanceGroup\n", "a kops InstanceGroup (kops writes the kubelet's flags from spec.kubelet), not the kubelet's own file: kubeletcfg does not read it yet"},
		{"another kind", "apiVersion: example.com/v1\nkind: Widget\n", "kind Widget of example.com/v1 is none of the files kubeletcfg reads"},
		{"a core kind (the kubeadm ConfigMap forced as config)", "apiVersion: v1\nkind: ConfigMap\n", "start the file with apiVersion: kubelet.config.k8s.io/v1beta1"},
		{"no kind", "apiVersion: v1\nfoo: bar\n", "start the file with apiVersion: kubelet.config.k8s.io/v1beta1"},
		{"the right group, another kind", "apiVersion: node.eks.aws/v1alpha1\nkind: Other\n", "kind Other of node.eks.aws/v1alpha1 is none of the files kubeletcfg reads"},
		{"the kubelet's group, another kind", "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: Other\n", "start the file with apiVersion: kubelet.config.k8s.io/v1beta1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "config.yaml")
			if err := os.WriteFile(path, []byte(tc.file), 0o644); err != nil {
				t.Fatal(err)
			}
			res, err := Evaluate(kubelets.Default(), Input{Config: path})
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, f := range res.Findings {
				if f.Rule == source.ConfigTypeMeta.ID {
					found = true
					if !strings.Contains(f.Hint, tc.hint) {
						t.Errorf("hint %q, want one with %q", f.Hint, tc.hint)
					}
				}
			}
			if !found || res.Starts {
				t.Errorf("starts %v, findings %v: want KC1002", res.Starts, res.Findings)
			}
		})
	}
}
