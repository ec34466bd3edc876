package validate

import (
	"strings"
)

// GateOfPath is the gate a finding's featureGates[Name] path names; ok is false
// for any other path.
func GateOfPath(path string) (name string, ok bool) {
	name, ok = strings.CutPrefix(path, "featureGates[")
	if !ok || !strings.HasSuffix(name, "]") {
		return "", false
	}
	return strings.TrimSuffix(name, "]"), true
}
