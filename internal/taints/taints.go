// Package taints is k8s.io/kubernetes pkg/util/taints' parseTaint, which the
// kubelet's --register-with-taints flag and the bootstrappers that pass node
// taints through it (k3s's node-taint) both use: one port, one set of words.
package taints

import (
	"fmt"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation"
)

// Parse is pkg/util/taints parseTaint: KEY[=VALUE][:EFFECT], the effect one
// of NoSchedule, PreferNoSchedule, NoExecute when given, in the kubelet's
// words when it is not.
func Parse(spec string) (v1.Taint, error) {
	var key, value string
	var effect v1.TaintEffect
	parts := strings.Split(spec, ":")
	switch len(parts) {
	case 1:
		key = parts[0]
	case 2:
		effect = v1.TaintEffect(parts[1])
		if effect != v1.TaintEffectNoSchedule && effect != v1.TaintEffectPreferNoSchedule && effect != v1.TaintEffectNoExecute {
			return v1.Taint{}, fmt.Errorf("invalid taint effect: %v, unsupported taint effect", effect)
		}
		kv := strings.Split(parts[0], "=")
		if len(kv) > 2 {
			return v1.Taint{}, fmt.Errorf("invalid taint spec: %v", spec)
		}
		key = kv[0]
		if len(kv) == 2 {
			value = kv[1]
			if errs := validation.IsValidLabelValue(value); len(errs) > 0 {
				return v1.Taint{}, fmt.Errorf("invalid taint spec: %v, %s", spec, strings.Join(errs, "; "))
			}
		}
	default:
		return v1.Taint{}, fmt.Errorf("invalid taint spec: %v", spec)
	}
	if errs := validation.IsQualifiedName(key); len(errs) > 0 {
		return v1.Taint{}, fmt.Errorf("invalid taint spec: %v, %s", spec, strings.Join(errs, "; "))
	}
	return v1.Taint{Key: key, Value: value, Effect: effect}, nil
}
