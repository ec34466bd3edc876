package aks

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// customKubeletConfig ports Azure/AgentBaker pkg/agent/datamodel/types.go
// CustomKubeletConfig (v0.20260821.0): the agent pool's kubeletConfig as
// AgentBaker receives it from the AKS resource provider.
type customKubeletConfig struct {
	CPUManagerPolicy      string
	CPUCfsQuota           *bool
	CPUCfsQuotaPeriod     string
	ImageGcHighThreshold  *int32
	ImageGcLowThreshold   *int32
	TopologyManagerPolicy string
	AllowedUnsafeSysctls  *[]string
	FailSwapOn            *bool
	ContainerLogMaxSizeMB *int32
	ContainerLogMaxFiles  *int32
	PodMaxPids            *int32
	SeccompDefault        *bool
	// The preview settings of the custom node configuration docs
	// (AKSNodeCustomizationPreview), not in AgentBaker's type at that
	// release: kubeReserved.cpuMillicores/memoryMB and
	// hardEvictionThreshold.memoryAvailable/nodeFsAvailable/nodeFsInodesFree.
	KubeReservedCPUMillicores, KubeReservedMemoryMB *int32
	HardEviction                                    map[string]string
}

// aksKubeletConfiguration ports AgentBaker pkg/agent/datamodel/types.go
// AKSKubeletConfiguration (v0.20260821.0): the JSON AgentBaker writes to
// /etc/default/kubeletconfig.json, with its JSON names and omitempty.
type aksKubeletConfiguration struct {
	Kind                           string                `json:"kind,omitempty"`
	APIVersion                     string                `json:"apiVersion,omitempty"`
	StaticPodPath                  string                `json:"staticPodPath,omitempty"`
	Address                        string                `json:"address,omitempty"`
	ReadOnlyPort                   int32                 `json:"readOnlyPort,omitempty"`
	TLSCertFile                    string                `json:"tlsCertFile,omitempty"`
	TLSPrivateKeyFile              string                `json:"tlsPrivateKeyFile,omitempty"`
	TLSCipherSuites                []string              `json:"tlsCipherSuites,omitempty"`
	RotateCertificates             bool                  `json:"rotateCertificates,omitempty"`
	ServerTLSBootstrap             bool                  `json:"serverTLSBootstrap,omitempty"`
	Authentication                 kubeletAuthentication `json:"authentication"`
	Authorization                  kubeletAuthorization  `json:"authorization"`
	EventRecordQPS                 *int32                `json:"eventRecordQPS,omitempty"`
	ClusterDomain                  string                `json:"clusterDomain,omitempty"`
	ClusterDNS                     []string              `json:"clusterDNS,omitempty"`
	StreamingConnectionIdleTimeout string                `json:"streamingConnectionIdleTimeout,omitempty"`
	NodeStatusUpdateFrequency      string                `json:"nodeStatusUpdateFrequency,omitempty"`
	NodeStatusReportFrequency      string                `json:"nodeStatusReportFrequency,omitempty"`
	ImageGCHighThresholdPercent    *int32                `json:"imageGCHighThresholdPercent,omitempty"`
	ImageGCLowThresholdPercent     *int32                `json:"imageGCLowThresholdPercent,omitempty"`
	CgroupsPerQOS                  *bool                 `json:"cgroupsPerQOS,omitempty"`
	CPUManagerPolicy               string                `json:"cpuManagerPolicy,omitempty"`
	TopologyManagerPolicy          string                `json:"topologyManagerPolicy,omitempty"`
	MaxPods                        int32                 `json:"maxPods,omitempty"`
	PodPidsLimit                   *int64                `json:"podPidsLimit,omitempty"`
	ResolverConfig                 string                `json:"resolvConf,omitempty"`
	CPUCFSQuota                    *bool                 `json:"cpuCFSQuota,omitempty"`
	CPUCFSQuotaPeriod              string                `json:"cpuCFSQuotaPeriod,omitempty"`
	EvictionHard                   map[string]string     `json:"evictionHard,omitempty"`
	EvictionSoft                   map[string]string     `json:"evictionSoft,omitempty"`
	EvictionSoftGracePeriod        map[string]string     `json:"evictionSoftGracePeriod,omitempty"`
	EvictionMaxPodGracePeriod      int32                 `json:"evictionMaxPodGracePeriod,omitempty"`
	ProtectKernelDefaults          bool                  `json:"protectKernelDefaults,omitempty"`
	FeatureGates                   map[string]bool       `json:"featureGates,omitempty"`
	FailSwapOn                     *bool                 `json:"failSwapOn,omitempty"`
	ContainerLogMaxSize            string                `json:"containerLogMaxSize,omitempty"`
	ContainerLogMaxFiles           *int32                `json:"containerLogMaxFiles,omitempty"`
	SystemReserved                 map[string]string     `json:"systemReserved,omitempty"`
	KubeReserved                   map[string]string     `json:"kubeReserved,omitempty"`
	EnforceNodeAllocatable         []string              `json:"enforceNodeAllocatable,omitempty"`
	KubeReservedCgroup             string                `json:"kubeReservedCgroup,omitempty"`
	SystemReservedCgroup           string                `json:"systemReservedCgroup,omitempty"`
	AllowedUnsafeSysctls           []string              `json:"allowedUnsafeSysctls,omitempty"`
	SerializeImagePulls            *bool                 `json:"serializeImagePulls,omitempty"`
	SeccompDefault                 *bool                 `json:"seccompDefault,omitempty"`
}

