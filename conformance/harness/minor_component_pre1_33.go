//go:build kube1_31 || kube1_32

package main

// componentKubelet is the name of NewKubeletCommand's flag set: before 1.33 the
// unexported constant componentKubelet = "kubelet" of cmd/kubelet/app/server.go.
const componentKubelet = "kubelet"
