package defaults

//lint:file-ignore SA1019 the kubelet still defaults and validates its deprecated fields; this file reproduces that

import (
	"fmt"
	"maps"
	"time"

	"github.com/kubeletcfg/kubeletcfg/kubelets"
	kubeletv1beta1 "github.com/kubeletcfg/kubeletcfg/upstream/kubelet/config/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	logsapi "k8s.io/component-base/logs/api/v1"
	"k8s.io/utils/ptr"
)

// Values copied from k8s.io/kubernetes, which this module must not import.
const (
	// KubeletPort is k8s.io/kubernetes/pkg/cluster/ports.KubeletPort.
	KubeletPort = 10250
	// KubeletOOMScoreAdj is k8s.io/kubernetes/pkg/kubelet/qos.KubeletOOMScoreAdj
	// (an int upstream; defaults.go converts it with int32(...)).
	KubeletOOMScoreAdj int32 = -999
	// ResolvConfDefault is k8s.io/kubernetes/pkg/kubelet/types.ResolvConfDefault.
	ResolvConfDefault = "/etc/resolv.conf"

	// The following are the constants of
	// k8s.io/kubernetes/pkg/kubelet/apis/config/v1beta1/defaults.go, same names.

	DefaultIPTablesMasqueradeBit   = 14
	DefaultIPTablesDropBit         = 15
	DefaultVolumePluginDir         = "/usr/libexec/kubernetes/kubelet-plugins/volume/exec/"
	DefaultPodLogsDir              = "/var/log/pods"
	DefaultMemoryReservationPolicy = kubeletv1beta1.NoneMemoryReservationPolicy
	// DefaultMemoryThrottlingFactor is the ungated default of 1.31..1.36.
	DefaultMemoryThrottlingFactor = 0.9
	// MaxContainerBackOff is the max backoff period for container restarts.
	MaxContainerBackOff = 300 * time.Second
)

// Feature gate names consulted by the defaulting functions
// (k8s.io/kubernetes/pkg/features).
const (
	GateKubeletCrashLoopBackOffMax      = "KubeletCrashLoopBackOffMax"
	GateKubeletEnsureSecretPulledImages = "KubeletEnsureSecretPulledImages"
)

// DefaultNodeAllocatableEnforcement is
// k8s.io/kubernetes/pkg/kubelet/apis/config/v1beta1.DefaultNodeAllocatableEnforcement.
// Apply assigns a copy, never this slice itself (see Apply).
var DefaultNodeAllocatableEnforcement = []string{"pods"}

// linuxDefaultEvictionHard is
// k8s.io/kubernetes/pkg/kubelet/eviction/defaults_linux.go DefaultEvictionHard.
var linuxDefaultEvictionHard = map[string]string{
	"memory.available":   "100Mi",
	"nodefs.available":   "10%",
	"nodefs.inodesFree":  "5%",
	"imagefs.available":  "15%",
	"imagefs.inodesFree": "5%",
}

// windowsDefaultEvictionHard is
// k8s.io/kubernetes/pkg/kubelet/eviction/defaults_windows.go DefaultEvictionHard:
// more memory kept for the system, and no inode signals.
var windowsDefaultEvictionHard = map[string]string{
	"memory.available":  "500Mi",
	"nodefs.available":  "10%",
	"imagefs.available": "15%",
}

// defaultEvictionHard is the kubelet's DefaultEvictionHard map of os.
func defaultEvictionHard(os kubelets.OS) map[string]string {
	if os == kubelets.Windows {
		return windowsDefaultEvictionHard
	}
	return linuxDefaultEvictionHard
}

// DefaultEvictionHard returns a fresh copy of the kubelet's Linux
// DefaultEvictionHard map (pkg/kubelet/eviction/defaults_linux.go).
func DefaultEvictionHard() map[string]string { return DefaultEvictionHardOn(kubelets.Linux) }

// DefaultEvictionHardOn returns a fresh copy of os's kubelet's
// DefaultEvictionHard map.
func DefaultEvictionHardOn(os kubelets.OS) map[string]string {
	return maps.Clone(defaultEvictionHard(os))
}

// zeroDuration mirrors the upstream zeroDuration: Duration fields are
// defaulted when they compare equal to it (an explicit "0s" is zero too).
var zeroDuration = metav1.Duration{}

