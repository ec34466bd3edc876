package defaults

//lint:file-ignore SA1019 the kubelet still defaults and validates its deprecated fields; this file reproduces that

import (
	"encoding/json"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	kubeletv1beta1 "github.com/kubeletcfg/kubeletcfg/upstream/kubelet/config/v1beta1"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

type kc = kubeletv1beta1.KubeletConfiguration

// gates137 resolves gates like the kubelet's localFeatureGate at v1.37.2 for
// the two gates the defaulting reads (both beta, default on), overlaid by fg.
func gates137(fg map[string]bool) func(string) bool {
	defaults := map[string]bool{
		GateKubeletCrashLoopBackOffMax:      true,
		GateKubeletEnsureSecretPulledImages: true,
	}
	return func(g string) bool {
		if v, ok := fg[g]; ok {
			return v
		}
		return defaults[g]
	}
}

func gatesWith(on map[string]bool) func(string) bool {
	return func(g string) bool { return on[g] }
}

func mustApply(t *testing.T, obj *kc, enabled func(string) bool) {
	t.Helper()
	if err := Apply("1.37", obj, enabled); err != nil {
		t.Fatalf("Apply: %v", err)
	}
}

func d(x time.Duration) metav1.Duration { return metav1.Duration{Duration: x} }

func TestApplyRejectsUnsupported(t *testing.T) {
	for _, minor := range []string{"", "1.30", "1.39", "v1.37", "37"} {
		obj := &kc{}
		if err := Apply(minor, obj, gates137(nil)); err == nil {
			t.Errorf("Apply(%q): want error", minor)
		}
		if err := ApplyObject(minor, obj, gates137(nil)); err == nil {
			t.Errorf("ApplyObject(%q): want error", minor)
		}
		if diff := semanticDiff(&kc{}, obj); diff != "" {
			t.Errorf("Apply(%q) modified the object:\n%s", minor, diff)
		}
		if Supported(minor) {
			t.Errorf("Supported(%q) = true", minor)
		}
	}
	if !Supported("1.37") {
		t.Error(`Supported("1.37") = false`)
	}
	if err := Apply("1.37", &kc{}, nil); err == nil {
		t.Error("Apply with nil gate function: want error")
	}
	if err := Apply("1.37", nil, gates137(nil)); err == nil {
		t.Error("Apply with nil object: want error")
	}
}

// defaultCase describes one default: get reads the field (dereferencing
// pointers, nil stays untyped nil), want is its value after defaulting an
// empty object, and preset sets a non-default value that must be kept.
type defaultCase struct {
	json   string
	get    func(*kc) any
	want   any
	preset func(*kc)
}

func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

func defaultCases() []defaultCase {
	return []defaultCase{
		{"enableServer", func(o *kc) any { return deref(o.EnableServer) }, true, func(o *kc) { o.EnableServer = ptr.To(false) }},
		{"syncFrequency", func(o *kc) any { return o.SyncFrequency }, d(time.Minute), func(o *kc) { o.SyncFrequency = d(3 * time.Second) }},
		{"fileCheckFrequency", func(o *kc) any { return o.FileCheckFrequency }, d(20 * time.Second), func(o *kc) { o.FileCheckFrequency = d(time.Second) }},
		{"httpCheckFrequency", func(o *kc) any { return o.HTTPCheckFrequency }, d(20 * time.Second), func(o *kc) { o.HTTPCheckFrequency = d(time.Second) }},
		{"address", func(o *kc) any { return o.Address }, "0.0.0.0", func(o *kc) { o.Address = "::" }},
		{"port", func(o *kc) any { return o.Port }, int32(10250), func(o *kc) { o.Port = 1234 }},
		{"authentication.anonymous.enabled", func(o *kc) any { return deref(o.Authentication.Anonymous.Enabled) }, false, func(o *kc) { o.Authentication.Anonymous.Enabled = ptr.To(true) }},
		{"authentication.webhook.enabled", func(o *kc) any { return deref(o.Authentication.Webhook.Enabled) }, true, func(o *kc) { o.Authentication.Webhook.Enabled = ptr.To(false) }},
		{"authentication.webhook.cacheTTL", func(o *kc) any { return o.Authentication.Webhook.CacheTTL }, d(2 * time.Minute), func(o *kc) { o.Authentication.Webhook.CacheTTL = d(time.Second) }},
		{"authorization.mode", func(o *kc) any { return o.Authorization.Mode }, kubeletv1beta1.KubeletAuthorizationModeWebhook, func(o *kc) { o.Authorization.Mode = kubeletv1beta1.KubeletAuthorizationModeAlwaysAllow }},
		{"authorization.webhook.cacheAuthorizedTTL", func(o *kc) any { return o.Authorization.Webhook.CacheAuthorizedTTL }, d(5 * time.Minute), func(o *kc) { o.Authorization.Webhook.CacheAuthorizedTTL = d(time.Second) }},
		{"authorization.webhook.cacheUnauthorizedTTL", func(o *kc) any { return o.Authorization.Webhook.CacheUnauthorizedTTL }, d(30 * time.Second), func(o *kc) { o.Authorization.Webhook.CacheUnauthorizedTTL = d(time.Second) }},
		{"registryPullQPS", func(o *kc) any { return deref(o.RegistryPullQPS) }, int32(5), func(o *kc) { o.RegistryPullQPS = ptr.To[int32](0) }},
		{"registryBurst", func(o *kc) any { return o.RegistryBurst }, int32(10), func(o *kc) { o.RegistryBurst = 3 }},
		{"eventRecordQPS", func(o *kc) any { return deref(o.EventRecordQPS) }, int32(50), func(o *kc) { o.EventRecordQPS = ptr.To[int32](0) }},
		{"eventBurst", func(o *kc) any { return o.EventBurst }, int32(100), func(o *kc) { o.EventBurst = 3 }},
		{"enableDebuggingHandlers", func(o *kc) any { return deref(o.EnableDebuggingHandlers) }, true, func(o *kc) { o.EnableDebuggingHandlers = ptr.To(false) }},
		{"healthzPort", func(o *kc) any { return deref(o.HealthzPort) }, int32(10248), func(o *kc) { o.HealthzPort = ptr.To[int32](0) }},
		{"healthzBindAddress", func(o *kc) any { return o.HealthzBindAddress }, "127.0.0.1", func(o *kc) { o.HealthzBindAddress = "0.0.0.0" }},
		{"oomScoreAdj", func(o *kc) any { return deref(o.OOMScoreAdj) }, int32(-999), func(o *kc) { o.OOMScoreAdj = ptr.To[int32](0) }},
		{"streamingConnectionIdleTimeout", func(o *kc) any { return o.StreamingConnectionIdleTimeout }, d(4 * time.Hour), func(o *kc) { o.StreamingConnectionIdleTimeout = d(time.Second) }},
		{"nodeStatusReportFrequency", func(o *kc) any { return o.NodeStatusReportFrequency }, d(5 * time.Minute), func(o *kc) { o.NodeStatusReportFrequency = d(time.Second) }},
		{"nodeStatusUpdateFrequency", func(o *kc) any { return o.NodeStatusUpdateFrequency }, d(10 * time.Second), func(o *kc) { o.NodeStatusUpdateFrequency = d(time.Second) }},
		{"nodeLeaseDurationSeconds", func(o *kc) any { return o.NodeLeaseDurationSeconds }, int32(40), func(o *kc) { o.NodeLeaseDurationSeconds = 7 }},
		{"imageMinimumGCAge", func(o *kc) any { return o.ImageMinimumGCAge }, d(2 * time.Minute), func(o *kc) { o.ImageMinimumGCAge = d(time.Second) }},
		{"imageGCHighThresholdPercent", func(o *kc) any { return deref(o.ImageGCHighThresholdPercent) }, int32(85), func(o *kc) { o.ImageGCHighThresholdPercent = ptr.To[int32](0) }},
		{"imageGCLowThresholdPercent", func(o *kc) any { return deref(o.ImageGCLowThresholdPercent) }, int32(80), func(o *kc) { o.ImageGCLowThresholdPercent = ptr.To[int32](0) }},
		{"volumeStatsAggPeriod", func(o *kc) any { return o.VolumeStatsAggPeriod }, d(time.Minute), func(o *kc) { o.VolumeStatsAggPeriod = d(time.Second) }},
		{"cgroupsPerQOS", func(o *kc) any { return deref(o.CgroupsPerQOS) }, true, func(o *kc) { o.CgroupsPerQOS = ptr.To(false) }},
		{"cgroupDriver", func(o *kc) any { return o.CgroupDriver }, "cgroupfs", func(o *kc) { o.CgroupDriver = "systemd" }},
		{"cpuManagerPolicy", func(o *kc) any { return o.CPUManagerPolicy }, "none", func(o *kc) { o.CPUManagerPolicy = "static" }},
		{"cpuManagerReconcilePeriod", func(o *kc) any { return o.CPUManagerReconcilePeriod }, d(10 * time.Second), func(o *kc) { o.CPUManagerReconcilePeriod = d(time.Second) }},
		{"memoryManagerPolicy", func(o *kc) any { return o.MemoryManagerPolicy }, "None", func(o *kc) { o.MemoryManagerPolicy = "Static" }},
		{"topologyManagerPolicy", func(o *kc) any { return o.TopologyManagerPolicy }, "none", func(o *kc) { o.TopologyManagerPolicy = "restricted" }},
		{"topologyManagerScope", func(o *kc) any { return o.TopologyManagerScope }, "container", func(o *kc) { o.TopologyManagerScope = "pod" }},
		{"runtimeRequestTimeout", func(o *kc) any { return o.RuntimeRequestTimeout }, d(2 * time.Minute), func(o *kc) { o.RuntimeRequestTimeout = d(time.Second) }},
		{"hairpinMode", func(o *kc) any { return o.HairpinMode }, "promiscuous-bridge", func(o *kc) { o.HairpinMode = "hairpin-veth" }},
		{"maxPods", func(o *kc) any { return o.MaxPods }, int32(110), func(o *kc) { o.MaxPods = 7 }},
		{"podPidsLimit", func(o *kc) any { return deref(o.PodPidsLimit) }, int64(-1), func(o *kc) { o.PodPidsLimit = ptr.To[int64](0) }},
		{"resolvConf", func(o *kc) any { return deref(o.ResolverConfig) }, "/etc/resolv.conf", func(o *kc) { o.ResolverConfig = ptr.To("") }},
		{"cpuCFSQuota", func(o *kc) any { return deref(o.CPUCFSQuota) }, true, func(o *kc) { o.CPUCFSQuota = ptr.To(false) }},
		{"cpuCFSQuotaPeriod", func(o *kc) any { return deref(o.CPUCFSQuotaPeriod) }, d(100 * time.Millisecond), func(o *kc) { o.CPUCFSQuotaPeriod = &metav1.Duration{} }},
		{"nodeStatusMaxImages", func(o *kc) any { return deref(o.NodeStatusMaxImages) }, int32(50), func(o *kc) { o.NodeStatusMaxImages = ptr.To[int32](0) }},
		{"maxOpenFiles", func(o *kc) any { return o.MaxOpenFiles }, int64(1000000), func(o *kc) { o.MaxOpenFiles = 5 }},
		{"contentType", func(o *kc) any { return o.ContentType }, "application/vnd.kubernetes.protobuf", func(o *kc) { o.ContentType = "application/json" }},
		{"kubeAPIQPS", func(o *kc) any { return deref(o.KubeAPIQPS) }, int32(50), func(o *kc) { o.KubeAPIQPS = ptr.To[int32](0) }},
		{"kubeAPIBurst", func(o *kc) any { return o.KubeAPIBurst }, int32(100), func(o *kc) { o.KubeAPIBurst = 3 }},
		{"serializeImagePulls", func(o *kc) any { return deref(o.SerializeImagePulls) }, true, func(o *kc) { o.SerializeImagePulls = ptr.To(false) }},
		{"evictionPressureTransitionPeriod", func(o *kc) any { return o.EvictionPressureTransitionPeriod }, d(5 * time.Minute), func(o *kc) { o.EvictionPressureTransitionPeriod = d(time.Second) }},
		{"mergeDefaultEvictionSettings", func(o *kc) any { return deref(o.MergeDefaultEvictionSettings) }, false, func(o *kc) { o.MergeDefaultEvictionSettings = ptr.To(true) }},
		{"enableControllerAttachDetach", func(o *kc) any { return deref(o.EnableControllerAttachDetach) }, true, func(o *kc) { o.EnableControllerAttachDetach = ptr.To(false) }},
		{"makeIPTablesUtilChains", func(o *kc) any { return deref(o.MakeIPTablesUtilChains) }, true, func(o *kc) { o.MakeIPTablesUtilChains = ptr.To(false) }},
		{"iptablesMasqueradeBit", func(o *kc) any { return deref(o.IPTablesMasqueradeBit) }, int32(14), func(o *kc) { o.IPTablesMasqueradeBit = ptr.To[int32](0) }},
		{"iptablesDropBit", func(o *kc) any { return deref(o.IPTablesDropBit) }, int32(15), func(o *kc) { o.IPTablesDropBit = ptr.To[int32](0) }},
		{"failSwapOn", func(o *kc) any { return deref(o.FailSwapOn) }, true, func(o *kc) { o.FailSwapOn = ptr.To(false) }},
		{"containerLogMaxSize", func(o *kc) any { return o.ContainerLogMaxSize }, "10Mi", func(o *kc) { o.ContainerLogMaxSize = "1Gi" }},
		{"containerLogMaxFiles", func(o *kc) any { return deref(o.ContainerLogMaxFiles) }, int32(5), func(o *kc) { o.ContainerLogMaxFiles = ptr.To[int32](0) }},
		{"containerLogMaxWorkers", func(o *kc) any { return deref(o.ContainerLogMaxWorkers) }, int32(1), func(o *kc) { o.ContainerLogMaxWorkers = ptr.To[int32](0) }},
		{"containerLogMonitorInterval", func(o *kc) any { return deref(o.ContainerLogMonitorInterval) }, d(10 * time.Second), func(o *kc) { o.ContainerLogMonitorInterval = &metav1.Duration{} }},
		{"configMapAndSecretChangeDetectionStrategy", func(o *kc) any { return o.ConfigMapAndSecretChangeDetectionStrategy }, kubeletv1beta1.WatchChangeDetectionStrategy, func(o *kc) { o.ConfigMapAndSecretChangeDetectionStrategy = kubeletv1beta1.GetChangeDetectionStrategy }},
		{"enforceNodeAllocatable", func(o *kc) any { return o.EnforceNodeAllocatable }, []string{"pods"}, func(o *kc) { o.EnforceNodeAllocatable = []string{} }},
		{"volumePluginDir", func(o *kc) any { return o.VolumePluginDir }, "/usr/libexec/kubernetes/kubelet-plugins/volume/exec/", func(o *kc) { o.VolumePluginDir = "/x" }},
		{"logging.format", func(o *kc) any { return o.Logging.Format }, "text", func(o *kc) { o.Logging.Format = "json" }},
		{"logging.flushFrequency", func(o *kc) any { return o.Logging.FlushFrequency.Duration }, d(5 * time.Second), func(o *kc) { o.Logging.FlushFrequency.Duration = d(time.Second) }},
		{"enableSystemLogHandler", func(o *kc) any { return deref(o.EnableSystemLogHandler) }, true, func(o *kc) { o.EnableSystemLogHandler = ptr.To(false) }},
		{"enableProfilingHandler", func(o *kc) any { return deref(o.EnableProfilingHandler) }, true, func(o *kc) { o.EnableProfilingHandler = ptr.To(false) }},
		{"enableDebugFlagsHandler", func(o *kc) any { return deref(o.EnableDebugFlagsHandler) }, true, func(o *kc) { o.EnableDebugFlagsHandler = ptr.To(false) }},
		{"seccompDefault", func(o *kc) any { return deref(o.SeccompDefault) }, false, func(o *kc) { o.SeccompDefault = ptr.To(true) }},
		{"failCgroupV1", func(o *kc) any { return deref(o.FailCgroupV1) }, true, func(o *kc) { o.FailCgroupV1 = ptr.To(false) }},
		{"memoryThrottlingFactor", func(o *kc) any { return deref(o.MemoryThrottlingFactor) }, nil, func(o *kc) { o.MemoryThrottlingFactor = ptr.To(0.5) }},
		{"memoryReservationPolicy", func(o *kc) any { return o.MemoryReservationPolicy }, kubeletv1beta1.NoneMemoryReservationPolicy, func(o *kc) { o.MemoryReservationPolicy = "TieredReservation" }},
		{"registerNode", func(o *kc) any { return deref(o.RegisterNode) }, true, func(o *kc) { o.RegisterNode = ptr.To(false) }},
		{"localStorageCapacityIsolation", func(o *kc) any { return deref(o.LocalStorageCapacityIsolation) }, true, func(o *kc) { o.LocalStorageCapacityIsolation = ptr.To(false) }},
		{"containerRuntimeEndpoint", func(o *kc) any { return o.ContainerRuntimeEndpoint }, "unix:///run/containerd/containerd.sock", func(o *kc) { o.ContainerRuntimeEndpoint = "unix:///x.sock" }},
		{"podLogsDir", func(o *kc) any { return o.PodLogsDir }, "/var/log/pods", func(o *kc) { o.PodLogsDir = "/logs" }},
		{"crashLoopBackOff.maxContainerRestartPeriod", func(o *kc) any { return deref(o.CrashLoopBackOff.MaxContainerRestartPeriod) }, d(300 * time.Second), func(o *kc) { o.CrashLoopBackOff.MaxContainerRestartPeriod = &metav1.Duration{Duration: time.Second} }},
		{"imagePullCredentialsVerificationPolicy", func(o *kc) any { return o.ImagePullCredentialsVerificationPolicy }, kubeletv1beta1.NeverVerifyPreloadedImages, func(o *kc) { o.ImagePullCredentialsVerificationPolicy = kubeletv1beta1.AlwaysVerify }},
	}
}

// normalize converts typed strings to string so want literals can be plain.
func normalize(v any) any {
	if v == nil {
		return nil
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.String {
		return rv.String()
	}
	return v
}

func TestApplyEachDefault(t *testing.T) {
	for _, c := range defaultCases() {
		t.Run(c.json+"/zero", func(t *testing.T) {
			obj := &kc{}
			mustApply(t, obj, gates137(nil))
			if got := normalize(c.get(obj)); !reflect.DeepEqual(got, normalize(c.want)) {
				t.Errorf("%s = %#v, want %#v", c.json, got, c.want)
			}
		})
		t.Run(c.json+"/preset", func(t *testing.T) {
			obj := &kc{}
			c.preset(obj)
			want := c.get(obj)
			if reflect.DeepEqual(normalize(want), normalize(c.want)) {
				t.Fatalf("preset value %#v equals the default; the case cannot fail", want)
			}
			mustApply(t, obj, gates137(nil))
			if got := c.get(obj); !reflect.DeepEqual(got, want) {
				t.Errorf("%s = %#v, want preset %#v kept", c.json, got, want)
			}
		})
	}
}

// jsonLeaves flattens the JSON form of obj to "a.b.c" -> value.
func jsonLeaves(t *testing.T, obj any) map[string]any {
	t.Helper()
	b, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	out := map[string]any{}
	var flat func(prefix string, v any)
	flat = func(prefix string, v any) {
		if mm, ok := v.(map[string]any); ok && len(mm) > 0 {
			for k, vv := range mm {
				p := k
				if prefix != "" {
					p = prefix + "." + k
				}
				flat(p, vv)
			}
			return
		}
		out[prefix] = v
	}
	flat("", m)
	return out
}

// TestApplyDefaultsAreExactlyTheTable checks that defaulting an empty object
// sets exactly the fields of defaultCases plus the logging output routing,
// so a default missing from the table (or an extra one in Apply) fails.
func TestApplyDefaultsAreExactlyTheTable(t *testing.T) {
	obj := &kc{}
	mustApply(t, obj, gates137(nil))
	got := jsonLeaves(t, obj)
	// Leaves an empty object serializes anyway (fields without omitempty)
	// are not defaults unless Apply changes them.
	for k, v := range jsonLeaves(t, &kc{}) {
		if reflect.DeepEqual(got[k], v) {
			delete(got, k)
		}
	}
	// SetRecommendedLoggingConfiguration also sets both infoBufferSize to 0,
	// which serializes like the zero Quantity ("0"); TestLoggingDefaults
	// checks them.
	want := map[string]bool{}
	for _, c := range defaultCases() {
		if c.want != nil {
			want[c.json] = true
		}
	}
	var keys []string
	for k := range got {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !want[k] {
			t.Errorf("Apply set %s = %v, which is not in the table", k, got[k])
		}
	}
	for k := range want {
		if _, ok := got[k]; !ok {
			t.Errorf("table default %s not set by Apply", k)
		}
	}
	if got["logging.flushFrequency"] != "5s" {
		t.Errorf("logging.flushFrequency serialized as %v, want \"5s\" (SerializeAsString)", got["logging.flushFrequency"])
	}
}

func TestApplyIdempotent(t *testing.T) {
	a := &kc{}
	mustApply(t, a, gates137(nil))
	b := a.DeepCopy()
	mustApply(t, b, gates137(nil))
	if diff := semanticDiff(a, b); diff != "" {
		t.Errorf("second Apply changed the object:\n%s", diff)
	}
}

func TestApplyExplicitZeroDurationIsDefaulted(t *testing.T) {
	var obj kc
	if err := json.Unmarshal([]byte(`{"syncFrequency":"0s","nodeStatusUpdateFrequency":"0s","cpuCFSQuotaPeriod":"0s"}`), &obj); err != nil {
		t.Fatal(err)
	}
	mustApply(t, &obj, gates137(nil))
	if obj.SyncFrequency != d(time.Minute) || obj.NodeStatusUpdateFrequency != d(10*time.Second) || obj.NodeStatusReportFrequency != d(5*time.Minute) {
		t.Errorf("zero durations: got sync %v update %v report %v", obj.SyncFrequency, obj.NodeStatusUpdateFrequency, obj.NodeStatusReportFrequency)
	}
	// A pointer Duration set to 0s is set, so it is kept.
	if obj.CPUCFSQuotaPeriod == nil || obj.CPUCFSQuotaPeriod.Duration != 0 {
		t.Errorf("cpuCFSQuotaPeriod = %v, want explicit 0s kept", obj.CPUCFSQuotaPeriod)
	}
}

func TestNodeStatusReportFrequency(t *testing.T) {
	cases := []struct {
		name                   string
		update, report         time.Duration
		wantUpdate, wantReport time.Duration
	}{
		{"both unset", 0, 0, 10 * time.Second, 5 * time.Minute},
		{"update set follows into report", 20 * time.Second, 0, 20 * time.Second, 20 * time.Second},
		{"report set, update defaulted", 0, time.Minute, 10 * time.Second, time.Minute},
		{"both set", 3 * time.Second, time.Hour, 3 * time.Second, time.Hour},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			obj := &kc{NodeStatusUpdateFrequency: d(c.update), NodeStatusReportFrequency: d(c.report)}
			mustApply(t, obj, gates137(nil))
			if obj.NodeStatusUpdateFrequency != d(c.wantUpdate) || obj.NodeStatusReportFrequency != d(c.wantReport) {
				t.Errorf("got update %v report %v, want %v %v", obj.NodeStatusUpdateFrequency.Duration, obj.NodeStatusReportFrequency.Duration, c.wantUpdate, c.wantReport)
			}
		})
	}
}

