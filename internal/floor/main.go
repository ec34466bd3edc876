// Command floor is the start-up floor that kubeletcfg's speed targets are
// measured against (issue 11): a Go program that links only the
// k8s.io/kubelet v1beta1 KubeletConfiguration types and decodes one file into
// them with sigs.k8s.io/yaml, as every tool that reads a kubelet config must.
// Whatever kubeletcfg spends beyond this is its own analysis.
//
//	go build -o /tmp/floor ./internal/floor && /tmp/floor testdata/bench/kubeadm-3dropins/kubelet.yaml
package main

import (
	"fmt"
	"os"

	kubeletv1beta1 "k8s.io/kubelet/config/v1beta1"
	"sigs.k8s.io/yaml"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: floor FILE")
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
