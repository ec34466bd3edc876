package validate

import (
	"fmt"
	"unicode"

	"github.com/blang/semver/v4"
	"github.com/kubeletcfg/kubeletcfg/defaults"
	"github.com/kubeletcfg/kubeletcfg/rule"
	kubeletv1beta1 "github.com/kubeletcfg/kubeletcfg/upstream/kubelet/config/v1beta1"
	_ "k8s.io/component-base/logs/json/register" // the kubelet registers the json log format too
	metricsapi "k8s.io/component-base/metrics/api/v1"
)

// ValidateKubeletConfiguration after the OS checks, logging and tracing:
// showHiddenMetricsForVersion, memory QoS, the runtime endpoint, system log
// query, container logs and podLogsDir.

// kvCurrentVersion parses the kubelet minor ("1.37") into the semver that
// component-base/metrics derives from the binary's version; the validator
// accepts only its previous minor.
func kvCurrentVersion(minor string) (semver.Version, bool) {
	a, b, ok := parseMinor(minor)
	if !ok || b == 0 {
		return semver.Version{}, false
	}
	return semver.Version{Major: uint64(a), Minor: uint64(b)}, true
}

// kvShowHiddenMetricsValidate is the validator the kubelet calls: up to 1.35
// component-base/metrics validateShowHiddenMetricsVersion with its flag-style
// message; from 1.36 the metrics/api/v1 one with a field error.
var kvShowHiddenMetricsValidate = byMinor[func(semver.Version, string) error]{
	{"1.31", func(cur semver.Version, target string) error {
		if target == "" {
			return nil
		}
		valid := fmt.Sprintf("%d.%d", cur.Major, cur.Minor-1)
		if target != valid {
			return fmt.Errorf("--show-hidden-metrics-for-version must be omitted or have the value '%v'. Only the previous minor version is allowed", valid)
		}
		return nil
	}},
	{"1.36", metricsapi.ValidateShowHiddenMetricsVersionForKubeletBackwardCompatOnly},
}

var kvShowHiddenMetrics = kvRule(&rule.Rule{
	ID:      "KC4073",
	Fields:  []string{"showHiddenMetricsForVersion"},
	Name:    "show-hidden-metrics-previous-minor",
	Summary: "showHiddenMetricsForVersion must be empty or the previous minor version",
	Doc: "showHiddenMetricsForVersion re-enables metrics hidden (deprecated) in the previous release; " +
		"only the minor just before the kubelet's own is accepted (1.36 for kubelet 1.37), as " +
		"\"<major>.<minor>\" without a patch or \"v\". Up to 1.35 the message names the flag " +
		"(\"--show-hidden-metrics-for-version must be omitted or have the value '1.34'. Only the previous minor " +
		"version is allowed\"); from 1.36 it is a field error. Fix: remove it, or set it to the previous minor.",
	Kubelet: "pkg/kubelet/apis/config/validation/validation.go ValidateKubeletConfiguration (component-base/metrics ValidateShowHiddenMetricsVersion)",
}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
	cur, ok := kvCurrentVersion(c.Version())
	if !ok || k.ShowHiddenMetricsForVersion == "" {
		return
	}
	if err := kvShowHiddenMetricsValidate.at(c.Minor)(cur, k.ShowHiddenMetricsForVersion); err != nil {
		prev := fmt.Sprintf("%d.%d", cur.Major, cur.Minor-1)
		emit("showHiddenMetricsForVersion",
			fmt.Sprintf("showHiddenMetricsForVersion is %q; kubelet %d.%d only accepts %q", k.ShowHiddenMetricsForVersion, cur.Major, cur.Minor, prev),
			fmt.Sprintf("set showHiddenMetricsForVersion to %q or remove it", prev),
			err.Error())
	}
})

// ---- the rest of ValidateKubeletConfiguration.

