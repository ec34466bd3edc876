package kubelets

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/spf13/pflag"
	"k8s.io/apimachinery/pkg/util/version"
	"k8s.io/component-base/featuregate"
)

// sharedGate is a minor's registered gate set with nothing set, the one
// BaseFeatureGate shares between all evaluations. featuregate's registration
// (AddVersioned and AddDependencies over a few hundred gates) costs more than
// the rest of evaluating a typical file at a minor, and most evaluations only
// ask the unset gate Enabled, which is the generated table's answer: the
// default of the spec in force at the minor's emulation version (GateTable.At,
// featuregate's featureSpecAtEmulationAndMinCompatVersion);
// TestBaseGateAnswersAsFeatureGate checks it for every gate of every minor.
//
// DeepCopy, the way to set gates, is a fresh registration the first time
// (NewFeatureGate: what a copy of a gate with nothing set holds; a one-shot run
// usually sets one featureGates map per minor), then a copy of the registration,
// built on the second call, which costs half as much as registering again (a
// long-running process, lint --nodes or the cluster run, copies it many times). The other reading methods are featuregate's
// own, on the registration built on first use. The gate is shared, so the
// methods that would set or register anything panic.
type sharedGate struct {
	m      *Minor
	table  *GateTable
	reg    func() (featuregate.MutableVersionedFeatureGate, error)
	built  atomic.Bool
	copies atomic.Int32 // DeepCopy calls, up to 2
}

var _ featuregate.MutableVersionedFeatureGate = (*sharedGate)(nil)

var baseGates sync.Map // minor -> func() (*sharedGate, error)

// BaseFeatureGate is the minor's gate set as the kubelet registers it, with
// nothing set, built once per minor and shared: callers DeepCopy it before
// setting anything, as the kubelet's defaulting and validation copy the global
// gate (setting it directly panics).
func (m *Minor) BaseFeatureGate() (featuregate.MutableVersionedFeatureGate, error) {
	f, _ := baseGates.LoadOrStore(m.Version, sync.OnceValues(func() (*sharedGate, error) {
		t, err := m.Gates()
		if err != nil {
			return nil, err
		}
		return &sharedGate{m: m, table: t, reg: sync.OnceValues(m.NewFeatureGate)}, nil
	}))
	g, err := f.(func() (*sharedGate, error))()
	if err != nil {
		return nil, err
	}
	return g, nil
}

// registration is featuregate's own gate set, built on first use.
func (g *sharedGate) registration() featuregate.MutableVersionedFeatureGate {
	fg, err := g.reg()
	if err != nil {
		panic(err) // embedded, generated data: a registration error is a build defect
	}
	g.built.Store(true)
	return fg
}

// Enabled is featuregate's Enabled with nothing set, from the generated table;
// like featuregate, it panics on a gate the minor does not register.
func (g *sharedGate) Enabled(key featuregate.Feature) bool {
	gate, ok := g.table.Lookup(string(key))
	if !ok {
		panic(fmt.Errorf("feature %q is not registered in FeatureGate", key))
	}
	return g.table.At(gate).Default
}

// DeepCopy returns a gate of the caller's own, with nothing set.
func (g *sharedGate) DeepCopy() featuregate.MutableVersionedFeatureGate {
	if g.built.Load() || g.copies.Load() > 0 || g.copies.Add(1) > 1 {
		return g.registration().DeepCopy()
	}
	fg, err := g.m.NewFeatureGate()
	if err != nil {
		panic(err) // embedded, generated data: a registration error is a build defect
	}
	return fg
}

func (g *sharedGate) KnownFeatures() []string { return g.registration().KnownFeatures() }
func (g *sharedGate) Dependencies() map[featuregate.Feature][]featuregate.Feature {
	return g.registration().Dependencies()
}
func (g *sharedGate) Validate() []error { return g.registration().Validate() }
func (g *sharedGate) GetAll() map[featuregate.Feature]featuregate.FeatureSpec {
	return g.registration().GetAll()
}
func (g *sharedGate) GetAllVersioned() map[featuregate.Feature]featuregate.VersionedSpecs {
	return g.registration().GetAllVersioned()
}
func (g *sharedGate) EmulationVersion() *version.Version {
	return g.registration().EmulationVersion()
}
func (g *sharedGate) MinCompatibilityVersion() *version.Version {
	return g.registration().MinCompatibilityVersion()
}
func (g *sharedGate) ExplicitlySet(name featuregate.Feature) bool {
	return g.registration().ExplicitlySet(name)
}
func (g *sharedGate) DeepCopyAndReset() featuregate.MutableVersionedFeatureGate {
	return g.registration().DeepCopyAndReset()
}

// readOnly is the panic of the methods that would change the shared gate.
func (g *sharedGate) readOnly(method string) {
	panic(fmt.Sprintf("kubelets: %s on the shared base gate of %s: DeepCopy it first", method, g.m.Version))
}

func (g *sharedGate) AddFlag(*pflag.FlagSet)           { g.readOnly("AddFlag") }
func (g *sharedGate) Close()                           { g.readOnly("Close") }
func (g *sharedGate) Set(string) error                 { g.readOnly("Set"); return nil }
func (g *sharedGate) SetFromMap(map[string]bool) error { g.readOnly("SetFromMap"); return nil }
func (g *sharedGate) Add(map[featuregate.Feature]featuregate.FeatureSpec) error {
	g.readOnly("Add")
	return nil
}
func (g *sharedGate) AddMetrics() { g.readOnly("AddMetrics") }
func (g *sharedGate) OverrideDefault(featuregate.Feature, bool) error {
	g.readOnly("OverrideDefault")
	return nil
}
func (g *sharedGate) SetEmulationVersion(*version.Version) error {
	g.readOnly("SetEmulationVersion")
	return nil
}
func (g *sharedGate) SetEmulationVersionAndMinCompatibilityVersion(*version.Version, *version.Version) error {
	g.readOnly("SetEmulationVersionAndMinCompatibilityVersion")
	return nil
}
func (g *sharedGate) AddVersioned(map[featuregate.Feature]featuregate.VersionedSpecs) error {
	g.readOnly("AddVersioned")
	return nil
}
func (g *sharedGate) AddDependencies(map[featuregate.Feature][]featuregate.Feature) error {
	g.readOnly("AddDependencies")
	return nil
}
func (g *sharedGate) OverrideDefaultAtVersion(featuregate.Feature, bool, *version.Version) error {
	g.readOnly("OverrideDefaultAtVersion")
	return nil
}
func (g *sharedGate) ResetFeatureValueToDefault(featuregate.Feature) error {
	g.readOnly("ResetFeatureValueToDefault")
	return nil
}