func TestSerializeImagePulls(t *testing.T) {
	cases := []struct {
		name      string
		serialize *bool
		parallel  *int32
		want      bool
	}{
		{"neither set", nil, nil, true},
		{"parallel -1", nil, ptr.To[int32](-1), true},
		{"parallel 0", nil, ptr.To[int32](0), true},
		{"parallel 1", nil, ptr.To[int32](1), true},
		{"parallel 2", nil, ptr.To[int32](2), false},
		{"parallel 5", nil, ptr.To[int32](5), false},
		{"explicit false, parallel unset", ptr.To(false), nil, false},
		{"explicit true, parallel 5", ptr.To(true), ptr.To[int32](5), true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			obj := &kc{SerializeImagePulls: c.serialize, MaxParallelImagePulls: c.parallel}
			mustApply(t, obj, gates137(nil))
			if obj.SerializeImagePulls == nil || *obj.SerializeImagePulls != c.want {
				t.Errorf("serializeImagePulls = %v, want %v", deref(obj.SerializeImagePulls), c.want)
			}
			// maxParallelImagePulls itself has no default.
			if !reflect.DeepEqual(obj.MaxParallelImagePulls, c.parallel) {
				t.Errorf("maxParallelImagePulls changed to %v", deref(obj.MaxParallelImagePulls))
			}
		})
	}
}