// kvLogQueryGateMessage: up to 1.34 the message names the wrong field.
var kvLogQueryGateMessage = byMinor[string]{
	{"1.31", "invalid configuration: NodeLogQuery feature gate is required for enableSystemLogHandler"},
	{"1.35", "invalid configuration: NodeLogQuery feature gate is required for enableSystemLogQuery"},
}

// kvPreviousDefaultMemoryThrottlingFactor lets configs with the former default
// pass when MemoryQoS is off.
const kvPreviousDefaultMemoryThrottlingFactor = 0.9

var (
	kvMemoryThrottlingRequired = kvRule(&rule.Rule{
		ID:      "KC4104",
		Fields:  []string{"memoryThrottlingFactor"},
		Name:    "memory-throttling-factor-required",
		Until:   "1.36",
		Summary: "memoryThrottlingFactor must be set when the MemoryQoS gate is on",
		Doc: "Up to 1.36, with the MemoryQoS gate on (alpha, off by default) the kubelet needs " +
			"memoryThrottlingFactor, the fraction of the memory limit used for memory.high. Defaulting sets " +
			"0.9, so this fires only when the value is lost after defaulting. In 1.37 the check is replaced " +
			"by KC4089. Fix: set memoryThrottlingFactor (for example 0.9) or turn MemoryQoS off.",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if kvEnabled(c, "MemoryQoS") && k.MemoryThrottlingFactor == nil {
			emit("memoryThrottlingFactor",
				"the MemoryQoS feature gate is on but memoryThrottlingFactor is not set",
				"set memoryThrottlingFactor to a value in (0, 1], such as 0.9",
				"invalid configuration: memoryThrottlingFactor is required when MemoryQoS feature flag is enabled")
		}
	})

	kvMemoryThrottlingGate = kvRule(&rule.Rule{
		ID:      "KC4089",
		Fields:  []string{"memoryThrottlingFactor"},
		Name:    "memory-throttling-factor-needs-gate",
		Since:   "1.37",
		Summary: "memoryThrottlingFactor requires the MemoryQoS gate (unless it is 0.9)",
		Doc: "memoryThrottlingFactor is used by memory QoS (cgroup v2 memory.high). From 1.37, with the " +
			"MemoryQoS gate off (it is beta and on by default in 1.37) the field must be unset or the former " +
			"default 0.9 (before 1.37 the opposite check applies, KC4104). Fix: enable MemoryQoS or remove " +
			"memoryThrottlingFactor.",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if !kvEnabled(c, "MemoryQoS") && k.MemoryThrottlingFactor != nil && *k.MemoryThrottlingFactor != kvPreviousDefaultMemoryThrottlingFactor {
			emit("memoryThrottlingFactor",
				fmt.Sprintf("memoryThrottlingFactor is %v but the MemoryQoS feature gate is off", *k.MemoryThrottlingFactor),
				"enable featureGates.MemoryQoS, or remove memoryThrottlingFactor",
				"invalid configuration: memoryThrottlingFactor must not be set when MemoryQoS feature gate is disabled")
		}
	})

	kvMemoryThrottlingRange = kvRule(&rule.Rule{
		ID:      "KC4090",
		Fields:  []string{"memoryThrottlingFactor"},
		Name:    "memory-throttling-factor-range",
		Summary: "memoryThrottlingFactor must be in (0, 1]",
		Doc: "memoryThrottlingFactor multiplies the memory limit to set memory.high; it must be greater " +
			"than 0 and at most 1.0. Fix: use a value such as 0.9.",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if f := k.MemoryThrottlingFactor; f != nil && (*f <= 0 || *f > 1.0) {
			emit("memoryThrottlingFactor",
				fmt.Sprintf("memoryThrottlingFactor is %v; it must be greater than 0 and at most 1.0", *f),
				"use a value in (0, 1], such as 0.9",
				fmt.Sprintf("invalid configuration: memoryThrottlingFactor %v must be greater than 0 and less than or equal to 1.0", *f))
		}
	})

	kvMemoryReservationGate = kvRule(&rule.Rule{
		ID:      "KC4091",
		Fields:  []string{"memoryReservationPolicy"},
		Since:   "1.36",
		Name:    "memory-reservation-policy-needs-gate",
		Summary: "memoryReservationPolicy TieredReservation requires the MemoryQoS gate",
		Doc: "The TieredReservation policy (memory.min/memory.low protection by QoS class) is part of " +
			"memory QoS and needs the MemoryQoS gate (alpha and off by default in 1.36, beta and on by default " +
			"from 1.37). Fix: enable MemoryQoS or use memoryReservationPolicy: None.",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if !kvEnabled(c, "MemoryQoS") && k.MemoryReservationPolicy == kubeletv1beta1.TieredReservationMemoryReservationPolicy {
			emit("memoryReservationPolicy",
				"memoryReservationPolicy is TieredReservation but the MemoryQoS feature gate is off",
				"enable featureGates.MemoryQoS, or set memoryReservationPolicy: None",
				fmt.Sprintf("invalid configuration: memoryReservationPolicy %q requires MemoryQoS feature gate to be enabled", k.MemoryReservationPolicy))
		}
	})

	kvMemoryReservationValid = kvRule(&rule.Rule{
		ID:      "KC4092",
		Fields:  []string{"memoryReservationPolicy"},
		Since:   "1.36",
		Name:    "memory-reservation-policy-valid",
		Summary: "memoryReservationPolicy must be None or TieredReservation",
		Doc: "memoryReservationPolicy accepts None (the default) and TieredReservation, case-sensitive. " +
			"Fix: use one of them.",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		switch k.MemoryReservationPolicy {
		case kubeletv1beta1.NoneMemoryReservationPolicy, kubeletv1beta1.TieredReservationMemoryReservationPolicy:
			return
		}
		emit("memoryReservationPolicy",
			fmt.Sprintf("memoryReservationPolicy %q is not a known policy", k.MemoryReservationPolicy),
			"use None or TieredReservation",
			fmt.Sprintf("invalid configuration: option %q specified for memoryReservationPolicy. Valid options are %q or %q", k.MemoryReservationPolicy, kubeletv1beta1.NoneMemoryReservationPolicy, kubeletv1beta1.TieredReservationMemoryReservationPolicy))
	})

	kvRuntimeEndpoint = kvRule(&rule.Rule{
		ID:      "KC4093",
		Fields:  []string{"containerRuntimeEndpoint"},
		Name:    "container-runtime-endpoint-required",
		Summary: "containerRuntimeEndpoint must not be empty",
		Doc: "The kubelet needs the CRI socket of the container runtime. Defaulting fills in " +
			"unix:///run/containerd/containerd.sock, so this fires only when the value is emptied after " +
			"defaulting (for example by an empty --container-runtime-endpoint flag). Fix: set it to the " +
			"runtime's socket.",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if k.ContainerRuntimeEndpoint == "" {
			emit("containerRuntimeEndpoint",
				"containerRuntimeEndpoint is empty",
				"set containerRuntimeEndpoint to the CRI socket, for example unix:///run/containerd/containerd.sock",
				"invalid configuration: the containerRuntimeEndpoint was not specified or empty")
		}
	})

	kvLogQueryGate = kvRule(&rule.Rule{
		ID:      "KC4094",
		Fields:  []string{"enableSystemLogQuery"},
		Name:    "system-log-query-needs-gate",
		Summary: "enableSystemLogQuery requires the NodeLogQuery gate",
		Doc: "Node log query (/logs/?query=) needs the NodeLogQuery feature gate. The gate is beta but off " +
			"by default up to 1.35, so enableSystemLogQuery: true alone is refused there; from 1.36 it is " +
			"GA and locked on, so this cannot fire. Up to 1.34 the kubelet's message says \"required for " +
			"enableSystemLogHandler\". Fix: enable NodeLogQuery or remove enableSystemLogQuery.",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if kvBool(k.EnableSystemLogQuery) && !kvEnabled(c, "NodeLogQuery") {
			emit("enableSystemLogQuery",
				"enableSystemLogQuery is true but the NodeLogQuery feature gate is off",
				"enable featureGates.NodeLogQuery or remove enableSystemLogQuery",
				kvLogQueryGateMessage.at(c.Minor))
		}
	})

	kvLogQueryHandler = kvRule(&rule.Rule{
		ID:      "KC4095",
		Fields:  []string{"enableSystemLogQuery", "enableSystemLogHandler"},
		Name:    "system-log-query-needs-handler",
		Summary: "enableSystemLogQuery requires enableSystemLogHandler",
		Doc: "Log query is served by the system log handler (/logs), so enableSystemLogQuery: true needs " +
			"enableSystemLogHandler: true (the default). Fix: do not disable the handler, or turn log query off.",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if kvBool(k.EnableSystemLogQuery) && !kvBool(k.EnableSystemLogHandler) {
			emit(kvPick(c, "enableSystemLogQuery", "enableSystemLogHandler"),
				"enableSystemLogQuery is true but enableSystemLogHandler is false",
				"set enableSystemLogHandler: true, or enableSystemLogQuery: false",
				"invalid configuration: enableSystemLogHandler is required for enableSystemLogQuery")
		}
	})

	kvLogMaxWorkers = kvRule(&rule.Rule{
		ID:      "KC4096",
		Fields:  []string{"containerLogMaxWorkers"},
		Name:    "container-log-max-workers-min",
		Summary: "containerLogMaxWorkers must be at least 1",
		Doc: "containerLogMaxWorkers is the number of workers rotating container logs; at least one is " +
			"needed. Fix: use 1 (the default) or more.",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if v := kvI32(k.ContainerLogMaxWorkers); v < 1 {
			emit("containerLogMaxWorkers",
				fmt.Sprintf("containerLogMaxWorkers is %d; at least 1 is needed", v),
				"set containerLogMaxWorkers to 1 or more",
				"invalid configuration: containerLogMaxWorkers must be greater than or equal to 1")
		}
	})

	kvLogMonitorInterval = kvRule(&rule.Rule{
		ID:      "KC4097",
		Fields:  []string{"containerLogMonitorInterval"},
		Name:    "container-log-monitor-interval-min",
		Summary: "containerLogMonitorInterval must be at least 3s",
		Doc: "containerLogMonitorInterval is how often container logs are checked for rotation; it must " +
			"be at least 3s. Fix: use 3s or more (default 10s).",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if d := kvDur(k.ContainerLogMonitorInterval); d.Duration.Seconds() < 3 {
			emit("containerLogMonitorInterval",
				fmt.Sprintf("containerLogMonitorInterval is %v; it must be at least 3s", d.Duration),
				"set containerLogMonitorInterval to 3s or more (default 10s)",
				"invalid configuration: containerLogMonitorInterval must be a positive time duration greater than or equal to 3s")
		}
	})

	kvLogMaxFiles = kvRule(&rule.Rule{
		ID:      "KC4098",
		Fields:  []string{"containerLogMaxFiles"},
		Since:   "1.33",
		Name:    "container-log-max-files-min",
		Summary: "containerLogMaxFiles must be greater than 1",
		Doc: "containerLogMaxFiles counts the current log file plus rotated ones, so at least 2 are " +
			"needed for rotation. Fix: use 2 or more (default 5).",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if v := kvI32(k.ContainerLogMaxFiles); v <= 1 {
			emit("containerLogMaxFiles",
				fmt.Sprintf("containerLogMaxFiles is %d; it must be at least 2", v),
				"set containerLogMaxFiles to 2 or more (default 5)",
				"invalid configuration: containerLogMaxFiles must be greater than 1")
		}
	})

	kvPodLogsDirRequired = kvRule(&rule.Rule{
		ID:      "KC4099",
		Fields:  []string{"podLogsDir"},
		Name:    "pod-logs-dir-required",
		Summary: "podLogsDir must not be empty",
		Doc: "podLogsDir is where the kubelet keeps pod logs. Defaulting sets /var/log/pods, so this fires " +
			"only when the value is emptied after defaulting. An empty value also fails the absolute and " +
			"normalized checks. Fix: set an absolute path.",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if k.PodLogsDir == "" {
			emit("podLogsDir", "podLogsDir is empty", "set podLogsDir to an absolute path such as /var/log/pods",
				"invalid configuration: podLogsDir was not specified")
		}
	})

	kvPodLogsDirAbs = kvRule(&rule.Rule{
		ID:      "KC4100",
		Fields:  []string{"podLogsDir"},
		Name:    "pod-logs-dir-absolute",
		Summary: "podLogsDir must be an absolute path",
		Doc:     "podLogsDir must start with '/'. Fix: use an absolute path such as /var/log/pods.",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if !defaults.IsAbs(c.OS, k.PodLogsDir) { // utilfs.IsAbs of the node's OS
			emit("podLogsDir",
				fmt.Sprintf("podLogsDir %q is not an absolute path", k.PodLogsDir),
				"use an absolute path such as /var/log/pods",
				fmt.Sprintf("invalid configuration: pod logs path %q must be absolute path", k.PodLogsDir))
		}
	})

	kvPodLogsDirClean = kvRule(&rule.Rule{
		ID:      "KC4101",
		Fields:  []string{"podLogsDir"},
		Name:    "pod-logs-dir-normalized",
		Summary: "podLogsDir must be a normalized path",
		Doc: "podLogsDir must equal its cleaned form: no trailing slash, no double slashes, no . or .. " +
			"elements. Fix: write the cleaned path.",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if !defaults.IsPathClean(c.OS, k.PodLogsDir) { // utilfs.IsPathClean of the node's OS
			clean := defaults.CleanPath(c.OS, k.PodLogsDir)
			emit("podLogsDir",
				fmt.Sprintf("podLogsDir %q is not normalized (its clean form is %q)", k.PodLogsDir, clean),
				fmt.Sprintf("write podLogsDir as %q", clean),
				fmt.Sprintf("invalid configuration: pod logs path %q must be normalized", k.PodLogsDir))
		}
	})

	kvPodLogsDirASCII = kvRule(&rule.Rule{
		ID:      "KC4102",
		Fields:  []string{"podLogsDir"},
		Name:    "pod-logs-dir-ascii",
		Summary: "podLogsDir must contain only ASCII characters",
		Doc: "The pod logs path appears in metrics labels, so it must be ASCII only (the kubelet's message " +
			"says \"mut contains\", verbatim). Fix: use an ASCII path.",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		for _, r := range k.PodLogsDir {
			if r > unicode.MaxASCII {
				emit("podLogsDir",
					fmt.Sprintf("podLogsDir %q contains the non-ASCII character %q", k.PodLogsDir, r),
					"use a path made of ASCII characters only",
					fmt.Sprintf("invalid configuration: pod logs path %q mut contains ASCII characters only", k.PodLogsDir))
				return
			}
		}
	})
)

// validationTailRules are this file's rules, in the kubelet's order of checks.
var validationTailRules = []*rule.Rule{
	kvShowHiddenMetrics,
	kvMemoryThrottlingRequired,
	kvMemoryThrottlingGate,
	kvMemoryThrottlingRange,
	kvMemoryReservationGate,
	kvMemoryReservationValid,
	kvRuntimeEndpoint,
	kvLogQueryGate,
	kvLogQueryHandler,
	kvLogMaxWorkers,
	kvLogMonitorInterval,
	kvLogMaxFiles,
	kvPodLogsDirRequired,
	kvPodLogsDirAbs,
	kvPodLogsDirClean,
	kvPodLogsDirASCII,
}
