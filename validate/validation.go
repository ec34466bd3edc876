package validate

//lint:file-ignore SA1019 the kubelet still defaults and validates its deprecated fields; this file reproduces that

import (
	"crypto/tls"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	utilvalidation "k8s.io/apimachinery/pkg/util/validation"
	cliflag "k8s.io/component-base/cli/flag"

	"github.com/kubeletcfg/kubeletcfg/rule"
	kubeletv1beta1 "github.com/kubeletcfg/kubeletcfg/upstream/kubelet/config/v1beta1"
)

// The rules in this file mirror ValidateKubeletConfiguration in
// pkg/kubelet/apis/config/validation/validation.go, in source order, from
// nodeLeaseDurationSeconds to runOnce, for every minor in releases (a rule added
// later says Since; a changed message is a byMinor value). The kubelet runs every
// check and joins the failures; any failure stops it from starting with
//
//	failed to validate kubelet configuration, error: <errors>, path: <config>
//
// Each rule reports the one error string it mirrors in Finding.Kubelet.

type kvConfig = kubeletv1beta1.KubeletConfiguration

// negativeRule builds the "%s (--%s) %v must not be a negative number" checks.
func kvNegativeRule(id, name, field, flag, about string, get func(*kvConfig) int64) *rule.Rule {
	return kvRule(&rule.Rule{
		ID:      id,
		Name:    name,
		Fields:  []string{field},
		Summary: field + " must not be negative",
		Doc: fmt.Sprintf("The kubelet refuses a negative %s (--%s). %s "+
			"Fix: use zero or a positive value, or remove the field to get the default.", field, flag, about),
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if v := get(k); v < 0 {
			emit(field,
				fmt.Sprintf("%s is %d; it must not be negative", field, v),
				fmt.Sprintf("set %s to 0 or more, or remove it to use the default", field),
				fmt.Sprintf("invalid configuration: %s (--%s) %v must not be a negative number", field, flag, v))
		}
	})
}

// rangeRule builds the "%s (--%s) %v must be between A and B, inclusive" checks.
// lo and hi are the range checked; msgLo is the lower bound the message prints
// (readOnlyPort checks 1..65535 but prints 0). skipZero skips the check for 0.
func kvRangeRule(id, name, field, flag, about string, lo, hi, msgLo int, skipZero bool, get func(*kvConfig) int64) *rule.Rule {
	zero, summary := "", fmt.Sprintf("%s must be between %d and %d", field, lo, hi)
	if skipZero {
		zero = " Zero is allowed and disables it."
		summary = fmt.Sprintf("%s must be 0 (disabled) or between %d and %d", field, lo, hi)
	}
	return kvRule(&rule.Rule{
		ID:      id,
		Name:    name,
		Fields:  []string{field},
		Summary: summary,
		Doc: fmt.Sprintf("The kubelet refuses a %s (--%s) outside %d..%d inclusive.%s %s "+
			"Fix: pick a value in range.", field, flag, lo, hi, zero, about),
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		v := get(k)
		if skipZero && v == 0 {
			return
		}
		if utilvalidation.IsInRange(int(v), lo, hi) != nil {
			hint := fmt.Sprintf("use a value from %d to %d", lo, hi)
			if skipZero {
				hint += " (or 0 to disable)"
			}
			emit(field,
				fmt.Sprintf("%s is %d, outside the allowed range %d..%d", field, v, lo, hi),
				hint,
				fmt.Sprintf("invalid configuration: %s (--%s) %v must be between %d and %d, inclusive", field, flag, v, msgLo, hi))
		}
	})
}

var kvDefaultCFSQuota = 100 * time.Millisecond

