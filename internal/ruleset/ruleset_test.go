package ruleset

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/rule"
)

// TestRegistry: rule/registry_gen.go is written from the list, and every rule
// declares what the registry, the rules reference and Run need.
func TestRegistry(t *testing.T) {
	want, err := Registry()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../../rule/registry_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Fatal("rule/registry_gen.go is stale: go generate ./internal/rulesgen ./internal/ruleset")
	}
	seen := map[string]bool{}
	names := map[string]bool{}
	for _, r := range All() {
		switch {
		case seen[r.ID]:
			t.Errorf("rule ID %s declared twice", r.ID)
		case names[strings.ToLower(r.Name)]:
			t.Errorf("rule name %s declared twice", r.Name)
		case r.Name != strings.ToLower(r.Name) || strings.HasPrefix(r.Name, "kc"):
			t.Errorf("%s: name %q must be lower case and not look like an ID: rule.Lookup takes both", r.ID, r.Name)
		case r.Name == "" || r.Summary == "":
			t.Errorf("%s needs a name and a summary", r.ID)
		case r.Releases() == "":
			t.Errorf("%s exists in no minor (Since %s, Until %s)", r.ID, r.Since, r.Until)
		case (r.Check == nil) == (r.EmittedBy == ""):
			t.Errorf("%s needs a Check or EmittedBy, not both", r.ID)
		}
		seen[r.ID], names[strings.ToLower(r.Name)] = true, true
	}
	// What rule serves is the declarations, but their Check.
	all, served := All(), rule.All()
	if len(all) != len(served) {
		t.Fatalf("%d rules declared, %d served", len(all), len(served))
	}
	for i, r := range all {
		d := *r
		d.Check = nil
		s := *served[i]
		if d.ID != s.ID || d.Name != s.Name || d.Severity != s.Severity || d.Stage != s.Stage || d.Summary != s.Summary ||
			d.Doc != s.Doc || d.Fix != s.Fix || d.Profile != s.Profile || d.EmittedBy != s.EmittedBy || d.Kubelet != s.Kubelet ||
			d.Since != s.Since || d.Until != s.Until || d.AnyField != s.AnyField || !reflect.DeepEqual(d.Fields, s.Fields) ||
			d.OS != s.OS || d.Logs != s.Logs {
			t.Errorf("%s: the registry differs from the declaration", r.ID)
		}
	}
}
