package skew

import (
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
