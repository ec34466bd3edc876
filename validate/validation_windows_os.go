package validate

import (
	"fmt"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/rule"
)

// ---- validation_windows.go (this file is not named so: Go would build it on
// Windows only): the Windows kubelet's validateKubeletOSConfiguration.
// It logs a warning for each Linux-only setting it ignores and returns its FIRST
// refusal; a warning after that refusal is never logged. Each minor added its
// refusals after the older checks (1.32 singleProcessOOMKill, 1.33
// userNamespaces, 1.37 defaultPodSysctls), as on Linux.

// kvValidationWindowsFunc is the upstream code the Windows OS rules mirror.
const kvValidationWindowsFunc = "pkg/kubelet/apis/config/validation/validation_windows.go validateKubeletOSConfiguration"

// kvWindowsStep is one check of the Windows validateKubeletOSConfiguration.
type kvWindowsStep int

const (
	kvWinCgroupsPerQOS kvWindowsStep = iota // warning
	kvWinSingleProcessOOMKill
	kvWinEnforceNodeAllocatable // warning
	kvWinUserNamespaces
	kvWinDefaultPodSysctls
)

// kvWindowsRefusals are the refusals in the order they are checked, with the
// minor that added each.
var kvWindowsRefusals = []struct {
	step  kvWindowsStep
	since string
}{{kvWinSingleProcessOOMKill, "1.32"}, {kvWinUserNamespaces, "1.33"}, {kvWinDefaultPodSysctls, "1.37"}}

// kvWindowsFailing reports whether step fails on k (whatever came before it).
func kvWindowsFailing(step kvWindowsStep, c *rule.Context) bool {
	k := c.Config
	switch step {
	case kvWinCgroupsPerQOS:
		return k.CgroupsPerQOS == nil || *k.CgroupsPerQOS // defaulted: never nil by now
	case kvWinSingleProcessOOMKill:
		return k.SingleProcessOOMKill != nil
	case kvWinEnforceNodeAllocatable:
		for _, e := range k.EnforceNodeAllocatable {
			if e != "none" {
				return true
			}
		}
	case kvWinUserNamespaces:
		return k.UserNamespaces != nil
	case kvWinDefaultPodSysctls:
		return len(k.DefaultPodSysctls) > 0
	}
	return false
}

// kvWindowsReached reports whether the Windows checks get to step at c's minor:
// no refusal the minor has comes before it.
func kvWindowsReached(step kvWindowsStep, c *rule.Context) bool {
	for _, r := range kvWindowsRefusals {
		if r.step >= step {
			break
		}
		if has, ok := compareMinors(c.Version(), r.since); (!ok || has >= 0) && kvWindowsFailing(r.step, c) {
			return false
		}
	}
	return true
}

// kvWindowsLogs reports whether the kubelet gets to log its warnings: RunE
// initialises logging (logsapi.ValidateAndApply) before it validates the
// configuration, so a logging error stops it first.
func kvWindowsLogs(c *rule.Context) bool { return len(kvLogging(c, c.Config)) == 0 }

// kvWindowsIgnored is the warning the Windows kubelet logs for a setting it
// ignores (klog.Warningf(message, name, flag, value)).
func kvWindowsIgnored(name, flag string, value any) string {
	return fmt.Sprintf("ignored configuration option: %v (%v) %v is not supported on Windows", name, flag, value)
}

// kvWindowsRule is kvRule for a Windows OS check.
func kvWindowsRule(r *rule.Rule, severity finding.Severity, check kvCheck) *rule.Rule {
	r.Kubelet, r.OS, r.Stage = kvValidationWindowsFunc, kubelets.Windows, rule.StageHost
	r = kvRule(r, check)
	r.Severity = severity
	return r
}

