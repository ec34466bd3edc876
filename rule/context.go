package rule

import (
	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	kubeletv1beta1 "github.com/kubeletcfg/kubeletcfg/upstream/kubelet/config/v1beta1"
	"k8s.io/component-base/featuregate"
)

// Context is what a rule's Check sees: the configuration exactly as the kubelet
// holds it after reading, merging and defaulting, the feature gates it validates
// against, and where each value came from.
type Context struct {
	// Minor is the kubelet minor being evaluated, resolved once by the caller
	// (nil: no minor, every rule runs).
	Minor *kubelets.Minor
	// Config is the effective configuration (merged and defaulted). Never nil when
	// Check functions run.
	Config *kubeletv1beta1.KubeletConfiguration
	// Gates is the feature gate the kubelet validates with: its registered gates
	// at this minor with Config.FeatureGates applied.
	Gates featuregate.FeatureGate
	// OS is the node's operating system ("": Linux).
	OS kubelets.OS
	// CgroupVersion of the host the kubelet would run on: 1 or 2; 0 on
	// Windows, which has none (cgroups.IsCgroup2UnifiedMode is false there).
	CgroupVersion int
	// IgnoreAllocatableEviction is the kubelet's
	// --experimental-allocatable-ignore-eviction: run() then leaves evictionHard
	// to NewMainKubelet.
	IgnoreAllocatableEviction bool
	// WindowsPriorityClass is the Windows kubelet's --windows-priorityclass as
	// given ("": not given, NORMAL_PRIORITY_CLASS), at WindowsPriorityClassAt.
	WindowsPriorityClass   string
	WindowsPriorityClassAt finding.Position
	// Origin returns where the value at a field path came from (see Finding.Path
	// for the path syntax). A value from the defaults has an empty File; callers
	// fall back to the main file.
	Origin func(path string) finding.Position
	// SetByFile reports whether a file (not the defaults) set the value at path.
	SetByFile func(path string) bool
	// FieldGates maps field paths to the feature gates their +featureGate
	// markers name (generated from the minor's k8s.io/kubelet types).
	FieldGates map[string][]string
	// Prior holds the findings of the kubelet's own checks (validation and host
	// stages) when lint rules run, so that they do not repeat a refusal.
	Prior []finding.Finding

	// Registered, when set, answers GateRegistered without asking Gates: the
	// pipeline sets the minor's generated gate table (kubelets.Minor.Registers), the
	// very names Gates was built from, as listing them from Gates copies every
	// gate's specs.
	Registered func(name string) bool

	// registered caches the names of the gates Gates registers (see GateRegistered).
	registered map[featuregate.Feature]bool
	// memo holds what several rules compute once per Context (Memo).
	memo map[any]any
}

// Memo returns what compute returns, computed once per Context and key: a
// result several rules read (validate's logsapi.Validate errors).
func (c *Context) Memo(key any, compute func() any) any {
	if v, ok := c.memo[key]; ok {
		return v
	}
	if c.memo == nil {
		c.memo = map[any]any{}
	}
	v := compute()
	c.memo[key] = v
	return v
}

// Version is the minor's version ("1.37"), "" without one.
func (c *Context) Version() string {
	if c.Minor == nil {
		return ""
	}
	return c.Minor.Version
}

// GateRegistered reports whether Gates registers the named gate at all (at any
// stage, PreAlpha included). featuregate's Enabled panics for a gate it does not
// know; a gate that the minor does not register is off for that minor's rules.
// The names are read once per Context, so Gates must not change afterwards.
func (c *Context) GateRegistered(name string) bool {
	if c.Gates == nil {
		return false
	}
	if c.Registered != nil {
		return c.Registered(name)
	}
	all, ok := c.Gates.(interface {
		GetAllVersioned() map[featuregate.Feature]featuregate.VersionedSpecs
	})
	if !ok {
		return probeGate(c.Gates, name)
	}
	if c.registered == nil {
		specs := all.GetAllVersioned()
		c.registered = make(map[featuregate.Feature]bool, len(specs))
		for f := range specs {
			c.registered[f] = true
		}
	}
	return c.registered[featuregate.Feature(name)]
}

// probeGate asks a gate that cannot list its features whether it knows name.
func probeGate(g featuregate.FeatureGate, name string) (known bool) {
	defer func() {
		if recover() != nil {
			known = false
		}
	}()
	g.Enabled(featuregate.Feature(name))
	return true
}

// At returns the origin of path, or a zero position when unknown.
func (c *Context) At(path string) finding.Position {
	if c.Origin == nil {
		return finding.Position{}
	}
	return c.Origin(path)
}

// Set reports whether a file set the value at path.
func (c *Context) Set(path string) bool {
	return c.SetByFile != nil && c.SetByFile(path)
}
