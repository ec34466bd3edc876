package validate

import (
	"fmt"
	"math"

	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/rule"
	_ "k8s.io/component-base/logs/json/register" // the kubelet registers the json log format too
)

// ---- validation_linux.go: validateKubeletOSConfiguration returns only its FIRST
// failure, so each rule below fires only when it is that first failure. Each
// minor appended its checks after the older ones (1.32 singleProcessOOMKill, 1.33
// userNamespaces), so a check a minor lacks can only come after that minor's
// last one: kvFirstOSFailure walks them all and the rule of a failure the minor
// does not have is out of its range (Rule.Since) and never runs.

const kvUserNsUnitLength = 65536

type kvOSFailure int

const (
	kvOSNone kvOSFailure = iota
	kvOSFailCgroupV1
	kvOSSingleProcessOOMKill
	kvOSIDsTooFew
	kvOSIDsNotMultiple
	kvOSIDsTooMany
)

// kvFirstOSFailure is validateKubeletOSConfiguration (Linux) with the host's cgroup
// version taken from the context instead of the running machine.
func kvFirstOSFailure(c *rule.Context) kvOSFailure {
	k := c.Config
	isCgroup1 := c.CgroupVersion == 1
	if kvBool(k.FailCgroupV1) && isCgroup1 {
		return kvOSFailCgroupV1
	}
	if isCgroup1 && k.SingleProcessOOMKill != nil && !*k.SingleProcessOOMKill {
		return kvOSSingleProcessOOMKill
	}
	if un := k.UserNamespaces; un != nil {
		if ids := un.IDsPerPod; ids != nil {
			if *ids < kvUserNsUnitLength {
				return kvOSIDsTooFew
			}
			if *ids%kvUserNsUnitLength != 0 {
				return kvOSIDsNotMultiple
			}
			if *ids > math.MaxUint32 {
				return kvOSIDsTooMany
			}
		}
	}
	return kvOSNone
}

// kvFailCgroupV1Message is the kubelet's error; it has no "invalid configuration:" prefix.
var kvFailCgroupV1Message = byMinor[string]{
	{"1.31", "kubelet is configured to not run on a host using cgroup v1. cgroup v1 support is in maintenance mode"},
	{"1.35", "kubelet is configured to not run on a host using cgroup v1. cgroup v1 support is unsupported and will be removed in a future release"},
}