func TestPodPidsLimit(t *testing.T) {
	cases := []struct {
		in   *int64
		want int64
	}{
		{nil, -1}, {ptr.To[int64](-1), -1}, {ptr.To[int64](-5), -1}, {ptr.To[int64](0), 0}, {ptr.To[int64](1024), 1024},
	}
	for _, c := range cases {
		obj := &kc{PodPidsLimit: c.in}
		mustApply(t, obj, gates137(nil))
		if obj.PodPidsLimit == nil || *obj.PodPidsLimit != c.want {
			t.Errorf("podPidsLimit %v -> %v, want %d", deref(c.in), deref(obj.PodPidsLimit), c.want)
		}
	}
}

func TestEnforceNodeAllocatable(t *testing.T) {
	obj := &kc{}
	mustApply(t, obj, gates137(nil))
	if !reflect.DeepEqual(obj.EnforceNodeAllocatable, []string{"pods"}) {
		t.Fatalf("enforceNodeAllocatable = %#v", obj.EnforceNodeAllocatable)
	}
	obj.EnforceNodeAllocatable[0] = "mutated"
	if DefaultNodeAllocatableEnforcement[0] != "pods" {
		t.Errorf("the package default was aliased and mutated: %v", DefaultNodeAllocatableEnforcement)
	}
	empty := &kc{EnforceNodeAllocatable: []string{}}
	mustApply(t, empty, gates137(nil))
	if empty.EnforceNodeAllocatable == nil || len(empty.EnforceNodeAllocatable) != 0 {
		t.Errorf("explicit [] became %#v, want kept", empty.EnforceNodeAllocatable)
	}
}

