package validate

//lint:file-ignore SA1019 the kubelet still defaults and validates its deprecated fields; this file reproduces that

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	imageref "github.com/distribution/reference"
	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/rule"
	kubeletv1beta1 "github.com/kubeletcfg/kubeletcfg/upstream/kubelet/config/v1beta1"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/version"
	"k8s.io/component-base/featuregate"
	logsapi "k8s.io/component-base/logs/api/v1"
	tracingapi "k8s.io/component-base/tracing/api/v1"
	"k8s.io/utils/cpuset"
)

// kvGateSpecs are the specs, copied from pkg/features/kube_features.go at
// v1.37.2, of the gates the KC4xxx rules query.
func kvGateSpecs() map[featuregate.Feature]featuregate.VersionedSpecs {
	v := version.MustParse
	return map[featuregate.Feature]featuregate.VersionedSpecs{
		"CustomCPUCFSQuotaPeriod": {
			{Version: v("1.12"), Default: false, PreRelease: featuregate.Alpha},
			{Version: v("1.36"), Default: true, PreRelease: featuregate.GA},
		},
		"ImageMaximumGCAge": {
			{Version: v("1.29"), Default: false, PreRelease: featuregate.Alpha},
			{Version: v("1.30"), Default: true, PreRelease: featuregate.Beta},
			{Version: v("1.35"), Default: true, PreRelease: featuregate.GA, LockToDefault: true},
		},
		"DefaultPodSysctls": {
			{Version: v("1.37"), Default: false, PreRelease: featuregate.Alpha},
		},
		"RotateKubeletServerCertificate": {
			{Version: v("1.7"), Default: false, PreRelease: featuregate.Alpha},
			{Version: v("1.12"), Default: true, PreRelease: featuregate.Beta},
		},
		"GracefulNodeShutdown": {
			{Version: v("1.20"), Default: false, PreRelease: featuregate.Alpha},
			{Version: v("1.21"), Default: true, PreRelease: featuregate.Beta},
		},
		"GracefulNodeShutdownBasedOnPodPriority": {
			{Version: v("1.23"), Default: false, PreRelease: featuregate.Alpha},
			{Version: v("1.24"), Default: true, PreRelease: featuregate.Beta},
		},
		"NodeSwap": {
			{Version: v("1.22"), Default: false, PreRelease: featuregate.Alpha},
			{Version: v("1.28"), Default: false, PreRelease: featuregate.Beta},
			{Version: v("1.30"), Default: true, PreRelease: featuregate.Beta},
			{Version: v("1.34"), Default: true, PreRelease: featuregate.GA, LockToDefault: true},
		},
		"KubeletCrashLoopBackOffMax": {
			{Version: v("1.32"), Default: false, PreRelease: featuregate.Alpha},
			{Version: v("1.35"), Default: true, PreRelease: featuregate.Beta},
		},
		"KubeletEnsureSecretPulledImages": {
			{Version: v("1.33"), Default: false, PreRelease: featuregate.Alpha},
			{Version: v("1.35"), Default: true, PreRelease: featuregate.Beta},
		},
		"MemoryQoS": {
			{Version: v("1.22"), Default: false, PreRelease: featuregate.Alpha},
			{Version: v("1.37"), Default: true, PreRelease: featuregate.Beta},
		},
		"NodeLogQuery": {
			{Version: v("1.27"), Default: false, PreRelease: featuregate.Alpha},
			{Version: v("1.30"), Default: false, PreRelease: featuregate.Beta},
			{Version: v("1.36"), Default: true, PreRelease: featuregate.GA, LockToDefault: true},
		},
		"KubeletTracing": {
			{Version: v("1.25"), Default: false, PreRelease: featuregate.Alpha},
			{Version: v("1.27"), Default: true, PreRelease: featuregate.Beta},
			{Version: v("1.34"), Default: true, PreRelease: featuregate.GA, LockToDefault: true},
		},
	}
}

// kvTestGates builds a 1.37 gate with set applied. A gate locked at 1.37
// (ImageMaximumGCAge, NodeSwap, NodeLogQuery, KubeletTracing) that set turns off
// is registered unlocked instead, to exercise the rule an older minor would hit
// (the cases pick the minor with kvCase.minor; minors_test.go runs the real gates
// of each minor).
func kvTestGates(t *testing.T, set map[string]bool) featuregate.FeatureGate {
	t.Helper()
	specs := kvGateSpecs()
	for name, on := range set {
		s, ok := specs[featuregate.Feature(name)]
		if ok && s[len(s)-1].LockToDefault && s[len(s)-1].Default != on {
			specs[featuregate.Feature(name)] = featuregate.VersionedSpecs{
				{Version: version.MustParse("1.0"), Default: false, PreRelease: featuregate.Beta},
			}
		}
	}
	var g featuregate.MutableVersionedFeatureGate = featuregate.NewVersionedFeatureGate(version.MustParse("1.37"))
	if err := g.AddVersioned(specs); err != nil {
		t.Fatal(err)
	}
	if err := logsapi.AddFeatureGates(g); err != nil {
		t.Fatal(err)
	}
	if err := g.SetFromMap(set); err != nil {
		t.Fatal(err)
	}
	return g
}

// validConfig is a KubeletConfiguration with the v1.37 defaults applied by hand
// (SetDefaults_KubeletConfiguration with the default gates), which the kubelet
// accepts on a cgroup v2 host.
func validConfig() *kubeletv1beta1.KubeletConfiguration {
	k := &kubeletv1beta1.KubeletConfiguration{
		EnableServer:       new(true),
		SyncFrequency:      metav1.Duration{Duration: time.Minute},
		FileCheckFrequency: metav1.Duration{Duration: 20 * time.Second},
		HTTPCheckFrequency: metav1.Duration{Duration: 20 * time.Second},
		Address:            "0.0.0.0",
		Port:               10250,
		Authentication: kubeletv1beta1.KubeletAuthentication{
			Anonymous: kubeletv1beta1.KubeletAnonymousAuthentication{Enabled: new(false)},
			Webhook: kubeletv1beta1.KubeletWebhookAuthentication{
				Enabled:  new(true),
				CacheTTL: metav1.Duration{Duration: 2 * time.Minute},
			},
		},
		Authorization: kubeletv1beta1.KubeletAuthorization{
			Mode: kubeletv1beta1.KubeletAuthorizationModeWebhook,
			Webhook: kubeletv1beta1.KubeletWebhookAuthorization{
				CacheAuthorizedTTL:   metav1.Duration{Duration: 5 * time.Minute},
				CacheUnauthorizedTTL: metav1.Duration{Duration: 30 * time.Second},
			},
		},
		RegistryPullQPS:                           new(int32(5)),
		RegistryBurst:                             10,
		EventRecordQPS:                            new(int32(50)),
		EventBurst:                                100,
		EnableDebuggingHandlers:                   new(true),
		HealthzPort:                               new(int32(10248)),
		HealthzBindAddress:                        "127.0.0.1",
		OOMScoreAdj:                               new(int32(-999)),
		StreamingConnectionIdleTimeout:            metav1.Duration{Duration: 4 * time.Hour},
		NodeStatusReportFrequency:                 metav1.Duration{Duration: 5 * time.Minute},
		NodeStatusUpdateFrequency:                 metav1.Duration{Duration: 10 * time.Second},
		NodeLeaseDurationSeconds:                  40,
		ImageMinimumGCAge:                         metav1.Duration{Duration: 2 * time.Minute},
		ImageGCHighThresholdPercent:               new(int32(85)),
		ImageGCLowThresholdPercent:                new(int32(80)),
		VolumeStatsAggPeriod:                      metav1.Duration{Duration: time.Minute},
		CgroupsPerQOS:                             new(true),
		CgroupDriver:                              "cgroupfs",
		CPUManagerPolicy:                          "none",
		CPUManagerReconcilePeriod:                 metav1.Duration{Duration: 10 * time.Second},
		MemoryManagerPolicy:                       kubeletv1beta1.NoneMemoryManagerPolicy,
		TopologyManagerPolicy:                     kubeletv1beta1.NoneTopologyManagerPolicy,
		TopologyManagerScope:                      kubeletv1beta1.ContainerTopologyManagerScope,
		RuntimeRequestTimeout:                     metav1.Duration{Duration: 2 * time.Minute},
		HairpinMode:                               kubeletv1beta1.PromiscuousBridge,
		MaxPods:                                   110,
		PodPidsLimit:                              new(int64(-1)),
		ResolverConfig:                            new("/etc/resolv.conf"),
		CPUCFSQuota:                               new(true),
		CPUCFSQuotaPeriod:                         &metav1.Duration{Duration: 100 * time.Millisecond},
		NodeStatusMaxImages:                       new(int32(50)),
		MaxOpenFiles:                              1000000,
		ContentType:                               "application/vnd.kubernetes.protobuf",
		KubeAPIQPS:                                new(int32(50)),
		KubeAPIBurst:                              100,
		SerializeImagePulls:                       new(true),
		EvictionPressureTransitionPeriod:          metav1.Duration{Duration: 5 * time.Minute},
		MergeDefaultEvictionSettings:              new(false),
		EnableControllerAttachDetach:              new(true),
		MakeIPTablesUtilChains:                    new(true),
		IPTablesMasqueradeBit:                     new(int32(14)),
		IPTablesDropBit:                           new(int32(15)),
		FailSwapOn:                                new(true),
		ContainerLogMaxSize:                       "10Mi",
		ContainerLogMaxFiles:                      new(int32(5)),
		ContainerLogMaxWorkers:                    new(int32(1)),
		ContainerLogMonitorInterval:               &metav1.Duration{Duration: 10 * time.Second},
		ConfigMapAndSecretChangeDetectionStrategy: kubeletv1beta1.WatchChangeDetectionStrategy,
		EnforceNodeAllocatable:                    []string{"pods"},
		VolumePluginDir:                           "/usr/libexec/kubernetes/kubelet-plugins/volume/exec/",
		EnableSystemLogHandler:                    new(true),
		EnableProfilingHandler:                    new(true),
		EnableDebugFlagsHandler:                   new(true),
		SeccompDefault:                            new(false),
		FailCgroupV1:                              new(true),
		MemoryReservationPolicy:                   kubeletv1beta1.NoneMemoryReservationPolicy,
		RegisterNode:                              new(true),
		LocalStorageCapacityIsolation:             new(true),
		ContainerRuntimeEndpoint:                  "unix:///run/containerd/containerd.sock",
		PodLogsDir:                                "/var/log/pods",
		// KubeletCrashLoopBackOffMax and KubeletEnsureSecretPulledImages are on by default.
		CrashLoopBackOff:                       kubeletv1beta1.CrashLoopBackOffConfig{MaxContainerRestartPeriod: &metav1.Duration{Duration: 300 * time.Second}},
		ImagePullCredentialsVerificationPolicy: kubeletv1beta1.NeverVerifyPreloadedImages,
	}
	logsapi.SetRecommendedLoggingConfiguration(&k.Logging)
	return k
}

type kvCase struct {
	name   string
	mutate func(k *kubeletv1beta1.KubeletConfiguration)
	gates  map[string]bool
	cgroup int         // host cgroup version; 0 means 2
	os     kubelets.OS // the node's OS; "" means Linux
	minor  string      // kubelet minor; "" means 1.37
	set    []string    // paths a file set (Context.SetByFile)
	want   []string    // the kubelet messages this rule reports, in order; none for a passing case
	path   string      // when not empty, the path of the first finding
}

func kvRun(t *testing.T, r *rule.Rule, tc kvCase) []finding.Finding {
	t.Helper()
	k := validConfig()
	if tc.mutate != nil {
		tc.mutate(k)
	}
	cg := tc.cgroup
	if cg == 0 && tc.os != kubelets.Windows {
		cg = 2
	}
	minor := tc.minor
	if minor == "" {
		minor = "1.37"
	}
	set := map[string]bool{}
	for _, p := range tc.set {
		set[p] = true
	}
	ctx := &rule.Context{
		Minor:         minorOf(minor),
		Config:        k,
		Gates:         kvTestGates(t, tc.gates),
		OS:            tc.os,
		CgroupVersion: cg,
		Origin: func(path string) finding.Position {
			if set[path] {
				return finding.Position{File: "kubelet.yaml", Line: len(path), Column: 1}
			}
			return finding.Position{}
		},
		SetByFile: func(path string) bool { return set[path] },
	}
	before := k.DeepCopy()
	out := runRule(r, ctx) // as Run does: nothing outside the rule's minors
	if !reflect.DeepEqual(before, k) {
		t.Errorf("%s mutated the configuration", r.ID)
	}
	return out
}

func ptrDur(d time.Duration) *metav1.Duration { return &metav1.Duration{Duration: d} }

func kvQty(s string) resource.Quantity { return resource.MustParse(s) }

