//go:build !(kube1_31 || kube1_32 || kube1_33 || kube1_34)

package main

import "k8s.io/component-base/featuregate"

// 1.35+: gates have dependencies and a minimum compatibility version.

func gateDependencies(fg featuregate.MutableVersionedFeatureGate) map[string][]string {
	out := map[string][]string{}
	for name, deps := range fg.Dependencies() {
		for _, d := range deps {
			out[string(name)] = append(out[string(name)], string(d))
		}
	}
	return out
}

func gateMinCompatibilityVersion(fg featuregate.MutableVersionedFeatureGate) string {
	return fg.MinCompatibilityVersion().String()
}

func specMinCompatibilityVersion(s featuregate.FeatureSpec) string {
	if s.MinCompatibilityVersion == nil {
		return ""
	}
	return s.MinCompatibilityVersion.String()
}
