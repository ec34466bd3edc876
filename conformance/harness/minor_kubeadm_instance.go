//go:build !kube1_31

package main

import (
	"io"
	_ "unsafe" // for go:linkname

	kubeletconfig "k8s.io/kubelet/config/v1beta1"

	kubeletphase "k8s.io/kubernetes/cmd/kubeadm/app/phases/kubelet"
)

// kubeadm's merge of the instance configuration into config.yaml (phases/kubelet/config.go,
// 1.32+): the file read as a strategic merge patch of the KubeletConfiguration, applied
// after the patches folder's.
//
//go:linkname applyKubeletConfigPatchFromFile k8s.io/kubernetes/cmd/kubeadm/app/phases/kubelet.applyKubeletConfigPatchFromFile
func applyKubeletConfigPatchFromFile(kubeletConfigBytes []byte, patchFilePath string, output io.Writer) ([]byte, error)

func init() { linkedFuncs = append(linkedFuncs, applyKubeletConfigPatchFromFile) }

// writeInstanceConfig is the kubelet-start phases' WriteInstanceConfigToDisk call: the
// node's criSocket as containerRuntimeEndpoint.
func writeInstanceConfig(criSocket, dir string) error {
	return kubeletphase.WriteInstanceConfigToDisk(&kubeletconfig.KubeletConfiguration{ContainerRuntimeEndpoint: criSocket}, dir)
}

func applyInstanceConfig(config []byte, file string) ([]byte, error) {
	return applyKubeletConfigPatchFromFile(config, file, io.Discard)
}
