package kubeletdata

import (
	"fmt"
	"strconv"
	"strings"
)

// Version is a kubelet minor, 1.37 as {Major: 1, Minor: 37}: the one notion of
// a minor that lists, orders and compares them. The zero value is no minor.
type Version struct {
	Major, Minor int
}

// ParseVersion accepts "1.37", "v1.37" or "v1.37.2", the patch with a pre-release
// or build suffix too ("v1.38.0-beta.0", "v1.37.2-eks-abc"; surrounding space is
// ignored; the patch and suffix are dropped). Anything else, a leading zero in the minor
// ("1.037") included, is not a version.
func ParseVersion(s string) (Version, bool) {
	s = strings.TrimPrefix(strings.TrimSpace(s), "v")
	majS, rest, ok := strings.Cut(s, ".")
	if !ok {
		return Version{}, false
	}
	minS, patch, hasPatch := strings.Cut(rest, ".")
	// A release's patch may carry a pre-release or build suffix, as semver allows:
	// v1.38.0-beta.0, and what `kubectl get nodes` shows for a vendor's build,
	// v1.37.2-eks-abc or v1.37.2+k3s1.
	if i := strings.IndexAny(patch, "-+"); i > 0 {
		patch = patch[:i]
	}
	if hasPatch && !digits(patch) {
		return Version{}, false
	}
	if !digits(majS) || !digits(minS) || (len(minS) > 1 && minS[0] == '0') {
		return Version{}, false
	}
	maj, err1 := strconv.Atoi(majS)
	mnr, err2 := strconv.Atoi(minS)
	if err1 != nil || err2 != nil {
		return Version{}, false
	}
	return Version{Major: maj, Minor: mnr}, true
}

// MustParseVersion is ParseVersion for literals; it panics on a malformed one.
func MustParseVersion(s string) Version {
	v, ok := ParseVersion(s)
	if !ok {
		panic(fmt.Sprintf("kubeletdata: %q is not a kubelet minor", s))
	}
	return v
}

func digits(s string) bool {
	if s == "" || len(s) > 9 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// String is "1.37".
func (v Version) String() string {
	return strconv.Itoa(v.Major) + "." + strconv.Itoa(v.Minor)
}

// IsZero reports whether v is no minor (the zero Version).
func (v Version) IsZero() bool { return v == Version{} }

// Compare orders v and o like strings.Compare: -1 when v is older.
func (v Version) Compare(o Version) int {
	switch {
	case v.Major != o.Major:
		return sign(v.Major - o.Major)
	default:
		return sign(v.Minor - o.Minor)
	}
}

// Before reports whether v is an older minor than o.
func (v Version) Before(o Version) bool { return v.Compare(o) < 0 }

// AtLeast reports whether v is o or newer.
func (v Version) AtLeast(o Version) bool { return v.Compare(o) >= 0 }

// Add is the minor n minors after v (before it for a negative n), same major.
func (v Version) Add(n int) Version { return Version{Major: v.Major, Minor: v.Minor + n} }

func sign(n int) int {
	switch {
	case n < 0:
		return -1
	case n > 0:
		return 1
	}
	return 0
}
