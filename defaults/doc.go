// Package defaults reproduces what the kubelet does to a KubeletConfiguration
// (k8s.io/kubelet/config/v1beta1) between decoding and validation: the
// v1beta1 defaulting functions, the evictionHard defaulting done by the
// kubelet's loadConfigFile, and the resolution of relative paths against the
// config file's folder.
//
// Each exported function takes the kubelet minor ("1.37"); what differs
// between minors is declared once, in the versions table, as a versionSpec.
package defaults
