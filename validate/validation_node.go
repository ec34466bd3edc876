package validate

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kubeletcfg/kubeletcfg/rule"
	kubeletv1beta1 "github.com/kubeletcfg/kubeletcfg/upstream/kubelet/config/v1beta1"
	v1 "k8s.io/api/core/v1"
	utilvalidation "k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/utils/cpuset"
)

// ValidateKubeletConfiguration, continued in source order: from
// registerWithTaints to reservedMemory.

// kvTaintError is pkg/util/taints.CheckTaintValidation (the same from 1.31 to 1.37), which uses the
// apimachinery validation helpers on a core/v1 Taint; it also returns the JSON
// name of the offending field.
func kvTaintError(taint v1.Taint) (string, error) {
	if errs := utilvalidation.IsQualifiedName(taint.Key); len(errs) > 0 {
		return "key", fmt.Errorf("invalid taint key: %s", strings.Join(errs, "; "))
	}
	if taint.Value != "" {
		if errs := utilvalidation.IsValidLabelValue(taint.Value); len(errs) > 0 {
			return "value", fmt.Errorf("invalid taint value: %s", strings.Join(errs, "; "))
		}
	}
	if taint.Effect != "" {
		if e := taint.Effect; e != v1.TaintEffectNoSchedule && e != v1.TaintEffectPreferNoSchedule && e != v1.TaintEffectNoExecute {
			return "effect", fmt.Errorf("invalid taint effect: %v, unsupported taint effect", e)
		}
	}
	return "", nil
}

var kvTopologyPolicies = []string{
	kubeletv1beta1.NoneTopologyManagerPolicy,
	kubeletv1beta1.BestEffortTopologyManagerPolicy,
	kubeletv1beta1.RestrictedTopologyManagerPolicy,
	kubeletv1beta1.SingleNumaNodeTopologyManagerPolicy,
}

// enforceNodeAllocatable keys, from pkg/kubelet/types/constants.go.
const (
	kvEnforcePods                = "pods"
	kvEnforceSystemReserved      = "system-reserved"
	kvEnforceSystemReservedCompr = "system-reserved-compressible"
	kvEnforceKubeReserved        = "kube-reserved"
	kvEnforceKubeReservedCompr   = "kube-reserved-compressible"
	kvEnforceNone                = "none"
)

// kvEnforcementSpec is what the kubelet of a minor knows of enforceNodeAllocatable.
type kvEnforcementSpec struct {
	// keys are the known enforcements, in the order the kubelet's message lists them.
	keys []string
	// unknown is the error for an entry that is not a known key.
	unknown func(val string) string
	// cgroup is the error for a reserved enforcement without its cgroup field.
	cgroup func(field, flag, full, compr string) string
}

// kvEnforcement: 1.32 added the -compressible keys; 1.31 does not know them (they
// are unknown options there) and its messages name only the full keys.
var kvEnforcement = byMinor[kvEnforcementSpec]{
	{"1.31", kvEnforcementSpec{
		keys: []string{kvEnforcePods, kvEnforceSystemReserved, kvEnforceKubeReserved, kvEnforceNone},
		unknown: func(val string) string {
			return fmt.Sprintf("invalid configuration: option %q specified for enforceNodeAllocatable (--enforce-node-allocatable). Valid options are %q, %q, %q, or %q",
				val, kvEnforcePods, kvEnforceSystemReserved, kvEnforceKubeReserved, kvEnforceNone)
		},
		cgroup: func(field, flag, full, compr string) string {
			return fmt.Sprintf("invalid configuration: %s (--%s) must be specified when %q contained in enforceNodeAllocatable (--enforce-node-allocatable)", field, flag, full)
		},
	}},
	{"1.32", kvEnforcementSpec{
		keys: []string{kvEnforcePods, kvEnforceSystemReserved, kvEnforceSystemReservedCompr, kvEnforceKubeReserved, kvEnforceKubeReservedCompr, kvEnforceNone},
		unknown: func(val string) string {
			return fmt.Sprintf("invalid configuration: option %q specified for enforceNodeAllocatable (--enforce-node-allocatable). Valid options are %q, %q, %q, %q, %q or %q",
				val, kvEnforcePods, kvEnforceSystemReserved, kvEnforceSystemReservedCompr, kvEnforceKubeReserved, kvEnforceKubeReservedCompr, kvEnforceNone)
		},
		cgroup: func(field, flag, full, compr string) string {
			return fmt.Sprintf("invalid configuration: %s (--%s) must be specified when %q or %q included in enforceNodeAllocatable (--enforce-node-allocatable)", field, flag, full, compr)
		},
	}},
}

// kvEnforcementIter walks enforceNodeAllocatable the way the kubelet's loop
// does: duplicates are skipped after the first, and each other entry is passed
// to fn with its index.
func kvEnforcementIter(k *kvConfig, fn func(i int, val string, dup bool)) {
	seen := map[string]bool{}
	for i, val := range k.EnforceNodeAllocatable {
		if seen[val] {
			fn(i, val, true)
			continue
		}
		seen[val] = true
		fn(i, val, false)
	}
}

func kvEnforcementKnown(c *rule.Context, val string) bool {
	return slices.Contains(kvEnforcement.at(c.Minor).keys, val)
}

// kvEnforcementOptions lists the known keys for a hint: "pods", "none" or "x".
func kvEnforcementOptions(c *rule.Context) string {
	keys := kvEnforcement.at(c.Minor).keys
	quoted := make([]string, len(keys))
	for i, k := range keys {
		quoted[i] = strconv.Quote(k)
	}
	return strings.Join(quoted[:len(quoted)-1], ", ") + " or " + quoted[len(quoted)-1]
}

func kvEnforcementPath(i int) string { return fmt.Sprintf("enforceNodeAllocatable[%d]", i) }

