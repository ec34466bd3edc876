// Package fix plans and applies the repairs of kubelet configuration files that
// need no guess: the KEP-4603 draft crashLoopBackOff.maxSeconds rewritten as
// maxContainerRestartPeriod (with the feature gate where a target minor needs
// it), field names and feature-gate names that differ from the real ones only
// in case. Repairs are byte edits of the original files at the positions the
// YAML parser reports, so comments, quoting, indentation and key order stay;
// the result is evaluated by the pipeline at every target minor and refused
// when it would lint worse than the original.
package fix
