// Package fix plans and applies the repairs of kubelet configuration files that
// need no guess: the KEP-4603 draft crashLoopBackOff.maxSeconds rewritten as
// maxContainerRestartPeriod (with the feature gate where a target minor needs
// it), field names and feature-gate names that differ from the real ones only
// in case, a missing apiVersion, and feature-gate entries set to the value
// their gate is locked to. Repairs are byte edits of the original files, so
// comments, quoting, indentation and key order stay; the result is evaluated
// by the pipeline at every target minor and refused when it would lint worse
// than the original.
//
// Which rules fix repairs, and how, is part of each rule's declaration
// (rule.Repair; rule.Repairable lists them, and fix's help is written from
// it): the plan sorts a finding by its rule's RepairKind.
//
// The repairs are the findings' (Finding.Fixes, set where the pipeline finds
// the mistake), and so are the reasons a mistake is left (Finding.NoFix: an
// anchor, a twin key, a value out of range). fix evaluates the files at every
// target minor, takes the renames the findings carry, applies them and
// evaluates again until the kubelet reads every key they let it read (a key
// under a key the main file drops, the drop-ins after a misspelt gate); then
// it weighs what depends on every target minor and file at once (plan.go,
// crashloop.go): a gate entry is removed only when its gate is locked to the
// value at every target minor (pipeline.GateLockAt, the gate step's own
// decision), the entries of one mapping are removed together
// (rule.RemoveEntries), and the draft's repair adds the gate where a target
// minor has it off.
package fix
