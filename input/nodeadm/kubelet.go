package nodeadm

import (
	"encoding/json"
	"fmt"
	"net"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8skubelet "k8s.io/kubelet/config/v1beta1"
)

// Ported from nodeadm/internal/kubelet/config.go (v20260724).

const (
	kubeletConfigRoot = "/etc/kubernetes/kubelet"
	kubeletConfigFile = kubeletConfigRoot + "/config.json"
	kubeletConfigDir  = kubeletConfigRoot + "/config.json.d"
	dropInFile        = kubeletConfigDir + "/40-nodeadm.conf"
	// cert.go caCertificatePath, containerd/config.go ContainerRuntimeEndpoint.
	caCertificatePath        = "/etc/kubernetes/pki/ca.crt"
	containerRuntimeEndpoint = "unix:///run/containerd/containerd.sock"
)

// kubeletConfig is config.go's kubeletConfig: its fields in its order, so
// that json.MarshalIndent writes config.json as nodeadm does.
type kubeletConfig struct {
	Address                         string                           `json:"address"`
	Authentication                  k8skubelet.KubeletAuthentication `json:"authentication"`
	Authorization                   k8skubelet.KubeletAuthorization  `json:"authorization"`
	CgroupDriver                    string                           `json:"cgroupDriver"`
	CgroupRoot                      string                           `json:"cgroupRoot"`
	ClusterDNS                      []string                         `json:"clusterDNS"`
	ClusterDomain                   string                           `json:"clusterDomain"`
	ContainerRuntimeEndpoint        string                           `json:"containerRuntimeEndpoint"`
	ImageServiceEndpoint            string                           `json:"imageServiceEndpoint,omitempty"`
	EvictionHard                    map[string]string                `json:"evictionHard,omitempty"`
	FeatureGates                    map[string]bool                  `json:"featureGates"`
	HairpinMode                     string                           `json:"hairpinMode"`
	KubeAPIBurst                    *int                             `json:"kubeAPIBurst,omitempty"`
	KubeAPIQPS                      *int                             `json:"kubeAPIQPS,omitempty"`
	KubeReserved                    map[string]string                `json:"kubeReserved,omitempty"`
	KubeReservedCgroup              *string                          `json:"kubeReservedCgroup,omitempty"`
	Logging                         loggingConfiguration             `json:"logging"`
	MaxPods                         int32                            `json:"maxPods,omitempty"`
	ProtectKernelDefaults           bool                             `json:"protectKernelDefaults"`
	ProviderID                      *string                          `json:"providerID,omitempty"`
	ReadOnlyPort                    int                              `json:"readOnlyPort"`
	RegisterWithTaints              []json.RawMessage                `json:"registerWithTaints,omitempty"`
	SerializeImagePulls             bool                             `json:"serializeImagePulls"`
	ServerTLSBootstrap              bool                             `json:"serverTLSBootstrap"`
	ShutdownGracePeriod             *metav1.Duration                 `json:"shutdownGracePeriod,omitempty"`
	ShutdownGracePeriodCriticalPods *metav1.Duration                 `json:"shutdownGracePeriodCriticalPods,omitempty"`
	SystemReservedCgroup            *string                          `json:"systemReservedCgroup,omitempty"`
	TLSCipherSuites                 []string                         `json:"tlsCipherSuites"`
	metav1.TypeMeta                 `json:",inline"`
}

type loggingConfiguration struct {
	Verbosity int `json:"verbosity"`
}

func ptrTo[T any](v T) *T { return &v }

// defaultKubeletSubConfig is config.go defaultKubeletSubConfig.
func defaultKubeletSubConfig() kubeletConfig {
	return kubeletConfig{
		TypeMeta: metav1.TypeMeta{
			Kind:       "KubeletConfiguration",
			APIVersion: "kubelet.config.k8s.io/v1beta1",
		},
		Address: "0.0.0.0",
		Authentication: k8skubelet.KubeletAuthentication{
			Anonymous: k8skubelet.KubeletAnonymousAuthentication{Enabled: ptrTo(false)},
			Webhook: k8skubelet.KubeletWebhookAuthentication{
				Enabled:  ptrTo(true),
				CacheTTL: metav1.Duration{Duration: time.Minute * 2},
			},
			X509: k8skubelet.KubeletX509Authentication{ClientCAFile: caCertificatePath},
		},
		Authorization: k8skubelet.KubeletAuthorization{
			Mode: "Webhook",
			Webhook: k8skubelet.KubeletWebhookAuthorization{
				CacheAuthorizedTTL:   metav1.Duration{Duration: time.Minute * 5},
				CacheUnauthorizedTTL: metav1.Duration{Duration: time.Second * 30},
			},
		},
		CgroupDriver:             "systemd",
		CgroupRoot:               "/",
		ClusterDomain:            "cluster.local",
		ContainerRuntimeEndpoint: containerRuntimeEndpoint,
		EvictionHard: map[string]string{
			"memory.available":  "100Mi",
			"nodefs.available":  "10%",
			"nodefs.inodesFree": "5%",
		},
		FeatureGates:          map[string]bool{"RotateKubeletServerCertificate": true},
		HairpinMode:           "hairpin-veth",
		ProtectKernelDefaults: true,
		ReadOnlyPort:          0,
		Logging:               loggingConfiguration{Verbosity: 2},
		SerializeImagePulls:   false,
		ServerTLSBootstrap:    true,
		TLSCipherSuites: []string{
			"TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
			"TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
			"TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305",
			"TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
			"TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
			"TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305",
			"TLS_RSA_WITH_AES_128_GCM_SHA256",
			"TLS_RSA_WITH_AES_256_GCM_SHA384",
		},
	}
}

// clusterDNS is api/net.go (ClusterDetails).GetClusterDns: the service CIDR's
// address ending in .10 (IPv4) or its prefix followed by "a" (IPv6).
func clusterDNS(cidr string) (string, error) {
	ipv4, err := cidrIsIPv4(cidr)
	if err != nil {
		return "", err
	}
	if ipv4 {
		return fmt.Sprintf("%s.10", cidr[:strings.LastIndex(cidr, ".")]), nil
	}
	return fmt.Sprintf("%sa", strings.Split(cidr, "/")[0]), nil
}

// cidrIsIPv4 is api/net.go GetCIDRIpFamily.
func cidrIsIPv4(cidr string) (bool, error) {
	ip, _, err := net.ParseCIDR(cidr)
	if err != nil {
		return false, fmt.Errorf("%s is not a valid IP Address. error: %v", cidr, err)
	}
	return ip.To4() != nil, nil
}

// withVersionToggles is config.go withVersionToggles; minor is the kubelet's
// (33 for v1.33.x): its thresholds are all x.y.0, so the minor decides.
func (k *kubeletConfig) withVersionToggles(minor int) {
	// EKS enables DRA on 1.33+
	if minor >= 33 {
		k.FeatureGates["DynamicResourceAllocation"] = true
	}
	// Enable MutableCSINodeAllocatableCount on 1.34+
	if minor >= 34 {
		k.FeatureGates["MutableCSINodeAllocatableCount"] = true
	}
	// Enable graceful node shutdown in 1.34+
	if minor >= 34 {
		k.ShutdownGracePeriod = &metav1.Duration{Duration: time.Second * 150}
		k.ShutdownGracePeriodCriticalPods = &metav1.Duration{Duration: time.Second * 30}
	}
}

// memoryMebibytesToReserve is config.go getMemoryMebibytesToReserve.
func memoryMebibytesToReserve(maxPods int32) int32 { return 11*maxPods + 255 }