func TestLoggingDefaults(t *testing.T) {
	obj := &kc{}
	mustApply(t, obj, gates137(nil))
	l := obj.Logging
	if l.Format != "text" || l.FlushFrequency.Duration.Duration != 5*time.Second || !l.FlushFrequency.SerializeAsString {
		t.Errorf("logging = %+v", l)
	}
	if s := l.Options.Text.InfoBufferSize.String(); s != "0" {
		t.Errorf("text infoBufferSize = %q", s)
	}
	if s := l.Options.JSON.InfoBufferSize.String(); s != "0" {
		t.Errorf("json infoBufferSize = %q", s)
	}
	// Preset values kept; an explicit flushFrequency keeps SerializeAsString false.
	preset := &kc{}
	preset.Logging.Format = "json"
	preset.Logging.FlushFrequency.Duration = d(time.Second)
	preset.Logging.Options.JSON.InfoBufferSize.Quantity = resource.MustParse("1Mi")
	mustApply(t, preset, gates137(nil))
	p := preset.Logging
	if p.Format != "json" || p.FlushFrequency.Duration.Duration != time.Second || p.FlushFrequency.SerializeAsString {
		t.Errorf("preset logging = %+v", p)
	}
	if s := p.Options.JSON.InfoBufferSize.String(); s != "1Mi" {
		t.Errorf("preset json infoBufferSize = %q", s)
	}
	if s := p.Options.Text.InfoBufferSize.String(); s != "0" {
		t.Errorf("text infoBufferSize = %q", s)
	}
}

