// Package finding holds what every stage reports and every output reads: a
// Finding (rule ID, severity, message, position, field path, hint, the kubelet's
// own words, repairs), its Position in a file the user keeps, and a file's Text
// for turning positions into byte offsets and edits. It imports nothing of
// kubeletcfg, so the readers (source, input/kubeletcmd) report positions without
// depending on the rule registry (validate), which re-exports these names.
package finding