// kvEnforcementBoth builds the two "both %q and %q cannot be specified together" rules.
func kvEnforcementBoth(id, name, full, compr string) *rule.Rule {
	return kvRule(&rule.Rule{
		ID:      id,
		Name:    name,
		Fields:  []string{"enforceNodeAllocatable"},
		Since:   "1.32", // the -compressible keys
		Summary: fmt.Sprintf("enforceNodeAllocatable must not list both %s and %s", full, compr),
		Doc: fmt.Sprintf("%q enforces the whole reservation on the reserved cgroup while %q enforces only its "+
			"compressible part (cpu); the kubelet refuses both in enforceNodeAllocatable. Fix: keep one of them.", full, compr),
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		has := map[string]bool{}
		for _, v := range k.EnforceNodeAllocatable {
			has[v] = true
		}
		if has[full] && has[compr] {
			emit("enforceNodeAllocatable",
				fmt.Sprintf("enforceNodeAllocatable lists both %q and %q", full, compr),
				fmt.Sprintf("keep either %q (enforce all reserved resources) or %q (enforce only cpu), not both", full, compr),
				fmt.Sprintf("invalid configuration: both %q and %q cannot be specified together in enforceNodeAllocatable (--enforce-node-allocatable)", full, compr))
		}
	})
}

// kvEnforcementCgroup builds the "…ReservedCgroup must be specified" rules.
func kvEnforcementCgroup(id, name, cgroupField, cgroupFlag, full, compr string, get func(*kvConfig) string) *rule.Rule {
	return kvRule(&rule.Rule{
		ID:      id,
		Name:    name,
		Fields:  []string{"enforceNodeAllocatable", cgroupField},
		Summary: fmt.Sprintf("%s or %s in enforceNodeAllocatable requires %s", full, compr, cgroupField),
		Doc: fmt.Sprintf("Enforcing %q or %q means putting a limit on the cgroup that holds those daemons, "+
			"so the kubelet needs %s (--%s) to name it. Fix: set %s to the existing cgroup (for example "+
			"/system.slice or /kubelet.slice), or remove the entry from enforceNodeAllocatable. 1.31 knows only "+
			"%q (%q is an unknown option there, KC4057) and its message names only %q.", full, compr, cgroupField, cgroupFlag, cgroupField, full, compr, full),
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		kvEnforcementIter(k, func(i int, val string, dup bool) {
			if dup || (val != full && val != compr) || !kvEnforcementKnown(c, val) || get(k) != "" {
				return
			}
			emit(kvEnforcementPath(i),
				fmt.Sprintf("enforceNodeAllocatable lists %q but %s is not set", val, cgroupField),
				fmt.Sprintf("set %s to the cgroup of those daemons, or remove %q from enforceNodeAllocatable", cgroupField, val),
				kvEnforcement.at(c.Minor).cgroup(cgroupField, cgroupFlag, full, compr))
		})
	})
}

