//go:build kube1_32 || kube1_33 || kube1_34 || kube1_35 || kube1_36

package main

import (
	kubeadmapi "k8s.io/kubernetes/cmd/kubeadm/app/apis/kubeadm"
	"k8s.io/kubernetes/cmd/kubeadm/app/features"
)

// instanceConfigWritten: kubeadm 1.32-1.36 write the instance configuration (and drop
// the --container-runtime-endpoint flag) when the ClusterConfiguration's feature gate
// NodeLocalCRISocket is on (alpha, off, in 1.32-1.33; beta, on, in 1.34-1.35; GA and
// locked on in 1.36): cmd/phases/init/kubelet.go runKubeletStart.
func instanceConfigWritten(cluster *kubeadmapi.ClusterConfiguration) bool {
	return features.Enabled(cluster.FeatureGates, features.NodeLocalCRISocket)
}
