package kubelets

import (
	"slices"
	"testing"

	"k8s.io/component-base/featuregate"
)

// TestRegistersMatchesFeatureGate checks that Registers (the generated table)
// names exactly the gates the minor's featuregate knows: validate.Context's
// GateRegistered answers from the table instead of listing the gate's specs.
func TestRegistersMatchesFeatureGate(t *testing.T) {
	for _, v := range Supported() {
		m, _ := Lookup(v)
		fg, err := m.BaseFeatureGate()
		if err != nil {
			t.Fatal(err)
		}
		known := fg.(interface {
			GetAllVersioned() map[featuregate.Feature]featuregate.VersionedSpecs
		}).GetAllVersioned()
		for f := range known {
			if !m.Registers(string(f)) {
				t.Errorf("%s: featuregate knows %s, Registers does not", v, f)
			}
		}
		table, _ := m.Gates()
		for name := range table.Gates {
			if _, ok := known[featuregate.Feature(name)]; !ok {
				t.Errorf("%s: Registers has %s, featuregate does not know it", v, name)
			}
		}
	}
}

// TestFeatureGateHasTableSpecs checks every registered gate's specs, as the
// minor's featuregate holds them, against the generated table (gates.json):
// the registration converts each distinct generated gate once for all minors.
func TestFeatureGateHasTableSpecs(t *testing.T) {
	for _, v := range Supported() {
		m, _ := Lookup(v)
		fg, err := m.NewFeatureGate()
		if err != nil {
			t.Fatal(err)
		}
		known := fg.GetAllVersioned()
		deps := fg.Dependencies()
		table, _ := m.Gates()
		for name, g := range table.Gates {
			if g.Special {
				continue
			}
			got := known[featuregate.Feature(name)]
			if len(got) > len(g.Specs) {
				// The 1.0 entry of a gate introduced as deprecated (gateRegistration).
				if len(got) != len(g.Specs)+1 || got[0].Version.String() != "1.0" || g.Specs[0].PreRelease != string(featuregate.Deprecated) {
					t.Errorf("%s: %s: %d specs registered, %d generated", v, name, len(got), len(g.Specs))
					continue
				}
				got = got[1:]
			}
			if len(got) != len(g.Specs) {
				t.Errorf("%s: %s: %d specs registered, %d generated", v, name, len(got), len(g.Specs))
				continue
			}
			var lastMinCompat string
			for i, s := range g.Specs {
				// featuregate carries a spec's MinCompatibilityVersion forward
				// to the later specs that have none (AddVersioned).
				if s.MinCompatibilityVersion != "" {
					lastMinCompat = s.MinCompatibilityVersion
				}
				gs := got[i]
				minCompat := ""
				if gs.MinCompatibilityVersion != nil {
					minCompat = gs.MinCompatibilityVersion.String()
				}
				if gs.Version.String() != s.Version || gs.Default != s.Default || gs.LockToDefault != s.LockToDefault ||
					string(gs.PreRelease) != s.PreRelease || minCompat != lastMinCompat {
					t.Errorf("%s: %s: spec %d registered %+v, generated %+v", v, name, i, gs, s)
				}
			}
			wantDeps := slices.Clone(g.Dependencies)
			var gotDeps []string
			for _, d := range deps[featuregate.Feature(name)] {
				gotDeps = append(gotDeps, string(d))
			}
			slices.Sort(wantDeps)
			if !slices.Equal(slices.Compact(wantDeps), gotDeps) {
				t.Errorf("%s: %s: dependencies registered %v, generated %v", v, name, gotDeps, wantDeps)
			}
		}
	}
}
