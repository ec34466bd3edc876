package talos

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Release is a Talos release ported, paired with the kubelet it runs when the
// machine configuration names no image: DefaultKubernetesVersion of
// pkg/machinery/constants/constants.go at the release's tag (Talos builds the
// default kubelet image ghcr.io/siderolabs/kubelet:v<it>).
type Release struct {
	// Name is the release's tag ("v1.13.9").
	Name string
	// Kubernetes is constants.DefaultKubernetesVersion at Name ("1.36.3").
	Kubernetes string
	// Minor is Kubernetes's minor ("1.36"): the kubelet minor this release
	// is the Talos of (Translate picks it for Options.Minor).
	Minor string
	// PreRelease marks a release candidate: never the default.
	PreRelease bool

	// kubeletModule is the k8s.io/kubelet Talos links (go.mod) and
	// fieldsAfter the KubeletConfiguration fields kubeletcfg's k8s.io/kubelet
	// (v0.37.2) has and that one does not (config/v1beta1/types.go compared):
	// Talos's strict conversion of extraConfig refuses them.
	kubeletModule string
	fieldsAfter   []string
	// kinds are the document kinds Talos's config registry knows at Name
	// (pkg/machinery/config/types/*, the registry.Register calls; each takes
	// apiVersion v1alpha1 only): the configloader decoder refuses any other
	// ("not registered").
	kinds []string
	// k8sDocuments: the release reads the kubelet's settings through the
	// config provider's K8sKubeletConfig, K8sNodeConfig, K8sNetworkConfig and
	// K8sCredentialProviderConfig (the KubeletConfig, KubeNodeConfig,
	// KubeNetworkConfig and KubeCredentialProviderConfig documents, else the
	// v1alpha1 fields), registers the node's taints through
	// KubeletConfigSpec.RegisterWithTaints, and writes no kubelet
	// configuration without a network configuration (v1.14).
	k8sDocuments bool
}

// kindsV1139 are the registered document kinds at v1.13.9.
var kindsV1139 = []string{
	"BlackholeRouteConfig", "BondConfig", "BridgeConfig", "DHCPv4Config", "DHCPv6Config", "DummyLinkConfig",
	"EnvironmentConfig", "EthernetConfig", "EventSinkConfig", "ExistingVolumeConfig", "ExtensionServiceConfig",
	"ExternalVolumeConfig", "HCloudVIPConfig", "HostnameConfig", "ImageVerificationConfig", "KmsgLogConfig",
	"KubeSpanConfig", "KubeSpanEndpointsConfig", "Layer2VIPConfig", "LinkAliasConfig", "LinkConfig",
	"NetworkDefaultActionConfig", "NetworkRuleConfig", "OOMConfig", "PCIDriverRebindConfig", "RawVolumeConfig",
	"RegistryAuthConfig", "RegistryMirrorConfig", "RegistryTLSConfig", "ResolverConfig", "RoutingRuleConfig",
	"SideroLinkConfig", "StaticHostConfig", "SwapVolumeConfig", "TCPProbeConfig", "TimeSyncConfig",
	"TrustedRootsConfig", "UserVolumeConfig", "VLANConfig", "VRFConfig", "VolumeConfig", "WatchdogTimerConfig",
	"WireguardConfig", "ZswapConfig",
}