func TestGatedDefaults(t *testing.T) {
	cases := []struct {
		name       string
		gates      map[string]bool
		preset     func(*kc)
		wantCrash  *metav1.Duration
		wantPolicy kubeletv1beta1.ImagePullCredentialsVerificationPolicy
	}{
		{"both on", map[string]bool{GateKubeletCrashLoopBackOffMax: true, GateKubeletEnsureSecretPulledImages: true}, nil,
			&metav1.Duration{Duration: 300 * time.Second}, kubeletv1beta1.NeverVerifyPreloadedImages},
		{"both off", map[string]bool{}, nil, nil, ""},
		{"crash only", map[string]bool{GateKubeletCrashLoopBackOffMax: true}, nil,
			&metav1.Duration{Duration: 300 * time.Second}, ""},
		{"secret only", map[string]bool{GateKubeletEnsureSecretPulledImages: true}, nil,
			nil, kubeletv1beta1.NeverVerifyPreloadedImages},
		{"on, presets kept", map[string]bool{GateKubeletCrashLoopBackOffMax: true, GateKubeletEnsureSecretPulledImages: true},
			func(o *kc) {
				o.CrashLoopBackOff.MaxContainerRestartPeriod = &metav1.Duration{Duration: 2 * time.Second}
				o.ImagePullCredentialsVerificationPolicy = kubeletv1beta1.AlwaysVerify
			},
			&metav1.Duration{Duration: 2 * time.Second}, kubeletv1beta1.AlwaysVerify},
		{"off, presets kept (validation rejects them later)", map[string]bool{},
			func(o *kc) {
				o.CrashLoopBackOff.MaxContainerRestartPeriod = &metav1.Duration{Duration: 2 * time.Second}
				o.ImagePullCredentialsVerificationPolicy = kubeletv1beta1.NeverVerifyAllowlistedImages
			},
			&metav1.Duration{Duration: 2 * time.Second}, kubeletv1beta1.NeverVerifyAllowlistedImages},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			obj := &kc{}
			if c.preset != nil {
				c.preset(obj)
			}
			mustApply(t, obj, gatesWith(c.gates))
			if !reflect.DeepEqual(obj.CrashLoopBackOff.MaxContainerRestartPeriod, c.wantCrash) {
				t.Errorf("crashLoopBackOff.maxContainerRestartPeriod = %v, want %v", deref(obj.CrashLoopBackOff.MaxContainerRestartPeriod), deref(c.wantCrash))
			}
			if obj.ImagePullCredentialsVerificationPolicy != c.wantPolicy {
				t.Errorf("imagePullCredentialsVerificationPolicy = %q, want %q", obj.ImagePullCredentialsVerificationPolicy, c.wantPolicy)
			}
		})
	}
}

