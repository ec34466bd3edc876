// Package fix plans and applies the repairs of kubelet configuration files that
// need no guess: the KEP-4603 draft crashLoopBackOff.maxSeconds rewritten as
// maxContainerRestartPeriod (with the feature gate where a target minor needs
// it), field names and feature-gate names that differ from the real ones only
// in case. Repairs are byte edits of the original files at the positions the
// YAML parser reports, so comments, quoting, indentation and key order stay;
// the result is evaluated by the pipeline at every target minor and refused
// when it would lint worse than the original.
//
// The edits of the case renames (KC1102, KC2006, KC2007), of the missing
// apiVersion (KC1002, KC2003) and of the KEP-4603 draft key (KC6001) are the
// ones the findings carry (validate.Finding.Fixes, set where the pipeline
// detects the mistake). The walk of the files (find.go) decides what is not
// repaired and why (anchors, duplicates, a key above left unrepaired, a gate
// setting that contradicts the draft's), computes the same edits for keys no
// target minor's linter reached, and plans the repairs that depend on every
// target minor and file at once: the gate the shipped crash-loop field needs,
// gate names that differ in case (KC3001) and gate entries set to their locked
// value (KC3005).
package fix