var (
	kvNodeLeaseDuration = kvRule(&rule.Rule{
		ID:      "KC4001",
		Fields:  []string{"nodeLeaseDurationSeconds"},
		Name:    "node-lease-duration-positive",
		Summary: "nodeLeaseDurationSeconds must be greater than 0",
		Doc: "The node lease duration is how long the control plane waits for a lease renewal before " +
			"considering the node unhealthy; the kubelet refuses zero or a negative value. " +
			"Defaulting turns 0 into 40, so this fires only for a negative value. Fix: use a positive " +
			"number of seconds (default 40).",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if k.NodeLeaseDurationSeconds <= 0 {
			emit("nodeLeaseDurationSeconds",
				fmt.Sprintf("nodeLeaseDurationSeconds is %d; it must be greater than 0", k.NodeLeaseDurationSeconds),
				"set nodeLeaseDurationSeconds to a positive number of seconds (default 40)",
				"invalid configuration: nodeLeaseDurationSeconds must be greater than 0")
		}
	})

	kvSystemCgroupsNeedsRoot = kvRule(&rule.Rule{
		ID:      "KC4002",
		Fields:  []string{"systemCgroups", "cgroupRoot"},
		Name:    "system-cgroups-needs-cgroup-root",
		Summary: "systemCgroups requires cgroupRoot",
		Doc: "systemCgroups places non-kernel system processes in a cgroup, which the kubelet resolves " +
			"under cgroupRoot; setting it without cgroupRoot is refused. Fix: set cgroupRoot (for " +
			"example \"/\") or remove systemCgroups.",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if k.SystemCgroups != "" && k.CgroupRoot == "" {
			emit("systemCgroups",
				fmt.Sprintf("systemCgroups is set to %q but cgroupRoot is empty", k.SystemCgroups),
				"set cgroupRoot (for example \"/\") or remove systemCgroups",
				"invalid configuration: systemCgroups (--system-cgroups) was specified and cgroupRoot (--cgroup-root) was not specified")
		}
	})

	kvEventBurst = kvNegativeRule("KC4003", "event-burst-non-negative", "eventBurst", "event-burst",
		"It is the burst size for event creation (default 100).",
		func(k *kvConfig) int64 { return int64(k.EventBurst) })

	kvEventRecordQPS = kvNegativeRule("KC4004", "event-qps-non-negative", "eventRecordQPS", "event-qps",
		"It limits event creations per second; 0 means unlimited (default 50).",
		func(k *kvConfig) int64 { return int64(kvI32(k.EventRecordQPS)) })

	kvHealthzPort = kvRangeRule("KC4005", "healthz-port-range", "healthzPort", "healthz-port",
		"It is the port of the localhost healthz endpoint (default 10248).",
		1, 65535, 1, true, func(k *kvConfig) int64 { return int64(kvI32(k.HealthzPort)) })

	kvCPUCFSQuotaPeriodGate = kvRule(&rule.Rule{
		ID:      "KC4006",
		Fields:  []string{"cpuCFSQuotaPeriod"},
		Name:    "cpu-cfs-quota-period-needs-gate",
		Summary: "cpuCFSQuotaPeriod other than 100ms requires the CustomCPUCFSQuotaPeriod gate",
		Doc: "With the CustomCPUCFSQuotaPeriod feature gate off, the kubelet only accepts the default " +
			"CFS quota period of 100ms. The gate is alpha and off by default up to 1.35, so any other period " +
			"is refused there unless featureGates enables it; from 1.36 it is GA and on by default (not locked), " +
			"so this fires only when featureGates turns it off. Fix: enable CustomCPUCFSQuotaPeriod or remove " +
			"cpuCFSQuotaPeriod.",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		p := kvDur(k.CPUCFSQuotaPeriod)
		if !kvEnabled(c, "CustomCPUCFSQuotaPeriod") && p.Duration != kvDefaultCFSQuota {
			emit("cpuCFSQuotaPeriod",
				fmt.Sprintf("cpuCFSQuotaPeriod is %v but the CustomCPUCFSQuotaPeriod feature gate is off, so only 100ms is allowed", p.Duration),
				"enable featureGates.CustomCPUCFSQuotaPeriod, or remove cpuCFSQuotaPeriod (default 100ms)",
				fmt.Sprintf("invalid configuration: cpuCFSQuotaPeriod (--cpu-cfs-quota-period) %v requires feature gate CustomCPUCFSQuotaPeriod", p))
		}
	})

	kvCPUCFSQuotaPeriodRange = kvRule(&rule.Rule{
		ID:      "KC4007",
		Fields:  []string{"cpuCFSQuotaPeriod"},
		Name:    "cpu-cfs-quota-period-range",
		Summary: "cpuCFSQuotaPeriod must be between 1ms and 1s",
		Doc: "With the CustomCPUCFSQuotaPeriod gate on, the CFS quota period must lie between 1ms and " +
			"1s inclusive, the range the kernel accepts for cpu.cfs_period_us. Fix: choose a period in range.",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		p := kvDur(k.CPUCFSQuotaPeriod)
		if kvEnabled(c, "CustomCPUCFSQuotaPeriod") && utilvalidation.IsInRange(int(p.Duration), int(time.Millisecond), int(time.Second)) != nil {
			emit("cpuCFSQuotaPeriod",
				fmt.Sprintf("cpuCFSQuotaPeriod is %v, outside 1ms..1s", p.Duration),
				"set cpuCFSQuotaPeriod between 1ms and 1s (default 100ms)",
				fmt.Sprintf("invalid configuration: cpuCFSQuotaPeriod (--cpu-cfs-quota-period) %v must be between 1ms and 1sec, inclusive", p))
		}
	})

	kvImageGCHigh = kvRangeRule("KC4008", "image-gc-high-threshold-range", "imageGCHighThresholdPercent", "image-gc-high-threshold",
		"It is the disk usage percent above which image garbage collection always runs (default 85).",
		0, 100, 0, false, func(k *kvConfig) int64 { return int64(kvI32(k.ImageGCHighThresholdPercent)) })

	kvImageGCLow = kvRangeRule("KC4009", "image-gc-low-threshold-range", "imageGCLowThresholdPercent", "image-gc-low-threshold",
		"It is the disk usage percent below which image garbage collection never runs (default 80).",
		0, 100, 0, false, func(k *kvConfig) int64 { return int64(kvI32(k.ImageGCLowThresholdPercent)) })

	kvImageGCLowBelowHigh = kvRule(&rule.Rule{
		ID:      "KC4010",
		Fields:  []string{"imageGCLowThresholdPercent", "imageGCHighThresholdPercent"},
		Name:    "image-gc-low-below-high",
		Summary: "imageGCLowThresholdPercent must be less than imageGCHighThresholdPercent",
		Doc: "Image garbage collection starts above the high threshold and frees space down to the low " +
			"one, so low must be strictly below high. Setting both to the same value (for example to " +
			"disable image GC) is refused. Fix: keep low below high (defaults 80 and 85).",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		lo, hi := kvI32(k.ImageGCLowThresholdPercent), kvI32(k.ImageGCHighThresholdPercent)
		if lo >= hi {
			emit(kvPick(c, "imageGCLowThresholdPercent", "imageGCHighThresholdPercent"),
				fmt.Sprintf("imageGCLowThresholdPercent (%d) is not below imageGCHighThresholdPercent (%d)", lo, hi),
				"make imageGCLowThresholdPercent strictly less than imageGCHighThresholdPercent",
				fmt.Sprintf("invalid configuration: imageGCLowThresholdPercent (--image-gc-low-threshold) %v must be less than imageGCHighThresholdPercent (--image-gc-high-threshold) %v", lo, hi))
		}
	})

	kvImageMaximumGCAgeGate = kvRule(&rule.Rule{
		ID:      "KC4011",
		Fields:  []string{"imageMaximumGCAge"},
		Name:    "image-maximum-gc-age-needs-gate",
		Summary: "imageMaximumGCAge requires the ImageMaximumGCAge gate",
		Doc: "imageMaximumGCAge (remove images unused for this long) needs the ImageMaximumGCAge feature " +
			"gate. The gate is beta and on by default up to 1.34, so this fires there when featureGates turns " +
			"it off; from 1.35 it is GA and locked on, so this cannot fire. Fix: enable the gate or remove " +
			"imageMaximumGCAge.",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if k.ImageMaximumGCAge.Duration != 0 && !kvEnabled(c, "ImageMaximumGCAge") {
			emit("imageMaximumGCAge",
				fmt.Sprintf("imageMaximumGCAge is %v but the ImageMaximumGCAge feature gate is off", k.ImageMaximumGCAge.Duration),
				"enable featureGates.ImageMaximumGCAge or remove imageMaximumGCAge",
				"invalid configuration: ImageMaximumGCAge feature gate is required for Kubelet configuration option imageMaximumGCAge")
		}
	})

	kvDefaultPodSysctlsGate = kvRule(&rule.Rule{
		ID:      "KC4012",
		Fields:  []string{"defaultPodSysctls"},
		Since:   "1.37",
		Name:    "default-pod-sysctls-needs-gate",
		Summary: "defaultPodSysctls requires the DefaultPodSysctls gate",
		Doc: "defaultPodSysctls (sysctls applied to every pod sandbox) is alpha in 1.37 and needs the " +
			"DefaultPodSysctls feature gate, which is off by default. Fix: enable the gate or remove " +
			"defaultPodSysctls.",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if len(k.DefaultPodSysctls) > 0 && !kvEnabled(c, "DefaultPodSysctls") {
			emit("defaultPodSysctls",
				"defaultPodSysctls is set but the DefaultPodSysctls feature gate is off",
				"set featureGates.DefaultPodSysctls: true (alpha), or remove defaultPodSysctls",
				"invalid configuration: DefaultPodSysctls feature gate is required for Kubelet configuration option defaultPodSysctls")
		}
	})

	kvDefaultPodSysctlName = kvRule(&rule.Rule{
		ID:      "KC4013",
		Fields:  []string{"defaultPodSysctls"},
		Since:   "1.37",
		Name:    "default-pod-sysctl-name",
		Summary: "defaultPodSysctls keys must be valid sysctl names",
		Doc: "With the DefaultPodSysctls gate on, each key of defaultPodSysctls must be a sysctl name: " +
			"at most 253 characters of lowercase segments ([a-z0-9], with - and _ inside) separated by " +
			"dots or slashes. Fix: correct the name (for example net.ipv4.ip_forward).",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if len(k.DefaultPodSysctls) == 0 || !kvEnabled(c, "DefaultPodSysctls") {
			return
		}
		for _, name := range kvSortedKeys(k.DefaultPodSysctls) {
			if !kvIsValidSysctlName(name) {
				emit("defaultPodSysctls["+name+"]",
					fmt.Sprintf("%q is not a valid sysctl name", name),
					"use a lowercase sysctl name of at most 253 characters, segments separated by '.' or '/', for example net.ipv4.ip_forward",
					fmt.Sprintf("invalid configuration: %q is not a valid sysctl name for defaultPodSysctls", name))
			}
		}
	})

	kvDefaultPodSysctlNamespaced = kvRule(&rule.Rule{
		ID:      "KC4014",
		Fields:  []string{"defaultPodSysctls"},
		Since:   "1.37",
		Name:    "default-pod-sysctl-namespaced",
		Summary: "defaultPodSysctls may only hold namespaced sysctls",
		Doc: "A sysctl applied to a pod sandbox must be namespaced by the kernel, or it would change the " +
			"whole node. The kubelet accepts net.*, user.*, fs.mqueue.*, kernel.domainname, kernel.sem, " +
			"kernel.shm* and kernel.msg* ones. Fix: remove node-wide sysctls (set them on the host instead).",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if len(k.DefaultPodSysctls) == 0 || !kvEnabled(c, "DefaultPodSysctls") {
			return
		}
		for _, name := range kvSortedKeys(k.DefaultPodSysctls) {
			if kvIsValidSysctlName(name) && kvSysctlNamespace(name) == "" {
				emit("defaultPodSysctls["+name+"]",
					fmt.Sprintf("sysctl %q is not known to be namespaced, so it cannot be set per pod", name),
					"keep only namespaced sysctls (net.*, user.*, fs.mqueue.*, kernel.sem, kernel.shm*, kernel.msg*, kernel.domainname); set node-wide sysctls on the host",
					fmt.Sprintf("invalid configuration: %q is not known to be namespaced for defaultPodSysctls", name))
			}
		}
	})

	kvDefaultPodSysctlDuplicate = kvRule(&rule.Rule{
		ID:      "KC4015",
		Fields:  []string{"defaultPodSysctls"},
		Since:   "1.37",
		Name:    "default-pod-sysctl-duplicate",
		Summary: "defaultPodSysctls must not name one sysctl twice",
		Doc: "The kubelet normalizes slash-separated names (net/ipv4/ip_forward) to the dotted form " +
			"(net.ipv4.ip_forward); two keys that normalize to the same sysctl are refused. Fix: keep one " +
			"of them.",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if len(k.DefaultPodSysctls) == 0 || !kvEnabled(c, "DefaultPodSysctls") {
			return
		}
		seen := map[string]string{}
		for _, name := range kvSortedKeys(k.DefaultPodSysctls) {
			if !kvIsValidSysctlName(name) {
				continue
			}
			n := kvNormalizeSysctlName(name)
			if first, dup := seen[n]; dup {
				emit("defaultPodSysctls["+name+"]",
					fmt.Sprintf("sysctl %q is set twice: as %q and as %q", n, first, name),
					"remove one of the two keys",
					fmt.Sprintf("invalid configuration: duplicate sysctl %q found in defaultPodSysctls", n))
				continue
			}
			seen[n] = name
		}
	})

	kvImageMinimumGCAgeNegative = kvRule(&rule.Rule{
		ID:      "KC4016",
		Fields:  []string{"imageMinimumGCAge"},
		Since:   "1.36",
		Name:    "image-minimum-gc-age-non-negative",
		Summary: "imageMinimumGCAge must not be negative",
		Doc: "imageMinimumGCAge is the minimum age of an unused image before garbage collection may " +
			"remove it; a negative duration is refused. Fix: use a positive duration (default 2m).",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if d := k.ImageMinimumGCAge.Duration; d < 0 {
			emit("imageMinimumGCAge",
				fmt.Sprintf("imageMinimumGCAge is %v; it must not be negative", d),
				"set imageMinimumGCAge to a positive duration such as 2m",
				fmt.Sprintf("invalid configuration: imageMinimumGCAge %v must not be negative", d))
		}
	})

	kvImageMaximumGCAgeNegative = kvRule(&rule.Rule{
		ID:      "KC4017",
		Fields:  []string{"imageMaximumGCAge"},
		Name:    "image-maximum-gc-age-non-negative",
		Summary: "imageMaximumGCAge must not be negative",
		Doc: "imageMaximumGCAge removes images unused for longer than it; 0 disables it and a negative " +
			"duration is refused. Fix: use 0 or a positive duration.",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if d := k.ImageMaximumGCAge.Duration; d < 0 {
			emit("imageMaximumGCAge",
				fmt.Sprintf("imageMaximumGCAge is %v; it must not be negative", d),
				"set imageMaximumGCAge to 0 (disabled) or a positive duration",
				fmt.Sprintf("invalid configuration: imageMaximumGCAge %v must not be negative", d))
		}
	})

	kvImageMaximumAboveMinimum = kvRule(&rule.Rule{
		ID:      "KC4018",
		Fields:  []string{"imageMaximumGCAge", "imageMinimumGCAge"},
		Name:    "image-maximum-gc-age-above-minimum",
		Summary: "imageMaximumGCAge must be greater than imageMinimumGCAge",
		Doc: "When imageMaximumGCAge is set (non-zero) it must exceed imageMinimumGCAge, otherwise images " +
			"would be due for removal before they may be removed. Fix: raise imageMaximumGCAge above " +
			"imageMinimumGCAge (default 2m) or set it to 0.",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		mx, mn := k.ImageMaximumGCAge.Duration, k.ImageMinimumGCAge.Duration
		if mx > 0 && mx <= mn {
			emit(kvPick(c, "imageMaximumGCAge", "imageMinimumGCAge"),
				fmt.Sprintf("imageMaximumGCAge (%v) is not greater than imageMinimumGCAge (%v)", mx, mn),
				"make imageMaximumGCAge longer than imageMinimumGCAge, or set it to 0 to disable it",
				fmt.Sprintf("invalid configuration: imageMaximumGCAge %v must be greater than imageMinimumGCAge %v", mx, mn))
		}
	})

	kvIPTablesDropBit = kvRangeRule("KC4019", "iptables-drop-bit-range", "iptablesDropBit", "iptables-drop-bit",
		"It is the fwmark bit used to mark packets to drop (default 15).",
		0, 31, 0, false, func(k *kvConfig) int64 { return int64(kvI32(k.IPTablesDropBit)) })

	kvIPTablesMasqueradeBit = kvRangeRule("KC4020", "iptables-masquerade-bit-range", "iptablesMasqueradeBit", "iptables-masquerade-bit",
		"It is the fwmark bit used to mark packets for SNAT (default 14).",
		0, 31, 0, false, func(k *kvConfig) int64 { return int64(kvI32(k.IPTablesMasqueradeBit)) })

	kvKubeAPIBurst = kvNegativeRule("KC4021", "kube-api-burst-non-negative", "kubeAPIBurst", "kube-api-burst",
		"It is the burst allowed when talking to the API server (default 100).",
		func(k *kvConfig) int64 { return int64(k.KubeAPIBurst) })

	kvKubeAPIQPS = kvNegativeRule("KC4022", "kube-api-qps-non-negative", "kubeAPIQPS", "kube-api-qps",
		"It is the QPS used when talking to the API server (default 50).",
		func(k *kvConfig) int64 { return int64(kvI32(k.KubeAPIQPS)) })

	kvNodeStatusMaxImages = kvRule(&rule.Rule{
		ID:      "KC4023",
		Fields:  []string{"nodeStatusMaxImages"},
		Name:    "node-status-max-images-range",
		Summary: "nodeStatusMaxImages must be -1 or greater",
		Doc: "nodeStatusMaxImages caps the images reported in Node.status.images; -1 means no cap and " +
			"values below -1 are refused. Fix: use -1, 0 or a positive number (default 50).",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if v := kvI32(k.NodeStatusMaxImages); v < -1 {
			emit("nodeStatusMaxImages",
				fmt.Sprintf("nodeStatusMaxImages is %d; the smallest allowed value is -1", v),
				"use -1 (no cap), 0, or a positive number (default 50)",
				fmt.Sprintf("invalid configuration: nodeStatusMaxImages (--node-status-max-images) %v must be -1 or greater", v))
		}
	})

	kvMaxOpenFiles = kvNegativeRule("KC4024", "max-open-files-non-negative", "maxOpenFiles", "max-open-files",
		"It is the open file limit of the kubelet process (default 1000000).",
		func(k *kvConfig) int64 { return k.MaxOpenFiles })

	kvMaxPods = kvNegativeRule("KC4025", "max-pods-non-negative", "maxPods", "max-pods",
		"It is the maximum number of pods on the node (default 110).",
		func(k *kvConfig) int64 { return int64(k.MaxPods) })

	kvOOMScoreAdj = kvRangeRule("KC4026", "oom-score-adj-range", "oomScoreAdj", "oom-score-adj",
		"It is the OOM score adjustment of the kubelet process (default -999).",
		-1000, 1000, -1000, false, func(k *kvConfig) int64 { return int64(kvI32(k.OOMScoreAdj)) })

	kvPodsPerCore = kvNegativeRule("KC4027", "pods-per-core-non-negative", "podsPerCore", "pods-per-core",
		"It caps pods per CPU core; 0 means no cap.",
		func(k *kvConfig) int64 { return int64(k.PodsPerCore) })

	kvPort = kvRangeRule("KC4028", "port-range", "port", "port",
		"It is the kubelet's HTTPS API port (default 10250); 0 is replaced by the default.",
		1, 65535, 1, false, func(k *kvConfig) int64 { return int64(k.Port) })

	kvReadOnlyPort = kvRangeRule("KC4029", "read-only-port-range", "readOnlyPort", "read-only-port",
		"It is the unauthenticated read-only port; 0 (the default) disables it. The kubelet's message says \"between 0 and 65535\" although it checks 1..65535 after skipping 0.",
		1, 65535, 0, true, func(k *kvConfig) int64 { return int64(k.ReadOnlyPort) })

	kvRegistryBurst = kvNegativeRule("KC4030", "registry-burst-non-negative", "registryBurst", "registry-burst",
		"It is the burst of image pulls (default 10).",
		func(k *kvConfig) int64 { return int64(k.RegistryBurst) })

	kvRegistryPullQPS = kvNegativeRule("KC4031", "registry-qps-non-negative", "registryPullQPS", "registry-qps",
		"It limits image pulls per second; 0 means unlimited (default 5).",
		func(k *kvConfig) int64 { return int64(kvI32(k.RegistryPullQPS)) })

	kvMaxParallelImagePullsPositive = kvRule(&rule.Rule{
		ID:      "KC4032",
		Fields:  []string{"maxParallelImagePulls"},
		Name:    "max-parallel-image-pulls-positive",
		Summary: "maxParallelImagePulls must be at least 1",
		Doc: "maxParallelImagePulls caps concurrent image pulls; when set it must be 1 or more. Fix: use " +
			"a positive number or remove the field (no cap).",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if k.MaxParallelImagePulls != nil && *k.MaxParallelImagePulls < 1 {
			emit("maxParallelImagePulls",
				fmt.Sprintf("maxParallelImagePulls is %d; it must be at least 1", *k.MaxParallelImagePulls),
				"set maxParallelImagePulls to 1 or more, or remove it",
				fmt.Sprintf("invalid configuration: maxParallelImagePulls %v must be a positive number", *k.MaxParallelImagePulls))
		}
	})

	kvMaxParallelImagePullsSerialized = kvRule(&rule.Rule{
		ID:      "KC4033",
		Fields:  []string{"maxParallelImagePulls", "serializeImagePulls"},
		Name:    "max-parallel-image-pulls-needs-parallel",
		Summary: "maxParallelImagePulls above 1 requires serializeImagePulls: false",
		Doc: "With serializeImagePulls true the kubelet pulls one image at a time, so a " +
			"maxParallelImagePulls above 1 contradicts it. Defaulting sets serializeImagePulls to false " +
			"when maxParallelImagePulls is 2 or more, so this fires when serializeImagePulls: true is " +
			"written explicitly. Fix: set serializeImagePulls: false, or maxParallelImagePulls to 1.",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if kvBool(k.SerializeImagePulls) && k.MaxParallelImagePulls != nil && *k.MaxParallelImagePulls > 1 {
			emit(kvPick(c, "maxParallelImagePulls", "serializeImagePulls"),
				fmt.Sprintf("maxParallelImagePulls is %d but serializeImagePulls is true", *k.MaxParallelImagePulls),
				"set serializeImagePulls: false to pull in parallel, or lower maxParallelImagePulls to 1",
				"invalid configuration: maxParallelImagePulls cannot be larger than 1 unless SerializeImagePulls (--serialize-image-pulls) is set to false")
		}
	})

	kvServerTLSBootstrapGate = kvRule(&rule.Rule{
		ID:      "KC4034",
		Fields:  []string{"serverTLSBootstrap"},
		Name:    "server-tls-bootstrap-needs-gate",
		Summary: "serverTLSBootstrap requires the RotateKubeletServerCertificate gate",
		Doc: "serverTLSBootstrap requests the kubelet serving certificate from the certificates API, " +
			"which needs the RotateKubeletServerCertificate feature gate (beta, on by default). Fix: " +
			"do not turn the gate off, or set serverTLSBootstrap: false.",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if k.ServerTLSBootstrap && !kvEnabled(c, "RotateKubeletServerCertificate") {
			emit("serverTLSBootstrap",
				"serverTLSBootstrap is true but the RotateKubeletServerCertificate feature gate is off",
				"enable featureGates.RotateKubeletServerCertificate or set serverTLSBootstrap: false",
				fmt.Sprintf("invalid configuration: serverTLSBootstrap %v requires feature gate RotateKubeletServerCertificate", k.ServerTLSBootstrap))
		}
	})

	kvClientKeyAlgorithm = kvKeyAlgorithmRule("KC4105", "clientCertificateKeyAlgorithm", "client",
		"picks the key of the client certificate signing requests the kubelet makes when it rotates its client certificate",
		func(k *kvConfig) *kubeletv1beta1.CertificateKeyAlgorithmType { return k.ClientCertificateKeyAlgorithm })

	kvServerKeyAlgorithm = kvKeyAlgorithmRule("KC4106", "serverCertificateKeyAlgorithm", "server",
		"picks the key of the serving certificate the kubelet requests with serverTLSBootstrap, or generates when it signs its own",
		func(k *kvConfig) *kubeletv1beta1.CertificateKeyAlgorithmType { return k.ServerCertificateKeyAlgorithm })

	kvMLDSANeedsTLS13 = kvRule(&rule.Rule{
		ID:      "KC4107",
		Fields:  []string{"serverCertificateKeyAlgorithm", "tlsMinVersion"},
		Since:   "1.38",
		Name:    "ml-dsa-needs-tls13",
		Summary: "an ML-DSA serverCertificateKeyAlgorithm requires tlsMinVersion: VersionTLS13",
		Doc: "Go refuses ML-DSA certificates under TLS 1.2, so with serverCertificateKeyAlgorithm ML-DSA-44, " +
			"ML-DSA-65 or ML-DSA-87 the kubelet requires tlsMinVersion VersionTLS13; an empty tlsMinVersion " +
			"means TLS 1.2 and is refused too (an unknown one is reported when the TLS options are set up). " +
			"Fix: set tlsMinVersion: VersionTLS13, or use an ECDSA or RSA key algorithm.",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		a := k.ServerCertificateKeyAlgorithm
		if a == nil || !slices.Contains(kvMLDSAKeyAlgorithms, *a) { // keyalgorithm.IsMLDSA
			return
		}
		if v, err := cliflag.TLSVersion(k.TLSMinVersion); err == nil && v < tls.VersionTLS13 {
			emit(kvPick(c, "tlsMinVersion", "serverCertificateKeyAlgorithm"),
				fmt.Sprintf("serverCertificateKeyAlgorithm %s needs TLS 1.3, but tlsMinVersion is %q", *a, k.TLSMinVersion),
				"set tlsMinVersion: VersionTLS13, or use an ECDSA or RSA key algorithm",
				fmt.Sprintf("invalid configuration: tlsMinVersion %q is incompatible with serverCertificateKeyAlgorithm %q, ML-DSA requires VersionTLS13", k.TLSMinVersion, *a))
		}
	})

	kvRunOnce = kvRule(&rule.Rule{
		ID:      "KC4035",
		Fields:  []string{"runOnce"},
		Since:   "1.32",
		Name:    "run-once-deprecated",
		Summary: "runOnce must not be set",
		Doc: "Run-once mode (start the static pods once and exit) is deprecated and, from 1.32, the kubelet " +
			"refuses to start with runOnce: true. Fix: remove runOnce.",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if k.RunOnce {
			emit("runOnce",
				"runOnce is true; run-once mode is deprecated and refused",
				"remove runOnce (or set it to false)",
				fmt.Sprintf("invalid configuration: runOnce (--runOnce) %v, Runonce mode has been deprecated and should not be set", k.RunOnce))
		}
	})
)