func TestGateNamesQueried(t *testing.T) {
	seen := map[string]int{}
	mustApply(t, &kc{}, func(g string) bool { seen[g]++; return false })
	want := map[string]int{"KubeletCrashLoopBackOffMax": 1, "KubeletEnsureSecretPulledImages": 1}
	if !reflect.DeepEqual(seen, want) {
		t.Errorf("gates queried %v, want %v", seen, want)
	}
}

func TestReservedMemoryRounding(t *testing.T) {
	newObj := func() *kc {
		return &kc{ReservedMemory: []kubeletv1beta1.MemoryReservation{
			{NumaNode: 0, Limits: v1.ResourceList{v1.ResourceMemory: resource.MustParse("1Gi")}},
			{NumaNode: 1, Limits: v1.ResourceList{
				v1.ResourceMemory:                resource.MustParse("1500u"),
				v1.ResourceName("hugepages-2Mi"): resource.MustParse("0.0001"),
			}},
		}}
	}
	// Apply (SetDefaults_KubeletConfiguration) does not round.
	plain := newObj()
	mustApply(t, plain, gates137(nil))
	if q := plain.ReservedMemory[1].Limits[v1.ResourceMemory]; q.String() != "1500u" {
		t.Errorf("Apply rounded reservedMemory: %s", q.String())
	}
	// ApplyObject (SetObjectDefaults_KubeletConfiguration) rounds up to milli.
	obj := newObj()
	if err := ApplyObject("1.37", obj, gates137(nil)); err != nil {
		t.Fatal(err)
	}
	want := map[int]map[v1.ResourceName]string{
		0: {v1.ResourceMemory: "1Gi"},
		1: {v1.ResourceMemory: "2m", "hugepages-2Mi": "1m"},
	}
	for i, mr := range obj.ReservedMemory {
		for name, s := range want[i] {
			q := mr.Limits[name]
			if q.String() != s {
				t.Errorf("reservedMemory[%d].limits[%s] = %s, want %s", i, name, q.String(), s)
			}
		}
	}
	// ApplyObject defaults the rest exactly like Apply.
	a, b := &kc{}, &kc{}
	mustApply(t, a, gates137(nil))
	if err := ApplyObject("1.37", b, gates137(nil)); err != nil {
		t.Fatal(err)
	}
	if diff := semanticDiff(a, b); diff != "" {
		t.Errorf("ApplyObject differs from Apply:\n%s", diff)
	}
}