var (
	kvWinCgroupsPerQOSRule = kvWindowsRule(&rule.Rule{
		ID:      "KC5101",
		Fields:  []string{"cgroupsPerQOS"},
		Name:    "windows-cgroups-per-qos-ignored",
		Logs:    true,
		Summary: "Windows: cgroupsPerQOS is true (the default), which the Windows kubelet ignores with a warning",
		Doc: "Host-dependent: decided by --os windows. Windows has no cgroups, so the Windows kubelet ignores cgroupsPerQOS and logs \"ignored " +
			"configuration option: CgroupsPerQOS (--cgroups-per-qos) true is not supported on Windows\" at " +
			"every start. cgroupsPerQOS defaults to true, so a Windows node warns unless the file sets it to " +
			"false; cgroupsPerQOS: false then also needs enforceNodeAllocatable: [none] (or [] ), since the " +
			"shared validation refuses [pods] without QoS cgroups (KC4058). Fix: on Windows set " +
			"cgroupsPerQOS: false and enforceNodeAllocatable: [none].",
	}, finding.Warning, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if kvWindowsFailing(kvWinCgroupsPerQOS, c) && kvWindowsLogs(c) {
			emit("cgroupsPerQOS", "cgroupsPerQOS is true, which the Windows kubelet ignores (Windows has no cgroups)",
				"set cgroupsPerQOS: false, with enforceNodeAllocatable: [none], on Windows nodes",
				kvWindowsIgnored("CgroupsPerQOS", "--cgroups-per-qos", true))
		}
	})

	kvWinSingleProcessOOMKillRule = kvWindowsRule(&rule.Rule{
		ID:      "KC5102",
		Fields:  []string{"singleProcessOOMKill"},
		Since:   "1.32",
		Name:    "windows-single-process-oom-kill",
		Summary: "Windows: singleProcessOOMKill set at all (true or false); the Windows kubelet refuses to start",
		Doc: "Host-dependent: decided by --os windows. singleProcessOOMKill is about the Linux kernel's OOM killer and cgroup v2's memory.oom.group; " +
			"the Windows kubelet refuses any value, true included. Fix: remove singleProcessOOMKill from " +
			"the configuration of Windows nodes.",
	}, finding.Error, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if kvWindowsFailing(kvWinSingleProcessOOMKill, c) {
			emit("singleProcessOOMKill", fmt.Sprintf("singleProcessOOMKill is set (%t); the Windows kubelet refuses it", *k.SingleProcessOOMKill),
				"remove singleProcessOOMKill from the configuration of Windows nodes",
				"invalid configuration: singleProcessOOMKill is not supported on Windows")
		}
	})

	kvWinEnforceNodeAllocatableRule = kvWindowsRule(&rule.Rule{
		ID:      "KC5103",
		Fields:  []string{"enforceNodeAllocatable"},
		Name:    "windows-enforce-node-allocatable-ignored",
		Logs:    true,
		Summary: "Windows: enforceNodeAllocatable names something other than none (the default [pods]), which the Windows kubelet ignores with a warning",
		Doc: "Host-dependent: decided by --os windows. Node allocatable is enforced with cgroups, which Windows does not have: the Windows kubelet " +
			"ignores enforceNodeAllocatable and logs \"ignored configuration option: EnforceNodeAllocatable " +
			"(--enforce-node-allocatable) [pods] is not supported on Windows\". Not logged when " +
			"singleProcessOOMKill already refused the configuration (the checks stop at their first " +
			"refusal). Fix: enforceNodeAllocatable: [none] on Windows nodes.",
	}, finding.Warning, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if kvWindowsFailing(kvWinEnforceNodeAllocatable, c) && kvWindowsReached(kvWinEnforceNodeAllocatable, c) && kvWindowsLogs(c) {
			emit("enforceNodeAllocatable", fmt.Sprintf("enforceNodeAllocatable is %v, which the Windows kubelet ignores (it has no cgroups to enforce it with)", k.EnforceNodeAllocatable),
				"set enforceNodeAllocatable: [none] on Windows nodes",
				kvWindowsIgnored("EnforceNodeAllocatable", "--enforce-node-allocatable", k.EnforceNodeAllocatable))
		}
	})

	kvWinUserNamespacesRule = kvWindowsRule(&rule.Rule{
		ID:      "KC5104",
		Fields:  []string{"userNamespaces"},
		Since:   "1.33",
		Name:    "windows-user-namespaces",
		Summary: "Windows: userNamespaces set; the Windows kubelet refuses to start",
		Doc: "Host-dependent: decided by --os windows. User namespaces are a Linux feature; the Windows kubelet refuses a configuration that sets " +
			"userNamespaces at all (an empty mapping included). Reported only when no earlier Windows check " +
			"refused it. Fix: remove userNamespaces from the configuration of Windows nodes.",
	}, finding.Error, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if kvWindowsFailing(kvWinUserNamespaces, c) && kvWindowsReached(kvWinUserNamespaces, c) {
			emit("userNamespaces", "userNamespaces is set; the Windows kubelet refuses it",
				"remove userNamespaces from the configuration of Windows nodes",
				"invalid configuration: userNamespaces is not supported on Windows")
		}
	})

	kvWinDefaultPodSysctlsRule = kvWindowsRule(&rule.Rule{
		ID:      "KC5105",
		Fields:  []string{"defaultPodSysctls"},
		Since:   "1.37",
		Name:    "windows-default-pod-sysctls",
		Summary: "Windows: defaultPodSysctls not empty; the Windows kubelet refuses to start",
		Doc: "Host-dependent: decided by --os windows. Sysctls are Linux kernel parameters; from 1.37 the Windows kubelet refuses a non-empty " +
			"defaultPodSysctls. Reported only when no earlier Windows check refused the configuration. " +
			"Fix: remove defaultPodSysctls from the configuration of Windows nodes.",
	}, finding.Error, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if kvWindowsFailing(kvWinDefaultPodSysctls, c) && kvWindowsReached(kvWinDefaultPodSysctls, c) {
			emit("defaultPodSysctls", fmt.Sprintf("defaultPodSysctls has %d entries; the Windows kubelet refuses them", len(k.DefaultPodSysctls)),
				"remove defaultPodSysctls from the configuration of Windows nodes",
				"invalid configuration: defaultPodSysctls is not supported on Windows")
		}
	})
)

// windowsRules are this file's rules, in the order validateKubeletOSConfiguration checks.
var windowsRules = []*rule.Rule{
	kvWinCgroupsPerQOSRule,
	kvWinSingleProcessOOMKillRule,
	kvWinEnforceNodeAllocatableRule,
	kvWinUserNamespacesRule,
	kvWinDefaultPodSysctlsRule,
}