// versionSpec declares how one kubelet minor's defaulting differs from the
// others. Apply, EvictionHard and friends consult only these fields, so adding
// a minor means adding one entry to versions (after reading that minor's
// source), not editing the functions.
type versionSpec struct {
	// failCgroupV1 is the value failCgroupV1 defaults to.
	failCgroupV1 bool
	// memoryThrottlingFactor, when non-nil, is an ungated default for
	// memoryThrottlingFactor. v1.37 removed that default (nil).
	memoryThrottlingFactor *float64
	// mergeDefaultEvictionSettings: the field exists and defaults to false, and
	// loadConfigFile fills missing evictionHard signals when it is true.
	mergeDefaultEvictionSettings bool
	// imagePullCredentialsVerificationPolicy: the KubeletEnsureSecretPulledImages-gated
	// default of imagePullCredentialsVerificationPolicy exists.
	imagePullCredentialsVerificationPolicy bool
	// memoryReservationPolicy: memoryReservationPolicy defaults to None.
	memoryReservationPolicy bool
	// crashLoopBackOffMax: the KubeletCrashLoopBackOffMax-gated default of
	// crashLoopBackOff.maxContainerRestartPeriod exists (1.32+).
	crashLoopBackOffMax bool
	// gatesInDefaulting: SetDefaults_KubeletConfiguration applies the object's
	// featureGates to a copy of the global gate and panics when that fails (1.32+).
	gatesInDefaulting bool
	// certificateKeyAlgorithms: clientCertificateKeyAlgorithm and
	// serverCertificateKeyAlgorithm exist and default to ECDSA-P256 (1.38+).
	certificateKeyAlgorithms bool
}

// versions holds the supported kubelet minors.
// Each entry was read from pkg/kubelet/apis/config/v1beta1/defaults.go of the
// release named in its comment; the conformance goldens of every minor check it.
var versions = map[string]versionSpec{
	// k8s.io/kubernetes v1.31.0: no gates in defaulting, no gated defaults.
	"1.31": {
		memoryThrottlingFactor: ptr.To(DefaultMemoryThrottlingFactor),
	},
	// v1.32.13: the gate copy (and its panic) and the crash-loop default arrive.
	"1.32": {
		memoryThrottlingFactor: ptr.To(DefaultMemoryThrottlingFactor),
		crashLoopBackOffMax:    true,
		gatesInDefaulting:      true,
	},
	// v1.33.13 and v1.34.4: mergeDefaultEvictionSettings and the
	// image-pull-credentials default.
	"1.33": {
		memoryThrottlingFactor:                 ptr.To(DefaultMemoryThrottlingFactor),
		mergeDefaultEvictionSettings:           true,
		imagePullCredentialsVerificationPolicy: true,
		crashLoopBackOffMax:                    true,
		gatesInDefaulting:                      true,
	},
	"1.34": {
		memoryThrottlingFactor:                 ptr.To(DefaultMemoryThrottlingFactor),
		mergeDefaultEvictionSettings:           true,
		imagePullCredentialsVerificationPolicy: true,
		crashLoopBackOffMax:                    true,
		gatesInDefaulting:                      true,
	},
	// v1.35.4: failCgroupV1 defaults to true.
	"1.35": {
		failCgroupV1:                           true,
		memoryThrottlingFactor:                 ptr.To(DefaultMemoryThrottlingFactor),
		mergeDefaultEvictionSettings:           true,
		imagePullCredentialsVerificationPolicy: true,
		crashLoopBackOffMax:                    true,
		gatesInDefaulting:                      true,
	},
	// v1.36.3: memoryReservationPolicy defaults to None.
	"1.36": {
		failCgroupV1:                           true,
		memoryThrottlingFactor:                 ptr.To(DefaultMemoryThrottlingFactor),
		mergeDefaultEvictionSettings:           true,
		imagePullCredentialsVerificationPolicy: true,
		memoryReservationPolicy:                true,
		crashLoopBackOffMax:                    true,
		gatesInDefaulting:                      true,
	},
	// v1.37.2: the memoryThrottlingFactor default is gone.
	"1.37": {
		failCgroupV1:                           true,
		memoryThrottlingFactor:                 nil,
		mergeDefaultEvictionSettings:           true,
		imagePullCredentialsVerificationPolicy: true,
		memoryReservationPolicy:                true,
		crashLoopBackOffMax:                    true,
		gatesInDefaulting:                      true,
	},
	// v1.38.0-beta.0: the certificate key algorithms default to ECDSA-P256.
	"1.38": {
		failCgroupV1:                           true,
		memoryThrottlingFactor:                 nil,
		mergeDefaultEvictionSettings:           true,
		imagePullCredentialsVerificationPolicy: true,
		memoryReservationPolicy:                true,
		crashLoopBackOffMax:                    true,
		gatesInDefaulting:                      true,
		certificateKeyAlgorithms:               true,
	},
}

