package validate

import "github.com/kubeletcfg/kubeletcfg/kubelets"

// Kubelet minors. The rules mirror the kubelet of every minor skew supports, from
// the oldest to the newest. A rule that exists in some minors only declares them
// (Rule.Since, Rule.Until); a message or condition that changed between minors is
// declared as a byMinor value next to the rule and picked with at(c.Minor).

// parseMinor accepts "1.33", "v1.33" or "v1.33.13" (kubelets.ParseVersion).
func parseMinor(s string) (major, minor int, ok bool) {
	v, ok := kubelets.ParseVersion(s)
	return v.Major, v.Minor, ok
}

// compareMinors orders two minors like strings.Compare; ok is false when either
// does not parse.
func compareMinors(a, b string) (cmp int, ok bool) {
	av, ok1 := kubelets.ParseVersion(a)
	bv, ok2 := kubelets.ParseVersion(b)
	if !ok1 || !ok2 {
		return 0, false
	}
	return av.Compare(bv), true
}

// minorValue is a value that holds from the kubelet minor Since on.
type minorValue[T any] struct {
	Since string
	V     T
}

// byMinor is a value that changed between kubelet minors, oldest first: each
// entry holds from its Since until the next entry's. The first entry's Since is
// the oldest minor the value exists in.
type byMinor[T any] []minorValue[T]

// at returns the value in force at minor: the newest for an empty or unparsable
// minor, the first for a minor older than every entry.
func (b byMinor[T]) at(m *kubelets.Minor) T {
	minor := ""
	if m != nil {
		minor = m.Version
	}
	return b.atVersion(minor)
}

// atVersion is at for a minor named by its version ("1.37").
func (b byMinor[T]) atVersion(minor string) T {
	for i := len(b) - 1; i >= 0; i-- {
		c, ok := compareMinors(minor, b[i].Since)
		if !ok {
			return b[len(b)-1].V
		}
		if c >= 0 {
			return b[i].V
		}
	}
	return b[0].V
}
