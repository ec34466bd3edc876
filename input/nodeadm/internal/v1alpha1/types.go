// Package v1alpha1 is the NodeConfig API (node.eks.aws/v1alpha1) as EKS
// nodeadm declares it in nodeadm/api/v1alpha1/nodeconfig_types.go
// (v20260724): the same fields and JSON names under nodeadm's own type names
// and package name, so that the apimachinery serializer that decodes a
// NodeConfig words its errors as nodeadm's does ("Go struct field
// NodeConfigSpec.spec.cluster of type v1alpha1.ClusterDetails"), never in
// kubeletcfg's names.
package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

type NodeConfig struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              NodeConfigSpec `json:"spec,omitempty"`
}

type NodeConfigList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []NodeConfig `json:"items"`
}

type NodeConfigSpec struct {
	Cluster      ClusterDetails    `json:"cluster,omitempty"`
	Containerd   ContainerdOptions `json:"containerd,omitempty"`
	Instance     InstanceOptions   `json:"instance,omitempty"`
	Kubelet      KubeletOptions    `json:"kubelet,omitempty"`
	FeatureGates map[Feature]bool  `json:"featureGates,omitempty"`
}

type ClusterDetails struct {
	Name                 string `json:"name,omitempty"`
	APIServerEndpoint    string `json:"apiServerEndpoint,omitempty"`
	CertificateAuthority []byte `json:"certificateAuthority,omitempty"`
	CIDR                 string `json:"cidr,omitempty"`
	EnableOutpost        *bool  `json:"enableOutpost,omitempty"`
	ID                   string `json:"id,omitempty"`
}

type KubeletOptions struct {
	Config            map[string]runtime.RawExtension `json:"config,omitempty"`
	Flags             []string                        `json:"flags,omitempty"`
	MaxPodsExpression string                          `json:"maxPodsExpression,omitempty"`
}

type ContainerdOptions struct {
	Config          string                          `json:"config,omitempty"`
	BaseRuntimeSpec map[string]runtime.RawExtension `json:"baseRuntimeSpec,omitempty"`
}

type InstanceOptions struct {
	LocalStorage LocalStorageOptions `json:"localStorage,omitempty"`
	Environment  EnvironmentOptions  `json:"environment,omitempty"`
	Network      NetworkOptions      `json:"network,omitempty"`
}

type NetworkOptions struct {
	Nameservers []string `json:"nameservers,omitempty"`
	Domains     []string `json:"domains,omitempty"`
}

type EnvironmentOptions map[string]map[string]string

type LocalStorageOptions struct {
	Strategy       LocalStorageStrategy `json:"strategy,omitempty"`
	MountPath      string               `json:"mountPath,omitempty"`
	DisabledMounts []DisabledMount      `json:"disabledMounts,omitempty"`
}

// LocalStorageStrategy, DisabledMount and Feature are nodeadm's string types
// (their values are nodeadm's to check, not the decoder's).
type (
	LocalStorageStrategy string
	DisabledMount        string
	Feature              string
)