type kubeletAuthentication struct {
	X509 struct {
		ClientCAFile string `json:"clientCAFile,omitempty"`
	} `json:"x509"`
	Webhook struct {
		Enabled  bool   `json:"enabled,omitempty"`
		CacheTTL string `json:"cacheTTL,omitempty"`
	} `json:"webhook"`
	Anonymous struct {
		Enabled bool `json:"enabled,omitempty"`
	} `json:"anonymous"`
}

type kubeletAuthorization struct {
	Mode    string `json:"mode,omitempty"`
	Webhook struct {
		CacheAuthorizedTTL   string `json:"cacheAuthorizedTTL,omitempty"`
		CacheUnauthorizedTTL string `json:"cacheUnauthorizedTTL,omitempty"`
	} `json:"webhook"`
}

// getAKSKubeletConfiguration ports AgentBaker pkg/agent/utils.go
// getAKSKubeletConfiguration: the resource provider's kubelet flags (kc) as
// config-file fields.
func getAKSKubeletConfiguration(kc map[string]string) *aksKubeletConfiguration {
	c := &aksKubeletConfiguration{
		APIVersion:                     "kubelet.config.k8s.io/v1beta1",
		Kind:                           "KubeletConfiguration",
		Address:                        kc["--address"],
		StaticPodPath:                  kc["--pod-manifest-path"],
		ClusterDNS:                     strings.Split(kc["--cluster-dns"], ","),
		CgroupsPerQOS:                  strToBoolPtr(kc["--cgroups-per-qos"]),
		TLSCertFile:                    kc["--tls-cert-file"],
		TLSPrivateKeyFile:              kc["--tls-private-key-file"],
		TLSCipherSuites:                strings.Split(kc["--tls-cipher-suites"], ","),
		ClusterDomain:                  kc["--cluster-domain"],
		MaxPods:                        strToInt32(kc["--max-pods"]),
		NodeStatusUpdateFrequency:      kc["--node-status-update-frequency"],
		NodeStatusReportFrequency:      kc["--node-status-report-frequency"],
		ImageGCHighThresholdPercent:    strToInt32Ptr(kc["--image-gc-high-threshold"]),
		ImageGCLowThresholdPercent:     strToInt32Ptr(kc["--image-gc-low-threshold"]),
		EventRecordQPS:                 strToInt32Ptr(kc["--event-qps"]),
		PodPidsLimit:                   strToInt64Ptr(kc["--pod-max-pids"]),
		EnforceNodeAllocatable:         strings.Split(kc["--enforce-node-allocatable"], ","),
		KubeReservedCgroup:             kc["--kube-reserved-cgroup"],
		SystemReservedCgroup:           kc["--system-reserved-cgroup"],
		StreamingConnectionIdleTimeout: kc["--streaming-connection-idle-timeout"],
		RotateCertificates:             strToBool(kc["--rotate-certificates"]),
		ServerTLSBootstrap:             strToBool(kc["--rotate-server-certificates"]),
		ReadOnlyPort:                   strToInt32(kc["--read-only-port"]),
		ProtectKernelDefaults:          strToBool(kc["--protect-kernel-defaults"]),
		ResolverConfig:                 kc["--resolv-conf"],
		ContainerLogMaxSize:            kc["--container-log-max-size"],
	}
	c.Authorization.Mode = kc["--authorization-mode"]
	if value, exists := kc["--serialize-image-pulls"]; exists {
		c.SerializeImagePulls = strToBoolPtr(value)
	}
	return c
}

