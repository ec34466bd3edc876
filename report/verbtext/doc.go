// Package verbtext is the text output of the verbs whose results are computed
// in their own packages, one file per verb: skew's matrix and preflight
// (skew.go, preflight.go), backoff's curves (backoff.go), the kubelet discover
// found (discover.go), the field explain describes (explain.go), the
// drop-ins author writes (dropin.go) and fix's repairs (fix.go); the cluster run's is in the
// sub-package clustertext. Those packages compute only their results (and
// their JSON documents); package report, below them, renders findings in
// every format. A verb's text is found here, beside report; the library's
// Verdict writers (the module root) call it.
package verbtext
