package skew

import "strings"

// Field paths are dotted JSON names with map keys and list indexes in brackets:
// crashLoopBackOff.maxContainerRestartPeriod, evictionHard[memory.available],
// reservedMemory[0].limits[memory]. These helpers are the one place that knows it.

// JoinPath appends an object field name to a path.
func JoinPath(parent, name string) string {
	if parent == "" {
		return name
	}
	return parent + "." + name
}

// Below reports whether path lies strictly below p (a field, map key or list
// item of it, at any depth).
func Below(path, p string) bool {
	return strings.HasPrefix(path, p+".") || strings.HasPrefix(path, p+"[")
}

// Within reports whether path is p or lies below it.
func Within(path, p string) bool {
	return path == p || Below(path, p)
}
