package explain

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	testcorpus "github.com/kubeletcfg/kubeletcfg/internal/corpus"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
	"github.com/kubeletcfg/kubeletcfg/profile"
	"github.com/kubeletcfg/kubeletcfg/rule"
)

// TestRuleFieldsCoverCorpus evaluates every case of the conformance corpus at
// every supported minor and checks that each finding naming a field the minor
// has (not an unknown key), with the cis profile applied, is one its rule declares (validate.Rule.Checks), so
// that explain lists every rule that can report on a field.
// validate's TestRuleFieldsExist checks the other direction.
func TestRuleFieldsCoverCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("evaluates the whole corpus at every minor")
	}
	cases, err := filepath.Glob(filepath.Join("..", "testdata", "conformance", "cases", "*"))
	if err != nil || len(cases) == 0 {
		t.Fatalf("no corpus cases: %v", err)
	}
	undeclared := map[string]string{} // "rule path" -> an example case
	for _, dir := range cases {
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			continue
		}
		c, err := testcorpus.Read(dir)
		if err != nil {
			t.Fatal(err)
		}
		loaded, err := pipeline.Load(pipeline.Input{Config: c.Config, ConfigDir: c.ConfigDir, CgroupVersion: c.CgroupVersion, Flags: c.Flags})
		if err != nil {
			continue // an input error: no findings to check
		}
		for _, v := range kubelets.Supported() {
			m, _ := kubelets.Lookup(v)
			res, err := loaded.Evaluate(m)
			if err != nil {
				continue
			}
			// The cis profile's findings too: its rules declare fields as well.
			cis, err := profile.Findings("cis", res, c.Config)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range append(res.Findings, cis...) {
				if f.Path == "" || m.Fields().AtExact(f.Path) == nil {
					continue
				}
				r, ok := rule.Lookup(f.Rule)
				if !ok || r.Checks(f.Path) {
					continue
				}
				key := f.Rule + " " + f.Path
				if _, seen := undeclared[key]; !seen {
					undeclared[key] = filepath.Base(dir) + " at " + v
				}
			}
		}
	}
	keys := make([]string, 0, len(undeclared))
	for k := range undeclared {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		id, path, _ := strings.Cut(k, " ")
		t.Errorf("%s reports %s (case %s) but does not declare it in Fields", id, path, undeclared[k])
	}
}
