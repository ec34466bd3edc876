// Command upstream is the floor of internal/floor plus the upstream packages
// kubeletcfg links because it must reproduce them exactly, each initialised
// when the program starts as in kubeletcfg: the kubelet's feature gates
// (k8s.io/component-base/featuregate, which registers its metrics with
// prometheus), the image-reference grammar of the kubelet's validation
// (github.com/distribution/reference), apimachinery's serializers (the
// kubelet's codec), kubeadm's strategic merge patches
// (k8s.io/apimachinery/pkg/util/strategicpatch, with kube-openapi and
// protobuf), client-go's REST client and kubeconfig loading (cluster mode) and
// cobra. It does the floor's work and nothing else: the difference between
// this and internal/floor is what those packages cost before kubeletcfg's own
// code runs, and the difference between kubeletcfg and this is kubeletcfg's.
//
//	go build -o /tmp/upstream ./internal/floor/upstream
//	internal/floor/measure.sh 30 /tmp/upstream testdata/bench/kubeadm-3dropins/kubelet.yaml
package main

import (
	"fmt"
	"os"

	_ "github.com/distribution/reference"
	_ "github.com/spf13/cobra"
	_ "k8s.io/apimachinery/pkg/runtime/serializer/json"
	_ "k8s.io/apimachinery/pkg/util/strategicpatch"
	_ "k8s.io/client-go/rest"
	_ "k8s.io/client-go/tools/clientcmd"
	_ "k8s.io/component-base/featuregate"
	kubeletv1beta1 "k8s.io/kubelet/config/v1beta1"
	"sigs.k8s.io/yaml"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: upstream FILE")
		os.Exit(2)
	}
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	var kc kubeletv1beta1.KubeletConfiguration
	if err := yaml.UnmarshalStrict(data, &kc); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(kc.Kind, kc.APIVersion)
}
