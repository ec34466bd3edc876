// Package kubelets holds what kubeletcfg knows about each supported kubelet minor
// (field tree, feature gates, flags, JSON Schema), generated from the upstream code
// of that minor and embedded; a run decodes only the minors it asks for.
//
// It is also the one notion of a minor: Minors lists them oldest first, Lookup
// finds one by "1.37", "v1.37" or "v1.37.2", and Minor.Compare, Before and AtLeast
// order them through Version ({Major, Minor}, internal/kubeletdata's type, which the
// conformance harness shares).
package kubelets
