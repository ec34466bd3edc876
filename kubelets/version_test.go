package kubelets

import (
	"os"
	"strings"
	"testing"

	"k8s.io/component-base/featuregate"

	"github.com/kubeletcfg/kubeletcfg/internal/kubeletdata"
)

// TestPreAlphaIsFeaturegates: GateTable.At (kubeletdata, which cannot import
// component-base) names the stage as featuregate does.
func TestPreAlphaIsFeaturegates(t *testing.T) {
	if kubeletdata.PreAlpha != string(featuregate.PreAlpha) {
		t.Fatalf("kubeletdata.PreAlpha = %q, featuregate.PreAlpha = %q", kubeletdata.PreAlpha, featuregate.PreAlpha)
	}
}

func TestMinorOrder(t *testing.T) {
	all := Minors()
	for i := 1; i < len(all); i++ {
		a, b := all[i-1], all[i]
		if !a.Before(b) || b.Before(a) || a.Compare(b) != -1 || !b.AtLeast(a.MajorMinor()) || a.AtLeast(b.MajorMinor()) {
			t.Errorf("%s and %s are out of order", a.Version, b.Version)
		}
		if a.Older(b) != a.Before(b) {
			t.Errorf("Older and Before disagree on %s, %s", a.Version, b.Version)
		}
	}
	if got := Newest().MajorMinor().String(); got != Newest().Version {
		t.Errorf("MajorMinor().String() = %q, want %q", got, Newest().Version)
	}
}

func TestLookup(t *testing.T) {
	for _, tc := range []struct {
		in, want string
	}{
		{"1.37", "1.37"}, {"v1.33", "1.33"}, {"v1.31.0", "1.31"}, {" 1.35 ", "1.35"},
		{"v1.37.2-eks-abc", "1.37"}, {"v1.38.0-beta.0", "1.38"},
		{"1.30", ""}, {"2.37", ""}, {"1.037", ""}, {"v1.37.x-eks", ""}, {"", ""},
	} {
		m, err := Lookup(tc.in)
		switch {
		case tc.want == "" && err == nil:
			t.Errorf("Lookup(%q) = %s, want an error", tc.in, m.Version)
		case tc.want != "" && (err != nil || m.Version != tc.want):
			t.Errorf("Lookup(%q) = %v, %v; want %s", tc.in, m, err, tc.want)
		}
	}
}

func TestDefaultIsTheNewestRelease(t *testing.T) {
	d := Default()
	if d.PreRelease() {
		t.Fatalf("Default() = %s (%s), a pre-release", d.Version, d.Patch)
	}
	for _, m := range Minors() {
		if d.Before(m) && !m.PreRelease() {
			t.Errorf("Default() = %s, but %s is a newer release", d.Version, m.Version)
		}
	}
	for _, tc := range []struct {
		patch, pre, note string
	}{
		{"v1.37.2", "", ""},
		{"v1.38.0-beta.0", "v1.38.0-beta.0", "kubelet 1.38 is checked against v1.38.0-beta.0, a pre-release; its GA release may still differ"},
		{"v1.38.0-rc.1", "v1.38.0-rc.1", "kubelet 1.38 is checked against v1.38.0-rc.1, a pre-release; its GA release may still differ"},
		{"v1.38.0", "", ""},
	} {
		m := &Minor{Version: VersionOf(tc.patch).String(), Patch: tc.patch}
		pre := m.PreReleaseVersion()
		if m.PreRelease() != (tc.pre != "") || pre != tc.pre || PreReleaseNote(m.Version, pre) != tc.note {
			t.Errorf("%s: PreRelease() = %v, PreReleaseVersion() = %q, note %q; want %q, %q", tc.patch, m.PreRelease(), pre, PreReleaseNote(m.Version, pre), tc.pre, tc.note)
		}
	}
}

func TestSpan(t *testing.T) {
	for _, tc := range []struct {
		in   []string
		want string
	}{
		{[]string{"1.34", "1.35", "1.36", "1.37"}, "1.34..1.37"},
		{[]string{"1.33", "1.37"}, "1.33, 1.37"},
		{[]string{"1.35", "1.36"}, "1.35, 1.36"},
		{[]string{"1.32", "1.33", "1.35"}, "1.32, 1.33, 1.35"},
		{[]string{"1.37"}, "1.37"},
		{nil, ""},
	} {
		if got := Span(tc.in); got != tc.want {
			t.Errorf("Span(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestVersionsMatchData keeps the three records of a minor's release in step, so that
// a half-done `make minor` cannot pass: conformance/minors/versions.txt (what the
// harness is built from), the supported minors (kubelets/data/*/release.json, written by
// that harness) and the header of the newest minor's copied types (upstream/gen.sh).
func TestVersionsMatchData(t *testing.T) {
	raw, err := os.ReadFile("../conformance/minors/versions.txt")
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, line := range strings.Split(string(raw), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && !strings.HasPrefix(f[0], "#") {
			listed = append(listed, f[0]+" "+f[1])
		}
	}
	var supported []string
	for _, m := range Minors() {
		supported = append(supported, m.Version+" "+m.Patch)
	}
	if strings.Join(listed, ", ") != strings.Join(supported, ", ") {
		t.Errorf("versions.txt lists %v, kubelets/data has %v", listed, supported)
	}
	types, err := os.ReadFile("../upstream/kubelet/config/v1beta1/types.go")
	if err != nil {
		t.Fatal(err)
	}
	want := "from k8s.io/kubelet@v0" + strings.TrimPrefix(Newest().Patch, "v1") + " "
	if first, _, _ := strings.Cut(string(types), "\n"); !strings.Contains(first, want) {
		t.Errorf("upstream types: %q, want a copy %s(sh upstream/gen.sh)", first, want)
	}
}
