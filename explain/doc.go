// Package explain describes one KubeletConfiguration field at a kubelet minor,
// in the spirit of kubectl explain: it resolves a path (dotted, any case, map
// keys and list indexes in brackets, dotted map keys read as brackets) against
// the minor's field tree, reads the type from the minor's JSON Schema, the doc
// and +featureGate markers from its field table, the default from one pipeline
// run of an empty configuration, and the rules from the paths they declare
// (rule.Rule.Fields). Result is kubeletcfg explain's -o json contract (its
// text is report/verbtext's); cmd/kubeletcfg only parses flags and writes it.
package explain
