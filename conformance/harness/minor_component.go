//go:build !(kube1_31 || kube1_32)

package main

import "k8s.io/kubernetes/pkg/kubelet/server"

// componentKubelet is the name of NewKubeletCommand's flag set.
const componentKubelet = server.ComponentKubelet