func TestEvictionHard(t *testing.T) {
	linux := map[string]string{
		"memory.available":   "100Mi",
		"nodefs.available":   "10%",
		"nodefs.inodesFree":  "5%",
		"imagefs.available":  "15%",
		"imagefs.inodesFree": "5%",
	}
	cases := []struct {
		name  string
		minor string
		in    map[string]string
		merge *bool
		want  map[string]string
	}{
		{"nil gets defaults", "1.37", nil, nil, linux},
		{"nil gets defaults, merge true", "1.37", nil, ptr.To(true), linux},
		{"set, merge nil: kept", "1.37", map[string]string{"memory.available": "1Gi"}, nil, map[string]string{"memory.available": "1Gi"}},
		{"set, merge false: kept", "1.37", map[string]string{"memory.available": "1Gi"}, ptr.To(false), map[string]string{"memory.available": "1Gi"}},
		{"set, merge true: missing filled, user value kept", "1.37", map[string]string{"memory.available": "1Gi", "pid.available": "10%"}, ptr.To(true),
			map[string]string{"memory.available": "1Gi", "pid.available": "10%", "nodefs.available": "10%", "nodefs.inodesFree": "5%", "imagefs.available": "15%", "imagefs.inodesFree": "5%"}},
		{"empty, merge false: stays empty", "1.37", map[string]string{}, ptr.To(false), map[string]string{}},
		{"empty, merge true: all defaults", "1.37", map[string]string{}, ptr.To(true), linux},
		{"unsupported minor: untouched", "1.30", nil, nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			obj := &kc{EvictionHard: c.in, MergeDefaultEvictionSettings: c.merge}
			EvictionHard(c.minor, kubelets.Linux, obj)
			if diff := semanticDiff(c.want, obj.EvictionHard); diff != "" {
				t.Errorf("evictionHard:\n%s", diff)
			}
		})
	}
	// The nil case gets a fresh map each time.
	a := &kc{}
	EvictionHard("1.37", kubelets.Linux, a)
	a.EvictionHard["memory.available"] = "1Ti"
	b := &kc{}
	EvictionHard("1.37", kubelets.Linux, b)
	if b.EvictionHard["memory.available"] != "100Mi" {
		t.Errorf("default map aliased: %v", b.EvictionHard)
	}
	if DefaultEvictionHard()["memory.available"] != "100Mi" {
		t.Error("DefaultEvictionHard was mutated")
	}
	EvictionHard("1.37", kubelets.Linux, nil) // must not panic

	// Windows (eviction/defaults_windows.go): 500Mi of memory, no inode signals.
	windows := map[string]string{"memory.available": "500Mi", "nodefs.available": "10%", "imagefs.available": "15%"}
	w := &kc{}
	EvictionHard("1.37", kubelets.Windows, w)
	if diff := semanticDiff(windows, w.EvictionHard); diff != "" {
		t.Errorf("Windows, nil:\n%s", diff)
	}
	w = &kc{EvictionHard: map[string]string{"memory.available": "1Gi"}, MergeDefaultEvictionSettings: ptr.To(true)}
	EvictionHard("1.37", kubelets.Windows, w)
	if diff := semanticDiff(map[string]string{"memory.available": "1Gi", "nodefs.available": "10%", "imagefs.available": "15%"}, w.EvictionHard); diff != "" {
		t.Errorf("Windows, merged:\n%s", diff)
	}
}

