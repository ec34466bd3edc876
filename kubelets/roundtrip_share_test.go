package kubelets

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	kubeletv1beta1 "github.com/kubeletcfg/kubeletcfg/upstream/kubelet/config/v1beta1"

	"github.com/kubeletcfg/kubeletcfg/internal/kubeletdata"
)

// TestRoundTripPlanShared checks that minors share a round-trip plan exactly
// when their generated zero values are equal (decoded afresh from each file,
// not from the shared cache), and that the sharing happens where it pays:
// without it every minor compiles its own plan.
func TestRoundTripPlanShared(t *testing.T) {
	decode := func(m *Minor) map[string]any {
		raw, err := data.ReadFile("data/" + m.Version + "/roundtrip.json")
		if err != nil {
			t.Fatal(err)
		}
		var d kubeletdata.RoundTrip
		var zero map[string]any
		if err := json.Unmarshal(raw, &d); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(d.Zero, &zero); err != nil {
			t.Fatal(err)
		}
		return zero
	}
	plans := map[*rtPlan]bool{}
	for i, a := range minors {
		pa, err := a.roundTripPlan()
		if err != nil {
			t.Fatalf("%s: %v", a.Version, err)
		}
		plans[pa] = true
		za, err := a.roundTripZero()
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(za, decode(a)) {
			t.Errorf("%s: the shared zero values are not the minor's own", a.Version)
		}
		for _, b := range minors[i+1:] {
			pb, err := b.roundTripPlan()
			if err != nil {
				t.Fatalf("%s: %v", b.Version, err)
			}
			equal := reflect.DeepEqual(decode(a), decode(b))
			if shared := pa == pb; shared != equal {
				t.Errorf("%s and %s: plan shared %v, zero values equal %v", a.Version, b.Version, shared, equal)
			}
		}
	}
	if len(plans) == len(minors) {
		t.Errorf("every minor has a plan of its own (%d): no zero values are shared", len(plans))
	}
}

// BenchmarkRoundTripPlans is what a process pays for the round-trip plans of
// every supported minor: each distinct zero value set compiled from empty caches.
func BenchmarkRoundTripPlans(b *testing.B) {
	var zeros []map[string]any
	seen := map[string]bool{}
	for _, m := range minors {
		key, err := m.roundTripKey()
		if err != nil {
			b.Fatal(err)
		}
		if seen[key] {
			continue
		}
		seen[key] = true
		z, err := m.roundTripZero()
		if err != nil {
			b.Fatal(err)
		}
		zeros = append(zeros, z)
	}
	typ := reflect.TypeFor[kubeletv1beta1.KubeletConfiguration]()
	b.ReportAllocs()
	for b.Loop() {
		typePlans.Clear()
		fieldZeros.Clear()
		structNames.Clear()
		for _, z := range zeros {
			if _, err := compileRT(typ, z, 0); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// TestRoundTripKeyDropsOnlyTheGeneratedLine checks the key of every minor: its
// file without the "_generated" line (which names the release), the rest intact.
func TestRoundTripKeyDropsOnlyTheGeneratedLine(t *testing.T) {
	for _, m := range minors {
		raw, err := data.ReadFile("data/" + m.Version + "/roundtrip.json")
		if err != nil {
			t.Fatal(err)
		}
		key, err := m.roundTripKey()
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitN(string(raw), "\n", 3)
		if len(lines) != 3 || !strings.HasPrefix(lines[1], generatedMember) || key != lines[2] {
			t.Errorf("%s: the key is not the file without its second line (%q)", m.Version, lines[1])
		}
	}
}
