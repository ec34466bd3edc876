package pipeline

import (
	"slices"
	"strconv"
	"strings"
	"sync"

	"k8s.io/component-base/featuregate"

	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/rule"
)

// The repairs of the gate findings, set where the gate step reports them
// (Finding.Fixes, or Finding.NoFix when the repair would be a guess):
//   - an unknown gate (KC3001) whose name differs only in case from the one
//     spelling the supported kubelets register is respelled;
//   - an entry set to the value its gate is locked to at this minor (KC3005,
//     KC3006), or was locked to at the last minor that registered it (KC3001),
//     is removed: it changes nothing here.
// kubeletcfg fix intersects them across its target minors: it removes an entry
// only when GateLockAt, this decision, holds at every target minor (the
// kubelet panics on the first gate it cannot set without warning about the
// others, so a minor may hold the decision without a finding to carry it).

// gateFixes sets the repairs of the gate findings of r.
func (r *Result) gateFixes() {
	for i := range r.Findings {
		f := &r.Findings[i]
		if !repairsGateEntry(f.Rule) {
			continue
		}
		name, ok := rule.GateOfPath(f.Path)
		if !ok || f.File == "" {
			continue
		}
		file := r.files.Read(f.File)
		if file == nil || file.Doc == nil {
			continue
		}
		keys := file.Keys()
		at, gatesKey, ok := rule.GateEntryAt(keys, f.Position)
		if !ok || at.Key().Value != name {
			continue
		}
		if f.Rule == GateUnknown.ID {
			if spelling, ok := GateSpelling(name); ok {
				*f = rule.RenamingGate(*f, file.Text(), keys, at, spelling)
				continue
			}
		}
		value, ok := rule.RemovableGate(keys, at)
		if !ok {
			continue
		}
		if lock, ok := GateLockAt(r.Minor, name, value); ok {
			*f = rule.RemovingGate(*f, file.Text(), at, gatesKey, f.File != r.mainFile, lock.String(name, value))
		}
	}
}

// repairsGateEntry reports whether the gate rule id declares the gate entry
// repair (rule.Repair). It reads the gate step's own declarations
// (gateRules), not rule.Lookup, whose registry index costs every lint about
// 0.15 M instructions (0.5%) that nothing else on lint's path needs.
func repairsGateEntry(id string) bool {
	for _, r := range gateRules {
		if r.ID == id {
			return r.Repair.Kind == rule.RepairGateEntry
		}
	}
	return false
}

// spellings maps each lower-cased gate name to its spellings registered by any
// supported minor, built once.
var spellings = sync.OnceValue(func() map[string][]string {
	out := map[string][]string{}
	for _, v := range kubelets.Supported() {
		m, err := kubelets.Lookup(v)
		if err != nil {
			continue
		}
		t, err := m.Gates()
		if err != nil {
			continue
		}
		for _, name := range t.Names() {
			low := strings.ToLower(name)
			if !slices.Contains(out[low], name) {
				out[low] = append(out[low], name)
			}
		}
	}
	return out
})

// GateSpelling is the one spelling, registered by some supported kubelet, of
// a gate name that no supported kubelet registers as written: a case mistake
// (the KEP-4603 proposal's ReduceDefaultCrashLoopBackoffDecay is one). A name
// some minor registered exactly is no case mistake: that gate is gone.
func GateSpelling(name string) (string, bool) {
	c := spellings()[strings.ToLower(name)]
	if len(c) != 1 || c[0] == name {
		return "", false
	}
	return c[0], true
}

// GateLock is why setting a gate to a value changes nothing at a minor: the
// minor registers it locked to that value (Last is empty), or no longer
// registers it and Last, the last supported minor that did, had it locked to
// that value (the entry then only makes the kubelet panic, KC3001).
type GateLock struct {
	Minor string
	Last  string
}

// String says so in words, for the gate name set to value.
func (l GateLock) String(name string, value bool) string {
	if l.Last == "" {
		return name + " is locked to " + strconv.FormatBool(value) + " at kubelet " + l.Minor
	}
	return "kubelet " + l.Minor + " no longer registers " + name + " (locked to " + strconv.FormatBool(value) + " at " + l.Last + ", the last minor that registered it)"
}

// GateLockAt says whether setting the gate name to value is a no-op at minor
// m. AllAlpha and AllBeta set the alpha and beta gates a file leaves out: only
// a GA or deprecated lock holds whatever the file says.
func GateLockAt(m *kubelets.Minor, name string, value bool) (GateLock, bool) {
	t, err := m.Gates()
	if err != nil {
		return GateLock{}, false
	}
	if g, ok := t.Lookup(name); ok {
		s := t.At(g)
		stage := s.PreRelease
		if g.Special || !s.LockToDefault || s.Default != value || (stage != string(featuregate.GA) && stage != string(featuregate.Deprecated)) {
			return GateLock{}, false
		}
		return GateLock{Minor: m.Version}, true
	}
	last, _, _ := m.GateHistory(name)
	if last == nil {
		return GateLock{}, false // never registered before: nothing says what it was
	}
	lt, err := last.Gates()
	if err != nil {
		return GateLock{}, false
	}
	g, _ := lt.Lookup(name)
	if s := lt.At(g); g.Special || !s.LockToDefault || s.Default != value {
		return GateLock{}, false
	}
	return GateLock{Minor: m.Version, Last: last.Version}, true
}