// jsonPathExists reports whether path (dot-separated JSON names) names a
// field of KubeletConfiguration.
func jsonPathExists(path string) bool {
	t := reflect.TypeOf(kc{})
	for _, name := range strings.Split(path, ".") {
		if t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		found := false
		for i := 0; i < t.NumField(); i++ {
			tag := strings.Split(t.Field(i).Tag.Get("json"), ",")[0]
			if tag == name {
				t = t.Field(i).Type
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func TestPathFields(t *testing.T) {
	want := []string{"staticPodPath", "authentication.x509.clientCAFile", "tlsCertFile", "tlsPrivateKeyFile", "resolvConf", "volumePluginDir", "podLogsDir"}
	if !reflect.DeepEqual(PathFields, want) {
		t.Errorf("PathFields = %v, want %v", PathFields, want)
	}
	for _, p := range PathFields {
		if !jsonPathExists(p) {
			t.Errorf("PathFields entry %q is not a KubeletConfiguration JSON path", p)
		}
	}
}

func TestResolveRelativePaths(t *testing.T) {
	t.Run("all relative", func(t *testing.T) {
		shared := "resolv.conf"
		obj := &kc{
			StaticPodPath:     "manifests",
			TLSCertFile:       "pki/../pki/cert.pem",
			TLSPrivateKeyFile: "./key.pem",
			ResolverConfig:    &shared,
			VolumePluginDir:   "plugins/",
			PodLogsDir:        "../logs",
		}
		obj.Authentication.X509.ClientCAFile = "ca.crt"
		changed := ResolveRelativePaths(obj, "/etc/kubernetes", kubelets.Linux)
		if !reflect.DeepEqual(changed, PathFields) {
			t.Errorf("changed = %v, want %v", changed, PathFields)
		}
		got := map[string]string{
			"staticPodPath":     obj.StaticPodPath,
			"clientCAFile":      obj.Authentication.X509.ClientCAFile,
			"tlsCertFile":       obj.TLSCertFile,
			"tlsPrivateKeyFile": obj.TLSPrivateKeyFile,
			"resolvConf":        *obj.ResolverConfig,
			"volumePluginDir":   obj.VolumePluginDir,
			"podLogsDir":        obj.PodLogsDir,
		}
		want := map[string]string{
			"staticPodPath":     "/etc/kubernetes/manifests",
			"clientCAFile":      "/etc/kubernetes/ca.crt",
			"tlsCertFile":       "/etc/kubernetes/pki/cert.pem",
			"tlsPrivateKeyFile": "/etc/kubernetes/key.pem",
			"resolvConf":        "/etc/kubernetes/resolv.conf",
			"volumePluginDir":   "/etc/kubernetes/plugins", // filepath.Join cleans the trailing slash
			"podLogsDir":        "/etc/logs",
		}
		if diff := semanticDiff(want, got); diff != "" {
			t.Error(diff)
		}
		if shared != "resolv.conf" {
			t.Errorf("resolvConf was written through the caller's pointer: %q", shared)
		}
	})
	t.Run("absolute and empty untouched", func(t *testing.T) {
		obj := &kc{
			StaticPodPath:   "/abs/manifests/",
			TLSCertFile:     "",
			ResolverConfig:  ptr.To(""),
			VolumePluginDir: "/usr/libexec/x/",
			PodLogsDir:      "/var/log/pods",
		}
		before := obj.DeepCopy()
		if changed := ResolveRelativePaths(obj, "/etc/kubernetes", kubelets.Linux); len(changed) != 0 {
			t.Errorf("changed = %v, want none", changed)
		}
		if diff := semanticDiff(before, obj); diff != "" {
			t.Errorf("object changed:\n%s", diff)
		}
	})
	t.Run("nil resolvConf stays nil", func(t *testing.T) {
		obj := &kc{PodLogsDir: "logs"}
		changed := ResolveRelativePaths(obj, "/cfg", kubelets.Linux)
		if obj.ResolverConfig != nil {
			t.Errorf("resolvConf = %q, want nil", *obj.ResolverConfig)
		}
		if !reflect.DeepEqual(changed, []string{"podLogsDir"}) || obj.PodLogsDir != "/cfg/logs" {
			t.Errorf("changed = %v, podLogsDir = %q", changed, obj.PodLogsDir)
		}
	})
	t.Run("after Apply defaults are absolute", func(t *testing.T) {
		obj := &kc{}
		mustApply(t, obj, gates137(nil))
		if changed := ResolveRelativePaths(obj, "/cfg", kubelets.Linux); len(changed) != 0 {
			t.Errorf("changed = %v", changed)
		}
	})
}

// TestIsAbsOS: the kubelet's utilfs.IsAbs per OS. On Windows a drive path, a
// UNC path and any path starting with / or \ are absolute (a kubeadm Windows
// node's C:\etc\kubernetes\manifests and \etc\kubernetes\pki\ca.crt are not
// resolved against the config file's folder); on Linux only a leading /.
func TestIsAbsOS(t *testing.T) {
	tests := []struct {
		path           string
		linux, windows bool
	}{
		{"/etc/kubernetes/manifests", true, true},
		{`C:\etc\kubernetes\manifests`, false, true},
		{"c:/k/config", false, true},
		{`\etc\kubernetes\pki\ca.crt`, false, true},
		{`\\server\share\ca.crt`, false, true},
		{"C:manifests", false, false},
		{"manifests", false, false},
		{"", false, false},
	}
	for _, tt := range tests {
		if got := IsAbs(kubelets.Linux, tt.path); got != tt.linux {
			t.Errorf("IsAbs(linux, %q) = %v, want %v", tt.path, got, tt.linux)
		}
		if got := IsAbs(kubelets.Windows, tt.path); got != tt.windows {
			t.Errorf("IsAbs(windows, %q) = %v, want %v", tt.path, got, tt.windows)
		}
	}
	obj := &kubeletv1beta1.KubeletConfiguration{StaticPodPath: `C:\etc\kubernetes\manifests`}
	if changed := ResolveRelativePaths(obj, "/cfg", kubelets.Windows); len(changed) != 0 || obj.StaticPodPath != `C:\etc\kubernetes\manifests` {
		t.Errorf("windows: %v resolved to %q", changed, obj.StaticPodPath)
	}
	if changed := ResolveRelativePaths(obj, "/cfg", kubelets.Linux); len(changed) != 1 {
		t.Errorf("linux: a drive path is relative, resolved: %v", changed)
	}
}
