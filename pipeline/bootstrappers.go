package pipeline

import (
	"strings"

	"github.com/kubeletcfg/kubeletcfg/source"
)

// bootstrapperKinds are the files that bootstrappers turn into a kubelet's
// configuration, by API group and kind: given as --config they are refused like
// any other kind, and the hint says what the file is instead of only how a
// KubeletConfiguration starts.
var bootstrapperKinds = map[string]string{
	"node.eks.aws/NodeConfig":                           "an EKS nodeadm NodeConfig (nodeadm writes the kubelet's config.json and a drop-in from spec.kubelet)",
	"karpenter.k8s.aws/EC2NodeClass":                    "a Karpenter EC2NodeClass (Karpenter turns spec.kubelet into the node's bootstrap configuration)",
	"karpenter.sh/NodePool":                             "a Karpenter NodePool (the kubelet settings are in its EC2NodeClass's spec.kubelet)",
	"bootstrap.cluster.x-k8s.io/KubeadmConfig":          "a Cluster API KubeadmConfig (kubeadm writes the kubelet's configuration from it)",
	"bootstrap.cluster.x-k8s.io/KubeadmConfigTemplate":  "a Cluster API KubeadmConfigTemplate (kubeadm writes the kubelet's configuration from it)",
	"controlplane.cluster.x-k8s.io/KubeadmControlPlane": "a Cluster API KubeadmControlPlane (kubeadm writes the kubelet's configuration from it)",
	"k0s.k0sproject.io/ClusterConfig":                   "a k0s ClusterConfig (k0s merges spec.workerProfiles into the kubelet's configuration)",
	"kops.k8s.io/Cluster":                               "a kops Cluster (kops writes the kubelet's flags from spec.kubelet)",
	"kops.k8s.io/InstanceGroup":                         "a kops InstanceGroup (kops writes the kubelet's flags from spec.kubelet)",
}

// bootstrapperFormats are the kinds of bootstrapperKinds that package input
// reads as their tool translates them (--input-format NAME): the file reaches
// the pipeline as a KubeletConfiguration only when --input-format config
// forces it.
var bootstrapperFormats = map[string]string{
	"node.eks.aws/NodeConfig":                           "nodeadm",
	"karpenter.k8s.aws/EC2NodeClass":                    "karpenter",
	"bootstrap.cluster.x-k8s.io/KubeadmConfig":          "cluster-api",
	"bootstrap.cluster.x-k8s.io/KubeadmConfigTemplate":  "cluster-api",
	"controlplane.cluster.x-k8s.io/KubeadmControlPlane": "cluster-api",
	"k0s.k0sproject.io/ClusterConfig":                   "k0s",
}

// bootstrapperHint is the hint for a --config file that a bootstrapper reads
// rather than the kubelet, or "" when its apiVersion and kind (read from keys,
// the file's walked keys, as typeMetaPos reads them) are not one of
// bootstrapperKinds.
func bootstrapperHint(keys []source.Key) string {
	var apiVersion, kind string
	for _, k := range keys {
		switch {
		case k.Kind != source.KeyExact:
		case k.Path == "apiVersion":
			apiVersion = k.Value
		case k.Path == "kind":
			kind = k.Value
		}
	}
	group, _, _ := strings.Cut(apiVersion, "/")
	what, ok := bootstrapperKinds[group+"/"+kind]
	if !ok {
		if strings.Contains(apiVersion, "/") && kind != "" && group != "kubelet.config.k8s.io" {
			// Another tool's kind: say what kubeletcfg tried before
			// handing it to the kubelet as its --config file.
			return "kind " + kind + " of " + apiVersion + " is none of the files kubeletcfg reads (a KubeletConfiguration, a configz dump, a kubeadm, kind or minikube file, or a bootstrapper's: docs/bootstrappers.md); if this is meant to be the kubelet's own file, start it with apiVersion: kubelet.config.k8s.io/v1beta1 and kind: KubeletConfiguration"
		}
		return ""
	}
	if f, ok := bootstrapperFormats[group+"/"+kind]; ok {
		return "this is " + what + ", not the kubelet's own file: drop --input-format config and kubeletcfg reads it as the tool translates it (--input-format " + f + "; docs/bootstrappers.md)"
	}
	return "this is " + what + ", not the kubelet's own file: kubeletcfg does not read it yet (docs/bootstrappers.md lists the tools it reads); lint the KubeletConfiguration the tool writes on the node (kubeletcfg lint --discover there, or its files)"
}
