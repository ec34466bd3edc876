package validate

import "github.com/kubeletcfg/kubeletcfg/skew"

// Kubelet minors. The rules mirror the kubelet of every minor skew supports, from
// the oldest to the newest. A rule that exists in some minors only declares them
// (Rule.Since, Rule.Until); a message or condition that changed between minors is
// declared as a byMinor value next to the rule and picked with at(c.Minor).

// oldestMinor and newestMinor bound the minors the rules mirror: skew's list,
// whose Patch releases the rules were read from (pkg/kubelet/apis/config/validation
// and the component-base validators each release links).
func oldestMinor() string { return skew.Minors()[0].Version }
func newestMinor() string { return skew.Newest().Version }

// parseMinor accepts "1.33", "v1.33" or "v1.33.13" (skew.ParseVersion).
func parseMinor(s string) (major, minor int, ok bool) {
	v, ok := skew.ParseVersion(s)
	return v.Major, v.Minor, ok
}

// compareMinors orders two minors like strings.Compare; ok is false when either
// does not parse.
func compareMinors(a, b string) (cmp int, ok bool) {
	av, ok1 := skew.ParseVersion(a)
	bv, ok2 := skew.ParseVersion(b)
	if !ok1 || !ok2 {
		return 0, false
	}
	return av.Compare(bv), true
}

// In reports whether the kubelet of minor ("1.33") has the rule: minor lies in
// [Since, Until]. An empty or unparsable minor is in every range, so that a
// context without a minor runs every rule.
func (r *Rule) In(minor string) bool {
	if r.Since != "" {
		if c, ok := compareMinors(minor, r.Since); ok && c < 0 {
			return false
		}
	}
	if r.Until != "" {
		if c, ok := compareMinors(minor, r.Until); ok && c > 0 {
			return false
		}
	}
	return true
}

// Minors is the range of kubelet minors that have the rule, for example
// "1.33–1.37" (an open end is the oldest or newest minor the rules mirror).
func (r *Rule) Minors() string {
	from, to := r.Since, r.Until
	if from == "" {
		from = oldestMinor()
	}
	if to == "" {
		to = newestMinor()
	}
	if from == to {
		return from
	}
	return from + "–" + to
}

// Releases is the range of upstream releases, one per minor, whose code the rule
// was read from: "v1.33.13 to v1.37.2".
func (r *Rule) Releases() string {
	var in []string
	for _, m := range skew.Minors() {
		if r.In(m.Version) {
			in = append(in, m.Patch)
		}
	}
	switch len(in) {
	case 0:
		return ""
	case 1:
		return in[0]
	}
	return in[0] + " to " + in[len(in)-1]
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
func (b byMinor[T]) at(minor string) T {
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