var (
	kvTaintInvalid = kvRule(&rule.Rule{
		ID:      "KC4036",
		Fields:  []string{"registerWithTaints"},
		Name:    "register-with-taints-valid",
		Summary: "registerWithTaints entries must be valid taints",
		Doc: "Each taint in registerWithTaints needs a qualified-name key (optional DNS prefix and a name " +
			"of at most 63 alphanumerics, '-', '_' or '.'), a label-value value (may be empty) and an " +
			"effect of NoSchedule, PreferNoSchedule or NoExecute (or empty). The kubelet's error prints " +
			"the whole taint as a Go struct. Fix: correct the key, value or effect.",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		for i, t := range k.RegisterWithTaints {
			if field, err := kvTaintError(t); err != nil {
				emit(fmt.Sprintf("registerWithTaints[%d].%s", i, field),
					fmt.Sprintf("taint %d is invalid: %v", i, err),
					"use a qualified-name key, a label-value value and an effect of NoSchedule, PreferNoSchedule or NoExecute",
					fmt.Sprintf("invalid taint: %v", t))
			}
		}
	})

	kvTaintTimeAdded = kvRule(&rule.Rule{
		ID:      "KC4037",
		Fields:  []string{"registerWithTaints"},
		Name:    "register-with-taints-no-time-added",
		Summary: "registerWithTaints entries must not set timeAdded",
		Doc: "timeAdded is set by the control plane for NoExecute taints; a taint the kubelet registers " +
			"must not carry it. Fix: remove timeAdded from the taint.",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		for i, t := range k.RegisterWithTaints {
			if t.TimeAdded != nil {
				emit(fmt.Sprintf("registerWithTaints[%d].timeAdded", i),
					fmt.Sprintf("taint %d (key %q) sets timeAdded", i, t.Key),
					"remove timeAdded from the taint",
					"invalid configuration: taint.TimeAdded is not nil")
			}
		}
	})

	kvTopologyManagerPolicy = kvRule(&rule.Rule{
		ID:      "KC4038",
		Fields:  []string{"topologyManagerPolicy"},
		Name:    "topology-manager-policy-valid",
		Summary: "topologyManagerPolicy must be none, best-effort, restricted or single-numa-node",
		Doc: "The topology manager policy decides how NUMA alignment hints are enforced; the kubelet " +
			"knows only none, best-effort, restricted and single-numa-node (case-sensitive). Fix: use one of them.",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		for _, p := range kvTopologyPolicies {
			if k.TopologyManagerPolicy == p {
				return
			}
		}
		emit("topologyManagerPolicy",
			fmt.Sprintf("topologyManagerPolicy %q is not a known policy", k.TopologyManagerPolicy),
			"use none, best-effort, restricted or single-numa-node",
			fmt.Sprintf("invalid configuration: topologyManagerPolicy (--topology-manager-policy) %q must be one of: %q", k.TopologyManagerPolicy, kvTopologyPolicies))
	})

	kvTopologyManagerScope = kvRule(&rule.Rule{
		ID:      "KC4039",
		Fields:  []string{"topologyManagerScope"},
		Name:    "topology-manager-scope-valid",
		Summary: "topologyManagerScope must be container or pod",
		Doc: "The topology manager aligns resources per container or per pod; no other scope exists. " +
			"Fix: use container (the default) or pod.",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		switch k.TopologyManagerScope {
		case kubeletv1beta1.ContainerTopologyManagerScope, kubeletv1beta1.PodTopologyManagerScope:
			return
		}
		emit("topologyManagerScope",
			fmt.Sprintf("topologyManagerScope %q is not container or pod", k.TopologyManagerScope),
			"use container (default) or pod",
			fmt.Sprintf("invalid configuration: topologyManagerScope (--topology-manager-scope) %q must be one of: %q, or %q", k.TopologyManagerScope, kubeletv1beta1.ContainerTopologyManagerScope, kubeletv1beta1.PodTopologyManagerScope))
	})

	kvShutdownCriticalNotAbovePeriod = kvRule(&rule.Rule{
		ID:      "KC4040",
		Fields:  []string{"shutdownGracePeriodCriticalPods", "shutdownGracePeriod"},
		Name:    "shutdown-critical-within-period",
		Summary: "shutdownGracePeriodCriticalPods must not exceed shutdownGracePeriod",
		Doc: "With GracefulNodeShutdown on, shutdownGracePeriod is the total shutdown delay and " +
			"shutdownGracePeriodCriticalPods the part of it reserved for critical pods, so the part " +
			"cannot exceed the total. Fix: raise shutdownGracePeriod or lower shutdownGracePeriodCriticalPods.",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if kvEnabled(c, "GracefulNodeShutdown") && k.ShutdownGracePeriodCriticalPods.Duration > k.ShutdownGracePeriod.Duration {
			emit(kvPick(c, "shutdownGracePeriodCriticalPods", "shutdownGracePeriod"),
				fmt.Sprintf("shutdownGracePeriodCriticalPods (%v) is longer than shutdownGracePeriod (%v)", k.ShutdownGracePeriodCriticalPods.Duration, k.ShutdownGracePeriod.Duration),
				"make shutdownGracePeriod at least as long as shutdownGracePeriodCriticalPods; it is the total, critical pods get the last part of it",
				fmt.Sprintf("invalid configuration: shutdownGracePeriodCriticalPods %v must be <= shutdownGracePeriod %v", k.ShutdownGracePeriodCriticalPods, k.ShutdownGracePeriod))
		}
	})

	kvShutdownPeriodMin = kvRule(&rule.Rule{
		ID:      "KC4041",
		Fields:  []string{"shutdownGracePeriod"},
		Name:    "shutdown-grace-period-min",
		Summary: "shutdownGracePeriod must be 0 or at least 1s",
		Doc: "With GracefulNodeShutdown on, shutdownGracePeriod must be zero (graceful shutdown disabled) " +
			"or at least one second; negative and sub-second values are refused. Fix: use 0 or a value >= 1s.",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		d := k.ShutdownGracePeriod.Duration
		if kvEnabled(c, "GracefulNodeShutdown") && (d < 0 || (d > 0 && d < time.Second)) {
			emit("shutdownGracePeriod",
				fmt.Sprintf("shutdownGracePeriod is %v; it must be 0 or at least 1s", d),
				"use 0 (disabled) or a duration of at least 1s, such as 30s",
				fmt.Sprintf("invalid configuration: shutdownGracePeriod %v must be either zero or otherwise >= 1 sec", k.ShutdownGracePeriod))
		}
	})

	kvShutdownCriticalMin = kvRule(&rule.Rule{
		ID:      "KC4042",
		Fields:  []string{"shutdownGracePeriodCriticalPods"},
		Name:    "shutdown-grace-period-critical-min",
		Summary: "shutdownGracePeriodCriticalPods must be 0 or at least 1s",
		Doc: "With GracefulNodeShutdown on, shutdownGracePeriodCriticalPods must be zero or at least one " +
			"second; negative and sub-second values are refused. Fix: use 0 or a value >= 1s.",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		d := k.ShutdownGracePeriodCriticalPods.Duration
		if kvEnabled(c, "GracefulNodeShutdown") && (d < 0 || (d > 0 && d < time.Second)) {
			emit("shutdownGracePeriodCriticalPods",
				fmt.Sprintf("shutdownGracePeriodCriticalPods is %v; it must be 0 or at least 1s", d),
				"use 0 or a duration of at least 1s, such as 10s",
				fmt.Sprintf("invalid configuration: shutdownGracePeriodCriticalPods %v must be either zero or otherwise >= 1 sec", k.ShutdownGracePeriodCriticalPods))
		}
	})

	kvShutdownNeedsGate = kvRule(&rule.Rule{
		ID:      "KC4043",
		Fields:  []string{"shutdownGracePeriod", "shutdownGracePeriodCriticalPods"},
		Name:    "shutdown-grace-period-needs-gate",
		Summary: "shutdownGracePeriod and shutdownGracePeriodCriticalPods require the GracefulNodeShutdown gate",
		Doc: "Graceful node shutdown (beta, on by default) must be enabled for a positive " +
			"shutdownGracePeriod or shutdownGracePeriodCriticalPods. Fix: do not turn " +
			"GracefulNodeShutdown off, or remove both fields.",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if (k.ShutdownGracePeriod.Duration > 0 || k.ShutdownGracePeriodCriticalPods.Duration > 0) && !kvEnabled(c, "GracefulNodeShutdown") {
			path := "shutdownGracePeriod"
			if k.ShutdownGracePeriod.Duration <= 0 {
				path = "shutdownGracePeriodCriticalPods"
			}
			emit(path,
				"a shutdown grace period is set but the GracefulNodeShutdown feature gate is off",
				"enable featureGates.GracefulNodeShutdown, or remove shutdownGracePeriod and shutdownGracePeriodCriticalPods",
				"invalid configuration: specifying shutdownGracePeriod or shutdownGracePeriodCriticalPods requires feature gate GracefulNodeShutdown")
		}
	})

	kvShutdownByPriorityExclusive = kvRule(&rule.Rule{
		ID:      "KC4044",
		Fields:  []string{"shutdownGracePeriodByPodPriority", "shutdownGracePeriod"},
		Name:    "shutdown-by-priority-exclusive",
		Summary: "shutdownGracePeriodByPodPriority excludes shutdownGracePeriod",
		Doc: "With GracefulNodeShutdownBasedOnPodPriority on, the per-priority grace periods replace " +
			"shutdownGracePeriod and shutdownGracePeriodCriticalPods; setting both styles is refused. " +
			"Fix: keep shutdownGracePeriodByPodPriority and remove the other two (or the reverse).",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if kvEnabled(c, "GracefulNodeShutdownBasedOnPodPriority") && len(k.ShutdownGracePeriodByPodPriority) != 0 &&
			(k.ShutdownGracePeriod.Duration > 0 || k.ShutdownGracePeriodCriticalPods.Duration > 0) {
			emit("shutdownGracePeriodByPodPriority",
				"shutdownGracePeriodByPodPriority is set together with shutdownGracePeriod or shutdownGracePeriodCriticalPods",
				"use either shutdownGracePeriodByPodPriority or shutdownGracePeriod/shutdownGracePeriodCriticalPods, not both",
				"invalid configuration: Cannot specify both shutdownGracePeriodByPodPriority and shutdownGracePeriod at the same time")
		}
	})

	kvShutdownByPriorityGate = kvRule(&rule.Rule{
		ID:      "KC4045",
		Fields:  []string{"shutdownGracePeriodByPodPriority"},
		Name:    "shutdown-by-priority-needs-gate",
		Summary: "shutdownGracePeriodByPodPriority requires the GracefulNodeShutdownBasedOnPodPriority gate",
		Doc: "Per-priority shutdown grace periods need the GracefulNodeShutdownBasedOnPodPriority " +
			"feature gate (beta, on by default). Fix: do not turn the gate off, or remove " +
			"shutdownGracePeriodByPodPriority.",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if !kvEnabled(c, "GracefulNodeShutdownBasedOnPodPriority") && len(k.ShutdownGracePeriodByPodPriority) != 0 {
			emit("shutdownGracePeriodByPodPriority",
				"shutdownGracePeriodByPodPriority is set but the GracefulNodeShutdownBasedOnPodPriority feature gate is off",
				"enable featureGates.GracefulNodeShutdownBasedOnPodPriority or remove shutdownGracePeriodByPodPriority",
				"invalid configuration: Specifying shutdownGracePeriodByPodPriority requires feature gate GracefulNodeShutdownBasedOnPodPriority")
		}
	})

	kvSwapBehavior = kvRule(&rule.Rule{
		ID:      "KC4046",
		Fields:  []string{"memorySwap.swapBehavior"},
		Name:    "swap-behavior-valid",
		Summary: "memorySwap.swapBehavior must be empty, NoSwap or LimitedSwap",
		Doc: "memorySwap.swapBehavior selects how workloads may use swap: NoSwap (the default when " +
			"empty) or LimitedSwap. The values are case-sensitive. Up to 1.37 it is checked only with " +
			"NodeSwap on (beta and on by default up to 1.33, GA and locked on from 1.34); 1.38 removed " +
			"the gate and always checks it. Fix: use NoSwap or LimitedSwap.",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		// The gate condition exists where KC4047 does (up to 1.37).
		if kvSwapNeedsGate.In(c.Minor) && !kvEnabled(c, "NodeSwap") {
			return
		}
		switch k.MemorySwap.SwapBehavior {
		case "", "NoSwap", "LimitedSwap":
			return
		}
		emit("memorySwap.swapBehavior",
			fmt.Sprintf("memorySwap.swapBehavior %q is not a known swap behavior", k.MemorySwap.SwapBehavior),
			"use NoSwap or LimitedSwap (case-sensitive), or leave it empty",
			fmt.Sprintf("invalid configuration: memorySwap.swapBehavior %q must be one of: \"\", %q or %q", k.MemorySwap.SwapBehavior, "LimitedSwap", "NoSwap"))
	})

	kvSwapNeedsGate = kvRule(&rule.Rule{
		ID:      "KC4047",
		Fields:  []string{"memorySwap"},
		Name:    "memory-swap-needs-gate",
		Until:   "1.37",
		Summary: "memorySwap requires the NodeSwap gate",
		Doc: "memorySwap may only be set with the NodeSwap feature gate on. NodeSwap is beta and on by " +
			"default up to 1.33, so this fires there when featureGates turns it off; from 1.34 it is GA and " +
			"locked on, so this cannot fire; 1.38 removed the gate and the check. Fix: enable NodeSwap or remove memorySwap.",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if !kvEnabled(c, "NodeSwap") && k.MemorySwap != (kubeletv1beta1.MemorySwapConfiguration{}) {
			emit("memorySwap.swapBehavior",
				"memorySwap.swapBehavior is set but the NodeSwap feature gate is off",
				"enable featureGates.NodeSwap or remove memorySwap",
				"invalid configuration: memorySwap.swapBehavior cannot be set when NodeSwap feature flag is disabled")
		}
	})

	kvCrashLoopMaxRequired = kvRule(&rule.Rule{
		ID:      "KC4048",
		Fields:  []string{"crashLoopBackOff.maxContainerRestartPeriod"},
		Since:   "1.32",
		Name:    "crash-loop-max-required",
		Summary: "crashLoopBackOff.maxContainerRestartPeriod must be set when KubeletCrashLoopBackOffMax is on",
		Doc: "With the KubeletCrashLoopBackOffMax gate on (alpha and off by default in 1.32 to 1.34, beta and on by default from 1.35), the kubelet needs " +
			"crashLoopBackOff.maxContainerRestartPeriod, the cap of the container restart back-off. " +
			"Defaulting sets it to 300s when the gate is on, so this fires only when the value is lost " +
			"(for example the gate is enabled at a stage after defaulting). Fix: set it between 1s and 300s.",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if kvEnabled(c, "KubeletCrashLoopBackOffMax") && k.CrashLoopBackOff.MaxContainerRestartPeriod == nil {
			emit("crashLoopBackOff.maxContainerRestartPeriod",
				"the KubeletCrashLoopBackOffMax feature gate is on but crashLoopBackOff.maxContainerRestartPeriod is not set",
				"set crashLoopBackOff.maxContainerRestartPeriod between 1s and 300s (default 300s)",
				"invalid configuration: FeatureGate KubeletCrashLoopBackOffMax is enabled, CrashLoopBackOff.MaxContainerRestartPeriod must be set")
		}
	})

	kvCrashLoopMaxRange = kvRule(&rule.Rule{
		ID:      "KC4049",
		Fields:  []string{"crashLoopBackOff.maxContainerRestartPeriod"},
		Since:   "1.32",
		Name:    "crash-loop-max-range",
		Summary: "crashLoopBackOff.maxContainerRestartPeriod must be between 1s and 300s",
		Doc: "With KubeletCrashLoopBackOffMax on, the back-off cap must lie between 1s and 300s inclusive, " +
			"compared in whole milliseconds (so 999ms and 300.001s are refused). Fix: choose a value in range.",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		p := k.CrashLoopBackOff.MaxContainerRestartPeriod
		if kvEnabled(c, "KubeletCrashLoopBackOffMax") && p != nil &&
			utilvalidation.IsInRange(int(p.Duration.Milliseconds()), 1000, 300000) != nil {
			emit("crashLoopBackOff.maxContainerRestartPeriod",
				fmt.Sprintf("crashLoopBackOff.maxContainerRestartPeriod is %v, outside 1s..300s", p.Duration),
				"set crashLoopBackOff.maxContainerRestartPeriod between 1s and 300s",
				fmt.Sprintf("invalid configuration: CrashLoopBackOff.MaxContainerRestartPeriod (got: %v seconds) must be set between 1s and 300s", p.Seconds()))
		}
	})

	kvCrashLoopMaxGate = kvRule(&rule.Rule{
		ID:      "KC4050",
		Fields:  []string{"crashLoopBackOff.maxContainerRestartPeriod", "featureGates[KubeletCrashLoopBackOffMax]"},
		Since:   "1.32",
		Name:    "crash-loop-max-needs-gate",
		Summary: "crashLoopBackOff.maxContainerRestartPeriod requires the KubeletCrashLoopBackOffMax gate",
		Doc: "With the KubeletCrashLoopBackOffMax gate off, crashLoopBackOff.maxContainerRestartPeriod must " +
			"not be set. Fix: enable the gate (on by default from 1.35) or remove the field. " +
			"The trap: the main file is defaulted with its own gates, so when it leaves the gate on, defaulting " +
			"sets the period to 300s; a drop-in that then turns the gate off leaves that default in place and the " +
			"kubelet refuses. Turn the gate off in the main file, or null the period in the same drop-in.",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if !kvEnabled(c, "KubeletCrashLoopBackOffMax") && k.CrashLoopBackOff.MaxContainerRestartPeriod != nil {
			const kubelet = "invalid configuration: FeatureGate KubeletCrashLoopBackOffMax not enabled, CrashLoopBackOff.MaxContainerRestartPeriod must not be set"
			if kvGateTrap(c, emit, "KubeletCrashLoopBackOffMax", "crashLoopBackOff.maxContainerRestartPeriod", k.CrashLoopBackOff.MaxContainerRestartPeriod.Duration.String(), kubelet) {
				return
			}
			emit("crashLoopBackOff.maxContainerRestartPeriod",
				"crashLoopBackOff.maxContainerRestartPeriod is set but the KubeletCrashLoopBackOffMax feature gate is off",
				"enable featureGates.KubeletCrashLoopBackOffMax or remove crashLoopBackOff.maxContainerRestartPeriod",
				kubelet)
		}
	})

	kvEnforceSystemBoth = kvEnforcementBoth("KC4051", "enforce-system-reserved-exclusive", kvEnforceSystemReserved, kvEnforceSystemReservedCompr)

	kvEnforceKubeBoth = kvEnforcementBoth("KC4052", "enforce-kube-reserved-exclusive", kvEnforceKubeReserved, kvEnforceKubeReservedCompr)

	kvEnforceDuplicate = kvRule(&rule.Rule{
		ID:      "KC4053",
		Fields:  []string{"enforceNodeAllocatable"},
		Name:    "enforce-node-allocatable-duplicate",
		Summary: "enforceNodeAllocatable must not repeat an entry",
		Doc: "Each enforcement may appear once in enforceNodeAllocatable; the kubelet refuses a " +
			"repeated one (and reports each repeat). Fix: remove the duplicate.",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		kvEnforcementIter(k, func(i int, val string, dup bool) {
			if dup {
				emit(kvEnforcementPath(i),
					fmt.Sprintf("enforceNodeAllocatable lists %q more than once", val),
					"remove the repeated entry",
					fmt.Sprintf("invalid configuration: duplicated enforcements %q in enforceNodeAllocatable (--enforce-node-allocatable)", val))
			}
		})
	})

	kvEnforceSystemCgroup = kvEnforcementCgroup("KC4054", "enforce-system-reserved-needs-cgroup", "systemReservedCgroup", "system-reserved-cgroup",
		kvEnforceSystemReserved, kvEnforceSystemReservedCompr, func(k *kvConfig) string { return k.SystemReservedCgroup })

	kvEnforceKubeCgroup = kvEnforcementCgroup("KC4055", "enforce-kube-reserved-needs-cgroup", "kubeReservedCgroup", "kube-reserved-cgroup",
		kvEnforceKubeReserved, kvEnforceKubeReservedCompr, func(k *kvConfig) string { return k.KubeReservedCgroup })

	kvEnforceNoneAlone = kvRule(&rule.Rule{
		ID:      "KC4056",
		Fields:  []string{"enforceNodeAllocatable"},
		Name:    "enforce-node-allocatable-none-alone",
		Summary: "enforceNodeAllocatable \"none\" must be the only entry",
		Doc: "\"none\" turns node allocatable enforcement off, so it cannot be combined with other " +
			"enforcements. Fix: use [\"none\"] alone, or drop \"none\".",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		kvEnforcementIter(k, func(i int, val string, dup bool) {
			if !dup && val == kvEnforceNone && len(k.EnforceNodeAllocatable) > 1 {
				emit("enforceNodeAllocatable",
					"enforceNodeAllocatable lists \"none\" together with other enforcements",
					"use [\"none\"] alone to disable enforcement, or remove \"none\"",
					fmt.Sprintf("invalid configuration: enforceNodeAllocatable (--enforce-node-allocatable) may not contain additional enforcements when %q is specified", kvEnforceNone))
			}
		})
	})

	kvEnforceUnknown = kvRule(&rule.Rule{
		ID:      "KC4057",
		Fields:  []string{"enforceNodeAllocatable"},
		Name:    "enforce-node-allocatable-known",
		Summary: "enforceNodeAllocatable entries must be known enforcements",
		Doc: "enforceNodeAllocatable accepts pods, system-reserved, system-reserved-compressible, " +
			"kube-reserved, kube-reserved-compressible and none (case-sensitive); 1.31 does not know the " +
			"two -compressible ones (added in 1.32). An empty list, written explicitly, means no enforcement. " +
			"Fix: correct the entry.",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		kvEnforcementIter(k, func(i int, val string, dup bool) {
			if !dup && !kvEnforcementKnown(c, val) {
				emit(kvEnforcementPath(i),
					fmt.Sprintf("enforceNodeAllocatable entry %q is not a known enforcement", val),
					"use "+kvEnforcementOptions(c),
					kvEnforcement.at(c.Minor).unknown(val))
			}
		})
	})

	kvEnforceNeedsQOS = kvRule(&rule.Rule{
		ID:      "KC4058",
		Fields:  []string{"enforceNodeAllocatable", "cgroupsPerQOS"},
		Name:    "enforce-node-allocatable-needs-cgroups-per-qos",
		Summary: "enforceNodeAllocatable requires cgroupsPerQOS: true",
		Doc: "Node allocatable is enforced on the QoS cgroup hierarchy, which exists only with " +
			"cgroupsPerQOS true. The kubelet reports one error per enforcement (other than none). " +
			"Defaulting sets enforceNodeAllocatable to [\"pods\"], so cgroupsPerQOS: false alone triggers " +
			"this. Fix: set cgroupsPerQOS: true, or enforceNodeAllocatable: [\"none\"] (or []).",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if kvBool(k.CgroupsPerQOS) {
			return
		}
		kvEnforcementIter(k, func(i int, val string, dup bool) {
			if dup || val == kvEnforceNone || !kvEnforcementKnown(c, val) {
				return
			}
			path := kvEnforcementPath(i)
			if c.Set("cgroupsPerQOS") {
				path = "cgroupsPerQOS"
			}
			emit(path,
				fmt.Sprintf("enforceNodeAllocatable contains %q but cgroupsPerQOS is false", val),
				"set cgroupsPerQOS: true, or set enforceNodeAllocatable to [\"none\"] to disable enforcement",
				fmt.Sprintf("invalid configuration: cgroupsPerQOS (--cgroups-per-qos) must be set to true when %q contained in enforceNodeAllocatable (--enforce-node-allocatable)", val))
		})
	})

	kvHairpinMode = kvRule(&rule.Rule{
		ID:      "KC4059",
		Fields:  []string{"hairpinMode"},
		Name:    "hairpin-mode-valid",
		Summary: "hairpinMode must be none, hairpin-veth or promiscuous-bridge",
		Doc: "hairpinMode says how the kubelet sets up hairpin NAT for services; it knows only none, " +
			"hairpin-veth and promiscuous-bridge (the default). Fix: use one of them.",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		switch k.HairpinMode {
		case kubeletv1beta1.HairpinNone, kubeletv1beta1.HairpinVeth, kubeletv1beta1.PromiscuousBridge:
			return
		}
		emit("hairpinMode",
			fmt.Sprintf("hairpinMode %q is not a known mode", k.HairpinMode),
			"use none, hairpin-veth or promiscuous-bridge",
			fmt.Sprintf("invalid configuration: option %q specified for hairpinMode (--hairpin-mode). Valid options are %q, %q or %q",
				k.HairpinMode, kubeletv1beta1.HairpinNone, kubeletv1beta1.HairpinVeth, kubeletv1beta1.PromiscuousBridge))
	})

	kvPullPolicyValid = kvRule(&rule.Rule{
		ID:      "KC4060",
		Fields:  []string{"imagePullCredentialsVerificationPolicy"},
		Since:   "1.33",
		Name:    "image-pull-credentials-policy-valid",
		Summary: "imagePullCredentialsVerificationPolicy must be a known policy",
		Doc: "With KubeletEnsureSecretPulledImages on (alpha and off by default in 1.33 and 1.34, beta and on by default from 1.35), the policy must be one of " +
			"NeverVerify, NeverVerifyPreloadedImages, NeverVerifyAllowlistedImages or AlwaysVerify; an " +
			"empty value is refused too, but defaulting fills in NeverVerifyPreloadedImages. Fix: use one " +
			"of the four values.",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if !kvEnabled(c, "KubeletEnsureSecretPulledImages") {
			return
		}
		switch k.ImagePullCredentialsVerificationPolicy {
		case kubeletv1beta1.NeverVerify, kubeletv1beta1.NeverVerifyPreloadedImages, kubeletv1beta1.NeverVerifyAllowlistedImages, kubeletv1beta1.AlwaysVerify:
			return
		}
		emit("imagePullCredentialsVerificationPolicy",
			fmt.Sprintf("imagePullCredentialsVerificationPolicy %q is not a known policy", k.ImagePullCredentialsVerificationPolicy),
			"use NeverVerify, NeverVerifyPreloadedImages (default), NeverVerifyAllowlistedImages or AlwaysVerify",
			fmt.Sprintf("invalid configuration: option %q specified for imagePullCredentialsVerificationPolicy. Valid options are %q, %q, %q or %q",
				k.ImagePullCredentialsVerificationPolicy, kubeletv1beta1.NeverVerify, kubeletv1beta1.NeverVerifyPreloadedImages, kubeletv1beta1.NeverVerifyAllowlistedImages, kubeletv1beta1.AlwaysVerify))
	})

	kvAllowlistNeedsPolicy = kvRule(&rule.Rule{
		ID:      "KC4061",
		Fields:  []string{"preloadedImagesVerificationAllowlist"},
		Since:   "1.33",
		Name:    "preloaded-images-allowlist-needs-policy",
		Summary: "preloadedImagesVerificationAllowlist requires policy NeverVerifyAllowlistedImages",
		Doc: "The allowlist is only read by the NeverVerifyAllowlistedImages policy; with " +
			"KubeletEnsureSecretPulledImages on and any other policy the kubelet refuses it (its message " +
			"misspells the field as imagePullCredentialsVertificationPolicy). Fix: set " +
			"imagePullCredentialsVerificationPolicy: NeverVerifyAllowlistedImages or remove the allowlist.",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if kvEnabled(c, "KubeletEnsureSecretPulledImages") && len(k.PreloadedImagesVerificationAllowlist) > 0 &&
			k.ImagePullCredentialsVerificationPolicy != kubeletv1beta1.NeverVerifyAllowlistedImages {
			emit("preloadedImagesVerificationAllowlist",
				fmt.Sprintf("preloadedImagesVerificationAllowlist is set but imagePullCredentialsVerificationPolicy is %q", k.ImagePullCredentialsVerificationPolicy),
				"set imagePullCredentialsVerificationPolicy: NeverVerifyAllowlistedImages, or remove preloadedImagesVerificationAllowlist",
				"invalid configuration: can't set `preloadedImagesVerificationAllowlist` if `imagePullCredentialsVertificationPolicy` is not \"NeverVerifyAllowlistedImages\"")
		}
	})

	kvAllowlistPattern = kvRule(&rule.Rule{
		ID:      "KC4062",
		Fields:  []string{"preloadedImagesVerificationAllowlist"},
		Since:   "1.33",
		Name:    "preloaded-images-allowlist-pattern",
		Summary: "preloadedImagesVerificationAllowlist entries must be valid image patterns",
		Doc: "Each allowlist entry is an image name without tag or digest (registry.example/repo), or a " +
			"prefix ending in /* (registry.example/team/*); no spaces, no other wildcards. The kubelet " +
			"reports only the first bad entry. Up to 1.35 the name is normalized before the comparison, so " +
			"a name without a registry (nginx, which means docker.io/library/nginx) is refused too; from " +
			"1.36 it is accepted. Fix: correct the pattern (up to 1.35, write the full name).",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if !kvEnabled(c, "KubeletEnsureSecretPulledImages") {
			return
		}
		if len(k.PreloadedImagesVerificationAllowlist) > 0 && k.ImagePullCredentialsVerificationPolicy != kubeletv1beta1.NeverVerifyAllowlistedImages {
			return // KC4061 fires instead (else-if upstream)
		}
		for i, p := range k.PreloadedImagesVerificationAllowlist {
			if err := kvAllowlistImagePatternError(c.Version(), p); err != nil {
				emit(fmt.Sprintf("preloadedImagesVerificationAllowlist[%d]", i),
					fmt.Sprintf("allowlist pattern %q is invalid: %v", p, err),
					"use an image name without tag or digest (registry.example/repo), or a prefix ending in /* (registry.example/team/*)",
					fmt.Sprintf("invalid configuration: invalid image pattern in `preloadedImagesVerificationAllowlist`: %v", err))
				return // ValidateAllowlistImagesPatterns stops at the first error
			}
		}
	})

	kvPullPolicyNeedsGate = kvRule(&rule.Rule{
		ID:      "KC4063",
		Fields:  []string{"imagePullCredentialsVerificationPolicy", "featureGates[KubeletEnsureSecretPulledImages]"},
		Since:   "1.33",
		Name:    "image-pull-credentials-policy-needs-gate",
		Summary: "imagePullCredentialsVerificationPolicy requires the KubeletEnsureSecretPulledImages gate",
		Doc: "With KubeletEnsureSecretPulledImages off, imagePullCredentialsVerificationPolicy must not be " +
			"set. Fix: enable the gate (on by default from 1.35) or remove the field. The same trap as KC4050: " +
			"the main file is defaulted with its own gates, so a drop-in that turns the gate off leaves the " +
			"defaulted NeverVerifyPreloadedImages in place and the kubelet refuses.",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if !kvEnabled(c, "KubeletEnsureSecretPulledImages") && len(k.ImagePullCredentialsVerificationPolicy) > 0 {
			const kubelet = "invalid configuration: `imagePullCredentialsVerificationPolicy` must not be set if KubeletEnsureSecretPulledImages feature gate is not enabled"
			if kvGateTrap(c, emit, "KubeletEnsureSecretPulledImages", "imagePullCredentialsVerificationPolicy", string(k.ImagePullCredentialsVerificationPolicy), kubelet) {
				return
			}
			emit("imagePullCredentialsVerificationPolicy",
				"imagePullCredentialsVerificationPolicy is set but the KubeletEnsureSecretPulledImages feature gate is off",
				"enable featureGates.KubeletEnsureSecretPulledImages or remove imagePullCredentialsVerificationPolicy",
				kubelet)
		}
	})

	kvAllowlistNeedsGate = kvRule(&rule.Rule{
		ID:      "KC4064",
		Fields:  []string{"preloadedImagesVerificationAllowlist"},
		Since:   "1.33",
		Name:    "preloaded-images-allowlist-needs-gate",
		Summary: "preloadedImagesVerificationAllowlist requires the KubeletEnsureSecretPulledImages gate",
		Doc: "With KubeletEnsureSecretPulledImages off, preloadedImagesVerificationAllowlist must not be " +
			"set. Fix: enable the gate or remove the field.",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if !kvEnabled(c, "KubeletEnsureSecretPulledImages") && len(k.PreloadedImagesVerificationAllowlist) > 0 {
			emit("preloadedImagesVerificationAllowlist",
				"preloadedImagesVerificationAllowlist is set but the KubeletEnsureSecretPulledImages feature gate is off",
				"enable featureGates.KubeletEnsureSecretPulledImages or remove preloadedImagesVerificationAllowlist",
				"invalid configuration: `preloadedImagesVerificationAllowlist` must not be set if KubeletEnsureSecretPulledImages feature gate is not enabled")
		}
	})

	kvReservedCPUsExclusive = kvRule(&rule.Rule{
		ID:      "KC4065",
		Fields:  []string{"reservedSystemCPUs", "systemReservedCgroup", "kubeReservedCgroup"},
		Name:    "reserved-cpus-excludes-reserved-cgroups",
		Summary: "reservedSystemCPUs cannot be combined with systemReservedCgroup or kubeReservedCgroup",
		Doc: "reservedSystemCPUs sets aside an explicit CPU list for system daemons; it is not supported " +
			"together with systemReservedCgroup or kubeReservedCgroup. Fix: use either reservedSystemCPUs " +
			"or the reserved cgroups.",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if k.ReservedSystemCPUs != "" && (k.SystemReservedCgroup != "" || k.KubeReservedCgroup != "") {
			emit("reservedSystemCPUs",
				fmt.Sprintf("reservedSystemCPUs (%q) is set together with systemReservedCgroup or kubeReservedCgroup", k.ReservedSystemCPUs),
				"remove reservedSystemCPUs, or remove systemReservedCgroup and kubeReservedCgroup",
				"invalid configuration: can't use reservedSystemCPUs (--reserved-cpus) with systemReservedCgroup (--system-reserved-cgroup) or kubeReservedCgroup (--kube-reserved-cgroup)")
		}
	})

	kvReservedCPUsParse = kvRule(&rule.Rule{
		ID:      "KC4066",
		Fields:  []string{"reservedSystemCPUs"},
		Name:    "reserved-cpus-parse",
		Summary: "reservedSystemCPUs must be a CPU list",
		Doc: "reservedSystemCPUs is a Linux CPU list such as \"0-3\" or \"0,2,4-7\" (ranges must not be " +
			"reversed, no spaces). Fix: write it in that format.",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if k.ReservedSystemCPUs == "" {
			return
		}
		if _, err := cpuset.Parse(k.ReservedSystemCPUs); err != nil {
			emit("reservedSystemCPUs",
				fmt.Sprintf("reservedSystemCPUs %q is not a CPU list: %v", k.ReservedSystemCPUs, err),
				"use a CPU list such as \"0-1\" or \"0,2,4-7\"",
				fmt.Sprintf("invalid configuration: unable to parse reservedSystemCPUs (--reserved-cpus) %v, error: %v", k.ReservedSystemCPUs, err))
		}
	})
)

