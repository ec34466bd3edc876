package pipeline

import (
	"encoding/json"
	"sync"

	"k8s.io/component-base/featuregate"
	"k8s.io/utils/lru"

	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

// gateSets memoizes "DeepCopy the base gate, then setGates(gates)": the kubelet
// does it for each defaulting pass and again for validation, usually with the
// same map, and each copy duplicates every registered gate's specs (a third of
// a run). The gates it returns are shared and only ever read (Enabled), which
// featuregate makes safe from several goroutines; nothing may set them. It is
// safe for concurrent use; a Loaded holds one for all its evaluations.
type gateSets struct {
	mu sync.Mutex
	m  map[gateSetKey]func() gateSet
}

// minorGateSets memoizes apply on a minor's own base gate across every
// evaluation in the process, the last 64 sets of gates (a gate set is a
// copy of every registered gate's specs, some 100 KB).
var minorGateSets = lru.New(64)

type gateSetKey struct {
	base  featuregate.MutableVersionedFeatureGate
	gates string // the map as JSON: keys sorted, so equal maps are equal keys
}

type gateSet struct {
	gate featuregate.MutableVersionedFeatureGate
	err  error
}

// apply returns base with gates set, as base.DeepCopy() then setGates would,
// and setGates' error. A nil *gateSets memoizes only on the minor's own base
// gate (minorGateSets).
func (s *gateSets) apply(m *kubelets.Minor, base featuregate.MutableVersionedFeatureGate, gates map[string]bool) (featuregate.MutableVersionedFeatureGate, error) {
	compute := func() gateSet {
		g := base.DeepCopy()
		return gateSet{g, setGates(g, gates)}
	}
	shared, err := m.BaseFeatureGate()
	onMinorBase := err == nil && shared == base
	if len(gates) == 0 && onMinorBase {
		// No gates set on the minor's own base gate: a copy with an empty map
		// set is the base gate itself (the map sets nothing and every minor's
		// registered defaults satisfy their dependencies:
		// TestUnsetGatesAreBase), and the gates handed out are only read.
		return base, nil
	}
	if !onMinorBase && s == nil {
		r := compute()
		return r.gate, r.err
	}
	raw, err := json.Marshal(gates)
	if err != nil {
		r := compute()
		return r.gate, r.err
	}
	k := gateSetKey{base, string(raw)}
	if onMinorBase {
		// On the minor's own base gate, the set is the same for every
		// evaluation in the process (a bootstrapper writes the same gates for
		// every node of a minor): kept in a bounded cache of the process's.
		if v, ok := minorGateSets.Get(k); ok {
			r := v.(func() gateSet)()
			return r.gate, r.err
		}
		f := sync.OnceValue(compute)
		minorGateSets.Add(k, f)
		r := f()
		return r.gate, r.err
	}
	s.mu.Lock()
	f, ok := s.m[k]
	if !ok {
		if s.m == nil {
			s.m = map[gateSetKey]func() gateSet{}
		}
		f = sync.OnceValue(compute)
		s.m[k] = f
	}
	s.mu.Unlock()
	r := f()
	return r.gate, r.err
}
