// Package pipeline runs the kubelet's configuration start-up for one kubelet minor:
// read the main file, default it, merge the drop-ins, default again, resolve the
// feature gates and validate. Each step mirrors the kubelet code named in its
// comment; the conformance corpus checks every verdict against that code.
package pipeline
