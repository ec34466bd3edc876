package kubelets

import (
	"sync"
	"testing"
)

// BenchmarkNewFeatureGates is each minor's gate registration as a process
// builds it once per minor (BaseFeatureGate): featuregate's AddVersioned and
// AddDependencies over the converted specs.
func BenchmarkNewFeatureGates(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		for _, m := range minors {
			if _, err := m.NewFeatureGate(); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkGateRegistrations is the conversion of every minor's generated gate
// table to featuregate's types, from empty caches.
func BenchmarkGateRegistrations(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		registrations.Clear()
		for i := range genSpecs {
			genSpecs[i].once = sync.Once{}
		}
		for _, m := range minors {
			if _, err := m.gateRegistration(); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkDeepCopyGates is one DeepCopy of every minor's registration: what
// a second featureGates map at a minor costs before SetFromMap (the first one
// takes a fresh registration instead: sharedGate.DeepCopy).
func BenchmarkDeepCopyGates(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		for _, m := range minors {
			base, err := m.BaseFeatureGate()
			if err != nil {
				b.Fatal(err)
			}
			base.(*sharedGate).registration().DeepCopy()
		}
	}
}
