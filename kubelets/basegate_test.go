package kubelets

import (
	"fmt"
	"reflect"
	"sync"
	"testing"

	"k8s.io/component-base/featuregate"
)

// enabled is g.Enabled(name), or the panic it raises.
func enabled(g featuregate.FeatureGate, name featuregate.Feature) (on bool, panicked string) {
	defer func() {
		if p := recover(); p != nil {
			panicked = fmt.Sprint(p)
		}
	}()
	return g.Enabled(name), ""
}

// TestBaseGateAnswersAsFeatureGate proves, for every gate every minor knows
// (and gates it does not), that the shared base gate answers Enabled exactly as
// featuregate's own registration with nothing set, panics included; and that
// its DeepCopy, a fresh registration while the shared one is not built, holds
// what a copy of the registration holds.
func TestBaseGateAnswersAsFeatureGate(t *testing.T) {
	names := map[featuregate.Feature]bool{"NoSuchGate": true, "kubelettracing": true, "": true}
	for _, m := range minors {
		table, err := m.Gates()
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range table.Names() {
			names[featuregate.Feature(n)] = true
		}
	}
	for _, m := range minors {
		table, err := m.Gates()
		if err != nil {
			t.Fatal(err)
		}
		// A gate of its own: the shared one's registration may be built already.
		base := &sharedGate{m: m, table: table, reg: sync.OnceValues(m.NewFeatureGate)}
		fresh := base.DeepCopy() // before the registration is built
		if base.built.Load() {
			t.Fatalf("%s: DeepCopy built the shared registration", m.Version)
		}
		reg, err := m.NewFeatureGate()
		if err != nil {
			t.Fatal(err)
		}
		for name := range names {
			want, wantPanic := enabled(reg, name)
			got, gotPanic := enabled(base, name)
			if got != want || gotPanic != wantPanic {
				t.Errorf("%s: Enabled(%q) = %v, panic %q; featuregate: %v, panic %q", m.Version, name, got, gotPanic, want, wantPanic)
			}
			if got, gotPanic := enabled(fresh, name); got != want || gotPanic != wantPanic {
				t.Errorf("%s: the copy's Enabled(%q) = %v, panic %q; featuregate: %v, panic %q", m.Version, name, got, gotPanic, want, wantPanic)
			}
		}
		copied := base.registration().DeepCopy()
		if again := base.DeepCopy(); reflect.TypeOf(again) != reflect.TypeOf(copied) {
			t.Errorf("%s: DeepCopy once the registration is built is %T", m.Version, again)
		}
		for _, g := range []featuregate.MutableVersionedFeatureGate{fresh, copied} {
			if !reflect.DeepEqual(g.GetAllVersioned(), reg.GetAllVersioned()) ||
				!reflect.DeepEqual(g.KnownFeatures(), reg.KnownFeatures()) ||
				g.EmulationVersion().String() != reg.EmulationVersion().String() ||
				g.MinCompatibilityVersion().String() != reg.MinCompatibilityVersion().String() {
				t.Errorf("%s: a copy of the base gate is not its registration", m.Version)
			}
			deps, want := g.Dependencies(), reg.Dependencies()
			if len(deps) != len(want) {
				t.Errorf("%s: a copy has %d dependencies, the registration %d", m.Version, len(deps), len(want))
			}
			for k, v := range want {
				if !reflect.DeepEqual(deps[k], v) {
					t.Errorf("%s: %s: dependencies %v, registration %v", m.Version, k, deps[k], v)
				}
			}
		}
	}
}

// TestBaseGateIsReadOnly checks that setting the shared gate panics instead of
// leaving Enabled (answered from the table) out of step with it.
func TestBaseGateIsReadOnly(t *testing.T) {
	base, err := Newest().BaseFeatureGate()
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if recover() == nil {
			t.Error("SetFromMap on the shared base gate did not panic")
		}
	}()
	_ = base.SetFromMap(map[string]bool{"KubeletTracing": true})
}

// TestGatesConcurrently: lint --nodes evaluates many nodes at one minor at
// once, so a minor's gates are built and copied from several goroutines. The
// shared registration must not be written by any of them (featuregate's
// AddDependencies rewrites the map it is given: concurrent map writes crash
// the process); go test -race shows any other sharing.
func TestGatesConcurrently(t *testing.T) {
	for _, m := range minors {
		table, err := m.Gates()
		if err != nil {
			t.Fatal(err)
		}
		for range 20 {
			// A shared gate of its own each time: nothing built yet.
			base := &sharedGate{m: m, table: table, reg: sync.OnceValues(m.NewFeatureGate)}
			var wg sync.WaitGroup
			for range 4 {
				wg.Go(func() {
					_ = base.DeepCopy()
					if _, err := m.NewFeatureGate(); err != nil {
						t.Error(err)
					}
				})
			}
			wg.Wait()
		}
	}
}
