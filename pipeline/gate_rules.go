package pipeline

import (
	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/rule"
)

// Feature gates (KC3xxx), as k8s.io/component-base/featuregate SetFromMap
// resolves them. The pipeline's gate step emits these findings
// (Rule.EmittedBy, findings.go): the rules have no Check. They are declared
// here, next to that code, and listed in internal/ruleset (go generate
// ./internal/rulesgen ./internal/ruleset).

// gatesStep is the step the rules reference names for these rules.
const gatesStep = "pipeline: feature gates"

var (
	// --- feature gates (KC3xxx) ---

	GateUnknown = &rule.Rule{ID: "KC3001", Fix: "spell the gate as the hint names it, or drop the entry if this kubelet has no such gate; `kubeletcfg fix` corrects the case, and removes the entry when the last kubelet that registered the gate had it locked to the value set.", Fields: []string{"featureGates[*]"}, Name: "gate-unknown", Severity: finding.Error, Stage: rule.StageGates,
		Repair:    rule.Repair{Kind: rule.RepairGateEntry, Doc: "a feature gate name that differs from a registered one only in case -> the registered spelling (ReduceDefaultCrashLoopBackoffDecay -> ReduceDefaultCrashLoopBackOffDecay); an entry for a gate a target minor no longer has, set to the value it was locked to at the last minor that registered it (the kubelet panics on it there): removed"},
		Summary:   "A feature gate this kubelet does not know; the kubelet panics at startup (1.31: refuses to start).",
		Doc:       "Defaulting merges the file's featureGates into the kubelet's gate set and panics on any error (\"failed to merge global and in-flight KubeletConfiguration while setting defaults\"), from 1.32 on. Kubelet 1.31 does not look at gates while defaulting: it refuses to start when RunE applies them (\"failed to set feature gates from initial flags-based config\"). Gate names are case-sensitive; the hint names the nearest real gate.",
		Kubelet:   "pkg/kubelet/apis/config/v1beta1/defaults.go SetDefaults_KubeletConfiguration",
		EmittedBy: gatesStep}
	GateLocked = &rule.Rule{ID: "KC3002", Fix: "drop the entry: the gate is locked to its default.", Fields: []string{"featureGates[*]"}, Name: "gate-locked", Severity: finding.Error, Stage: rule.StageGates,
		Summary:   "A feature gate locked to its default is set to the other value; the kubelet panics at startup (1.31: refuses to start).",
		Doc:       "GA and some deprecated gates are locked: setting them to anything but their default is an error.",
		Kubelet:   "k8s.io/component-base/featuregate SetFromMap",
		EmittedBy: gatesStep}
	GatePreAlpha = &rule.Rule{ID: "KC3003", Fix: "drop the entry; the gate can be set from the kubelet version that makes it available.", Fields: []string{"featureGates[*]"}, Name: "gate-prealpha", Severity: finding.Error, Stage: rule.StageGates,
		Summary:   "A feature gate that is not available (PreAlpha) at this kubelet version; the kubelet panics at startup (1.31: refuses to start).",
		Doc:       "The gate is registered but only from a later version; at this emulation version it cannot be set.",
		Kubelet:   "k8s.io/component-base/featuregate SetFromMap",
		EmittedBy: gatesStep}
	GateDependency = &rule.Rule{ID: "KC3004", Fix: "enable the gates it depends on as well, or do not enable it.", Fields: []string{"featureGates[*]"}, Name: "gate-dependency", Severity: finding.Error, Stage: rule.StageGates, Since: "1.35",
		Summary: "An enabled feature gate depends on a gate that is disabled; the kubelet panics at startup.",
		Doc: "Gate dependencies are checked whenever gates are set (and again by ValidateKubeletConfiguration's " +
			"localFeatureGate.Validate()); enabling a gate needs its dependencies enabled too. Feature gates have " +
			"dependencies from 1.35 (component-base v0.35 AddDependencies); older kubelets have none.",
		Kubelet:   "k8s.io/component-base/featuregate SetFromMap (dependencies)",
		EmittedBy: gatesStep}
	GateGA = &rule.Rule{ID: "KC3005", Fields: []string{"featureGates[*]"}, Name: "gate-ga", Severity: finding.Warning, Stage: rule.StageGates,
		Repair:    rule.Repair{Kind: rule.RepairGateEntry, Doc: "a GA gate's entry set to the value the gate is locked to at every target minor: removed, with featureGates when it empties"},
		Summary:   "A GA feature gate is set; it is on anyway and will be removed in a future release.",
		Doc:       "The kubelet logs a warning. Once the gate is removed, the same file makes the kubelet panic (unknown gate): drop the entry.",
		Kubelet:   "k8s.io/component-base/featuregate SetFromMap",
		EmittedBy: gatesStep}
	GateDeprecated = &rule.Rule{ID: "KC3006", Fix: "drop the entry before a kubelet that no longer has the gate reads the file.", Fields: []string{"featureGates[*]"}, Name: "gate-deprecated", Severity: finding.Warning, Stage: rule.StageGates,
		Repair:    rule.Repair{Kind: rule.RepairGateEntry, Doc: "a deprecated gate's entry set to the value the gate is locked to at every target minor: removed, with featureGates when it empties"},
		Summary:   "A deprecated feature gate is set; it will be removed in a future release.",
		Doc:       "The kubelet logs a warning. Once the gate is removed, the same file makes the kubelet panic (unknown gate).",
		Kubelet:   "k8s.io/component-base/featuregate SetFromMap",
		EmittedBy: gatesStep}
)

// gateRules are the rules above, for what the gate step asks of its own
// declarations (repairsGateEntry); TestGateRulesListed keeps the list whole.
var gateRules = []*rule.Rule{GateUnknown, GateLocked, GatePreAlpha, GateDependency, GateGA, GateDeprecated}