// setCustomKubeletConfig ports AgentBaker pkg/agent/utils.go
// setCustomKubeletConfig (v0.20260821.0): each setting the user gives
// replaces the resource provider's; cpuCfsQuotaPeriod also turns on the
// CustomCPUCFSQuotaPeriod feature gate; containerLogMaxSizeMB becomes "<N>M".
// The preview kubeReserved and hardEvictionThreshold follow the docs' names
// (kubeReserved cpu "<N>m", memory "<N>Mi"; evictionHard memory.available,
// nodefs.available, nodefs.inodesFree).
func setCustomKubeletConfig(customKc *customKubeletConfig, c *aksKubeletConfiguration) {
	if customKc == nil {
		return
	}
	if customKc.CPUManagerPolicy != "" {
		c.CPUManagerPolicy = customKc.CPUManagerPolicy
	}
	if customKc.CPUCfsQuota != nil {
		c.CPUCFSQuota = customKc.CPUCfsQuota
	}
	if customKc.CPUCfsQuotaPeriod != "" {
		c.CPUCFSQuotaPeriod = customKc.CPUCfsQuotaPeriod
		if c.FeatureGates == nil {
			c.FeatureGates = map[string]bool{}
		}
		c.FeatureGates["CustomCPUCFSQuotaPeriod"] = true
	}
	if customKc.TopologyManagerPolicy != "" {
		c.TopologyManagerPolicy = customKc.TopologyManagerPolicy
	}
	if customKc.ImageGcHighThreshold != nil {
		c.ImageGCHighThresholdPercent = customKc.ImageGcHighThreshold
	}
	if customKc.ImageGcLowThreshold != nil {
		c.ImageGCLowThresholdPercent = customKc.ImageGcLowThreshold
	}
	if customKc.AllowedUnsafeSysctls != nil {
		c.AllowedUnsafeSysctls = *customKc.AllowedUnsafeSysctls
	}
	if customKc.FailSwapOn != nil {
		c.FailSwapOn = customKc.FailSwapOn
	}
	if customKc.ContainerLogMaxSizeMB != nil {
		c.ContainerLogMaxSize = fmt.Sprintf("%dM", *customKc.ContainerLogMaxSizeMB)
	}
	if customKc.ContainerLogMaxFiles != nil {
		c.ContainerLogMaxFiles = customKc.ContainerLogMaxFiles
	}
	if customKc.PodMaxPids != nil {
		v := int64(*customKc.PodMaxPids)
		c.PodPidsLimit = &v
	}
	if customKc.SeccompDefault != nil {
		c.SeccompDefault = customKc.SeccompDefault
	}
	if customKc.KubeReservedCPUMillicores != nil || customKc.KubeReservedMemoryMB != nil {
		if c.KubeReserved == nil {
			c.KubeReserved = map[string]string{}
		}
		if customKc.KubeReservedCPUMillicores != nil {
			c.KubeReserved["cpu"] = fmt.Sprintf("%dm", *customKc.KubeReservedCPUMillicores)
		}
		if customKc.KubeReservedMemoryMB != nil {
			c.KubeReserved["memory"] = fmt.Sprintf("%dMi", *customKc.KubeReservedMemoryMB)
		}
	}
	if len(customKc.HardEviction) > 0 {
		if c.EvictionHard == nil {
			c.EvictionHard = map[string]string{}
		}
		for k, v := range customKc.HardEviction {
			c.EvictionHard[k] = v
		}
	}
}

