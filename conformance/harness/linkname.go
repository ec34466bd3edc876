package main

import (
	_ "unsafe" // for go:linkname

	// The packages whose unexported functions are called below must be linked in.
	_ "k8s.io/kubernetes/cmd/kubelet/app"
	_ "k8s.io/kubernetes/pkg/kubelet"

	kubeletconfiginternal "k8s.io/kubernetes/pkg/kubelet/apis/config"
)

// The kubelet's own start-up steps, called through go:linkname so that the harness runs
// exactly the code the kubelet binary runs (no copies). Build with
// -ldflags=-checklinkname=0 (Go 1.23+ restricts pull linknames).
//
// Kubelet minors. The default build (no tag, conformance/go.mod) links the newest
// minor, 1.37. An older minor M is built with -modfile=minors/M/go.mod and the tag
// kube1_<m> (kube1_31 ... kube1_36; the Makefile passes both). Where the upstream code
// differs between minors, a small file per range of minors holds the difference:
//
//	minor_load[_pre1_34].go               loadConfigFile: no ctx before 1.34
//	minor_merge[_pre1_36].go              mergeKubeletConfigurations: only an error before 1.36
//	minor_crashloop[_1_31|_1_32].go       newCrashLoopBackOff: inline in NewMainKubelet before 1.33
//	minor_component[_pre1_33].go          server.ComponentKubelet: in cmd/kubelet/app before 1.33
//	minor_gates[_pre1_35].go              featuregate: no dependencies or min compatibility before 1.35
//	minor_kubeadm[_pre1_33].go            kubeadm's SplitConfigDocuments: SplitYAMLDocuments before 1.33
//	minor_kubeadm_instance[_1_31].go      kubeadm's instance configuration: none in 1.31
//	minor_kubeadm_gate[_ga].go            when it is written: NodeLocalCRISocket in 1.32-1.36, always from 1.37
//	minor_tls[_pre1_34].go                InitializeTLS: no ctx before 1.34
//	minor_logmanager[_pre1_38].go         NewContainerLogManager: a logger first from 1.38
//	minor_swap[_gate|_1_31].go            LimitedSwap off cgroup v2: behind NodeSwap up to 1.37 (runc's
//	                                      cgroup test in 1.31), always from 1.38
//
// The file without a suffix is the newest minors' (and the default build's).
//
// The linker does not compare a go:linkname declaration with the function it names, so
// a wrong signature runs and corrupts arguments and results; TestLinknameSignatures
// compares every declaration (listed in linkedFuncs) with the upstream source.

//go:linkname kubeletConfigFlagPrecedence k8s.io/kubernetes/cmd/kubelet/app.kubeletConfigFlagPrecedence
func kubeletConfigFlagPrecedence(kc *kubeletconfiginternal.KubeletConfiguration, args []string) error

// linkedFuncs are the go:linkname declarations of this build (minor_*.go add theirs).
var linkedFuncs = []any{kubeletConfigFlagPrecedence}