// kvMLDSAKeyAlgorithms are the ones keyalgorithm.IsMLDSA (1.38) names.
var kvMLDSAKeyAlgorithms = []kubeletv1beta1.CertificateKeyAlgorithmType{
	kubeletv1beta1.CertificateKeyAlgorithmMLDSA44, kubeletv1beta1.CertificateKeyAlgorithmMLDSA65, kubeletv1beta1.CertificateKeyAlgorithmMLDSA87,
}

// kvKeyAlgorithms is kubeletconfig.ValidCertificateKeyAlgorithms (1.38's
// pkg/kubelet/apis/config/types.go), in its order.
var kvKeyAlgorithms = append([]kubeletv1beta1.CertificateKeyAlgorithmType{
	kubeletv1beta1.CertificateKeyAlgorithmECDSAP256, kubeletv1beta1.CertificateKeyAlgorithmECDSAP384,
	kubeletv1beta1.CertificateKeyAlgorithmRSA2048, kubeletv1beta1.CertificateKeyAlgorithmRSA3072,
	kubeletv1beta1.CertificateKeyAlgorithmRSA4096,
}, kvMLDSAKeyAlgorithms...)

// kvKeyAlgorithmList names kvKeyAlgorithms for docs and hints: "ECDSA-P256, ..., ML-DSA-65 or ML-DSA-87".
var kvKeyAlgorithmList = func() string {
	names := make([]string, len(kvKeyAlgorithms))
	for i, a := range kvKeyAlgorithms {
		names[i] = string(a)
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}()

// kvKeyAlgorithmRule is the check 1.38 makes of either certificate key algorithm
// field: set, it must be one of ValidCertificateKeyAlgorithms (case-sensitive).
func kvKeyAlgorithmRule(id, field, name, does string, value func(*kvConfig) *kubeletv1beta1.CertificateKeyAlgorithmType) *rule.Rule {
	return kvRule(&rule.Rule{
		ID:      id,
		Fields:  []string{field},
		Since:   "1.38",
		Name:    name + "-certificate-key-algorithm-valid",
		Summary: field + " must be a supported key algorithm",
		Doc: field + " " + does + " (1.38+; default ECDSA-P256). The values are case-sensitive: " +
			kvKeyAlgorithmList + ". Fix: use one of them, or remove the field.",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if a := value(k); a != nil && !slices.Contains(kvKeyAlgorithms, *a) {
			emit(field,
				fmt.Sprintf("%s %q is not a key algorithm the kubelet supports", field, *a),
				"use one of "+kvKeyAlgorithmList+" (case-sensitive)",
				fmt.Sprintf("invalid configuration: %s %q is not a supported algorithm", field, *a))
		}
	})
}

// kvSortedKeys returns the keys of m in order, so findings are deterministic where
// the kubelet iterates a map.
func kvSortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// validationRules are this file's rules, in the kubelet's order of checks.
var validationRules = []*rule.Rule{
	kvNodeLeaseDuration,
	kvSystemCgroupsNeedsRoot,
	kvEventBurst,
	kvEventRecordQPS,
	kvHealthzPort,
	kvCPUCFSQuotaPeriodGate,
	kvCPUCFSQuotaPeriodRange,
	kvImageGCHigh,
	kvImageGCLow,
	kvImageGCLowBelowHigh,
	kvImageMaximumGCAgeGate,
	kvDefaultPodSysctlsGate,
	kvDefaultPodSysctlName,
	kvDefaultPodSysctlNamespaced,
	kvDefaultPodSysctlDuplicate,
	kvImageMinimumGCAgeNegative,
	kvImageMaximumGCAgeNegative,
	kvImageMaximumAboveMinimum,
	kvIPTablesDropBit,
	kvIPTablesMasqueradeBit,
	kvKubeAPIBurst,
	kvKubeAPIQPS,
	kvNodeStatusMaxImages,
	kvMaxOpenFiles,
	kvMaxPods,
	kvOOMScoreAdj,
	kvPodsPerCore,
	kvPort,
	kvReadOnlyPort,
	kvRegistryBurst,
	kvRegistryPullQPS,
	kvMaxParallelImagePullsPositive,
	kvMaxParallelImagePullsSerialized,
	kvServerTLSBootstrapGate,
	kvClientKeyAlgorithm,
	kvServerKeyAlgorithm,
	kvMLDSANeedsTLS13,
	kvRunOnce,
}
