// A stand-in for sigs.k8s.io/iptables-wrappers, which the Go module proxy does not serve
// (see doc.go). Only minors/modfile.sh uses it, for a release whose module graph needs it.
module sigs.k8s.io/iptables-wrappers

go 1.26.0
