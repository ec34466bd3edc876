package kubeletdata

import "testing"

func TestParseVersion(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Version
		ok   bool
	}{
		{"1.37", Version{1, 37}, true},
		{"v1.37", Version{1, 37}, true},
		{"v1.37.2", Version{1, 37}, true},
		{" 1.31 ", Version{1, 31}, true},
		{"1.0", Version{1, 0}, true},
		{"", Version{}, false},
		{"1", Version{}, false},
		{"1.", Version{}, false},
		{"1.037", Version{}, false},
		{"1.37.", Version{}, false},
		{"1.37.2-eks", Version{1, 37}, true},
		{"v1.37.2-eks-abc", Version{1, 37}, true},
		{"v1.38.0-beta.0", Version{1, 38}, true},
		{"v1.33.4+k3s1", Version{1, 33}, true},
		{"1.37.-eks", Version{}, false},
		{"1.37.x-1", Version{}, false},
		{"1.37-eks", Version{}, false},
		{"1.x", Version{}, false},
		{"-1.3", Version{}, false},
	} {
		got, ok := ParseVersion(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("ParseVersion(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestVersionOrder(t *testing.T) {
	a, b := MustParseVersion("1.9"), MustParseVersion("1.31")
	if !a.Before(b) || b.Before(a) || a.Before(a) {
		t.Errorf("1.9 must be before 1.31 and not before itself")
	}
	if !b.AtLeast(a) || !b.AtLeast(b) || a.AtLeast(b) {
		t.Errorf("AtLeast disagrees with Before")
	}
	if c := (Version{2, 0}).Compare(Version{1, 99}); c != 1 {
		t.Errorf("2.0 vs 1.99 = %d, want 1", c)
	}
	if s := b.Add(-3).String(); s != "1.28" {
		t.Errorf("1.31 - 3 = %s", s)
	}
	if !(Version{}).IsZero() || b.IsZero() {
		t.Errorf("IsZero")
	}
}

func TestGateTableAt(t *testing.T) {
	g := &Gate{Specs: []GateSpec{
		{Version: "1.30", PreRelease: "ALPHA"},
		{Version: "1.33", PreRelease: "BETA", Default: true},
		{Version: "1.36", PreRelease: "", Default: true, LockToDefault: true, MinCompatibilityVersion: "1.36"},
	}}
	for _, tc := range []struct {
		emu, minCompat, want string
	}{
		{"1.29", "1.29", "0.0"},
		{"1.31", "1.31", "1.30"},
		{"1.35", "1.35", "1.33"},
		{"1.37", "1.35", "1.33"}, // minimum compatibility holds the GA spec back
		{"1.37", "1.36", "1.36"},
	} {
		tb := &GateTable{EmulationVersion: tc.emu, MinCompatibilityVersion: tc.minCompat}
		if got := tb.At(g).Version; got != tc.want {
			t.Errorf("At(emulation %s, minCompat %s) = %s, want %s", tc.emu, tc.minCompat, got, tc.want)
		}
	}
}

// BenchmarkParseVersion: every Minor.Compare parses both minors' strings, so
// parsing must stay a few nanoseconds (no regexp, no allocation).
func BenchmarkParseVersion(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := ParseVersion("v1.37.2"); !ok {
			b.Fatal("no version")
		}
	}
}
