// Command fuzzcase writes random conformance cases and compares kubeletcfg with
// the real kubelet's goldens for them (see package fuzzcase and
// `make fuzz-conformance`):
//
//	go run ./internal/fuzzcase/cmd gen -minor 1.37 -n 200 -seed 1 -out DIR
//	harness run -cases DIR -out GOLDEN
//	go run ./internal/fuzzcase/cmd compare -minor 1.37 -cases DIR -golden GOLDEN
//
// compare prints the disagreements grouped by class, with one example case per
// class, and exits 1 when there is any.
package main
