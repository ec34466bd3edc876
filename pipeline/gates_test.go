package pipeline

import (
	"reflect"
	"testing"

	"k8s.io/component-base/featuregate"

	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/rule"
)

// TestUnsetGatesAreBase proves, for every supported minor, what gateSets.apply
// relies on to hand out the minor's base gate for an empty featureGates map
// instead of DeepCopy followed by setGates: setting an empty map on a copy
// succeeds (the registered defaults satisfy every dependency) and leaves a gate
// that answers exactly as the base does.
func TestUnsetGatesAreBase(t *testing.T) {
	for _, v := range kubelets.Supported() {
		m, err := kubelets.Lookup(v)
		if err != nil {
			t.Fatal(err)
		}
		base, err := m.BaseFeatureGate()
		if err != nil {
			t.Fatal(err)
		}
		for _, gates := range []map[string]bool{nil, {}} {
			g := base.DeepCopy()
			if err := setGates(g, gates); err != nil {
				t.Fatalf("%s: setting %v on the base gate: %v", v, gates, err)
			}
			got, err := (*gateSets)(nil).apply(m, base, gates)
			if err != nil || got != base {
				t.Fatalf("%s: apply(%v) = %p, %v; want the base gate", v, gates, got, err)
			}
			if !reflect.DeepEqual(g.GetAllVersioned(), base.GetAllVersioned()) ||
				!sameDependencies(g.Dependencies(), base.Dependencies()) ||
				g.EmulationVersion().String() != base.EmulationVersion().String() ||
				g.MinCompatibilityVersion().String() != base.MinCompatibilityVersion().String() {
				t.Fatalf("%s: the copy's registration differs from the base's", v)
			}
			for name := range base.GetAllVersioned() {
				if g.Enabled(name) != base.Enabled(name) || g.ExplicitlySet(name) || base.ExplicitlySet(name) {
					t.Errorf("%s: %s: copy enabled %v explicitly %v, base enabled %v explicitly %v",
						v, name, g.Enabled(name), g.ExplicitlySet(name), base.Enabled(name), base.ExplicitlySet(name))
				}
			}
			if !reflect.DeepEqual(g.KnownFeatures(), base.KnownFeatures()) {
				t.Errorf("%s: known features differ", v)
			}
		}
	}
}

// sameDependencies compares two dependency maps as featuregate reads them
// (ranged over: a nil map and an empty one are the same).
func sameDependencies(a, b map[featuregate.Feature][]featuregate.Feature) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if !reflect.DeepEqual(v, b[k]) {
			return false
		}
	}
	return true
}

// TestGateSetsSetOnACopy checks that a non-empty map is set on a copy: the base
// gate keeps answering with its registered defaults.
func TestGateSetsSetOnACopy(t *testing.T) {
	m, base, name := unlockedBetaGate(t)
	before := base.Enabled(featuregate.Feature(name))
	g, err := (&gateSets{}).apply(m, base, map[string]bool{name: !before})
	if err != nil {
		t.Fatal(err)
	}
	if g == base || g.Enabled(featuregate.Feature(name)) == before || base.Enabled(featuregate.Feature(name)) != before {
		t.Fatalf("setting %s on a copy: copy %v, base %v (was %v)", name, g.Enabled(featuregate.Feature(name)), base.Enabled(featuregate.Feature(name)), before)
	}
}

// TestMinorGateSetsShared: on a minor's own base gate, the same gates give the
// same set to every evaluation of the process (another gateSets, none), other
// gates another set, each with its own values.
func TestMinorGateSetsShared(t *testing.T) {
	m, base, name := unlockedBetaGate(t)
	before := base.Enabled(featuregate.Feature(name))
	a, errA := (&gateSets{}).apply(m, base, map[string]bool{name: !before})
	b, errB := (*gateSets)(nil).apply(m, base, map[string]bool{name: !before})
	c, errC := (&gateSets{}).apply(m, base, map[string]bool{name: before})
	if errA != nil || errB != nil || errC != nil {
		t.Fatal(errA, errB, errC)
	}
	if a != b || a == c || a.Enabled(featuregate.Feature(name)) == before || c.Enabled(featuregate.Feature(name)) != before {
		t.Errorf("%s=%v twice: %p, %p; %s=%v: %p", name, !before, a, b, name, before, c)
	}
}

// TestGateRulesListed: gateRules, which the gate repair reads, holds every
// rule the gate step emits, as the registry lists them.
func TestGateRulesListed(t *testing.T) {
	listed := map[string]bool{}
	for _, r := range gateRules {
		listed[r.ID] = true
	}
	n := 0
	for _, r := range rule.All() {
		if r.EmittedBy != gatesStep {
			continue
		}
		n++
		if !listed[r.ID] {
			t.Errorf("%s is emitted by the gate step but missing from gateRules", r.ID)
		}
	}
	if n != len(gateRules) {
		t.Errorf("gateRules has %d rules, the registry %d of the gate step", len(gateRules), n)
	}
}

// unlockedBetaGate is the default minor, its base gate and its first
// unlocked beta gate: one that may be set either way.
func unlockedBetaGate(t *testing.T) (*kubelets.Minor, featuregate.MutableVersionedFeatureGate, string) {
	t.Helper()
	m := kubelets.Default()
	base, err := m.BaseFeatureGate()
	if err != nil {
		t.Fatal(err)
	}
	table, err := m.Gates()
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range table.Names() {
		if g, _ := table.Lookup(n); !g.Special && table.At(g).PreRelease == "BETA" && !table.At(g).LockToDefault {
			return m, base, n
		}
	}
	t.Fatal("no unlocked beta gate")
	return nil, nil, ""
}