// kvCases holds, per rule, at least one passing and one failing case. The
// expected strings are upstream's (validation_test.go, validation_reserved_memory_test.go)
// where upstream has the case.
func kvCases() map[*rule.Rule][]kvCase {
	sysctlsOn := map[string]bool{"DefaultPodSysctls": true}
	_, cpusetErr := cpuset.Parse("invalid-reserved-system-cpus")
	_, normalizedErr := imageref.ParseNormalizedNamed("test.test/Repo")
	return map[*rule.Rule][]kvCase{
		kvNodeLeaseDuration: {
			{name: "default"},
			{name: "zero", mutate: func(k *kvConfig) { k.NodeLeaseDurationSeconds = 0 },
				want: []string{"invalid configuration: nodeLeaseDurationSeconds must be greater than 0"}},
			{name: "negative", mutate: func(k *kvConfig) { k.NodeLeaseDurationSeconds = -1 },
				want: []string{"invalid configuration: nodeLeaseDurationSeconds must be greater than 0"}, path: "nodeLeaseDurationSeconds"},
		},
		kvSystemCgroupsNeedsRoot: {
			{name: "with root", mutate: func(k *kvConfig) { k.SystemCgroups = "/system"; k.CgroupRoot = "/" }},
			{name: "without root", mutate: func(k *kvConfig) { k.SystemCgroups = "/" },
				want: []string{"invalid configuration: systemCgroups (--system-cgroups) was specified and cgroupRoot (--cgroup-root) was not specified"}},
		},
		kvEventBurst: {
			{name: "zero", mutate: func(k *kvConfig) { k.EventBurst = 0 }},
			{name: "negative", mutate: func(k *kvConfig) { k.EventBurst = -1 },
				want: []string{"invalid configuration: eventBurst (--event-burst) -1 must not be a negative number"}},
		},
		kvEventRecordQPS: {
			{name: "nil is zero", mutate: func(k *kvConfig) { k.EventRecordQPS = nil }},
			{name: "negative", mutate: func(k *kvConfig) { k.EventRecordQPS = new(int32(-1)) },
				want: []string{"invalid configuration: eventRecordQPS (--event-qps) -1 must not be a negative number"}},
		},
		kvHealthzPort: {
			{name: "zero disables", mutate: func(k *kvConfig) { k.HealthzPort = new(int32(0)) }},
			{name: "too big", mutate: func(k *kvConfig) { k.HealthzPort = new(int32(65536)) },
				want: []string{"invalid configuration: healthzPort (--healthz-port) 65536 must be between 1 and 65535, inclusive"}},
		},
		kvCPUCFSQuotaPeriodGate: {
			{name: "gate off, default period", gates: map[string]bool{"CustomCPUCFSQuotaPeriod": false}},
			{name: "gate off, custom period", gates: map[string]bool{"CustomCPUCFSQuotaPeriod": false},
				mutate: func(k *kvConfig) { k.CPUCFSQuotaPeriod = ptrDur(200 * time.Millisecond) },
				want:   []string{"invalid configuration: cpuCFSQuotaPeriod (--cpu-cfs-quota-period) {200ms} requires feature gate CustomCPUCFSQuotaPeriod"}},
			{name: "gate off, nil period is 0s", gates: map[string]bool{"CustomCPUCFSQuotaPeriod": false},
				mutate: func(k *kvConfig) { k.CPUCFSQuotaPeriod = nil },
				want:   []string{"invalid configuration: cpuCFSQuotaPeriod (--cpu-cfs-quota-period) {0s} requires feature gate CustomCPUCFSQuotaPeriod"}},
		},
		kvCPUCFSQuotaPeriodRange: {
			{name: "25ms", mutate: func(k *kvConfig) { k.CPUCFSQuotaPeriod = ptrDur(25 * time.Millisecond) }},
			{name: "1s inclusive", mutate: func(k *kvConfig) { k.CPUCFSQuotaPeriod = ptrDur(time.Second) }},
			{name: "2s", mutate: func(k *kvConfig) { k.CPUCFSQuotaPeriod = ptrDur(2 * time.Second) },
				want: []string{"invalid configuration: cpuCFSQuotaPeriod (--cpu-cfs-quota-period) {2s} must be between 1ms and 1sec, inclusive"}},
			{name: "gate off skips", gates: map[string]bool{"CustomCPUCFSQuotaPeriod": false},
				mutate: func(k *kvConfig) { k.CPUCFSQuotaPeriod = ptrDur(2 * time.Second) }},
		},
		kvImageGCHigh: {
			{name: "100", mutate: func(k *kvConfig) { k.ImageGCHighThresholdPercent = new(int32(100)) }},
			{name: "101", mutate: func(k *kvConfig) { k.ImageGCHighThresholdPercent = new(int32(101)) },
				want: []string{"invalid configuration: imageGCHighThresholdPercent (--image-gc-high-threshold) 101 must be between 0 and 100, inclusive"}},
		},
		kvImageGCLow: {
			{name: "0", mutate: func(k *kvConfig) { k.ImageGCLowThresholdPercent = new(int32(0)) }},
			{name: "-1", mutate: func(k *kvConfig) { k.ImageGCLowThresholdPercent = new(int32(-1)) },
				want: []string{"invalid configuration: imageGCLowThresholdPercent (--image-gc-low-threshold) -1 must be between 0 and 100, inclusive"}},
		},
		kvImageGCLowBelowHigh: {
			{name: "defaults"},
			{name: "equal", mutate: func(k *kvConfig) {
				k.ImageGCHighThresholdPercent = new(int32(0))
				k.ImageGCLowThresholdPercent = new(int32(0))
			}, want: []string{"invalid configuration: imageGCLowThresholdPercent (--image-gc-low-threshold) 0 must be less than imageGCHighThresholdPercent (--image-gc-high-threshold) 0"}},
			{name: "greater", set: []string{"imageGCHighThresholdPercent"}, mutate: func(k *kvConfig) {
				k.ImageGCHighThresholdPercent = new(int32(0))
				k.ImageGCLowThresholdPercent = new(int32(1))
			}, want: []string{"invalid configuration: imageGCLowThresholdPercent (--image-gc-low-threshold) 1 must be less than imageGCHighThresholdPercent (--image-gc-high-threshold) 0"},
				path: "imageGCHighThresholdPercent"},
		},
		kvImageMaximumGCAgeGate: {
			{name: "gate on", mutate: func(k *kvConfig) { k.ImageMaximumGCAge = metav1.Duration{Duration: time.Hour} }},
			{name: "gate off (older emulation)", gates: map[string]bool{"ImageMaximumGCAge": false},
				mutate: func(k *kvConfig) { k.ImageMaximumGCAge = metav1.Duration{Duration: time.Hour} },
				want:   []string{"invalid configuration: ImageMaximumGCAge feature gate is required for Kubelet configuration option imageMaximumGCAge"}},
		},
		kvDefaultPodSysctlsGate: {
			{name: "1.36 has no defaultPodSysctls checks", minor: "1.36", mutate: func(k *kvConfig) { k.DefaultPodSysctls = map[string]string{"net.ipv4.ip_forward": "1"} }},
			{name: "gate on", gates: sysctlsOn, mutate: func(k *kvConfig) { k.DefaultPodSysctls = map[string]string{"net.ipv4.ip_forward": "1"} }},
			{name: "gate off", mutate: func(k *kvConfig) { k.DefaultPodSysctls = map[string]string{"net.ipv4.ip_forward": "1"} },
				want: []string{"invalid configuration: DefaultPodSysctls feature gate is required for Kubelet configuration option defaultPodSysctls"}},
		},
		kvDefaultPodSysctlName: {
			{name: "1.36 has no defaultPodSysctls checks", minor: "1.36", gates: sysctlsOn, mutate: func(k *kvConfig) { k.DefaultPodSysctls = map[string]string{"Invalid.Sysctl": "1"} }},
			{name: "slashes", gates: sysctlsOn, mutate: func(k *kvConfig) { k.DefaultPodSysctls = map[string]string{"net/ipv4/ip_forward": "1"} }},
			{name: "uppercase", gates: sysctlsOn, mutate: func(k *kvConfig) { k.DefaultPodSysctls = map[string]string{"Invalid.Sysctl": "1"} },
				want: []string{`invalid configuration: "Invalid.Sysctl" is not a valid sysctl name for defaultPodSysctls`}, path: "defaultPodSysctls[Invalid.Sysctl]"},
			{name: "invalid char", gates: sysctlsOn, mutate: func(k *kvConfig) { k.DefaultPodSysctls = map[string]string{"net.ipv4.ip@forward": "1"} },
				want: []string{`invalid configuration: "net.ipv4.ip@forward" is not a valid sysctl name for defaultPodSysctls`}},
			{name: "too long", gates: sysctlsOn, mutate: func(k *kvConfig) { k.DefaultPodSysctls = map[string]string{strings.Repeat("a", 254): "1"} },
				want: []string{`invalid configuration: "` + strings.Repeat("a", 254) + `" is not a valid sysctl name for defaultPodSysctls`}},
			{name: "gate off skips", mutate: func(k *kvConfig) { k.DefaultPodSysctls = map[string]string{"Invalid.Sysctl": "1"} }},
		},
		kvDefaultPodSysctlNamespaced: {
			{name: "net", gates: sysctlsOn, mutate: func(k *kvConfig) {
				k.DefaultPodSysctls = map[string]string{"net.core.somaxconn": "1024", "kernel.shm_rmid_forced": "1"}
			}},
			{name: "kernel.printk", gates: sysctlsOn, mutate: func(k *kvConfig) { k.DefaultPodSysctls = map[string]string{"kernel.printk": "7"} },
				want: []string{`invalid configuration: "kernel.printk" is not known to be namespaced for defaultPodSysctls`}},
		},
		kvDefaultPodSysctlDuplicate: {
			{name: "distinct", gates: sysctlsOn, mutate: func(k *kvConfig) {
				k.DefaultPodSysctls = map[string]string{"net.ipv4.ip_forward": "1", "net/ipv4/conf/all/rp_filter": "1"}
			}},
			{name: "dotted and slashed", gates: sysctlsOn, mutate: func(k *kvConfig) {
				k.DefaultPodSysctls = map[string]string{"net.ipv4.ip_forward": "1", "net/ipv4/ip_forward": "1"}
			}, want: []string{`invalid configuration: duplicate sysctl "net.ipv4.ip_forward" found in defaultPodSysctls`},
				path: "defaultPodSysctls[net/ipv4/ip_forward]"},
		},
		kvImageMinimumGCAgeNegative: {
			{name: "1.35 accepts -1ns", minor: "1.35", mutate: func(k *kvConfig) { k.ImageMinimumGCAge = metav1.Duration{Duration: -1} }},
			{name: "1.36 refuses -1ns", minor: "1.36", mutate: func(k *kvConfig) { k.ImageMinimumGCAge = metav1.Duration{Duration: -1} },
				want: []string{"invalid configuration: imageMinimumGCAge -1ns must not be negative"}},
			{name: "1ns", mutate: func(k *kvConfig) { k.ImageMinimumGCAge = metav1.Duration{Duration: 1} }},
			{name: "-1ns", mutate: func(k *kvConfig) { k.ImageMinimumGCAge = metav1.Duration{Duration: -1} },
				want: []string{"invalid configuration: imageMinimumGCAge -1ns must not be negative"}},
		},
		kvImageMaximumGCAgeNegative: {
			{name: "0"},
			{name: "-1ns", mutate: func(k *kvConfig) { k.ImageMaximumGCAge = metav1.Duration{Duration: -1} },
				want: []string{"invalid configuration: imageMaximumGCAge -1ns must not be negative"}},
		},
		kvImageMaximumAboveMinimum: {
			{name: "1h over 2m", mutate: func(k *kvConfig) { k.ImageMaximumGCAge = metav1.Duration{Duration: time.Hour} }},
			{name: "1ns under 2ns", mutate: func(k *kvConfig) {
				k.ImageMaximumGCAge = metav1.Duration{Duration: 1}
				k.ImageMinimumGCAge = metav1.Duration{Duration: 2}
			}, want: []string{"invalid configuration: imageMaximumGCAge 1ns must be greater than imageMinimumGCAge 2ns"}},
			{name: "equal", mutate: func(k *kvConfig) { k.ImageMaximumGCAge = metav1.Duration{Duration: 2 * time.Minute} },
				want: []string{"invalid configuration: imageMaximumGCAge 2m0s must be greater than imageMinimumGCAge 2m0s"}},
		},
		kvIPTablesDropBit: {
			{name: "31", mutate: func(k *kvConfig) { k.IPTablesDropBit = new(int32(31)) }},
			{name: "32", mutate: func(k *kvConfig) { k.IPTablesDropBit = new(int32(32)) },
				want: []string{"invalid configuration: iptablesDropBit (--iptables-drop-bit) 32 must be between 0 and 31, inclusive"}},
		},
		kvIPTablesMasqueradeBit: {
			{name: "0", mutate: func(k *kvConfig) { k.IPTablesMasqueradeBit = new(int32(0)) }},
			{name: "32", mutate: func(k *kvConfig) { k.IPTablesMasqueradeBit = new(int32(32)) },
				want: []string{"invalid configuration: iptablesMasqueradeBit (--iptables-masquerade-bit) 32 must be between 0 and 31, inclusive"}},
		},
		kvKubeAPIBurst: {
			{name: "default"},
			{name: "-1", mutate: func(k *kvConfig) { k.KubeAPIBurst = -1 },
				want: []string{"invalid configuration: kubeAPIBurst (--kube-api-burst) -1 must not be a negative number"}},
		},
		kvKubeAPIQPS: {
			{name: "default"},
			{name: "-1", mutate: func(k *kvConfig) { k.KubeAPIQPS = new(int32(-1)) },
				want: []string{"invalid configuration: kubeAPIQPS (--kube-api-qps) -1 must not be a negative number"}},
		},
		kvNodeStatusMaxImages: {
			{name: "-1", mutate: func(k *kvConfig) { k.NodeStatusMaxImages = new(int32(-1)) }},
			{name: "-2", mutate: func(k *kvConfig) { k.NodeStatusMaxImages = new(int32(-2)) },
				want: []string{"invalid configuration: nodeStatusMaxImages (--node-status-max-images) -2 must be -1 or greater"}},
		},
		kvMaxOpenFiles: {
			{name: "default"},
			{name: "-1", mutate: func(k *kvConfig) { k.MaxOpenFiles = -1 },
				want: []string{"invalid configuration: maxOpenFiles (--max-open-files) -1 must not be a negative number"}},
		},
		kvMaxPods: {
			{name: "default"},
			{name: "-1", mutate: func(k *kvConfig) { k.MaxPods = -1 },
				want: []string{"invalid configuration: maxPods (--max-pods) -1 must not be a negative number"}},
		},
		kvOOMScoreAdj: {
			{name: "-1000", mutate: func(k *kvConfig) { k.OOMScoreAdj = new(int32(-1000)) }},
			{name: "1001", mutate: func(k *kvConfig) { k.OOMScoreAdj = new(int32(1001)) },
				want: []string{"invalid configuration: oomScoreAdj (--oom-score-adj) 1001 must be between -1000 and 1000, inclusive"}},
		},
		kvPodsPerCore: {
			{name: "0"},
			{name: "-1", mutate: func(k *kvConfig) { k.PodsPerCore = -1 },
				want: []string{"invalid configuration: podsPerCore (--pods-per-core) -1 must not be a negative number"}},
		},
		kvPort: {
			{name: "65535", mutate: func(k *kvConfig) { k.Port = 65535 }},
			{name: "65536", mutate: func(k *kvConfig) { k.Port = 65536 },
				want: []string{"invalid configuration: port (--port) 65536 must be between 1 and 65535, inclusive"}},
			{name: "0 after defaulting", mutate: func(k *kvConfig) { k.Port = 0 },
				want: []string{"invalid configuration: port (--port) 0 must be between 1 and 65535, inclusive"}},
		},
		kvReadOnlyPort: {
			{name: "0 disables"},
			{name: "10255", mutate: func(k *kvConfig) { k.ReadOnlyPort = 10255 }},
			{name: "65536", mutate: func(k *kvConfig) { k.ReadOnlyPort = 65536 },
				want: []string{"invalid configuration: readOnlyPort (--read-only-port) 65536 must be between 0 and 65535, inclusive"}},
			{name: "-1", mutate: func(k *kvConfig) { k.ReadOnlyPort = -1 },
				want: []string{"invalid configuration: readOnlyPort (--read-only-port) -1 must be between 0 and 65535, inclusive"}},
		},
		kvRegistryBurst: {
			{name: "default"},
			{name: "-1", mutate: func(k *kvConfig) { k.RegistryBurst = -1 },
				want: []string{"invalid configuration: registryBurst (--registry-burst) -1 must not be a negative number"}},
		},
		kvRegistryPullQPS: {
			{name: "default"},
			{name: "-1", mutate: func(k *kvConfig) { k.RegistryPullQPS = new(int32(-1)) },
				want: []string{"invalid configuration: registryPullQPS (--registry-qps) -1 must not be a negative number"}},
		},
		kvMaxParallelImagePullsPositive: {
			{name: "nil"},
			{name: "0", mutate: func(k *kvConfig) { k.MaxParallelImagePulls = new(int32(0)) },
				want: []string{"invalid configuration: maxParallelImagePulls 0 must be a positive number"}},
		},
		kvMaxParallelImagePullsSerialized: {
			{name: "1 with serialize", mutate: func(k *kvConfig) { k.MaxParallelImagePulls = new(int32(1)) }},
			{name: "3 without serialize", mutate: func(k *kvConfig) { k.MaxParallelImagePulls = new(int32(3)); k.SerializeImagePulls = new(false) }},
			{name: "3 with serialize", mutate: func(k *kvConfig) { k.MaxParallelImagePulls = new(int32(3)) },
				want: []string{"invalid configuration: maxParallelImagePulls cannot be larger than 1 unless SerializeImagePulls (--serialize-image-pulls) is set to false"}},
		},
		kvServerTLSBootstrapGate: {
			{name: "gate on", mutate: func(k *kvConfig) { k.ServerTLSBootstrap = true }},
			{name: "gate off", gates: map[string]bool{"RotateKubeletServerCertificate": false}, mutate: func(k *kvConfig) { k.ServerTLSBootstrap = true },
				want: []string{"invalid configuration: serverTLSBootstrap true requires feature gate RotateKubeletServerCertificate"}},
		},
		kvClientKeyAlgorithm: {
			{name: "ECDSA-P256", minor: "1.38", mutate: func(k *kvConfig) {
				k.ClientCertificateKeyAlgorithm = new(kubeletv1beta1.CertificateKeyAlgorithmECDSAP256)
			}},
			{name: "ML-DSA-65", minor: "1.38", mutate: func(k *kvConfig) {
				k.ClientCertificateKeyAlgorithm = new(kubeletv1beta1.CertificateKeyAlgorithmMLDSA65)
			}},
			{name: "nil", minor: "1.38"},
			{name: "1.37 has no such field", minor: "1.37", mutate: func(k *kvConfig) {
				k.ClientCertificateKeyAlgorithm = new(kubeletv1beta1.CertificateKeyAlgorithmType("INVALID"))
			}},
			{name: "invalid", minor: "1.38", mutate: func(k *kvConfig) {
				k.ClientCertificateKeyAlgorithm = new(kubeletv1beta1.CertificateKeyAlgorithmType("INVALID"))
			},
				want: []string{`invalid configuration: clientCertificateKeyAlgorithm "INVALID" is not a supported algorithm`}},
			{name: "wrong case", minor: "1.38", mutate: func(k *kvConfig) {
				k.ClientCertificateKeyAlgorithm = new(kubeletv1beta1.CertificateKeyAlgorithmType("ecdsa-p256"))
			},
				want: []string{`invalid configuration: clientCertificateKeyAlgorithm "ecdsa-p256" is not a supported algorithm`}},
		},
		kvServerKeyAlgorithm: {
			{name: "RSA-4096", minor: "1.38", mutate: func(k *kvConfig) {
				k.ServerCertificateKeyAlgorithm = new(kubeletv1beta1.CertificateKeyAlgorithmRSA4096)
			}},
			{name: "nil", minor: "1.38"},
			{name: "invalid", minor: "1.38", mutate: func(k *kvConfig) {
				k.ServerCertificateKeyAlgorithm = new(kubeletv1beta1.CertificateKeyAlgorithmType("BOGUS"))
			},
				want: []string{`invalid configuration: serverCertificateKeyAlgorithm "BOGUS" is not a supported algorithm`}},
		},
		kvMLDSANeedsTLS13: {
			{name: "ML-DSA with TLS 1.3", minor: "1.38", mutate: func(k *kvConfig) {
				k.ServerCertificateKeyAlgorithm = new(kubeletv1beta1.CertificateKeyAlgorithmMLDSA65)
				k.TLSMinVersion = "VersionTLS13"
			}},
			{name: "ECDSA with TLS 1.2", minor: "1.38", mutate: func(k *kvConfig) {
				k.ServerCertificateKeyAlgorithm = new(kubeletv1beta1.CertificateKeyAlgorithmECDSAP256)
				k.TLSMinVersion = "VersionTLS12"
			}},
			{name: "ML-DSA client key only", minor: "1.38", mutate: func(k *kvConfig) {
				k.ClientCertificateKeyAlgorithm = new(kubeletv1beta1.CertificateKeyAlgorithmMLDSA44)
			}},
			{name: "ML-DSA with an unknown TLS version", minor: "1.38", mutate: func(k *kvConfig) {
				k.ServerCertificateKeyAlgorithm = new(kubeletv1beta1.CertificateKeyAlgorithmMLDSA65)
				k.TLSMinVersion = "VersionTLS99"
			}},
			{name: "ML-DSA with TLS unset", minor: "1.38", mutate: func(k *kvConfig) {
				k.ServerCertificateKeyAlgorithm = new(kubeletv1beta1.CertificateKeyAlgorithmMLDSA65)
				k.TLSMinVersion = ""
			}, want: []string{`invalid configuration: tlsMinVersion "" is incompatible with serverCertificateKeyAlgorithm "ML-DSA-65", ML-DSA requires VersionTLS13`}},
			{name: "ML-DSA-44 with TLS 1.2", minor: "1.38", set: []string{"tlsMinVersion"}, path: "tlsMinVersion", mutate: func(k *kvConfig) {
				k.ServerCertificateKeyAlgorithm = new(kubeletv1beta1.CertificateKeyAlgorithmMLDSA44)
				k.TLSMinVersion = "VersionTLS12"
			}, want: []string{`invalid configuration: tlsMinVersion "VersionTLS12" is incompatible with serverCertificateKeyAlgorithm "ML-DSA-44", ML-DSA requires VersionTLS13`}},
			{name: "ML-DSA-87 with TLS 1.0", minor: "1.38", mutate: func(k *kvConfig) {
				k.ServerCertificateKeyAlgorithm = new(kubeletv1beta1.CertificateKeyAlgorithmMLDSA87)
				k.TLSMinVersion = "VersionTLS10"
			}, want: []string{`invalid configuration: tlsMinVersion "VersionTLS10" is incompatible with serverCertificateKeyAlgorithm "ML-DSA-87", ML-DSA requires VersionTLS13`}},
		},
		kvRunOnce: {
			{name: "1.31 runs once", minor: "1.31", mutate: func(k *kvConfig) { k.RunOnce = true }},
			{name: "1.32 refuses", minor: "1.32", mutate: func(k *kvConfig) { k.RunOnce = true },
				want: []string{"invalid configuration: runOnce (--runOnce) true, Runonce mode has been deprecated and should not be set"}},
			{name: "false"},
			{name: "true", mutate: func(k *kvConfig) { k.RunOnce = true },
				want: []string{"invalid configuration: runOnce (--runOnce) true, Runonce mode has been deprecated and should not be set"}},
		},
		kvTaintInvalid: {
			{name: "valid", mutate: func(k *kvConfig) {
				k.RegisterWithTaints = []v1.Taint{{Key: "dedicated", Value: "gpu", Effect: v1.TaintEffectNoSchedule}, {Key: "example.com/x"}}
			}},
			{name: "bad key", mutate: func(k *kvConfig) {
				k.RegisterWithTaints = []v1.Taint{{Key: "dedicated", Effect: v1.TaintEffectNoSchedule}, {Key: "bad key", Value: "v", Effect: v1.TaintEffectNoSchedule}}
			}, want: []string{"invalid taint: {bad key v NoSchedule <nil>}"}, path: "registerWithTaints[1].key"},
			{name: "bad value", mutate: func(k *kvConfig) {
				k.RegisterWithTaints = []v1.Taint{{Key: "a", Value: "-x-", Effect: v1.TaintEffectNoExecute}}
			}, want: []string{"invalid taint: {a -x- NoExecute <nil>}"}, path: "registerWithTaints[0].value"},
			{name: "bad effect", mutate: func(k *kvConfig) {
				k.RegisterWithTaints = []v1.Taint{{Key: "a", Effect: "NoScheduling"}}
			}, want: []string{"invalid taint: {a  NoScheduling <nil>}"}, path: "registerWithTaints[0].effect"},
		},
		kvTaintTimeAdded: {
			{name: "nil", mutate: func(k *kvConfig) { k.RegisterWithTaints = []v1.Taint{{Key: "a", Effect: v1.TaintEffectNoExecute}} }},
			{name: "set", mutate: func(k *kvConfig) {
				now := metav1.Now()
				k.RegisterWithTaints = []v1.Taint{{Key: "a", TimeAdded: &now}}
			}, want: []string{"invalid configuration: taint.TimeAdded is not nil"}, path: "registerWithTaints[0].timeAdded"},
		},
		kvTopologyManagerPolicy: {
			{name: "single-numa-node", mutate: func(k *kvConfig) { k.TopologyManagerPolicy = "single-numa-node" }},
			{name: "invalid", mutate: func(k *kvConfig) { k.TopologyManagerPolicy = "invalid-policy" },
				want: []string{`invalid configuration: topologyManagerPolicy (--topology-manager-policy) "invalid-policy" must be one of: ["none" "best-effort" "restricted" "single-numa-node"]`}},
		},
		kvTopologyManagerScope: {
			{name: "pod", mutate: func(k *kvConfig) { k.TopologyManagerScope = "pod" }},
			{name: "invalid", mutate: func(k *kvConfig) { k.TopologyManagerScope = "invalid-scope" },
				want: []string{`invalid configuration: topologyManagerScope (--topology-manager-scope) "invalid-scope" must be one of: "container", or "pod"`}},
		},
		kvShutdownCriticalNotAbovePeriod: {
			{name: "30s/10s", mutate: func(k *kvConfig) {
				k.ShutdownGracePeriod = metav1.Duration{Duration: 30 * time.Second}
				k.ShutdownGracePeriodCriticalPods = metav1.Duration{Duration: 10 * time.Second}
			}},
			{name: "1s/2s", mutate: func(k *kvConfig) {
				k.ShutdownGracePeriod = metav1.Duration{Duration: time.Second}
				k.ShutdownGracePeriodCriticalPods = metav1.Duration{Duration: 2 * time.Second}
			}, want: []string{"invalid configuration: shutdownGracePeriodCriticalPods {2s} must be <= shutdownGracePeriod {1s}"}},
		},
		kvShutdownPeriodMin: {
			{name: "0"},
			{name: "1ms", mutate: func(k *kvConfig) { k.ShutdownGracePeriod = metav1.Duration{Duration: time.Millisecond} },
				want: []string{"invalid configuration: shutdownGracePeriod {1ms} must be either zero or otherwise >= 1 sec"}},
			{name: "gate off skips", gates: map[string]bool{"GracefulNodeShutdown": false, "GracefulNodeShutdownBasedOnPodPriority": false},
				mutate: func(k *kvConfig) { k.ShutdownGracePeriod = metav1.Duration{Duration: time.Millisecond} }},
		},
		kvShutdownCriticalMin: {
			{name: "1s", mutate: func(k *kvConfig) {
				k.ShutdownGracePeriod = metav1.Duration{Duration: time.Second}
				k.ShutdownGracePeriodCriticalPods = metav1.Duration{Duration: time.Second}
			}},
			{name: "-1s", mutate: func(k *kvConfig) { k.ShutdownGracePeriodCriticalPods = metav1.Duration{Duration: -time.Second} },
				want: []string{"invalid configuration: shutdownGracePeriodCriticalPods {-1s} must be either zero or otherwise >= 1 sec"}},
			{name: "1ms", mutate: func(k *kvConfig) {
				k.ShutdownGracePeriod = metav1.Duration{Duration: time.Second}
				k.ShutdownGracePeriodCriticalPods = metav1.Duration{Duration: time.Millisecond}
			}, want: []string{"invalid configuration: shutdownGracePeriodCriticalPods {1ms} must be either zero or otherwise >= 1 sec"}},
		},
		kvShutdownNeedsGate: {
			{name: "gate on", mutate: func(k *kvConfig) { k.ShutdownGracePeriod = metav1.Duration{Duration: time.Second} }},
			{name: "period, gate off", gates: map[string]bool{"GracefulNodeShutdown": false, "GracefulNodeShutdownBasedOnPodPriority": false},
				mutate: func(k *kvConfig) { k.ShutdownGracePeriod = metav1.Duration{Duration: time.Second} },
				want:   []string{"invalid configuration: specifying shutdownGracePeriod or shutdownGracePeriodCriticalPods requires feature gate GracefulNodeShutdown"}},
			{name: "critical, gate off", gates: map[string]bool{"GracefulNodeShutdown": false, "GracefulNodeShutdownBasedOnPodPriority": false},
				mutate: func(k *kvConfig) { k.ShutdownGracePeriodCriticalPods = metav1.Duration{Duration: time.Second} },
				want:   []string{"invalid configuration: specifying shutdownGracePeriod or shutdownGracePeriodCriticalPods requires feature gate GracefulNodeShutdown"},
				path:   "shutdownGracePeriodCriticalPods"},
		},
		kvShutdownByPriorityExclusive: {
			{name: "by priority only", mutate: func(k *kvConfig) {
				k.ShutdownGracePeriodByPodPriority = []kubeletv1beta1.ShutdownGracePeriodByPodPriority{{Priority: 0, ShutdownGracePeriodSeconds: 30}}
			}},
			{name: "both", mutate: func(k *kvConfig) {
				k.ShutdownGracePeriod = metav1.Duration{Duration: 30 * time.Second}
				k.ShutdownGracePeriodByPodPriority = []kubeletv1beta1.ShutdownGracePeriodByPodPriority{{Priority: 0, ShutdownGracePeriodSeconds: 0}}
			}, want: []string{"invalid configuration: Cannot specify both shutdownGracePeriodByPodPriority and shutdownGracePeriod at the same time"}},
		},
		kvShutdownByPriorityGate: {
			{name: "gate on", mutate: func(k *kvConfig) {
				k.ShutdownGracePeriodByPodPriority = []kubeletv1beta1.ShutdownGracePeriodByPodPriority{{Priority: 0, ShutdownGracePeriodSeconds: 0}}
			}},
			{name: "gate off", gates: map[string]bool{"GracefulNodeShutdownBasedOnPodPriority": false}, mutate: func(k *kvConfig) {
				k.ShutdownGracePeriodByPodPriority = []kubeletv1beta1.ShutdownGracePeriodByPodPriority{{Priority: 0, ShutdownGracePeriodSeconds: 0}}
			}, want: []string{"invalid configuration: Specifying shutdownGracePeriodByPodPriority requires feature gate GracefulNodeShutdownBasedOnPodPriority"}},
		},
		kvSwapBehavior: {
			{name: "LimitedSwap", mutate: func(k *kvConfig) { k.MemorySwap.SwapBehavior = "LimitedSwap" }},
			{name: "invalid", mutate: func(k *kvConfig) { k.MemorySwap.SwapBehavior = "invalid-behavior" },
				want: []string{`invalid configuration: memorySwap.swapBehavior "invalid-behavior" must be one of: "", "LimitedSwap" or "NoSwap"`}},
		},
		kvSwapNeedsGate: {
			{name: "gate on", mutate: func(k *kvConfig) { k.MemorySwap.SwapBehavior = "NoSwap" }},
			{name: "gate off (older emulation)", gates: map[string]bool{"NodeSwap": false}, mutate: func(k *kvConfig) { k.MemorySwap.SwapBehavior = "NoSwap" },
				want: []string{"invalid configuration: memorySwap.swapBehavior cannot be set when NodeSwap feature flag is disabled"}},
		},
		kvCrashLoopMaxRequired: {
			{name: "defaulted"},
			{name: "nil with gate on", mutate: func(k *kvConfig) { k.CrashLoopBackOff = kubeletv1beta1.CrashLoopBackOffConfig{} },
				want: []string{"invalid configuration: FeatureGate KubeletCrashLoopBackOffMax is enabled, CrashLoopBackOff.MaxContainerRestartPeriod must be set"}},
			{name: "nil with gate off", gates: map[string]bool{"KubeletCrashLoopBackOffMax": false},
				mutate: func(k *kvConfig) { k.CrashLoopBackOff = kubeletv1beta1.CrashLoopBackOffConfig{} }},
		},
		kvCrashLoopMaxRange: {
			{name: "1.31 has no crash-loop checks", minor: "1.31", mutate: func(k *kvConfig) { k.CrashLoopBackOff.MaxContainerRestartPeriod = ptrDur(time.Hour) }},
			{name: "3s", mutate: func(k *kvConfig) { k.CrashLoopBackOff.MaxContainerRestartPeriod = ptrDur(3 * time.Second) }},
			{name: "1s", mutate: func(k *kvConfig) { k.CrashLoopBackOff.MaxContainerRestartPeriod = ptrDur(time.Second) }},
			{name: "300s", mutate: func(k *kvConfig) { k.CrashLoopBackOff.MaxContainerRestartPeriod = ptrDur(300 * time.Second) }},
			{name: "300.0009s truncates to 300000ms", mutate: func(k *kvConfig) {
				k.CrashLoopBackOff.MaxContainerRestartPeriod = ptrDur(300*time.Second + 900*time.Microsecond)
			}},
			{name: "0s", mutate: func(k *kvConfig) { k.CrashLoopBackOff.MaxContainerRestartPeriod = ptrDur(0) },
				want: []string{"invalid configuration: CrashLoopBackOff.MaxContainerRestartPeriod (got: 0 seconds) must be set between 1s and 300s"}},
			{name: "301s", mutate: func(k *kvConfig) { k.CrashLoopBackOff.MaxContainerRestartPeriod = ptrDur(301 * time.Second) },
				want: []string{"invalid configuration: CrashLoopBackOff.MaxContainerRestartPeriod (got: 301 seconds) must be set between 1s and 300s"}},
			{name: "300.9s", mutate: func(k *kvConfig) { k.CrashLoopBackOff.MaxContainerRestartPeriod = ptrDur(300900 * time.Millisecond) },
				want: []string{"invalid configuration: CrashLoopBackOff.MaxContainerRestartPeriod (got: 300.9 seconds) must be set between 1s and 300s"}},
			{name: "999ms", mutate: func(k *kvConfig) { k.CrashLoopBackOff.MaxContainerRestartPeriod = ptrDur(999 * time.Millisecond) },
				want: []string{"invalid configuration: CrashLoopBackOff.MaxContainerRestartPeriod (got: 0.999 seconds) must be set between 1s and 300s"}},
			{name: "gate off skips", gates: map[string]bool{"KubeletCrashLoopBackOffMax": false},
				mutate: func(k *kvConfig) { k.CrashLoopBackOff.MaxContainerRestartPeriod = ptrDur(0) }},
		},
		kvCrashLoopMaxGate: {
			{name: "1.31 has no crash-loop checks", minor: "1.31", gates: map[string]bool{"KubeletCrashLoopBackOffMax": false},
				set: []string{"crashLoopBackOff.maxContainerRestartPeriod"}},
			{name: "1.34, gate off (its default)", minor: "1.34", gates: map[string]bool{"KubeletCrashLoopBackOffMax": false},
				set:  []string{"crashLoopBackOff.maxContainerRestartPeriod"},
				want: []string{"invalid configuration: FeatureGate KubeletCrashLoopBackOffMax not enabled, CrashLoopBackOff.MaxContainerRestartPeriod must not be set"}},
			{name: "gate off, unset", gates: map[string]bool{"KubeletCrashLoopBackOffMax": false},
				mutate: func(k *kvConfig) { k.CrashLoopBackOff = kubeletv1beta1.CrashLoopBackOffConfig{} }},
			{name: "gate off, set", gates: map[string]bool{"KubeletCrashLoopBackOffMax": false},
				want: []string{"invalid configuration: FeatureGate KubeletCrashLoopBackOffMax not enabled, CrashLoopBackOff.MaxContainerRestartPeriod must not be set"}},
		},
		kvEnforceSystemBoth: {
			{name: "1.31 does not know the compressible key", minor: "1.31", mutate: func(k *kvConfig) {
				k.EnforceNodeAllocatable = []string{"system-reserved-compressible", "system-reserved"}
			}},
			{name: "one", mutate: func(k *kvConfig) {
				k.EnforceNodeAllocatable = []string{"system-reserved"}
				k.SystemReservedCgroup = "/system.slice"
			}},
			{name: "both", mutate: func(k *kvConfig) {
				k.EnforceNodeAllocatable = []string{"system-reserved-compressible", "system-reserved"}
			}, want: []string{`invalid configuration: both "system-reserved" and "system-reserved-compressible" cannot be specified together in enforceNodeAllocatable (--enforce-node-allocatable)`}},
		},
		kvEnforceKubeBoth: {
			{name: "one", mutate: func(k *kvConfig) { k.EnforceNodeAllocatable = []string{"kube-reserved-compressible"} }},
			{name: "both", mutate: func(k *kvConfig) {
				k.EnforceNodeAllocatable = []string{"kube-reserved-compressible", "kube-reserved"}
			}, want: []string{`invalid configuration: both "kube-reserved" and "kube-reserved-compressible" cannot be specified together in enforceNodeAllocatable (--enforce-node-allocatable)`}},
		},
		kvEnforceDuplicate: {
			{name: "none"},
			{name: "none twice", mutate: func(k *kvConfig) { k.EnforceNodeAllocatable = []string{"none", "none"} },
				want: []string{`invalid configuration: duplicated enforcements "none" in enforceNodeAllocatable (--enforce-node-allocatable)`}, path: "enforceNodeAllocatable[1]"},
			{name: "pods three times", mutate: func(k *kvConfig) { k.EnforceNodeAllocatable = []string{"pods", "pods", "pods"} },
				want: []string{
					`invalid configuration: duplicated enforcements "pods" in enforceNodeAllocatable (--enforce-node-allocatable)`,
					`invalid configuration: duplicated enforcements "pods" in enforceNodeAllocatable (--enforce-node-allocatable)`,
				}},
		},
		kvEnforceSystemCgroup: {
			{name: "1.31 system-reserved", minor: "1.31", mutate: func(k *kvConfig) { k.EnforceNodeAllocatable = []string{"system-reserved"} },
				want: []string{`invalid configuration: systemReservedCgroup (--system-reserved-cgroup) must be specified when "system-reserved" contained in enforceNodeAllocatable (--enforce-node-allocatable)`}},
			{name: "1.31 system-reserved-compressible is unknown (KC4057)", minor: "1.31", mutate: func(k *kvConfig) { k.EnforceNodeAllocatable = []string{"system-reserved-compressible"} }},
			{name: "with cgroup", mutate: func(k *kvConfig) {
				k.EnforceNodeAllocatable = []string{"system-reserved"}
				k.SystemReservedCgroup = "/system.slice"
			}},
			{name: "system-reserved", mutate: func(k *kvConfig) { k.EnforceNodeAllocatable = []string{"system-reserved"} },
				want: []string{`invalid configuration: systemReservedCgroup (--system-reserved-cgroup) must be specified when "system-reserved" or "system-reserved-compressible" included in enforceNodeAllocatable (--enforce-node-allocatable)`}},
			{name: "system-reserved-compressible", mutate: func(k *kvConfig) { k.EnforceNodeAllocatable = []string{"system-reserved-compressible"} },
				want: []string{`invalid configuration: systemReservedCgroup (--system-reserved-cgroup) must be specified when "system-reserved" or "system-reserved-compressible" included in enforceNodeAllocatable (--enforce-node-allocatable)`}},
		},
		kvEnforceKubeCgroup: {
			{name: "1.31 kube-reserved", minor: "1.31", mutate: func(k *kvConfig) { k.EnforceNodeAllocatable = []string{"kube-reserved"} },
				want: []string{`invalid configuration: kubeReservedCgroup (--kube-reserved-cgroup) must be specified when "kube-reserved" contained in enforceNodeAllocatable (--enforce-node-allocatable)`}},
			{name: "with cgroup", mutate: func(k *kvConfig) {
				k.EnforceNodeAllocatable = []string{"kube-reserved"}
				k.KubeReservedCgroup = "/kubelet.service"
			}},
			{name: "kube-reserved", mutate: func(k *kvConfig) { k.EnforceNodeAllocatable = []string{"kube-reserved"} },
				want: []string{`invalid configuration: kubeReservedCgroup (--kube-reserved-cgroup) must be specified when "kube-reserved" or "kube-reserved-compressible" included in enforceNodeAllocatable (--enforce-node-allocatable)`}},
			{name: "kube-reserved-compressible", mutate: func(k *kvConfig) { k.EnforceNodeAllocatable = []string{"kube-reserved-compressible"} },
				want: []string{`invalid configuration: kubeReservedCgroup (--kube-reserved-cgroup) must be specified when "kube-reserved" or "kube-reserved-compressible" included in enforceNodeAllocatable (--enforce-node-allocatable)`}},
		},
		kvEnforceNoneAlone: {
			{name: "none alone", mutate: func(k *kvConfig) { k.EnforceNodeAllocatable = []string{"none"} }},
			{name: "none with kube-reserved", mutate: func(k *kvConfig) { k.EnforceNodeAllocatable = []string{"none", "kube-reserved"} },
				want: []string{`invalid configuration: enforceNodeAllocatable (--enforce-node-allocatable) may not contain additional enforcements when "none" is specified`}},
			{name: "none twice", mutate: func(k *kvConfig) { k.EnforceNodeAllocatable = []string{"none", "none"} },
				want: []string{`invalid configuration: enforceNodeAllocatable (--enforce-node-allocatable) may not contain additional enforcements when "none" is specified`}},
		},
		kvEnforceUnknown: {
			{name: "1.32 knows the compressible keys", minor: "1.32", mutate: func(k *kvConfig) {
				k.EnforceNodeAllocatable = []string{"kube-reserved-compressible"}
				k.KubeReservedCgroup = "/kubelet.service"
			}},
			{name: "1.31 does not", minor: "1.31", mutate: func(k *kvConfig) {
				k.EnforceNodeAllocatable = []string{"pods", "kube-reserved-compressible"}
				k.KubeReservedCgroup = "/kubelet.service"
			}, want: []string{`invalid configuration: option "kube-reserved-compressible" specified for enforceNodeAllocatable (--enforce-node-allocatable). Valid options are "pods", "system-reserved", "kube-reserved", or "none"`},
				path: "enforceNodeAllocatable[1]"},
			{name: "empty list", mutate: func(k *kvConfig) { k.EnforceNodeAllocatable = []string{} }},
			{name: "invalid", mutate: func(k *kvConfig) { k.EnforceNodeAllocatable = []string{"invalid-enforce-node-allocatable"} },
				want: []string{`invalid configuration: option "invalid-enforce-node-allocatable" specified for enforceNodeAllocatable (--enforce-node-allocatable). Valid options are "pods", "system-reserved", "system-reserved-compressible", "kube-reserved", "kube-reserved-compressible" or "none"`},
				path: "enforceNodeAllocatable[0]"},
		},
		kvEnforceNeedsQOS: {
			{name: "1.31 compressible without qos is only unknown", minor: "1.31", mutate: func(k *kvConfig) {
				k.CgroupsPerQOS = new(false)
				k.EnforceNodeAllocatable = []string{"kube-reserved-compressible"}
				k.KubeReservedCgroup = "/kubelet.service"
			}},
			{name: "1.32 compressible without qos", minor: "1.32", mutate: func(k *kvConfig) {
				k.CgroupsPerQOS = new(false)
				k.EnforceNodeAllocatable = []string{"kube-reserved-compressible"}
				k.KubeReservedCgroup = "/kubelet.service"
			}, want: []string{`invalid configuration: cgroupsPerQOS (--cgroups-per-qos) must be set to true when "kube-reserved-compressible" contained in enforceNodeAllocatable (--enforce-node-allocatable)`}},
			{name: "none without qos", mutate: func(k *kvConfig) { k.CgroupsPerQOS = new(false); k.EnforceNodeAllocatable = []string{"none"} }},
			{name: "unknown without qos", mutate: func(k *kvConfig) { k.CgroupsPerQOS = new(false); k.EnforceNodeAllocatable = []string{"bogus"} }},
			{name: "pods without qos", set: []string{"cgroupsPerQOS"}, mutate: func(k *kvConfig) { k.CgroupsPerQOS = new(false) },
				want: []string{`invalid configuration: cgroupsPerQOS (--cgroups-per-qos) must be set to true when "pods" contained in enforceNodeAllocatable (--enforce-node-allocatable)`},
				path: "cgroupsPerQOS"},
			{name: "two without qos", mutate: func(k *kvConfig) {
				k.CgroupsPerQOS = new(false)
				k.EnforceNodeAllocatable = []string{"pods", "kube-reserved"}
				k.KubeReservedCgroup = "/kubelet.service"
			}, want: []string{
				`invalid configuration: cgroupsPerQOS (--cgroups-per-qos) must be set to true when "pods" contained in enforceNodeAllocatable (--enforce-node-allocatable)`,
				`invalid configuration: cgroupsPerQOS (--cgroups-per-qos) must be set to true when "kube-reserved" contained in enforceNodeAllocatable (--enforce-node-allocatable)`,
			}, path: "enforceNodeAllocatable[0]"},
		},
		kvHairpinMode: {
			{name: "hairpin-veth", mutate: func(k *kvConfig) { k.HairpinMode = "hairpin-veth" }},
			{name: "invalid", mutate: func(k *kvConfig) { k.HairpinMode = "invalid-hair-pin-mode" },
				want: []string{`invalid configuration: option "invalid-hair-pin-mode" specified for hairpinMode (--hairpin-mode). Valid options are "none", "hairpin-veth" or "promiscuous-bridge"`}},
		},
		kvPullPolicyValid: {
			{name: "1.32 has no image pull credential checks", minor: "1.32", mutate: func(k *kvConfig) { k.ImagePullCredentialsVerificationPolicy = "invalid" }},
			{name: "AlwaysVerify", mutate: func(k *kvConfig) { k.ImagePullCredentialsVerificationPolicy = "AlwaysVerify" }},
			{name: "invalid", mutate: func(k *kvConfig) { k.ImagePullCredentialsVerificationPolicy = "invalid" },
				want: []string{`invalid configuration: option "invalid" specified for imagePullCredentialsVerificationPolicy. Valid options are "NeverVerify", "NeverVerifyPreloadedImages", "NeverVerifyAllowlistedImages" or "AlwaysVerify"`}},
			{name: "empty", mutate: func(k *kvConfig) { k.ImagePullCredentialsVerificationPolicy = "" },
				want: []string{`invalid configuration: option "" specified for imagePullCredentialsVerificationPolicy. Valid options are "NeverVerify", "NeverVerifyPreloadedImages", "NeverVerifyAllowlistedImages" or "AlwaysVerify"`}},
		},
		kvAllowlistNeedsPolicy: {
			{name: "allowlisted policy", mutate: func(k *kvConfig) {
				k.ImagePullCredentialsVerificationPolicy = "NeverVerifyAllowlistedImages"
				k.PreloadedImagesVerificationAllowlist = []string{"test.test/repo"}
			}},
			{name: "NeverVerify", mutate: func(k *kvConfig) {
				k.ImagePullCredentialsVerificationPolicy = "NeverVerify"
				k.PreloadedImagesVerificationAllowlist = []string{"test.test/repo"}
			}, want: []string{"invalid configuration: can't set `preloadedImagesVerificationAllowlist` if `imagePullCredentialsVertificationPolicy` is not \"NeverVerifyAllowlistedImages\""}},
		},
		kvAllowlistPattern: {
			{name: "1.36 accepts a short name", minor: "1.36", mutate: func(k *kvConfig) {
				k.ImagePullCredentialsVerificationPolicy = "NeverVerifyAllowlistedImages"
				k.PreloadedImagesVerificationAllowlist = []string{"nginx", "test.test/repo"}
			}},
			{name: "1.35 normalizes a short name", minor: "1.35", mutate: func(k *kvConfig) {
				k.ImagePullCredentialsVerificationPolicy = "NeverVerifyAllowlistedImages"
				k.PreloadedImagesVerificationAllowlist = []string{"test.test/repo", "docker.io/library/nginx", "nginx"}
			}, want: []string{"invalid configuration: invalid image pattern in `preloadedImagesVerificationAllowlist`: neither tag nor digest is accepted in an image reference: nginx"},
				path: "preloadedImagesVerificationAllowlist[2]"},
			{name: "1.33 unparsable", minor: "1.33", mutate: func(k *kvConfig) {
				k.ImagePullCredentialsVerificationPolicy = "NeverVerifyAllowlistedImages"
				k.PreloadedImagesVerificationAllowlist = []string{"test.test/Repo"}
			}, want: []string{"invalid configuration: invalid image pattern in `preloadedImagesVerificationAllowlist`: failed to parse as an image name: " + normalizedErr.Error()}},
			{name: "valid", mutate: func(k *kvConfig) {
				k.ImagePullCredentialsVerificationPolicy = "NeverVerifyAllowlistedImages"
				k.PreloadedImagesVerificationAllowlist = []string{"test.test/repo", "registry.k8s.io/*", "docker.io/library/nginx"}
			}},
			{name: "tag", mutate: func(k *kvConfig) {
				k.ImagePullCredentialsVerificationPolicy = "NeverVerifyAllowlistedImages"
				k.PreloadedImagesVerificationAllowlist = []string{"test.test/repo", "test.test/repo:v1", " bad"}
			}, want: []string{"invalid configuration: invalid image pattern in `preloadedImagesVerificationAllowlist`: neither tag nor digest is accepted in an image reference: test.test/repo:v1"},
				path: "preloadedImagesVerificationAllowlist[1]"},
			{name: "inner wildcard", mutate: func(k *kvConfig) {
				k.ImagePullCredentialsVerificationPolicy = "NeverVerifyAllowlistedImages"
				k.PreloadedImagesVerificationAllowlist = []string{"test.test/*/repo"}
			}, want: []string{"invalid configuration: invalid image pattern in `preloadedImagesVerificationAllowlist`: not a valid wildcard pattern, only patterns ending with '/*' are allowed: test.test/*/repo"}},
			{name: "bare wildcard", mutate: func(k *kvConfig) {
				k.ImagePullCredentialsVerificationPolicy = "NeverVerifyAllowlistedImages"
				k.PreloadedImagesVerificationAllowlist = []string{"/*"}
			}, want: []string{"invalid configuration: invalid image pattern in `preloadedImagesVerificationAllowlist`: at least registry hostname is required"}},
			{name: "unparsable", mutate: func(k *kvConfig) {
				k.ImagePullCredentialsVerificationPolicy = "NeverVerifyAllowlistedImages"
				k.PreloadedImagesVerificationAllowlist = []string{"test.test/Repo"}
			}, want: []string{"invalid configuration: invalid image pattern in `preloadedImagesVerificationAllowlist`: failed to parse as an image name: repository name must be lowercase"}},
			{name: "wrong policy reports KC4061 instead", mutate: func(k *kvConfig) {
				k.PreloadedImagesVerificationAllowlist = []string{"test.test/repo:v1"}
			}},
		},
		kvPullPolicyNeedsGate: {
			{name: "1.32 has no image pull credential checks", minor: "1.32", gates: map[string]bool{"KubeletEnsureSecretPulledImages": false},
				mutate: func(k *kvConfig) { k.ImagePullCredentialsVerificationPolicy = "NeverVerify" }},
			{name: "gate off, unset", gates: map[string]bool{"KubeletEnsureSecretPulledImages": false},
				mutate: func(k *kvConfig) { k.ImagePullCredentialsVerificationPolicy = "" }},
			{name: "gate off, set", gates: map[string]bool{"KubeletEnsureSecretPulledImages": false},
				mutate: func(k *kvConfig) { k.ImagePullCredentialsVerificationPolicy = "NeverVerify" },
				want:   []string{"invalid configuration: `imagePullCredentialsVerificationPolicy` must not be set if KubeletEnsureSecretPulledImages feature gate is not enabled"}},
		},
		kvAllowlistNeedsGate: {
			{name: "gate on", mutate: func(k *kvConfig) {
				k.ImagePullCredentialsVerificationPolicy = "NeverVerifyAllowlistedImages"
				k.PreloadedImagesVerificationAllowlist = []string{"test.test/repo"}
			}},
			{name: "gate off", gates: map[string]bool{"KubeletEnsureSecretPulledImages": false},
				mutate: func(k *kvConfig) { k.PreloadedImagesVerificationAllowlist = []string{"test.test/repo"} },
				want:   []string{"invalid configuration: `preloadedImagesVerificationAllowlist` must not be set if KubeletEnsureSecretPulledImages feature gate is not enabled"}},
		},
		kvReservedCPUsExclusive: {
			{name: "alone", mutate: func(k *kvConfig) { k.ReservedSystemCPUs = "0-3" }},
			{name: "with system cgroup", mutate: func(k *kvConfig) { k.ReservedSystemCPUs = "0-3"; k.SystemReservedCgroup = "/system.slice" },
				want: []string{"invalid configuration: can't use reservedSystemCPUs (--reserved-cpus) with systemReservedCgroup (--system-reserved-cgroup) or kubeReservedCgroup (--kube-reserved-cgroup)"}},
			{name: "with kube cgroup", mutate: func(k *kvConfig) { k.ReservedSystemCPUs = "0-3"; k.KubeReservedCgroup = "/system.slice" },
				want: []string{"invalid configuration: can't use reservedSystemCPUs (--reserved-cpus) with systemReservedCgroup (--system-reserved-cgroup) or kubeReservedCgroup (--kube-reserved-cgroup)"}},
		},
		kvReservedCPUsParse: {
			{name: "list", mutate: func(k *kvConfig) { k.ReservedSystemCPUs = "0,2,4-7" }},
			{name: "invalid", mutate: func(k *kvConfig) { k.ReservedSystemCPUs = "invalid-reserved-system-cpus" },
				want: []string{"invalid configuration: unable to parse reservedSystemCPUs (--reserved-cpus) invalid-reserved-system-cpus, error: " + cpusetErr.Error()}},
		},
		kvReservedMemoryType: {
			{name: "memory and hugepages", mutate: func(k *kvConfig) {
				k.ReservedMemory = []kubeletv1beta1.MemoryReservation{{NumaNode: 0, Limits: v1.ResourceList{"memory": kvQty("128"), "hugepages-2Mi": kvQty("2Mi")}}}
			}},
			{name: "blabla", mutate: func(k *kvConfig) {
				k.ReservedMemory = []kubeletv1beta1.MemoryReservation{{NumaNode: 0, Limits: v1.ResourceList{"blabla": kvQty("128")}}}
			}, want: []string{`invalid configuration: the limit type "blabla" for NUMA node 0 is not supported, only [memory hugepages-<HugePageSize>] is accepted`},
				path: "reservedMemory[0].limits[blabla]"},
		},
		kvReservedMemoryZero: {
			{name: "128", mutate: func(k *kvConfig) {
				k.ReservedMemory = []kubeletv1beta1.MemoryReservation{{NumaNode: 0, Limits: v1.ResourceList{"memory": kvQty("128")}}}
			}},
			{name: "0", mutate: func(k *kvConfig) {
				k.ReservedMemory = []kubeletv1beta1.MemoryReservation{{NumaNode: 0, Limits: v1.ResourceList{"memory": kvQty("0")}}}
			}, want: []string{`invalid configuration: reserved memory may not be zero for NUMA node 0 and resource "memory"`}},
		},
		kvReservedMemoryDuplicate: {
			{name: "two nodes", mutate: func(k *kvConfig) {
				k.ReservedMemory = []kubeletv1beta1.MemoryReservation{
					{NumaNode: 0, Limits: v1.ResourceList{"memory": kvQty("128")}},
					{NumaNode: 1, Limits: v1.ResourceList{"memory": kvQty("64")}},
				}
			}},
			{name: "same node twice", mutate: func(k *kvConfig) {
				k.ReservedMemory = []kubeletv1beta1.MemoryReservation{
					{NumaNode: 0, Limits: v1.ResourceList{"memory": kvQty("128")}},
					{NumaNode: 0, Limits: v1.ResourceList{"memory": kvQty("64")}},
				}
			}, want: []string{`invalid configuration: the reserved memory has a duplicate value for NUMA node 0 and resource "memory"`},
				path: "reservedMemory[1].limits[memory]"},
		},
		kvFailCgroupV1: {
			{name: "Windows: no cgroups, no Linux OS check", os: kubelets.Windows, minor: "1.35"},
			{name: "1.34, cgroup v1", minor: "1.34", cgroup: 1, set: []string{"failCgroupV1"},
				want: []string{"kubelet is configured to not run on a host using cgroup v1. cgroup v1 support is in maintenance mode"}, path: "failCgroupV1"},
			{name: "1.31, cgroup v1", minor: "1.31", cgroup: 1,
				want: []string{"kubelet is configured to not run on a host using cgroup v1. cgroup v1 support is in maintenance mode"}},
			{name: "1.35, cgroup v1", minor: "1.35", cgroup: 1,
				want: []string{"kubelet is configured to not run on a host using cgroup v1. cgroup v1 support is unsupported and will be removed in a future release"}},
			{name: "cgroup v2"},
			{name: "cgroup v1, allowed", cgroup: 1, mutate: func(k *kvConfig) { k.FailCgroupV1 = new(false) }},
			{name: "cgroup v1, default", cgroup: 1,
				want: []string{"kubelet is configured to not run on a host using cgroup v1. cgroup v1 support is unsupported and will be removed in a future release"}},
		},
		kvSingleProcessOOMKillV1: {
			{name: "1.31 has no singleProcessOOMKill check", minor: "1.31", cgroup: 1, mutate: func(k *kvConfig) { k.FailCgroupV1 = new(false); k.SingleProcessOOMKill = new(false) }},
			{name: "cgroup v2, false", mutate: func(k *kvConfig) { k.SingleProcessOOMKill = new(false) }},
			{name: "cgroup v1, true", cgroup: 1, mutate: func(k *kvConfig) { k.FailCgroupV1 = new(false); k.SingleProcessOOMKill = new(true) }},
			{name: "cgroup v1, false, after failCgroupV1 (first failure only)", cgroup: 1, mutate: func(k *kvConfig) { k.SingleProcessOOMKill = new(false) }},
			{name: "cgroup v1, false", cgroup: 1, mutate: func(k *kvConfig) { k.FailCgroupV1 = new(false); k.SingleProcessOOMKill = new(false) },
				want: []string{"invalid configuration: singleProcessOOMKill must not be explicitly set to false when using cgroup v1"}},
		},
		kvWinCgroupsPerQOSRule: {
			{name: "Linux: the default true", os: ""},
			{name: "Windows: cgroupsPerQOS false", os: kubelets.Windows, mutate: func(k *kvConfig) { k.CgroupsPerQOS = new(false); k.EnforceNodeAllocatable = []string{"none"} }},
			{name: "Windows: the default true", os: kubelets.Windows, path: "cgroupsPerQOS",
				want: []string{"ignored configuration option: CgroupsPerQOS (--cgroups-per-qos) true is not supported on Windows"}},
			{name: "Windows 1.31: logged before any refusal", os: kubelets.Windows, minor: "1.31",
				want: []string{"ignored configuration option: CgroupsPerQOS (--cgroups-per-qos) true is not supported on Windows"}},
		},
		kvWinSingleProcessOOMKillRule: {
			{name: "Linux: true on cgroup v2", mutate: func(k *kvConfig) { k.SingleProcessOOMKill = new(true) }},
			{name: "Windows: unset", os: kubelets.Windows},
			{name: "Windows 1.31 has no check", os: kubelets.Windows, minor: "1.31", mutate: func(k *kvConfig) { k.SingleProcessOOMKill = new(true) }},
			{name: "Windows: true", os: kubelets.Windows, mutate: func(k *kvConfig) { k.SingleProcessOOMKill = new(true) }, path: "singleProcessOOMKill",
				want: []string{"invalid configuration: singleProcessOOMKill is not supported on Windows"}},
			{name: "Windows: false", os: kubelets.Windows, mutate: func(k *kvConfig) { k.SingleProcessOOMKill = new(false) },
				want: []string{"invalid configuration: singleProcessOOMKill is not supported on Windows"}},
		},
		kvWinEnforceNodeAllocatableRule: {
			{name: "Linux: [pods]"},
			{name: "Windows: [none]", os: kubelets.Windows, mutate: func(k *kvConfig) { k.EnforceNodeAllocatable = []string{"none"} }},
			{name: "Windows: not logged after the singleProcessOOMKill refusal", os: kubelets.Windows, mutate: func(k *kvConfig) { k.SingleProcessOOMKill = new(true) }},
			{name: "Windows 1.31: singleProcessOOMKill is no refusal yet", os: kubelets.Windows, minor: "1.31", mutate: func(k *kvConfig) { k.SingleProcessOOMKill = new(true) },
				want: []string{"ignored configuration option: EnforceNodeAllocatable (--enforce-node-allocatable) [pods] is not supported on Windows"}},
			{name: "Windows: the default [pods]", os: kubelets.Windows, path: "enforceNodeAllocatable",
				want: []string{"ignored configuration option: EnforceNodeAllocatable (--enforce-node-allocatable) [pods] is not supported on Windows"}},
			{name: "Windows: [none pods]", os: kubelets.Windows, mutate: func(k *kvConfig) { k.EnforceNodeAllocatable = []string{"none", "pods"} },
				want: []string{"ignored configuration option: EnforceNodeAllocatable (--enforce-node-allocatable) [none pods] is not supported on Windows"}},
		},
		kvWinUserNamespacesRule: {
			{name: "Linux: set", mutate: func(k *kvConfig) { k.UserNamespaces = &kubeletv1beta1.UserNamespaces{} }},
			{name: "Windows 1.32 has no check", os: kubelets.Windows, minor: "1.32", mutate: func(k *kvConfig) { k.UserNamespaces = &kubeletv1beta1.UserNamespaces{} }},
			{name: "Windows: after the singleProcessOOMKill refusal", os: kubelets.Windows, mutate: func(k *kvConfig) {
				k.SingleProcessOOMKill = new(true)
				k.UserNamespaces = &kubeletv1beta1.UserNamespaces{}
			}},
			{name: "Windows: an empty mapping", os: kubelets.Windows, mutate: func(k *kvConfig) { k.UserNamespaces = &kubeletv1beta1.UserNamespaces{} }, path: "userNamespaces",
				want: []string{"invalid configuration: userNamespaces is not supported on Windows"}},
		},
		kvWinDefaultPodSysctlsRule: {
			{name: "Windows: empty", os: kubelets.Windows, mutate: func(k *kvConfig) { k.DefaultPodSysctls = map[string]string{} }},
			{name: "Windows 1.36 has no check", os: kubelets.Windows, minor: "1.36", mutate: func(k *kvConfig) { k.DefaultPodSysctls = map[string]string{"net.ipv4.ip_forward": "1"} }},
			{name: "Windows: after the userNamespaces refusal", os: kubelets.Windows, mutate: func(k *kvConfig) {
				k.UserNamespaces = &kubeletv1beta1.UserNamespaces{}
				k.DefaultPodSysctls = map[string]string{"net.ipv4.ip_forward": "1"}
			}},
			{name: "Windows: one", os: kubelets.Windows, mutate: func(k *kvConfig) { k.DefaultPodSysctls = map[string]string{"net.ipv4.ip_forward": "1"} }, path: "defaultPodSysctls",
				want: []string{"invalid configuration: defaultPodSysctls is not supported on Windows"}},
		},
		kvIDsPerPodMin: {
			{name: "1.32 has no userNamespaces checks", minor: "1.32", mutate: func(k *kvConfig) { k.UserNamespaces = &kubeletv1beta1.UserNamespaces{IDsPerPod: new(int64(1000))} }},
			{name: "65536", mutate: func(k *kvConfig) { k.UserNamespaces = &kubeletv1beta1.UserNamespaces{IDsPerPod: new(int64(65536))} }},
			{name: "1000", mutate: func(k *kvConfig) { k.UserNamespaces = &kubeletv1beta1.UserNamespaces{IDsPerPod: new(int64(1000))} },
				want: []string{"invalid configuration: userNamespaces.idsPerPod must not be less than 65536"}},
			{name: "1000 on cgroup v1 (first failure is failCgroupV1)", cgroup: 1,
				mutate: func(k *kvConfig) { k.UserNamespaces = &kubeletv1beta1.UserNamespaces{IDsPerPod: new(int64(1000))} }},
			{name: "1000 on cgroup v1 allowed", cgroup: 1,
				mutate: func(k *kvConfig) {
					k.FailCgroupV1 = new(false)
					k.UserNamespaces = &kubeletv1beta1.UserNamespaces{IDsPerPod: new(int64(1000))}
				},
				want: []string{"invalid configuration: userNamespaces.idsPerPod must not be less than 65536"}},
		},
		kvIDsPerPodMultiple: {
			{name: "2*65536", mutate: func(k *kvConfig) { k.UserNamespaces = &kubeletv1beta1.UserNamespaces{IDsPerPod: new(int64(131072))} }},
			{name: "65537", mutate: func(k *kvConfig) { k.UserNamespaces = &kubeletv1beta1.UserNamespaces{IDsPerPod: new(int64(65537))} },
				want: []string{"invalid configuration: userNamespaces.idsPerPod must be a multiple of 65536"}},
		},
		kvIDsPerPodMax: {
			{name: "max multiple", mutate: func(k *kvConfig) {
				k.UserNamespaces = &kubeletv1beta1.UserNamespaces{IDsPerPod: new(int64(4294901760))}
			}},
			{name: "2^32", mutate: func(k *kvConfig) { k.UserNamespaces = &kubeletv1beta1.UserNamespaces{IDsPerPod: new(int64(1 << 32))} },
				want: []string{"invalid configuration: userNamespaces.idsPerPod must not be more than 4294967295"}},
		},
		kvShowHiddenMetrics: {
			{name: "empty"},
			{name: "1.36", mutate: func(k *kvConfig) { k.ShowHiddenMetricsForVersion = "1.36" }},
			{name: "1.30", mutate: func(k *kvConfig) { k.ShowHiddenMetricsForVersion = "1.30" },
				want: []string{`invalid showHiddenMetricsForVersion: showHiddenMetricsForVersion: Invalid value: "1.30": must be omitted or have the value '1.36'; only the previous minor version is allowed`}},
			{name: "v1.36", mutate: func(k *kvConfig) { k.ShowHiddenMetricsForVersion = "v1.36" },
				want: []string{`invalid showHiddenMetricsForVersion: showHiddenMetricsForVersion: Invalid value: "v1.36": must be omitted or have the value '1.36'; only the previous minor version is allowed`}},
			{name: "previous minor follows ctx.Minor", minor: "1.36", mutate: func(k *kvConfig) { k.ShowHiddenMetricsForVersion = "1.36" },
				want: []string{`invalid showHiddenMetricsForVersion: showHiddenMetricsForVersion: Invalid value: "1.36": must be omitted or have the value '1.35'; only the previous minor version is allowed`}},
			{name: "1.35 accepts 1.34", minor: "1.35", mutate: func(k *kvConfig) { k.ShowHiddenMetricsForVersion = "1.34" }},
			{name: "1.35 names the flag", minor: "1.35", mutate: func(k *kvConfig) { k.ShowHiddenMetricsForVersion = "1.36" },
				want: []string{`--show-hidden-metrics-for-version must be omitted or have the value '1.34'. Only the previous minor version is allowed`}},
			{name: "1.31 names the flag", minor: "1.31", mutate: func(k *kvConfig) { k.ShowHiddenMetricsForVersion = "latest" },
				want: []string{`--show-hidden-metrics-for-version must be omitted or have the value '1.30'. Only the previous minor version is allowed`}},
		},
		kvLogFlushFrequency: {
			{name: "1.34 panics on -1s", minor: "1.34", mutate: func(k *kvConfig) { k.Logging.FlushFrequency.Duration.Duration = -time.Second },
				want: []string{"non-positive interval for NewTicker"}},
			{name: "1.31, -1s but logging validation fails first", minor: "1.31", mutate: func(k *kvConfig) {
				k.Logging.FlushFrequency.Duration.Duration = -time.Second
				k.Logging.Format = "xml"
			}},
			{name: "1.35, -1s and a bad format: both refused", mutate: func(k *kvConfig) {
				k.Logging.FlushFrequency.Duration.Duration = -time.Second
				k.Logging.Format = "xml"
			}, want: []string{`logging.flushFrequency: Invalid value: "-1s": Must be greater than zero`}},
			{name: "1.35 refuses -1s", minor: "1.35", mutate: func(k *kvConfig) { k.Logging.FlushFrequency.Duration.Duration = -time.Second },
				want: []string{`logging.flushFrequency: Invalid value: "-1s": Must be greater than zero`}},
			{name: "5s"},
			{name: "-1s", mutate: func(k *kvConfig) { k.Logging.FlushFrequency.Duration.Duration = -time.Second },
				want: []string{`logging.flushFrequency: Invalid value: "-1s": Must be greater than zero`}},
		},
		kvLogFormatUnknown: {
			{name: "1.33 invalid", minor: "1.33", mutate: func(k *kvConfig) { k.Logging.Format = "invalid" },
				want: []string{`logging.format: Invalid value: "invalid": Unsupported log format`}},
			{name: "json", mutate: func(k *kvConfig) { k.Logging.Format = "json" }},
			{name: "invalid", mutate: func(k *kvConfig) { k.Logging.Format = "invalid" },
				want: []string{`logging.format: Invalid value: "invalid": Unsupported log format`}},
		},
		kvLogFormatGate: {
			{name: "json, gate on", mutate: func(k *kvConfig) { k.Logging.Format = "json" }},
			{name: "json, gate off", gates: map[string]bool{"LoggingBetaOptions": false}, mutate: func(k *kvConfig) { k.Logging.Format = "json" },
				want: []string{`logging.format: Forbidden: Log format json is disabled, see LoggingBetaOptions feature`}},
		},
		kvLogVerbosity: {
			{name: "1.33 prints hex", minor: "1.33", mutate: func(k *kvConfig) { k.Logging.Verbosity = 1 << 31 },
				want: []string{`logging.verbosity: Invalid value: 0x80000000: Must be <= 2147483647`}},
			{name: "1.34 prints decimal", minor: "1.34", mutate: func(k *kvConfig) { k.Logging.Verbosity = 1 << 31 },
				want: []string{`logging.verbosity: Invalid value: 2147483648: Must be <= 2147483647`}},
			{name: "10", mutate: func(k *kvConfig) { k.Logging.Verbosity = 10 }},
			{name: "2^31", mutate: func(k *kvConfig) { k.Logging.Verbosity = 1 << 31 },
				want: []string{`logging.verbosity: Invalid value: 2147483648: Must be <= 2147483647`}},
		},
		kvLogVModuleText: {
			{name: "text", mutate: func(k *kvConfig) {
				k.Logging.VModule = logsapi.VModuleConfiguration{{FilePattern: "kubelet*", Verbosity: 4}}
			}},
			{name: "json", mutate: func(k *kvConfig) {
				k.Logging.Format = "json"
				k.Logging.VModule = logsapi.VModuleConfiguration{{FilePattern: "kubelet*", Verbosity: 4}}
			}, want: []string{`logging.vmodule: Forbidden: Only supported for text log format`}},
		},
		kvLogVModuleEmpty: {
			{name: "set", mutate: func(k *kvConfig) {
				k.Logging.VModule = logsapi.VModuleConfiguration{{FilePattern: "kubelet*", Verbosity: 4}}
			}},
			{name: "empty", mutate: func(k *kvConfig) { k.Logging.VModule = logsapi.VModuleConfiguration{{FilePattern: "", Verbosity: 4}} },
				want: []string{`logging.vmodule[0]: Required value: File pattern must not be empty`}, path: "logging.vmodule[0].filePattern"},
		},
		kvLogVModuleChars: {
			{name: "glob", mutate: func(k *kvConfig) {
				k.Logging.VModule = logsapi.VModuleConfiguration{{FilePattern: "kube*", Verbosity: 4}}
			}},
			{name: "comma", mutate: func(k *kvConfig) {
				k.Logging.VModule = logsapi.VModuleConfiguration{{FilePattern: "a,b", Verbosity: 4}}
			},
				want: []string{`logging.vmodule[0]: Invalid value: "a,b": File pattern must not contain equal sign or comma`}},
		},
		kvLogVModuleVerbosity: {
			{name: "1.31 prints hex", minor: "1.31", mutate: func(k *kvConfig) {
				k.Logging.VModule = logsapi.VModuleConfiguration{{FilePattern: "kube*", Verbosity: 1<<32 - 1}}
			},
				want: []string{`logging.vmodule[0]: Invalid value: 0xffffffff: Must be <= 2147483647`}},
			{name: "4", mutate: func(k *kvConfig) {
				k.Logging.VModule = logsapi.VModuleConfiguration{{FilePattern: "kube*", Verbosity: 4}}
			}},
			{name: "2^31", mutate: func(k *kvConfig) {
				k.Logging.VModule = logsapi.VModuleConfiguration{{FilePattern: "kube*", Verbosity: 1 << 31}}
			},
				want: []string{`logging.vmodule[0]: Invalid value: 2147483648: Must be <= 2147483647`}},
		},
		kvLogSplitStream: {
			{name: "gate on", gates: map[string]bool{"LoggingAlphaOptions": true}, mutate: func(k *kvConfig) { k.Logging.Options.Text.SplitStream = true }},
			{name: "gate off", mutate: func(k *kvConfig) { k.Logging.Options.Text.SplitStream = true },
				want: []string{`logging.options.text.splitStream: Forbidden: Feature LoggingAlphaOptions is disabled`}},
		},
		kvLogInfoBufferSize: {
			{name: "gate on", gates: map[string]bool{"LoggingAlphaOptions": true}, mutate: func(k *kvConfig) {
				k.Logging.Options.JSON.InfoBufferSize = resource.QuantityValue{Quantity: kvQty("1Mi")}
			}},
			{name: "gate off", mutate: func(k *kvConfig) {
				k.Logging.Options.JSON.InfoBufferSize = resource.QuantityValue{Quantity: kvQty("1Mi")}
			},
				want: []string{`logging.options.json.infoBufferSize: Forbidden: Feature LoggingAlphaOptions is disabled`}},
		},
		kvTracingRateNegative: {
			{name: "1.33, KubeletTracing off: not validated (KC4103)", minor: "1.33", gates: map[string]bool{"KubeletTracing": false}, mutate: func(k *kvConfig) {
				k.Tracing = &tracingapi.TracingConfiguration{SamplingRatePerMillion: new(int32(-1))}
			}},
			{name: "1.33, KubeletTracing on", minor: "1.33", mutate: func(k *kvConfig) {
				k.Tracing = &tracingapi.TracingConfiguration{SamplingRatePerMillion: new(int32(-1))}
			},
				want: []string{"tracing.samplingRatePerMillion: Invalid value: -1: sampling rate must be positive"}},
			{name: "0", mutate: func(k *kvConfig) { k.Tracing = &tracingapi.TracingConfiguration{SamplingRatePerMillion: new(int32(0))} }},
			{name: "-1", mutate: func(k *kvConfig) {
				k.Tracing = &tracingapi.TracingConfiguration{SamplingRatePerMillion: new(int32(-1))}
			},
				want: []string{"tracing.samplingRatePerMillion: Invalid value: -1: sampling rate must be positive"}},
		},
		kvTracingGate: {
			{name: "1.33, gate on", minor: "1.33", mutate: func(k *kvConfig) { k.Tracing = &tracingapi.TracingConfiguration{} }},
			{name: "1.33, gate off, no tracing", minor: "1.33", gates: map[string]bool{"KubeletTracing": false}},
			{name: "1.34 has no such check", minor: "1.34", gates: map[string]bool{"KubeletTracing": false},
				mutate: func(k *kvConfig) { k.Tracing = &tracingapi.TracingConfiguration{} }},
			{name: "1.33, gate off", minor: "1.33", gates: map[string]bool{"KubeletTracing": false},
				mutate: func(k *kvConfig) { k.Tracing = &tracingapi.TracingConfiguration{Endpoint: new("localhost:4317")} },
				want:   []string{"invalid configuration: tracing should not be configured if KubeletTracing feature flag is disabled."}, path: "tracing"},
		},
		kvTracingRateMax: {
			{name: "1000000", mutate: func(k *kvConfig) {
				k.Tracing = &tracingapi.TracingConfiguration{SamplingRatePerMillion: new(int32(1000000))}
			}},
			{name: "1000001", mutate: func(k *kvConfig) {
				k.Tracing = &tracingapi.TracingConfiguration{SamplingRatePerMillion: new(int32(1000001))}
			},
				want: []string{"tracing.samplingRatePerMillion: Invalid value: 1000001: sampling rate per million must be less than or equal to one million"}},
		},
		kvTracingEndpointParse: {
			{name: "host:port", mutate: func(k *kvConfig) { k.Tracing = &tracingapi.TracingConfiguration{Endpoint: new("localhost:4317")} }},
			{name: "bad", mutate: func(k *kvConfig) {
				k.Tracing = &tracingapi.TracingConfiguration{Endpoint: new("dn%2s://localhost:4317")}
			},
				want: []string{`tracing.endpoint: Invalid value: "dn%2s://localhost:4317": parse "dn%2s://localhost:4317": first path segment in URL cannot contain colon`}},
		},
		kvTracingEndpointScheme: {
			{name: "1.32, KubeletTracing off: not validated", minor: "1.32", gates: map[string]bool{"KubeletTracing": false}, mutate: func(k *kvConfig) {
				k.Tracing = &tracingapi.TracingConfiguration{Endpoint: new("https://localhost:4317")}
			}},
			{name: "unix", mutate: func(k *kvConfig) {
				k.Tracing = &tracingapi.TracingConfiguration{Endpoint: new("unix:///run/otel.sock")}
			}},
			{name: "https", mutate: func(k *kvConfig) {
				k.Tracing = &tracingapi.TracingConfiguration{Endpoint: new("https://localhost:4317")}
			},
				want: []string{`tracing.endpoint: Invalid value: "https://localhost:4317": unsupported scheme: https.  Options are none, dns, unix, or unix-abstract.  See https://github.com/grpc/grpc/blob/master/doc/naming.md`}},
		},
		kvMemoryThrottlingGate: {
			{name: "1.36 has no such check", minor: "1.36", gates: map[string]bool{"MemoryQoS": false}, mutate: func(k *kvConfig) { k.MemoryThrottlingFactor = new(0.8) }},
			{name: "0.9 with gate off", gates: map[string]bool{"MemoryQoS": false}, mutate: func(k *kvConfig) { k.MemoryThrottlingFactor = new(0.9) }},
			{name: "0.8 with gate on", mutate: func(k *kvConfig) { k.MemoryThrottlingFactor = new(0.8) }},
			{name: "0.8 with gate off", gates: map[string]bool{"MemoryQoS": false}, mutate: func(k *kvConfig) { k.MemoryThrottlingFactor = new(0.8) },
				want: []string{"invalid configuration: memoryThrottlingFactor must not be set when MemoryQoS feature gate is disabled"}},
		},
		kvMemoryThrottlingRequired: {
			{name: "1.36, gate on, 0.9", minor: "1.36", gates: map[string]bool{"MemoryQoS": true}, mutate: func(k *kvConfig) { k.MemoryThrottlingFactor = new(0.9) }},
			{name: "1.36, gate off, unset", minor: "1.36", gates: map[string]bool{"MemoryQoS": false}},
			{name: "1.37 has no such check", gates: map[string]bool{"MemoryQoS": true}},
			{name: "1.36, gate on, unset", minor: "1.36", gates: map[string]bool{"MemoryQoS": true},
				want: []string{"invalid configuration: memoryThrottlingFactor is required when MemoryQoS feature flag is enabled"}, path: "memoryThrottlingFactor"},
			{name: "1.31, gate on, unset", minor: "1.31", gates: map[string]bool{"MemoryQoS": true},
				want: []string{"invalid configuration: memoryThrottlingFactor is required when MemoryQoS feature flag is enabled"}},
		},
		kvMemoryThrottlingRange: {
			{name: "1.0", mutate: func(k *kvConfig) { k.MemoryThrottlingFactor = new(1.0) }},
			{name: "1.1", mutate: func(k *kvConfig) { k.MemoryThrottlingFactor = new(1.1) },
				want: []string{"invalid configuration: memoryThrottlingFactor 1.1 must be greater than 0 and less than or equal to 1.0"}},
			{name: "0", mutate: func(k *kvConfig) { k.MemoryThrottlingFactor = new(0.0) },
				want: []string{"invalid configuration: memoryThrottlingFactor 0 must be greater than 0 and less than or equal to 1.0"}},
		},
		kvMemoryReservationGate: {
			{name: "1.35 has no memoryReservationPolicy", minor: "1.35", gates: map[string]bool{"MemoryQoS": false}, mutate: func(k *kvConfig) { k.MemoryReservationPolicy = "TieredReservation" }},
			{name: "tiered with gate on", mutate: func(k *kvConfig) { k.MemoryReservationPolicy = "TieredReservation" }},
			{name: "tiered with gate off", gates: map[string]bool{"MemoryQoS": false}, mutate: func(k *kvConfig) { k.MemoryReservationPolicy = "TieredReservation" },
				want: []string{`invalid configuration: memoryReservationPolicy "TieredReservation" requires MemoryQoS feature gate to be enabled`}},
		},
		kvMemoryReservationValid: {
			{name: "1.35 has no memoryReservationPolicy", minor: "1.35", mutate: func(k *kvConfig) { k.MemoryReservationPolicy = "" }},
			{name: "1.36 refuses empty", minor: "1.36", mutate: func(k *kvConfig) { k.MemoryReservationPolicy = "" },
				want: []string{`invalid configuration: option "" specified for memoryReservationPolicy. Valid options are "None" or "TieredReservation"`}},
			{name: "None"},
			{name: "invalid", mutate: func(k *kvConfig) { k.MemoryReservationPolicy = "invalid" },
				want: []string{`invalid configuration: option "invalid" specified for memoryReservationPolicy. Valid options are "None" or "TieredReservation"`}},
		},
		kvRuntimeEndpoint: {
			{name: "default"},
			{name: "empty", mutate: func(k *kvConfig) { k.ContainerRuntimeEndpoint = "" },
				want: []string{"invalid configuration: the containerRuntimeEndpoint was not specified or empty"}},
		},
		kvLogQueryGate: {
			{name: "1.34 names the handler", minor: "1.34", gates: map[string]bool{"NodeLogQuery": false}, mutate: func(k *kvConfig) { k.EnableSystemLogQuery = new(true) },
				want: []string{"invalid configuration: NodeLogQuery feature gate is required for enableSystemLogHandler"}},
			{name: "1.35 names the query", minor: "1.35", gates: map[string]bool{"NodeLogQuery": false}, mutate: func(k *kvConfig) { k.EnableSystemLogQuery = new(true) },
				want: []string{"invalid configuration: NodeLogQuery feature gate is required for enableSystemLogQuery"}},
			{name: "gate on", mutate: func(k *kvConfig) { k.EnableSystemLogQuery = new(true) }},
			{name: "gate off (older emulation)", gates: map[string]bool{"NodeLogQuery": false}, mutate: func(k *kvConfig) { k.EnableSystemLogQuery = new(true) },
				want: []string{"invalid configuration: NodeLogQuery feature gate is required for enableSystemLogQuery"}},
		},
		kvLogQueryHandler: {
			{name: "with handler", mutate: func(k *kvConfig) { k.EnableSystemLogQuery = new(true) }},
			{name: "without handler", mutate: func(k *kvConfig) { k.EnableSystemLogQuery = new(true); k.EnableSystemLogHandler = new(false) },
				want: []string{"invalid configuration: enableSystemLogHandler is required for enableSystemLogQuery"}},
		},
		kvLogMaxWorkers: {
			{name: "1"},
			{name: "0", mutate: func(k *kvConfig) { k.ContainerLogMaxWorkers = new(int32(0)) },
				want: []string{"invalid configuration: containerLogMaxWorkers must be greater than or equal to 1"}},
		},
		kvLogMonitorInterval: {
			{name: "3s", mutate: func(k *kvConfig) { k.ContainerLogMonitorInterval = ptrDur(3 * time.Second) }},
			{name: "-1s", mutate: func(k *kvConfig) { k.ContainerLogMonitorInterval = ptrDur(-time.Second) },
				want: []string{"invalid configuration: containerLogMonitorInterval must be a positive time duration greater than or equal to 3s"}},
			{name: "2s", mutate: func(k *kvConfig) { k.ContainerLogMonitorInterval = ptrDur(2 * time.Second) },
				want: []string{"invalid configuration: containerLogMonitorInterval must be a positive time duration greater than or equal to 3s"}},
		},
		kvLogMaxFiles: {
			{name: "1.32 accepts 1", minor: "1.32", mutate: func(k *kvConfig) { k.ContainerLogMaxFiles = new(int32(1)) }},
			{name: "1.33 refuses 1", minor: "1.33", mutate: func(k *kvConfig) { k.ContainerLogMaxFiles = new(int32(1)) },
				want: []string{"invalid configuration: containerLogMaxFiles must be greater than 1"}},
			{name: "2", mutate: func(k *kvConfig) { k.ContainerLogMaxFiles = new(int32(2)) }},
			{name: "1", mutate: func(k *kvConfig) { k.ContainerLogMaxFiles = new(int32(1)) },
				want: []string{"invalid configuration: containerLogMaxFiles must be greater than 1"}},
		},
		kvPodLogsDirRequired: {
			{name: "default"},
			{name: "empty", mutate: func(k *kvConfig) { k.PodLogsDir = "" },
				want: []string{"invalid configuration: podLogsDir was not specified"}},
		},
		kvPodLogsDirAbs: {
			{name: "/logs", mutate: func(k *kvConfig) { k.PodLogsDir = "/logs" }},
			{name: "Windows: a drive path", os: kubelets.Windows, mutate: func(k *kvConfig) { k.PodLogsDir = `C:\var\log\pods` }},
			{name: "Windows: a path on the current drive", os: kubelets.Windows, mutate: func(k *kvConfig) { k.PodLogsDir = `\var\log\pods` }},
			{name: "Linux: a drive path is relative", mutate: func(k *kvConfig) { k.PodLogsDir = `C:\var\log\pods` },
				want: []string{`invalid configuration: pod logs path "C:\\var\\log\\pods" must be absolute path`}},
			{name: "relative", mutate: func(k *kvConfig) { k.PodLogsDir = "./test" },
				want: []string{`invalid configuration: pod logs path "./test" must be absolute path`}},
			{name: "empty", mutate: func(k *kvConfig) { k.PodLogsDir = "" },
				want: []string{`invalid configuration: pod logs path "" must be absolute path`}},
		},
		kvPodLogsDirClean: {
			{name: "/var/log/pods"},
			{name: "Windows: the default /var/log/pods", os: kubelets.Windows},
			{name: "Windows: C:\\var\\log\\pods", os: kubelets.Windows, mutate: func(k *kvConfig) { k.PodLogsDir = `C:\var\log\pods` }},
			{name: "Windows: mixed separators are clean", os: kubelets.Windows, mutate: func(k *kvConfig) { k.PodLogsDir = `C:/var\log/pods` }},
			{name: "Windows: a doubled separator", os: kubelets.Windows, mutate: func(k *kvConfig) { k.PodLogsDir = `C:\var\\log` }, path: "podLogsDir",
				want: []string{`invalid configuration: pod logs path "C:\\var\\\\log" must be normalized`}},
			{name: "dotdot", mutate: func(k *kvConfig) { k.PodLogsDir = "/path/../" },
				want: []string{`invalid configuration: pod logs path "/path/../" must be normalized`}},
			{name: "trailing slash", mutate: func(k *kvConfig) { k.PodLogsDir = "/var/log/pods/" },
				want: []string{`invalid configuration: pod logs path "/var/log/pods/" must be normalized`}},
		},
		kvPodLogsDirASCII: {
			{name: "ascii"},
			{name: "emoji", mutate: func(k *kvConfig) { k.PodLogsDir = "/🧪" },
				want: []string{`invalid configuration: pod logs path "/🧪" mut contains ASCII characters only`}},
		},
	}
}

