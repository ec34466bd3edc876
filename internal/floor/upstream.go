//go:build upstream

// Built with -tags upstream, the floor also links the upstream packages
// kubeletcfg links because it must reproduce them exactly, each initialised
// when the program starts as in kubeletcfg: the kubelet's feature gates
// (k8s.io/component-base/featuregate, which registers its metrics with
// prometheus), the image-reference grammar of the kubelet's validation
// (github.com/distribution/reference), apimachinery's serializers (the
// kubelet's codec), kubeadm's strategic merge patches
// (k8s.io/apimachinery/pkg/util/strategicpatch, with kube-openapi and
// protobuf), client-go's REST client and kubeconfig loading (cluster mode) and
// cobra. It does the same work: the difference from the plain floor is what
// those packages cost before kubeletcfg's own code runs, and the difference
// between kubeletcfg and it is kubeletcfg's.
//
//	go build -tags upstream -o /tmp/upstream ./internal/floor

package main

import (
	_ "github.com/distribution/reference"
	_ "github.com/spf13/cobra"
	_ "k8s.io/apimachinery/pkg/runtime/serializer/json"
	_ "k8s.io/apimachinery/pkg/util/strategicpatch"
	_ "k8s.io/client-go/rest"
	_ "k8s.io/client-go/tools/clientcmd"
	_ "k8s.io/component-base/featuregate"
)
