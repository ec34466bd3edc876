//go:build kube1_31 || kube1_32

package main

import kubeadmutil "k8s.io/kubernetes/cmd/kubeadm/app/util"

// splitConfigDocuments is kubeadm's document splitter (SplitConfigDocuments from 1.33).
var splitConfigDocuments = kubeadmutil.SplitYAMLDocuments