// kindsV1140rc1 are the registered document kinds at v1.14.0-rc.1.
var kindsV1140rc1 = []string{
	"BGPInstanceConfig", "BlackholeRouteConfig", "BondConfig", "BridgeConfig", "CRIBaseRuntimeSpecConfig",
	"CRICustomizationConfig", "ContainerConfig", "DHCPv4Config", "DHCPv6Config", "DiscoveryIdentityConfig",
	"DiscoveryServiceConfig", "DummyLinkConfig", "EnvironmentConfig", "EtcFileConfig", "EthernetConfig",
	"EventSinkConfig", "ExistingVolumeConfig", "ExtensionServiceConfig", "ExternalVolumeConfig",
	"FilesystemScrubConfig", "FilesystemTrimConfig", "HCloudVIPConfig", "HTTPProbeConfig", "HostnameConfig",
	"ImageCacheConfig", "ImageVerificationConfig", "KernelModuleConfig", "KmsgLogConfig", "KubeAPIServerCAConfig",
	"KubeAPIServerConfig", "KubeAdmissionControlConfig", "KubeAggregatorCAConfig", "KubeAuditPolicyConfig",
	"KubeAuthenticationConfig", "KubeAuthorizerConfig", "KubeClusterConfig", "KubeControllerManagerConfig",
	"KubeCoreDNSConfig", "KubeCredentialProviderConfig", "KubeEtcdEncryptionConfig", "KubeExternalManifestConfig",
	"KubeFlannelCNIConfig", "KubeInlineManifestConfig", "KubeNetworkConfig", "KubeNodeConfig", "KubePrismConfig",
	"KubeProxyConfig", "KubeSchedulerConfig", "KubeServiceAccountConfig", "KubeSpanConfig",
	"KubeSpanEndpointsConfig", "KubeStaticPodConfig", "KubeTalosAPIAccessConfig", "KubeletConfig",
	"LVMLogicalVolumeConfig", "LVMVolumeGroupConfig", "Layer2VIPConfig", "LinkAliasConfig", "LinkConfig",
	"NetworkDefaultActionConfig", "NetworkRuleConfig", "OOMConfig", "PCIDriverRebindConfig", "RAIDArrayConfig",
	"RawVolumeConfig", "RegistryAuthConfig", "RegistryMirrorConfig", "RegistryTLSConfig", "ResolverConfig",
	"RoutingRuleConfig", "SecurityProfileConfig", "SideroLinkConfig", "StaticHostConfig", "SwapVolumeConfig",
	"SysctlConfig", "SysfsConfig", "TCPProbeConfig", "TimeSyncConfig", "TrustedRootsConfig", "UdevRulesConfig",
	"UnattendedInstallConfig", "UserVolumeConfig", "VLANConfig", "VRFConfig", "VethConfig", "VolumeConfig",
	"WatchdogTimerConfig", "WireguardConfig", "ZswapConfig",
}

// Releases are the Talos releases ported, oldest first. Kept by hand: at
// each tag, Kubernetes is pkg/machinery/constants/constants.go
// DefaultKubernetesVersion, kubeletModule the k8s.io/kubelet of go.mod, kinds
// the registry.Register calls under pkg/machinery/config/types.
var Releases = []Release{
	{Name: "v1.13.9", Kubernetes: "1.36.3", Minor: "1.36", kubeletModule: "v0.36.3",
		fieldsAfter: []string{"defaultPodSysctls"}, kinds: kindsV1139},
	{Name: "v1.14.0-rc.1", Kubernetes: "1.37.0-rc.0", Minor: "1.37", PreRelease: true, kubeletModule: "v0.37.0-rc.0",
		kinds: kindsV1140rc1, k8sDocuments: true},
}

// defaultRelease is the newest release ported that is not a release
// candidate: the one Translate uses when nothing names a kubelet minor.
func defaultRelease() *Release {
	for i := len(Releases) - 1; i >= 0; i-- {
		if !Releases[i].PreRelease {
			return &Releases[i]
		}
	}
	return &Releases[0]
}

// releaseFor is the release whose default kubelet is minor ("1.37"), else the
// nearest one (the newer of two as near), with a note saying so; the default
// release for "".
func releaseFor(minor string) (*Release, string) {
	if minor == "" {
		return defaultRelease(), ""
	}
	want, ok := minorNumber(minor)
	if !ok {
		return defaultRelease(), ""
	}
	var best *Release
	bestDist := 0
	for i := range Releases {
		r := &Releases[i]
		n, _ := minorNumber(r.Minor)
		d := abs(n - want)
		if d == 0 {
			return r, ""
		}
		if best == nil || d <= bestDist {
			best, bestDist = r, d
		}
	}
	return best, fmt.Sprintf("no Talos release ported runs kubelet %s by default; Talos %s (default kubelet v%s) is the nearest (ported: %s)",
		minor, best.Name, best.Kubernetes, releaseNames())
}

// releaseNames lists the releases ported with their default kubelets.
func releaseNames() string {
	names := make([]string, len(Releases))
	for i, r := range Releases {
		names[i] = r.Name + " -> " + r.Minor
	}
	return strings.Join(names, ", ")
}

// minorNumber reads "1.37" (or "v1.37", "1.37.2") as 37; major 1 only.
func minorNumber(s string) (int, bool) {
	parts := strings.Split(strings.TrimPrefix(s, "v"), ".")
	if len(parts) < 2 || parts[0] != "1" {
		return 0, false
	}
	n, err := strconv.Atoi(parts[1])
	return n, err == nil
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// knows reports whether the release's registry has kind.
func (r *Release) knows(kind string) bool { return slices.Contains(r.kinds, kind) }
