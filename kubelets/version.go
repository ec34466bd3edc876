package kubelets

import (
	"strings"

	"github.com/kubeletcfg/kubeletcfg/internal/kubeletdata"
)

// Version is a kubelet minor as two numbers, {Major: 1, Minor: 37}: what every
// package compares minors with (Before, AtLeast, Compare), instead of parsing
// the "1.37" strings itself.
type Version = kubeletdata.Version

// ParseVersion accepts "1.37", "v1.37" or "v1.37.2" (the patch is dropped).
func ParseVersion(s string) (Version, bool) { return kubeletdata.ParseVersion(s) }

// VersionOf is ParseVersion's Version, the zero Version (older than any minor)
// when s is not one.
func VersionOf(s string) Version {
	v, _ := kubeletdata.ParseVersion(s)
	return v
}

// Minors lists the supported minors, oldest first (a copy: callers may sort it).
func Minors() []*Minor {
	return append([]*Minor(nil), minors...)
}

// MajorMinor is the minor's Version, {1, 37} for "1.37".
func (m *Minor) MajorMinor() Version { return kubeletdata.MustParseVersion(m.Version) }

// Compare orders m and o like strings.Compare: -1 when m is the older minor.
func (m *Minor) Compare(o *Minor) int { return m.MajorMinor().Compare(o.MajorMinor()) }

// Before reports whether m is an older minor than o.
func (m *Minor) Before(o *Minor) bool { return m.Compare(o) < 0 }

// AtLeast reports whether m is the minor v or a newer one.
func (m *Minor) AtLeast(v Version) bool { return m.MajorMinor().AtLeast(v) }

// Span writes minors as --versions does: "1.34..1.37" for three or more
// consecutive minors, else a list, "1.33, 1.37".
func Span(vs []string) string {
	if len(vs) > 2 {
		consecutive := true
		for i := 1; i < len(vs); i++ {
			a, okA := ParseVersion(vs[i-1])
			b, okB := ParseVersion(vs[i])
			consecutive = consecutive && okA && okB && b == a.Add(1)
		}
		if consecutive {
			return vs[0] + ".." + vs[len(vs)-1]
		}
	}
	return strings.Join(vs, ", ")
}