func TestKubeletRules(t *testing.T) {
	cases := kvCases()
	for _, r := range kvRules {
		tcs, ok := cases[r]
		if r == kvLogFormatFlags {
			if ok {
				t.Errorf("%s is documentation-only", r.ID)
			}
			continue
		}
		if !ok {
			t.Errorf("%s (%s) has no test cases", r.ID, r.Name)
			continue
		}
		var pass, fail bool
		for _, tc := range tcs {
			if len(tc.want) == 0 {
				pass = true
			} else {
				fail = true
			}
			t.Run(r.ID+"/"+tc.name, func(t *testing.T) {
				got := kvRun(t, r, tc)
				var msgs []string
				for _, f := range got {
					msgs = append(msgs, f.Kubelet)
					if f.Rule != r.ID || f.Severity != r.Severity {
						t.Errorf("finding has rule %s severity %v, want %s %v", f.Rule, f.Severity, r.ID, r.Severity)
					}
					if f.Path == "" || f.Message == "" || f.Hint == "" {
						t.Errorf("finding lacks path, message or hint: %+v", f)
					}
				}
				if !reflect.DeepEqual(msgs, tc.want) {
					t.Errorf("kubelet messages\n got: %q\nwant: %q", msgs, tc.want)
				}
				if tc.path != "" && len(got) > 0 {
					if got[0].Path != tc.path {
						t.Errorf("path = %q, want %q", got[0].Path, tc.path)
					}
					if got[0].Line == 0 && len(tc.set) > 0 {
						t.Errorf("finding at %v, want the position of %s", got[0].Position, tc.path)
					}
				}
			})
		}
		if !pass || !fail {
			t.Errorf("%s needs a passing and a failing case (pass=%v fail=%v)", r.ID, pass, fail)
		}
	}
}

