package validate

import (
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/rule"
)

// docs/rules.md itself is written by internal/rulesdoc (registry plus corpus
// examples), whose tests fail when the committed file is stale.

func TestEveryRuleIsDocumented(t *testing.T) {
	for _, r := range rule.All() {
		if r.Doc == "" || r.Summary == "" || r.Name == "" {
			t.Errorf("%s: needs name, summary and doc", r.ID)
		}
	}
	for _, r := range Declared {
		if r.Check == nil && r.Stage >= rule.StageValidate && r.Stage != rule.StageLint && r.Stage != rule.StageBootstrap {
			// Validation and host rules are checks over the effective config.
			if r.ID != "KC4075" { // documented no-op: depends on klog command-line flags
				t.Errorf("%s: validation rule without a Check", r.ID)
			}
		}
	}
}

// docEndsWithFix lists the rules whose Doc says how to fix without a "Fix:"
// label; every other rule's Doc has "Fix:" or the rule has an entry in fixes.
var docEndsWithFix = map[string]bool{
	"KC1001": true, // Write at least apiVersion and kind.
	"KC2006": true, // Spell the field as the kubelet does.
	"KC2008": true, // Use an absolute path.
	"KC2501": true, // Use the flag instead.
	"KC2503": true, // Move the value into the --config file or a drop-in ...
	"KC3005": true, // ... drop the entry.
	"KC6002": true, // Enable the gate or remove the field.
	"KC7001": true, // Remove it, ...
	"KC7002": true, // Write why the finding is acceptable ...
	"KC7003": true, // Fix the configuration, or evaluate the kubelet minors it is meant for ...
}

// Each rule section says how to fix, once: in its Doc or in its Fix line.
func TestEveryRuleSaysHowToFix(t *testing.T) {
	for _, r := range rule.All() {
		inDoc := strings.Contains(r.Doc, "Fix:") || docEndsWithFix[r.ID]
		switch fix := r.Fix; {
		case inDoc && fix != "":
			t.Errorf("%s: the Doc already says how to fix; drop its Fix", r.ID)
		case !inDoc && fix == "":
			t.Errorf("%s: neither the Doc nor its Fix says how to fix", r.ID)
		case fix != "" && !strings.HasSuffix(fix, "."):
			t.Errorf("%s: the fix should be a sentence ending with a period: %q", r.ID, fix)
		}
	}
	for id := range docEndsWithFix {
		if _, ok := rule.Lookup(id); !ok {
			t.Errorf("docEndsWithFix names %s, which is not registered", id)
		}
	}
}