// validationNodeRules are this file's rules, in the kubelet's order of checks.
var validationNodeRules = []*rule.Rule{
	kvTaintInvalid,
	kvTaintTimeAdded,
	kvTopologyManagerPolicy,
	kvTopologyManagerScope,
	kvShutdownCriticalNotAbovePeriod,
	kvShutdownPeriodMin,
	kvShutdownCriticalMin,
	kvShutdownNeedsGate,
	kvShutdownByPriorityExclusive,
	kvShutdownByPriorityGate,
	kvSwapBehavior,
	kvSwapNeedsGate,
	kvCrashLoopMaxRequired,
	kvCrashLoopMaxRange,
	kvCrashLoopMaxGate,
	kvEnforceSystemBoth,
	kvEnforceKubeBoth,
	kvEnforceDuplicate,
	kvEnforceSystemCgroup,
	kvEnforceKubeCgroup,
	kvEnforceNoneAlone,
	kvEnforceUnknown,
	kvEnforceNeedsQOS,
	kvHairpinMode,
	kvPullPolicyValid,
	kvAllowlistNeedsPolicy,
	kvAllowlistPattern,
	kvPullPolicyNeedsGate,
	kvAllowlistNeedsGate,
	kvReservedCPUsExclusive,
	kvReservedCPUsParse,
}