// getKubeletConfigFileContent ports AgentBaker pkg/agent/utils.go
// GetKubeletConfigFileContent (v0.20260821.0): the resource provider's flags
// as a config file, then the custom kubelet configuration over them.
func getKubeletConfigFileContent(kc map[string]string, customKc *customKubeletConfig) string {
	if kc == nil {
		return ""
	}
	c := getAKSKubeletConfiguration(kc)
	if ca := kc["--client-ca-file"]; ca != "" {
		c.Authentication.X509.ClientCAFile = ca
	}
	if aw := kc["--authentication-token-webhook"]; aw != "" {
		c.Authentication.Webhook.Enabled = strToBool(aw)
	}
	if aa := kc["--anonymous-auth"]; aa != "" {
		c.Authentication.Anonymous.Enabled = strToBool(aa)
	}
	if eh, ok := kc["--eviction-hard"]; ok && eh != "" {
		c.EvictionHard = filterEvictionSignals(strKeyValToMap(eh, "<"))
	}
	if es, ok := kc["--eviction-soft"]; ok && es != "" {
		c.EvictionSoft = filterEvictionSignals(strKeyValToMap(es, "<"))
	}
	if esg, ok := kc["--eviction-soft-grace-period"]; ok && esg != "" {
		c.EvictionSoftGracePeriod = filterEvictionSignals(strKeyValToMap(esg, "="))
	}
	if v, ok := kc["--eviction-max-pod-grace-period"]; ok && v != "" {
		c.EvictionMaxPodGracePeriod = strToInt32(v)
	}
	c.FeatureGates = strKeyValToMapBool(kc["--feature-gates"], ",", "=")
	c.SystemReserved = strKeyValToMap(kc["--system-reserved"], "=")
	c.KubeReserved = strKeyValToMap(kc["--kube-reserved"], "=")
	setCustomKubeletConfig(customKc, c)
	b, _ := json.MarshalIndent(c, "", "    ")
	return string(b)
}

func strToBool(str string) bool {
	b, _ := strconv.ParseBool(str)
	return b
}

func strToBoolPtr(str string) *bool {
	if str == "" {
		return nil
	}
	b := strToBool(str)
	return &b
}

func strToInt32(str string) int32 {
	i, _ := strconv.ParseInt(str, 10, 32)
	if i > math.MaxInt32 {
		return math.MaxInt32
	}
	return int32(i)
}

func strToInt32Ptr(str string) *int32 {
	if str == "" {
		return nil
	}
	i := strToInt32(str)
	return &i
}

func strToInt64Ptr(str string) *int64 {
	if str == "" {
		return nil
	}
	i, _ := strconv.ParseInt(str, 10, 64)
	return &i
}

// isValidEvictionSignal ports AgentBaker isValidEvictionSignal.
func isValidEvictionSignal(signal string) bool {
	switch signal {
	case "memory.available", "nodefs.available", "nodefs.inodesFree", "imagefs.available",
		"imagefs.inodesFree", "pid.available", "allocatableMemory.available":
		return true
	}
	return false
}

// filterEvictionSignals ports AgentBaker filterEvictionSignals.
func filterEvictionSignals(signals map[string]string) map[string]string {
	if len(signals) == 0 {
		return nil
	}
	valid := make(map[string]string, len(signals))
	for signal, threshold := range signals {
		if isValidEvictionSignal(signal) {
			valid[signal] = threshold
		}
	}
	if len(valid) == 0 {
		return nil
	}
	return valid
}

// strKeyValToMap ports AgentBaker strKeyValToMap: "a=1,b=2" -> {a:1, b:2};
// a pair that does not split in two is left out.
func strKeyValToMap(str string, pairDelim string) map[string]string {
	m := make(map[string]string)
	for _, pairRaw := range strings.Split(str, ",") {
		pair := strings.Split(pairRaw, pairDelim)
		if len(pair) == 2 {
			m[strings.TrimSpace(pair[0])] = strings.TrimSpace(pair[1])
		}
	}
	return m
}

// strKeyValToMapBool ports AgentBaker strKeyValToMapBool.
func strKeyValToMapBool(str string, strDelim string, pairDelim string) map[string]bool {
	m := make(map[string]bool)
	for _, pairRaw := range strings.Split(str, strDelim) {
		pair := strings.Split(pairRaw, pairDelim)
		if len(pair) == 2 {
			m[strings.TrimSpace(pair[0])] = strToBool(strings.TrimSpace(pair[1]))
		}
	}
	return m
}