// GatesInDefaulting reports whether the minor's SetDefaults_KubeletConfiguration
// applies the object's featureGates (and panics when they cannot be applied).
func GatesInDefaulting(minor string) bool { return versions[minor].gatesInDefaulting }

// Supported reports whether minor (such as "1.37") is a supported kubelet minor.
func Supported(minor string) bool {
	_, ok := versions[minor]
	return ok
}

func lookup(minor string) (versionSpec, error) {
	spec, ok := versions[minor]
	if !ok {
		return versionSpec{}, fmt.Errorf("defaults: unsupported kubelet minor %q", minor)
	}
	return spec, nil
}

// Apply is a faithful port of SetDefaults_KubeletConfiguration
// (pkg/kubelet/apis/config/v1beta1/defaults.go) for the given kubelet minor.
//
// enabled reports whether a feature gate is on. The caller has resolved the
// gates exactly as the kubelet's
// localFeatureGate := DefaultMutableFeatureGate.DeepCopy(); SetFromMap(obj.FeatureGates)
// does, and has handled the case where that panics.
//
// Apply does not round reservedMemory; that is done by the generated
// SetObjectDefaults_KubeletConfiguration, see ApplyObject.
//
// The only deviation from upstream is aliasing: upstream assigns the package
// slice DefaultNodeAllocatableEnforcement itself to enforceNodeAllocatable;
// Apply assigns an equal fresh slice so callers cannot corrupt the default.
func Apply(minor string, obj *kubeletv1beta1.KubeletConfiguration, enabled func(gate string) bool) error {
	spec, err := lookup(minor)
	if err != nil {
		return err
	}
	if obj == nil {
		return fmt.Errorf("defaults: nil KubeletConfiguration")
	}
	if enabled == nil {
		return fmt.Errorf("defaults: nil feature gate function")
	}

	if obj.EnableServer == nil {
		obj.EnableServer = ptr.To(true)
	}
	if obj.SyncFrequency == zeroDuration {
		obj.SyncFrequency = metav1.Duration{Duration: 1 * time.Minute}
	}
	if obj.FileCheckFrequency == zeroDuration {
		obj.FileCheckFrequency = metav1.Duration{Duration: 20 * time.Second}
	}
	if obj.HTTPCheckFrequency == zeroDuration {
		obj.HTTPCheckFrequency = metav1.Duration{Duration: 20 * time.Second}
	}
	if obj.Address == "" {
		obj.Address = "0.0.0.0"
	}
	if obj.Port == 0 {
		obj.Port = KubeletPort
	}
	if obj.Authentication.Anonymous.Enabled == nil {
		obj.Authentication.Anonymous.Enabled = ptr.To(false)
	}
	if obj.Authentication.Webhook.Enabled == nil {
		obj.Authentication.Webhook.Enabled = ptr.To(true)
	}
	if obj.Authentication.Webhook.CacheTTL == zeroDuration {
		obj.Authentication.Webhook.CacheTTL = metav1.Duration{Duration: 2 * time.Minute}
	}
	if obj.Authorization.Mode == "" {
		obj.Authorization.Mode = kubeletv1beta1.KubeletAuthorizationModeWebhook
	}
	if obj.Authorization.Webhook.CacheAuthorizedTTL == zeroDuration {
		obj.Authorization.Webhook.CacheAuthorizedTTL = metav1.Duration{Duration: 5 * time.Minute}
	}
	if obj.Authorization.Webhook.CacheUnauthorizedTTL == zeroDuration {
		obj.Authorization.Webhook.CacheUnauthorizedTTL = metav1.Duration{Duration: 30 * time.Second}
	}
	// Pointer fields: an explicit 0 is kept; plain ints: 0 means unset.
	if obj.RegistryPullQPS == nil {
		obj.RegistryPullQPS = ptr.To[int32](5)
	}
	if obj.RegistryBurst == 0 {
		obj.RegistryBurst = 10
	}
	if obj.EventRecordQPS == nil {
		obj.EventRecordQPS = ptr.To[int32](50)
	}
	if obj.EventBurst == 0 {
		obj.EventBurst = 100
	}
	if obj.EnableDebuggingHandlers == nil {
		obj.EnableDebuggingHandlers = ptr.To(true)
	}
	if obj.HealthzPort == nil {
		obj.HealthzPort = ptr.To[int32](10248)
	}
	if obj.HealthzBindAddress == "" {
		obj.HealthzBindAddress = "127.0.0.1"
	}
	if obj.OOMScoreAdj == nil {
		obj.OOMScoreAdj = ptr.To(KubeletOOMScoreAdj)
	}
	if obj.StreamingConnectionIdleTimeout == zeroDuration {
		obj.StreamingConnectionIdleTimeout = metav1.Duration{Duration: 4 * time.Hour}
	}
	if obj.NodeStatusReportFrequency == zeroDuration {
		// Backward compatibility: an explicitly set nodeStatusUpdateFrequency
		// becomes the report frequency. This must run before
		// nodeStatusUpdateFrequency itself is defaulted just below.
		if obj.NodeStatusUpdateFrequency == zeroDuration {
			obj.NodeStatusReportFrequency = metav1.Duration{Duration: 5 * time.Minute}
		} else {
			obj.NodeStatusReportFrequency = obj.NodeStatusUpdateFrequency
		}
	}
	if obj.NodeStatusUpdateFrequency == zeroDuration {
		obj.NodeStatusUpdateFrequency = metav1.Duration{Duration: 10 * time.Second}
	}
	if obj.NodeLeaseDurationSeconds == 0 {
		obj.NodeLeaseDurationSeconds = 40
	}
	if obj.ImageMinimumGCAge == zeroDuration {
		obj.ImageMinimumGCAge = metav1.Duration{Duration: 2 * time.Minute}
	}
	if obj.ImageGCHighThresholdPercent == nil {
		// Upstream: below docker's default dm.min_free_space of 90%.
		obj.ImageGCHighThresholdPercent = ptr.To[int32](85)
	}
	if obj.ImageGCLowThresholdPercent == nil {
		obj.ImageGCLowThresholdPercent = ptr.To[int32](80)
	}
	if obj.VolumeStatsAggPeriod == zeroDuration {
		obj.VolumeStatsAggPeriod = metav1.Duration{Duration: time.Minute}
	}
	if obj.CgroupsPerQOS == nil {
		obj.CgroupsPerQOS = ptr.To(true)
	}
	if obj.CgroupDriver == "" {
		obj.CgroupDriver = "cgroupfs"
	}
	if obj.CPUManagerPolicy == "" {
		obj.CPUManagerPolicy = "none"
	}
	if obj.CPUManagerReconcilePeriod == zeroDuration {
		// Same as the default nodeStatusUpdateFrequency.
		obj.CPUManagerReconcilePeriod = metav1.Duration{Duration: 10 * time.Second}
	}
	if obj.MemoryManagerPolicy == "" {
		obj.MemoryManagerPolicy = kubeletv1beta1.NoneMemoryManagerPolicy
	}
	if obj.TopologyManagerPolicy == "" {
		obj.TopologyManagerPolicy = kubeletv1beta1.NoneTopologyManagerPolicy
	}
	if obj.TopologyManagerScope == "" {
		obj.TopologyManagerScope = kubeletv1beta1.ContainerTopologyManagerScope
	}
	if obj.RuntimeRequestTimeout == zeroDuration {
		obj.RuntimeRequestTimeout = metav1.Duration{Duration: 2 * time.Minute}
	}
	if obj.HairpinMode == "" {
		obj.HairpinMode = kubeletv1beta1.PromiscuousBridge
	}
	if obj.MaxPods == 0 {
		obj.MaxPods = 110
	}
	// nil or negative becomes -1 (use the node-allocatable pid limit); an
	// explicit 0 is kept.
	if obj.PodPidsLimit == nil || *obj.PodPidsLimit < int64(0) {
		obj.PodPidsLimit = ptr.To[int64](-1)
	}

	// resolvConf: only nil is defaulted; an explicit "" (no DNS config) is kept.
	if obj.ResolverConfig == nil {
		obj.ResolverConfig = ptr.To(ResolvConfDefault)
	}
	if obj.CPUCFSQuota == nil {
		obj.CPUCFSQuota = ptr.To(true)
	}
	if obj.CPUCFSQuotaPeriod == nil {
		obj.CPUCFSQuotaPeriod = &metav1.Duration{Duration: 100 * time.Millisecond}
	}
	if obj.NodeStatusMaxImages == nil {
		obj.NodeStatusMaxImages = ptr.To[int32](50)
	}
	if obj.MaxOpenFiles == 0 {
		obj.MaxOpenFiles = 1000000
	}
	if obj.ContentType == "" {
		obj.ContentType = "application/vnd.kubernetes.protobuf"
	}
	if obj.KubeAPIQPS == nil {
		obj.KubeAPIQPS = ptr.To[int32](50)
	}
	if obj.KubeAPIBurst == 0 {
		obj.KubeAPIBurst = 100
	}
	if obj.SerializeImagePulls == nil {
		// Serial pulls unless maxParallelImagePulls asks for 2 or more, so
		// users need not set both. maxParallelImagePulls has no default.
		if obj.MaxParallelImagePulls == nil || *obj.MaxParallelImagePulls < 2 {
			obj.SerializeImagePulls = ptr.To(true)
		} else {
			obj.SerializeImagePulls = ptr.To(false)
		}
	}
	if obj.EvictionPressureTransitionPeriod == zeroDuration {
		obj.EvictionPressureTransitionPeriod = metav1.Duration{Duration: 5 * time.Minute}
	}
	if spec.mergeDefaultEvictionSettings {
		if obj.MergeDefaultEvictionSettings == nil {
			obj.MergeDefaultEvictionSettings = ptr.To(false)
		}
	}
	if obj.EnableControllerAttachDetach == nil {
		obj.EnableControllerAttachDetach = ptr.To(true)
	}
	if obj.MakeIPTablesUtilChains == nil {
		obj.MakeIPTablesUtilChains = ptr.To(true)
	}
	if obj.IPTablesMasqueradeBit == nil {
		obj.IPTablesMasqueradeBit = ptr.To[int32](DefaultIPTablesMasqueradeBit)
	}
	if obj.IPTablesDropBit == nil {
		obj.IPTablesDropBit = ptr.To[int32](DefaultIPTablesDropBit)
	}
	if obj.FailSwapOn == nil {
		obj.FailSwapOn = ptr.To(true)
	}
	if obj.ContainerLogMaxSize == "" {
		obj.ContainerLogMaxSize = "10Mi"
	}
	if obj.ContainerLogMaxFiles == nil {
		obj.ContainerLogMaxFiles = ptr.To[int32](5)
	}
	if obj.ContainerLogMaxWorkers == nil {
		obj.ContainerLogMaxWorkers = ptr.To[int32](1)
	}
	if obj.ContainerLogMonitorInterval == nil {
		obj.ContainerLogMonitorInterval = &metav1.Duration{Duration: 10 * time.Second}
	}
	if obj.ConfigMapAndSecretChangeDetectionStrategy == "" {
		obj.ConfigMapAndSecretChangeDetectionStrategy = kubeletv1beta1.WatchChangeDetectionStrategy
	}
	// Only nil is defaulted: an explicit empty list (enforce nothing) is kept.
	// Upstream assigns the shared package slice; a copy is equal and safer.
	if obj.EnforceNodeAllocatable == nil {
		obj.EnforceNodeAllocatable = append([]string(nil), DefaultNodeAllocatableEnforcement...)
	}
	if obj.VolumePluginDir == "" {
		obj.VolumePluginDir = DefaultVolumePluginDir
	}
	// Upstream: "Use the Default LoggingConfiguration option" (format text,
	// flushFrequency 5s, infoBufferSize 0 for text and json output routing).
	logsapi.SetRecommendedLoggingConfiguration(&obj.Logging)
	if obj.EnableSystemLogHandler == nil {
		obj.EnableSystemLogHandler = ptr.To(true)
	}
	if obj.EnableProfilingHandler == nil {
		obj.EnableProfilingHandler = ptr.To(true)
	}
	if obj.EnableDebugFlagsHandler == nil {
		obj.EnableDebugFlagsHandler = ptr.To(true)
	}
	if obj.SeccompDefault == nil {
		obj.SeccompDefault = ptr.To(false)
	}
	if obj.FailCgroupV1 == nil {
		obj.FailCgroupV1 = ptr.To(spec.failCgroupV1)
	}
	// Not defaulted in 1.37 (spec.memoryThrottlingFactor is nil). Older minors
	// defaulted it ungated; check the position in their source when adding them.
	if spec.memoryThrottlingFactor != nil {
		if obj.MemoryThrottlingFactor == nil {
			obj.MemoryThrottlingFactor = ptr.To(*spec.memoryThrottlingFactor)
		}
	}
	if spec.memoryReservationPolicy {
		if obj.MemoryReservationPolicy == "" {
			obj.MemoryReservationPolicy = DefaultMemoryReservationPolicy
		}
	}
	if obj.RegisterNode == nil {
		obj.RegisterNode = ptr.To(true)
	}
	if obj.LocalStorageCapacityIsolation == nil {
		obj.LocalStorageCapacityIsolation = ptr.To(true)
	}
	if obj.ContainerRuntimeEndpoint == "" {
		obj.ContainerRuntimeEndpoint = "unix:///run/containerd/containerd.sock"
	}
	if obj.PodLogsDir == "" {
		obj.PodLogsDir = DefaultPodLogsDir
	}

	// Gate-dependent defaults. With the gate off the field is left alone, so a
	// user-set value survives (validation then rejects it).
	if spec.crashLoopBackOffMax && enabled(GateKubeletCrashLoopBackOffMax) {
		if obj.CrashLoopBackOff.MaxContainerRestartPeriod == nil {
			obj.CrashLoopBackOff.MaxContainerRestartPeriod = &metav1.Duration{Duration: MaxContainerBackOff}
		}
	}

	if spec.certificateKeyAlgorithms {
		if obj.ClientCertificateKeyAlgorithm == nil {
			obj.ClientCertificateKeyAlgorithm = ptr.To(kubeletv1beta1.CertificateKeyAlgorithmDefault)
		}
		if obj.ServerCertificateKeyAlgorithm == nil {
			obj.ServerCertificateKeyAlgorithm = ptr.To(kubeletv1beta1.CertificateKeyAlgorithmDefault)
		}
	}

	if spec.imagePullCredentialsVerificationPolicy && enabled(GateKubeletEnsureSecretPulledImages) {
		if obj.ImagePullCredentialsVerificationPolicy == "" {
			obj.ImagePullCredentialsVerificationPolicy = kubeletv1beta1.NeverVerifyPreloadedImages
		}
	}
	return nil
}

