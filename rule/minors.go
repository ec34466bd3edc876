package rule

import "github.com/kubeletcfg/kubeletcfg/kubelets"

// Kubelet minors. The rules mirror the kubelet of every minor skew supports,
// from the oldest to the newest. A rule that exists in some minors only
// declares them (Since, Until); a message or condition that changed between
// minors is declared next to the rule (validate's byMinor).

// bounds are a rule's Since and Until parsed; has* false for an open end.
type bounds struct {
	since, until       kubelets.Version
	hasSince, hasUntil bool
}

func parseBounds(r *Rule) *bounds {
	b := &bounds{}
	b.since, b.hasSince = kubelets.ParseVersion(r.Since)
	b.until, b.hasUntil = kubelets.ParseVersion(r.Until)
	return b
}

// Resolve parses the minors of each rule once, for In. The lists shared
// between evaluations call it when they are built (validate's, the
// registry's), before any evaluation reads them; a rule left out parses its
// minors at each In.
func Resolve(rules []*Rule) []*Rule {
	for _, r := range rules {
		r.bounds = parseBounds(r)
	}
	return rules
}

func (r *Rule) parsed() *bounds {
	if r.bounds != nil {
		return r.bounds
	}
	return parseBounds(r)
}

// In reports whether the kubelet of minor m has the rule: m lies in [Since,
// Until]. A nil minor is in every range, so that a context without a minor
// runs every rule.
func (r *Rule) In(m *kubelets.Minor) bool {
	if m == nil {
		return true
	}
	b := r.parsed()
	v := m.MajorMinor()
	if b.hasSince && v.Compare(b.since) < 0 {
		return false
	}
	return !b.hasUntil || v.Compare(b.until) <= 0
}

// InVersion is In for a minor named by its version ("1.33"); an unknown or
// empty one is in every range.
func (r *Rule) InVersion(minor string) bool {
	m, err := kubelets.Lookup(minor)
	if err != nil {
		return true
	}
	return r.In(m)
}

// OldestMinor and NewestMinor bound the minors the rules mirror: skew's list,
// whose Patch releases the rules were read from.
func OldestMinor() string { return kubelets.Minors()[0].Version }
func NewestMinor() string { return kubelets.Newest().Version }

// Minors is the range of kubelet minors that have the rule, for example
// "1.33–1.37" (an open end is the oldest or newest minor the rules mirror).
func (r *Rule) Minors() string {
	from, to := r.Since, r.Until
	if from == "" {
		from = OldestMinor()
	}
	if to == "" {
		to = NewestMinor()
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
	for _, m := range kubelets.Minors() {
		if r.In(m) {
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