func TestKubeletRulesValidConfig(t *testing.T) {
	for _, cg := range []int{1, 2} {
		var ids []string
		for _, r := range kvRules {
			for _, f := range kvRun(t, r, kvCase{cgroup: cg}) {
				ids = append(ids, f.Rule)
			}
		}
		var want []string
		if cg == 1 {
			want = []string{"KC5001"} // failCgroupV1 defaults to true
		}
		if !reflect.DeepEqual(ids, want) {
			t.Errorf("cgroup v%d: defaulted config reports %v, want %v", cg, ids, want)
		}
	}
}

func TestKubeletRulesMetadata(t *testing.T) {
	ids := map[string]bool{}
	for _, r := range kvRules {
		ids[r.ID] = true
		// The kubelet refuses what its validation finds, but for the settings the
		// Windows kubelet only warns that it ignores.
		warns := r == kvWinCgroupsPerQOSRule || r == kvWinEnforceNodeAllocatableRule
		if r.Doc == "" || r.Summary == "" || r.Kubelet == "" || (r.Severity != finding.Error) != warns {
			t.Errorf("%s: incomplete metadata", r.ID)
		}
		host := strings.HasPrefix(r.ID, "KC5")
		if host != (r.Stage == rule.StageHost) {
			t.Errorf("%s: stage %v", r.ID, r.Stage)
		}
		if host && !strings.Contains(r.Doc, "--cgroup-version") && !strings.Contains(r.Doc, "--os windows") {
			t.Errorf("%s: host rule Doc must say it is decided by --cgroup-version or --os", r.ID)
		}
		if reg, ok := rule.Lookup(r.ID); !ok || reg.Name != r.Name {
			t.Errorf("%s is not registered", r.ID)
		}
	}
	for i := 4001; i <= 4107; i++ {
		if id := fmt.Sprintf("KC%d", i); !ids[id] {
			t.Errorf("%s is missing", id)
		}
	}
	if len(kvRules) != 114 || !ids["KC5001"] || !ids["KC5002"] || !ids["KC5102"] {
		t.Errorf("%d kubelet rules, want KC4001..KC4107, KC5001 and KC5002", len(kvRules))
	}
}

// TestKubeletRulesEmptyPodLogsDir mirrors upstream: an empty podLogsDir fails three checks.
func TestKubeletRulesEmptyPodLogsDir(t *testing.T) {
	var got []string
	for _, r := range kvRules {
		for _, f := range kvRun(t, r, kvCase{mutate: func(k *kvConfig) { k.PodLogsDir = "" }}) {
			got = append(got, f.Rule)
		}
	}
	if want := []string{"KC4099", "KC4100", "KC4101"}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
