//go:build kube1_31

package main

import (
	"errors"

	kubeadmapi "k8s.io/kubernetes/cmd/kubeadm/app/apis/kubeadm"
)

// kubeadm 1.31 has no instance configuration: criSocket is the
// --container-runtime-endpoint flag of kubeadm-flags.env.
func instanceConfigWritten(*kubeadmapi.ClusterConfiguration) bool { return false }

var errNoInstanceConfig = errors.New("kubeadm 1.31 writes no instance configuration")

func writeInstanceConfig(string, string) error { return errNoInstanceConfig }

func applyInstanceConfig([]byte, string) ([]byte, error) { return nil, errNoInstanceConfig }
