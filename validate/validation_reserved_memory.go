package validate

import (
	"fmt"
	"sort"
	"strings"

	"github.com/kubeletcfg/kubeletcfg/rule"
	v1 "k8s.io/api/core/v1"
)

// validation_reserved_memory.go: validateReservedMemoryConfiguration, which
// ValidateKubeletConfiguration calls after reservedSystemCPUs.

// kvReservedMemoryWalk walks reservedMemory like validateReservedMemoryConfiguration,
// limits in name order, reporting for each limit whether its NUMA node and
// resource were already seen.
func kvReservedMemoryWalk(k *kvConfig, fn func(i int, numa int32, name v1.ResourceName, path string, zero, dup bool)) {
	seen := map[int32]map[v1.ResourceName]bool{}
	for i, rm := range k.ReservedMemory {
		if seen[rm.NumaNode] == nil {
			seen[rm.NumaNode] = map[v1.ResourceName]bool{}
		}
		names := make([]string, 0, len(rm.Limits))
		for n := range rm.Limits {
			names = append(names, string(n))
		}
		sort.Strings(names)
		for _, n := range names {
			name := v1.ResourceName(n)
			q := rm.Limits[name]
			dup := seen[rm.NumaNode][name]
			seen[rm.NumaNode][name] = true
			fn(i, rm.NumaNode, name, fmt.Sprintf("reservedMemory[%d].limits[%s]", i, n), q.IsZero(), dup)
		}
	}
}

var (
	kvReservedMemoryType = kvRule(&rule.Rule{
		ID:      "KC4067",
		Fields:  []string{"reservedMemory"},
		Name:    "reserved-memory-limit-type",
		Summary: "reservedMemory limits may only name memory or hugepages-<size>",
		Doc: "reservedMemory reserves memory per NUMA node for the memory manager; its limits accept only " +
			"memory and hugepages-<size> (for example hugepages-2Mi). Fix: remove other resources.",
		Kubelet: kvReservedMemoryFunc,
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		kvReservedMemoryWalk(k, func(i int, numa int32, name v1.ResourceName, path string, zero, dup bool) {
			if name == v1.ResourceMemory || strings.HasPrefix(string(name), v1.ResourceHugePagesPrefix) {
				return
			}
			emit(path,
				fmt.Sprintf("reservedMemory for NUMA node %d names %q, which is not memory or hugepages-<size>", numa, name),
				"use memory or hugepages-<size> (for example hugepages-2Mi)",
				fmt.Sprintf("invalid configuration: the limit type %q for NUMA node %d is not supported, only %v is accepted", name, numa, []v1.ResourceName{v1.ResourceMemory, v1.ResourceHugePagesPrefix + "<HugePageSize>"}))
		})
	})

	kvReservedMemoryZero = kvRule(&rule.Rule{
		ID:      "KC4068",
		Fields:  []string{"reservedMemory"},
		Name:    "reserved-memory-non-zero",
		Summary: "reservedMemory limits must not be zero",
		Doc: "A zero reservation for a NUMA node and resource is refused. Fix: remove the entry or give " +
			"it a positive quantity.",
		Kubelet: kvReservedMemoryFunc,
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		kvReservedMemoryWalk(k, func(i int, numa int32, name v1.ResourceName, path string, zero, dup bool) {
			if zero {
				emit(path,
					fmt.Sprintf("reservedMemory for NUMA node %d and %q is zero", numa, name),
					"remove the limit or set a positive quantity such as 1Gi",
					fmt.Sprintf("invalid configuration: reserved memory may not be zero for NUMA node %d and resource %q", numa, name))
			}
		})
	})

	kvReservedMemoryDuplicate = kvRule(&rule.Rule{
		ID:      "KC4069",
		Fields:  []string{"reservedMemory"},
		Name:    "reserved-memory-duplicate",
		Summary: "reservedMemory must not reserve one resource twice on a NUMA node",
		Doc: "Two reservedMemory entries for the same numaNode must not both set the same resource. " +
			"Fix: merge them into one entry per NUMA node.",
		Kubelet: kvReservedMemoryFunc,
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		kvReservedMemoryWalk(k, func(i int, numa int32, name v1.ResourceName, path string, zero, dup bool) {
			if dup {
				emit(path,
					fmt.Sprintf("NUMA node %d reserves %q in more than one reservedMemory entry", numa, name),
					"keep one entry per NUMA node and resource",
					fmt.Sprintf("invalid configuration: the reserved memory has a duplicate value for NUMA node %d and resource %q", numa, name))
			}
		})
	})
)

// reservedMemoryRules are this file's rules, in the kubelet's order of checks.
var reservedMemoryRules = []*rule.Rule{
	kvReservedMemoryType,
	kvReservedMemoryZero,
	kvReservedMemoryDuplicate,
}