var (
	kvFailCgroupV1 = kvRule(&rule.Rule{
		ID:      "KC5001",
		Fields:  []string{"failCgroupV1"},
		Name:    "fail-cgroup-v1",
		Stage:   rule.StageHost,
		Summary: "host check (--cgroup-version): failCgroupV1 refuses to start on a cgroup v1 host",
		Doc: "Host-dependent: decided by --cgroup-version, since kubeletcfg cannot see the node. failCgroupV1 " +
			"defaults to true from 1.35 (false before), so from 1.35 on a host using cgroup v1 the kubelet " +
			"refuses to start unless it is set to false; cgroup v1 support is unsupported and will be " +
			"removed. This is the first Linux OS check: when it fails the later ones (singleProcessOOMKill, " +
			"userNamespaces.idsPerPod) are not reported. Its message has no \"invalid configuration:\" " +
			"prefix, and up to 1.34 ends \"cgroup v1 support is in maintenance mode\". Fix: move the node " +
			"to cgroup v2 (preferred), or set failCgroupV1: false to keep running on cgroup v1.",
		Kubelet: kvValidationLinuxFunc,
		OS:      kubelets.Linux,
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if kvFirstOSFailure(c) == kvOSFailCgroupV1 {
			msg := "failCgroupV1 is true (the default) and the host uses cgroup v1, so the kubelet refuses to start"
			if c.Set("failCgroupV1") {
				msg = "failCgroupV1 is true and the host uses cgroup v1, so the kubelet refuses to start"
			}
			emit("failCgroupV1", msg,
				"migrate the host to cgroup v2, or set failCgroupV1: false to allow cgroup v1 (unsupported)",
				kvFailCgroupV1Message.at(c.Minor))
		}
	})

	kvSingleProcessOOMKillV1 = kvRule(&rule.Rule{
		ID:      "KC5002",
		Fields:  []string{"singleProcessOOMKill"},
		Since:   "1.32",
		Name:    "single-process-oom-kill-cgroup-v1",
		Stage:   rule.StageHost,
		Summary: "host check (--cgroup-version): singleProcessOOMKill must not be false on cgroup v1",
		Doc: "Host-dependent: decided by --cgroup-version. On cgroup v1 the kernel always kills single " +
			"processes on OOM (there is no memory.oom.group), so an explicit singleProcessOOMKill: false " +
			"is refused. Only reported when failCgroupV1 did not already stop the kubelet (the Linux OS " +
			"checks return the first failure). Fix: remove singleProcessOOMKill or set it to true.",
		Kubelet: kvValidationLinuxFunc,
		OS:      kubelets.Linux,
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if kvFirstOSFailure(c) == kvOSSingleProcessOOMKill {
			emit("singleProcessOOMKill",
				"singleProcessOOMKill is false but the host uses cgroup v1, where whole-cgroup OOM kill is not available",
				"remove singleProcessOOMKill (or set it to true) on cgroup v1 hosts",
				"invalid configuration: singleProcessOOMKill must not be explicitly set to false when using cgroup v1")
		}
	})

	kvIDsPerPodMin = kvRule(&rule.Rule{
		ID:      "KC4070",
		Fields:  []string{"userNamespaces.idsPerPod"},
		Since:   "1.33",
		Name:    "user-namespaces-ids-per-pod-min",
		Summary: "userNamespaces.idsPerPod must be at least 65536",
		Doc: "idsPerPod is the size of the UID/GID range given to each pod with a user namespace; it must " +
			"be at least 65536. The Linux OS checks return only their first failure, so this is not " +
			"reported when a cgroup v1 check already failed. Fix: use 65536 or a larger multiple of it.",
		Kubelet: kvValidationLinuxFunc,
		OS:      kubelets.Linux,
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if kvFirstOSFailure(c) == kvOSIDsTooFew {
			emit("userNamespaces.idsPerPod",
				fmt.Sprintf("userNamespaces.idsPerPod is %d; it must be at least %d", *k.UserNamespaces.IDsPerPod, kvUserNsUnitLength),
				"set userNamespaces.idsPerPod to 65536 or a larger multiple of 65536",
				fmt.Sprintf("invalid configuration: userNamespaces.idsPerPod must not be less than %d", kvUserNsUnitLength))
		}
	})

	kvIDsPerPodMultiple = kvRule(&rule.Rule{
		ID:      "KC4071",
		Fields:  []string{"userNamespaces.idsPerPod"},
		Since:   "1.33",
		Name:    "user-namespaces-ids-per-pod-multiple",
		Summary: "userNamespaces.idsPerPod must be a multiple of 65536",
		Doc: "Pod ID ranges are allocated in units of 65536, so idsPerPod must be a multiple of 65536. " +
			"Reported only as the first Linux OS failure. Fix: round to a multiple of 65536.",
		Kubelet: kvValidationLinuxFunc,
		OS:      kubelets.Linux,
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if kvFirstOSFailure(c) == kvOSIDsNotMultiple {
			ids := *k.UserNamespaces.IDsPerPod
			emit("userNamespaces.idsPerPod",
				fmt.Sprintf("userNamespaces.idsPerPod is %d, not a multiple of %d", ids, kvUserNsUnitLength),
				fmt.Sprintf("use a multiple of 65536, such as %d", ids/kvUserNsUnitLength*kvUserNsUnitLength),
				fmt.Sprintf("invalid configuration: userNamespaces.idsPerPod must be a multiple of %d", kvUserNsUnitLength))
		}
	})

	kvIDsPerPodMax = kvRule(&rule.Rule{
		ID:      "KC4072",
		Fields:  []string{"userNamespaces.idsPerPod"},
		Since:   "1.33",
		Name:    "user-namespaces-ids-per-pod-max",
		Summary: "userNamespaces.idsPerPod must not exceed 4294967295",
		Doc: "idsPerPod must fit in a 32-bit ID range (at most 4294967295). Reported only as the first " +
			"Linux OS failure. Fix: use a smaller multiple of 65536.",
		Kubelet: kvValidationLinuxFunc,
		OS:      kubelets.Linux,
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if kvFirstOSFailure(c) == kvOSIDsTooMany {
			emit("userNamespaces.idsPerPod",
				fmt.Sprintf("userNamespaces.idsPerPod is %d, more than %d", *k.UserNamespaces.IDsPerPod, int64(math.MaxUint32)),
				"use a multiple of 65536 no larger than 4294901760",
				fmt.Sprintf("invalid configuration: userNamespaces.idsPerPod must not be more than %d", int64(math.MaxUint32)))
		}
	})
)

// linuxRules are this file's rules, in the order validateKubeletOSConfiguration checks.
var linuxRules = []*rule.Rule{
	kvFailCgroupV1,
	kvSingleProcessOOMKillV1,
	kvIDsPerPodMin,
	kvIDsPerPodMultiple,
	kvIDsPerPodMax,
}
