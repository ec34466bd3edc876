package fix

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	dropin "github.com/kubeletcfg/kubeletcfg/drop-in"
	testcorpus "github.com/kubeletcfg/kubeletcfg/internal/corpus"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
	"github.com/kubeletcfg/kubeletcfg/skew"
	"github.com/kubeletcfg/kubeletcfg/source"
	"github.com/kubeletcfg/kubeletcfg/validate"
)

// TestFindingRenamesAreTheWalks checks that the rename a case finding carries
// (and the repair a KC6001 finding carries)
// (KC1102, KC2006, KC2007: validate.Finding.Fixes, set where the pipeline
// detects the key) is the edit the fixer's own walk makes of that key, and that
// a finding carries none where the walk refuses (escapes, tags, anchors), over
// every case of the corpus and of testdata/fix at every supported minor.
func TestFindingRenamesAreTheWalks(t *testing.T) {
	dirs, _ := filepath.Glob("../testdata/conformance/cases/*")
	fixDirs, _ := filepath.Glob("../testdata/fix/*")
	checked, drafts := 0, 0
	for _, dir := range append(dirs, fixDirs...) {
		in := pipeline.Input{}
		if c, err := testcorpus.Read(dir); err == nil && c.Config+c.ConfigDir != "" {
			in = pipeline.Input{Config: c.Config, ConfigDir: c.ConfigDir, CgroupVersion: c.CgroupVersion, Flags: c.Flags}
		}
		if in.Config == "" && in.ConfigDir == "" {
			if _, err := os.Stat(filepath.Join(dir, "config.yaml")); err == nil {
				in.Config = filepath.Join(dir, "config.yaml")
			}
			if fi, err := os.Stat(filepath.Join(dir, "conf.d")); err == nil && fi.IsDir() {
				in.ConfigDir = filepath.Join(dir, "conf.d")
			}
		}
		loaded, err := pipeline.Load(in)
		if err != nil {
			continue
		}
		for _, v := range skew.Supported() {
			m, _ := skew.Lookup(v)
			res, err := loaded.Evaluate(m)
			if err != nil {
				continue
			}
			for _, f := range res.Findings {
				switch f.Rule {
				case source.CaseMismatch.ID, dropin.DropInCaseOnly.ID, dropin.DropInCaseShadowed.ID:
				case validate.DraftCrashLoopField.ID:
					drafts += checkDraftFix(t, v, f)
					continue
				default:
					continue
				}
				sf, err := source.ReadFile(f.File)
				if err != nil || sf.Doc == nil {
					continue
				}
				k, _ := keyValueAt(sf.Doc, f.Line, f.Column)
				if k == nil {
					t.Errorf("%s at %s: no key at %s", f.Rule, v, f.Position)
					continue
				}
				want, ok := rename(validate.NewText(sf.Data), k, lastName(f.Path))
				switch {
				case !ok && len(f.Fixes) > 0:
					t.Errorf("%s at %s, %s: the finding renames a key the walk leaves alone: %+v", f.Rule, v, f.Position, f.Fixes)
				case ok && (len(f.Fixes) != 1 || len(f.Fixes[0].Edits) != 1 || f.Fixes[0].Edits[0] != want):
					t.Errorf("%s at %s, %s: finding fixes %+v, the walk's edit %+v", f.Rule, v, f.Position, f.Fixes, want)
				}
				checked++
			}
		}
	}
	if checked == 0 {
		t.Fatal("no case finding checked")
	}
	if drafts == 0 {
		t.Fatal("no KC6001 finding with a repair checked")
	}
	t.Logf("%d case findings and %d draft repairs checked", checked, drafts)
}

// lastName is the last field name of a path: crashLoopBackOff.maxContainerRestartPeriod -> maxContainerRestartPeriod.
func lastName(path string) string {
	for i := len(path) - 1; i >= 0; i-- {
		if path[i] == '.' {
			return path[i+1:]
		}
	}
	return path
}

// The missing apiVersion findings of cases 007 (main file, KC1002) and 131
// (drop-in, KC2003) carry the repair, and it is the one fix writes.
func TestTypeMetaFindingCarriesTheRepair(t *testing.T) {
	for _, name := range []string{"007-missing-apiversion", "131-dropin-missing-apiversion"} {
		c, err := testcorpus.Read("../testdata/conformance/cases/" + name)
		if err != nil {
			t.Fatal(err)
		}
		in := pipeline.Input{Config: c.Config, ConfigDir: c.ConfigDir, CgroupVersion: c.CgroupVersion}
		res, err := pipeline.Evaluate(skew.Default(), in)
		if err != nil {
			t.Fatal(err)
		}
		var carried *validate.Finding
		for i, f := range res.Findings {
			if f.Rule == source.ConfigTypeMeta.ID || f.Rule == dropin.DropInTypeMeta.ID {
				carried = &res.Findings[i]
			}
		}
		if carried == nil || len(carried.Fixes) != 1 {
			t.Fatalf("%s: no type meta finding with a fix: %+v", name, carried)
		}
		data, err := os.ReadFile(carried.File)
		if err != nil {
			t.Fatal(err)
		}
		want, err := validate.ApplyEdits(data, carried.Fixes[0].Edits)
		if err != nil {
			t.Fatal(err)
		}
		p, err := Make(in, []*skew.Minor{skew.Default()})
		if err != nil {
			t.Fatal(err)
		}
		changed := p.Changed()
		if len(changed) != 1 || changed[0].Path != carried.File || string(changed[0].Fixed) != string(want) {
			t.Errorf("%s: fix writes %d files, the finding's repair gives %q", name, len(changed), want)
		}
	}
}

// checkDraftFix compares the repair a KC6001 finding carries with the edits
// the walk makes of the same key and value; 1 when there was one to compare.
func checkDraftFix(t *testing.T, minor string, f validate.Finding) int {
	t.Helper()
	if len(f.Fixes) == 0 {
		return 0
	}
	sf, err := source.ReadFile(f.File)
	if err != nil || sf.Doc == nil {
		t.Errorf("KC6001 at %s, %s: %v", minor, f.Position, err)
		return 0
	}
	k, v := keyValueAt(sf.Doc, f.Line, f.Column)
	tx := validate.NewText(sf.Data)
	keyEdit, kok := rename(tx, k, "maxContainerRestartPeriod")
	start, end, vok := tx.ScalarSpan(v)
	n, reason := draftSeconds(v)
	if !kok || !vok || reason != "" {
		t.Errorf("KC6001 at %s, %s: the finding repairs what the walk leaves alone: %+v", minor, f.Position, f.Fixes)
		return 0
	}
	got := f.Fixes[0].Edits
	if len(f.Fixes) != 1 || len(got) != 2 || got[0] != keyEdit || got[1].Pos != start || got[1].End != end ||
		strings.Trim(got[1].NewText, `"`) != strconv.Itoa(n)+"s" {
		t.Errorf("KC6001 at %s, %s: finding fixes %+v, the walk's key edit %+v and value %d..%d %ds", minor, f.Position, f.Fixes, keyEdit, start, end, n)
	}
	return 1
}

// keyValueAt is the mapping key at a line and column and its value.
func keyValueAt(n *yaml.Node, line, col int) (*yaml.Node, *yaml.Node) {
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if k := n.Content[i]; k.Line == line && k.Column == col {
				return k, n.Content[i+1]
			}
		}
	}
	for _, c := range n.Content {
		if k, v := keyValueAt(c, line, col); k != nil {
			return k, v
		}
	}
	return nil, nil
}
