package kubeletdata

import "sort"

// GateTable is kubelets/data/<minor>/gates.json: every feature gate the kubelet
// binary of a minor registers (utilfeature.DefaultMutableFeatureGate after every
// init of the linked kubelet packages).
type GateTable struct {
	Generated               string           `json:"_generated"`
	Kubelet                 string           `json:"kubelet"`
	EmulationVersion        string           `json:"emulationVersion"`
	MinCompatibilityVersion string           `json:"minCompatibilityVersion"`
	Count                   int              `json:"count"`
	Gates                   map[string]*Gate `json:"gates"`
}

// Gate is one feature gate the kubelet binary registers.
type Gate struct {
	// Name is the gate's key in GateTable.Gates, set by the reader.
	Name string `json:"-"`
	// Special is true for AllAlpha and AllBeta, which featuregate pre-registers
	// and which toggle every alpha or beta gate.
	Special bool `json:"special,omitempty"`
	// Specs are all versioned specs, as registered (sorted by version).
	Specs []GateSpec `json:"specs"`
	// Dependencies are the gates this gate needs enabled (Dependencies()).
	Dependencies []string `json:"dependencies"`
	// AtEmulationVersion is the spec in force at the gate's emulation and minimum
	// compatibility versions (what the kubelet binary uses by default).
	AtEmulationVersion *GateSpec `json:"atEmulationVersion"`
}

// GateSpec is one featuregate.FeatureSpec.
type GateSpec struct {
	Version                 string `json:"version"`
	Default                 bool   `json:"default"`
	PreRelease              string `json:"preRelease"`
	LockToDefault           bool   `json:"lockToDefault"`
	MinCompatibilityVersion string `json:"minCompatibilityVersion,omitempty"`
}

// PreAlpha is featuregate.PreAlpha, the stage of a gate with no spec in force yet.
const PreAlpha = "PRE-ALPHA"

// Lookup finds a gate by exact (case-sensitive) name.
func (t *GateTable) Lookup(name string) (*Gate, bool) {
	g, ok := t.Gates[name]
	return g, ok
}

// Names lists every gate name, sorted.
func (t *GateTable) Names() []string {
	out := make([]string, 0, len(t.Gates))
	for name := range t.Gates {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// At returns the spec in force at the table's emulation version, as
// featuregate's featureSpecAtEmulationAndMinCompatVersion picks it; a gate with no
// spec yet in force is PreAlpha. Every version in the tables is MAJOR.MINOR.
func (t *GateTable) At(g *Gate) GateSpec {
	emu := MustParseVersion(t.EmulationVersion)
	minCompat := MustParseVersion(t.MinCompatibilityVersion)
	for i := len(g.Specs) - 1; i >= 0; i-- {
		s := g.Specs[i]
		if emu.Before(MustParseVersion(s.Version)) {
			continue
		}
		if s.MinCompatibilityVersion != "" && !minCompat.AtLeast(MustParseVersion(s.MinCompatibilityVersion)) {
			continue
		}
		return s
	}
	return GateSpec{Version: "0.0", PreRelease: PreAlpha}
}

// Lean is the gate as a run reads it (skew's generated tables): without
// AtEmulationVersion, which GateTable.At computes.
func (g Gate) Lean() Gate {
	g.AtEmulationVersion = nil
	return g
}