// ApplyObject is a port of the generated SetObjectDefaults_KubeletConfiguration
// (pkg/kubelet/apis/config/v1beta1/zz_generated.defaults.go): Apply, then
// RoundReservedMemory. This is what the kubelet's codec runs when it decodes
// the main --config file. The drop-in merge (mergeKubeletConfigurations)
// calls SetDefaults_KubeletConfiguration directly, i.e. Apply only.
func ApplyObject(minor string, obj *kubeletv1beta1.KubeletConfiguration, enabled func(gate string) bool) error {
	if err := Apply(minor, obj, enabled); err != nil {
		return err
	}
	RoundReservedMemory(obj)
	return nil
}

// RoundReservedMemory applies k8s.io/kubernetes/pkg/apis/core/v1.SetDefaults_ResourceList
// to every reservedMemory[].limits: each quantity is rounded up to milli scale
// (Quantity.RoundUp(-3)) and stored back.
func RoundReservedMemory(obj *kubeletv1beta1.KubeletConfiguration) {
	for i := range obj.ReservedMemory {
		limits := obj.ReservedMemory[i].Limits
		for key, val := range limits {
			// Upstream TODO(#18538): round up to milli scale for API
			// compatibility instead of rejecting values that need rounding.
			const milliScale = -3
			val.RoundUp(milliScale)
			limits[key] = val
		}
	}
}

