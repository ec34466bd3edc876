//go:build !(kube1_31 || kube1_32 || kube1_33 || kube1_34 || kube1_35 || kube1_36)

package main

import kubeadmapi "k8s.io/kubernetes/cmd/kubeadm/app/apis/kubeadm"

// instanceConfigWritten: from kubeadm 1.37 the NodeLocalCRISocket gate is gone and the
// kubelet-start phase always writes the instance configuration.
func instanceConfigWritten(*kubeadmapi.ClusterConfiguration) bool { return true }
