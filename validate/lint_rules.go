package validate

import (
	"fmt"
	"sort"
	"strings"

	"k8s.io/component-base/featuregate"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/rule"
)

// Lint rules: the kubelet accepts the configuration, but it does not do what the
// files say. Each has a Check over the evaluated configuration.

var GatedFieldIgnored = &rule.Rule{ID: "KC6002", AnyField: true, Name: "gated-field-ignored", Severity: finding.Warning, Stage: rule.StageLint,
	Summary: "A field is set while the feature gate it belongs to is off: the kubelet starts and ignores it.",
	Doc: "Fields marked +featureGate in the KubeletConfiguration types only act when their gate is on. " +
		"Where the kubelet's validation refuses such a field with its gate off, that refusal is reported " +
		"instead (for example KC4050 for crashLoopBackOff); otherwise the kubelet starts and the setting " +
		"silently does nothing. Enable the gate or remove the field.",
}

// lintRules go beyond the kubelet. KC6001 is emitted by the key walk of the
// files (DraftCrashLoop), the others run in Run.
var lintRules = []*rule.Rule{GatedFieldIgnored}

func init() {
	// Set here, not in the literal: checkGatedFields builds findings of
	// GatedFieldIgnored, which would be an initialisation cycle.
	GatedFieldIgnored.Check = checkGatedFields
}

func checkGatedFields(c *rule.Context) []finding.Finding {
	paths := make([]string, 0, len(c.FieldGates))
	for p := range c.FieldGates {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var out []finding.Finding
	for _, path := range paths {
		// Report leaves: an object key set to {} or to nulls sets nothing.
		if hasGatedChild(c.FieldGates, path) || !c.Set(path) || refusedAt(c.Prior, path) {
			continue
		}
		var off []string
		for _, g := range c.FieldGates[path] {
			if !gateEnabled(c.Gates, g) {
				off = append(off, g)
			}
		}
		if len(off) == 0 {
			continue
		}
		out = append(out, GatedFieldIgnored.At(c.At(path), path,
			fmt.Sprintf("%s is set but the %s feature gate is off: the kubelet starts and ignores it", path, strings.Join(off, ", ")),
			fmt.Sprintf("enable featureGates.%s, or remove %s", off[0], path)))
	}
	return out
}

// gateEnabled is Enabled for a gate that may not be registered at this minor
// (markers can name gates that were removed or misspelled: k8s.io/kubelet 1.33
// marks userNamespaces with a UserNamespaceSupport gate that never existed).
func gateEnabled(g featuregate.FeatureGate, name string) (on bool) {
	defer func() {
		if recover() != nil {
			on = true // an unregistered gate cannot be turned off; the field is not gated in practice
		}
	}()
	return g.Enabled(featuregate.Feature(name))
}

func hasGatedChild(fieldGates map[string][]string, path string) bool {
	for p := range fieldGates {
		if kubelets.Below(p, path) {
			return true
		}
	}
	return false
}

// refusedAt reports whether a kubelet check already refused the field or a field
// below it.
func refusedAt(prior []finding.Finding, path string) bool {
	for _, f := range prior {
		if f.Severity == finding.Error && kubelets.Within(f.Path, path) {
			return true
		}
	}
	return false
}