// EvictionHard reproduces loadConfigFile's evictionHard handling
// (cmd/kubelet/app/server.go; main --config file only):
// nil becomes a fresh copy of os's DefaultEvictionHard map; otherwise, if
// mergeDefaultEvictionSettings is true, missing default signals are filled in.
//
// loadConfigFile works on the internal type, where mergeDefaultEvictionSettings
// is a plain bool converted from the v1beta1 *bool, so nil counts as false.
// Upstream assigns the package map itself; a copy is equal and safer.
// For an unsupported minor EvictionHard does nothing (see Supported; Apply
// reports the error).
func EvictionHard(minor string, os kubelets.OS, obj *kubeletv1beta1.KubeletConfiguration) {
	spec, err := lookup(minor)
	if err != nil || obj == nil {
		return
	}
	if obj.EvictionHard == nil {
		obj.EvictionHard = DefaultEvictionHardOn(os)
	} else if spec.mergeDefaultEvictionSettings && ptr.Deref(obj.MergeDefaultEvictionSettings, false) {
		// An empty but non-nil map ({}) is merged into, not replaced.
		for k, v := range defaultEvictionHard(os) {
			if _, exists := obj.EvictionHard[k]; !exists {
				obj.EvictionHard[k] = v
			}
		}
	}
}
