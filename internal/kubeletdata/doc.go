// Package kubeletdata declares, once, what the conformance harness (the module in
// conformance/, which links the real kubelet) writes and the main module reads:
// the kubelet minor (Version), the per-minor tables under kubelets/data/<minor>/
// (gates.json, fields.json, flags.json, roundtrip.json, internalnames.json) and
// the golden records under testdata/conformance/golden/<minor>/.
//
// It imports nothing beyond the standard library, so that both modules can use
// it whatever k8s.io release each links (golang.org/x/text's gen_common
// pattern: the generator and the generated code's reader share the types).
// Field order is the key order of the files: the harness marshals these types,
// and `make generate` must reproduce the committed files byte for byte.
package kubeletdata
