package rule

import "strings"

// evictionSignals are the kubelet's eviction signals
// (pkg/kubelet/eviction/api/types.go), the keys of evictionHard and evictionSoft.
var evictionSignals = []string{
	"memory.available", "allocatableMemory.available", "nodefs.available", "nodefs.inodesFree",
	"imagefs.available", "imagefs.inodesFree", "containerfs.available", "containerfs.inodesFree", "pid.available",
}

// MisplacedThresholdHint is the hint for an unknown top-level key that is an
// eviction signal (nodefs.available: 10%): a threshold written outside
// evictionHard. ok is false for other keys.
func MisplacedThresholdHint(writtenPath string) (hint string, ok bool) {
	for _, s := range evictionSignals {
		if strings.EqualFold(s, writtenPath) {
			return `did you mean "evictionHard[` + s + `]"? An eviction threshold goes under evictionHard or evictionSoft`, true
		}
	}
	return "", false
}
