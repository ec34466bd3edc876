// Package fuzzcase generates random conformance cases for differential fuzzing
// against the real kubelet: `go run ./internal/fuzzcase/cmd gen` writes case
// folders in the corpus layout (testdata/conformance/README.md), the harness
// records the kubelet's goldens for them, and `go run ./internal/fuzzcase/cmd
// compare` runs kubeletcfg on each and groups the disagreements by class
// (`make fuzz-conformance`).
//
// The cases are built from the minor's own generated knowledge (skew: the JSON
// Schema of its KubeletConfiguration and its feature-gate table) and from the
// other minors' (fields and gates only some minors have). A case is a function
// of (minor, seed, index) only: the same seed writes the same bytes.
package fuzzcase
