// Package source reads kubelet configuration files into node trees that remember
// where every key sits, and checks them against the KubeletConfiguration field tree
// the way the kubelet's decoders do: case-sensitively and strictly for the main
// --config file, case-insensitively for drop-ins.
package source
