package validate

import (
	"bytes"
	"os"
	"testing"
)

// The rules reference is generated from the registry; this fails when someone
// changes a rule without regenerating it.
func TestRulesReferenceUpToDate(t *testing.T) {
	var want bytes.Buffer
	if err := WriteMarkdown(&want); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../docs/rules.md")
	if err != nil {
		t.Fatalf("docs/rules.md: %v (generate it: go run ./cmd/kubeletcfg rules -o markdown > docs/rules.md)", err)
	}
	if !bytes.Equal(got, want.Bytes()) {
		t.Fatal("docs/rules.md is stale: go run ./cmd/kubeletcfg rules -o markdown > docs/rules.md")
	}
}

func TestEveryRuleIsDocumented(t *testing.T) {
	for _, r := range Rules() {
		if r.Doc == "" || r.Summary == "" || r.Name == "" {
			t.Errorf("%s: needs name, summary and doc", r.ID)
		}
		if r.Check == nil && r.Stage >= StageValidate && r.Stage != StageLint {
			// Validation and host rules are checks over the effective config.
			if r.ID != "KC4075" { // documented no-op: depends on klog command-line flags
				t.Errorf("%s: validation rule without a Check", r.ID)
			}
		}
	}
}
