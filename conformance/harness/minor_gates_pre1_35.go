//go:build kube1_31 || kube1_32 || kube1_33 || kube1_34

package main

import "k8s.io/component-base/featuregate"

// Before 1.35 featuregate has no gate dependencies and no minimum compatibility
// version: a gate's spec is the newest one not after the emulation version. The table
// gives the emulation version as the minimum compatibility version, with which 1.35+'s
// featureSpecAtEmulationAndMinCompatVersion picks the same spec (no spec has a
// MinCompatibilityVersion).

func gateDependencies(featuregate.MutableVersionedFeatureGate) map[string][]string {
	return nil
}

func gateMinCompatibilityVersion(fg featuregate.MutableVersionedFeatureGate) string {
	return fg.EmulationVersion().String()
}

func specMinCompatibilityVersion(featuregate.FeatureSpec) string { return "" }
