package fix

import (
	"os"
	"path/filepath"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	testcorpus "github.com/kubeletcfg/kubeletcfg/internal/corpus"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
	"github.com/kubeletcfg/kubeletcfg/skew"
	"github.com/kubeletcfg/kubeletcfg/source"
	"github.com/kubeletcfg/kubeletcfg/validate"
)

// TestFindingRenamesAreTheWalks checks that the rename a case finding carries
// (KC1102, KC2006, KC2007: validate.Finding.Fixes, set where the pipeline
// detects the key) is the edit the fixer's own walk makes of that key, and that
// a finding carries none where the walk refuses (escapes, tags, anchors), over
// every case of the corpus and of testdata/fix at every supported minor.
func TestFindingRenamesAreTheWalks(t *testing.T) {
	dirs, _ := filepath.Glob("../testdata/conformance/cases/*")
	fixDirs, _ := filepath.Glob("../testdata/fix/*")
	checked := 0
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
				case validate.CaseMismatch.ID, validate.DropInCaseOnly.ID, validate.DropInCaseShadowed.ID:
				default:
					continue
				}
				sf, err := source.ReadFile(f.File)
				if err != nil || sf.Doc == nil {
					continue
				}
				k := keyAt(sf.Doc, f.Line, f.Column)
				if k == nil {
					t.Errorf("%s at %s: no key at %s", f.Rule, v, f.Position)
					continue
				}
				want, ok := newText(sf.Data).rename(k, lastName(f.Path))
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
	t.Logf("%d case findings checked", checked)
}

// keyAt is the mapping key at a line and column of the document.
func keyAt(n *yaml.Node, line, col int) *yaml.Node {
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if k := n.Content[i]; k.Line == line && k.Column == col {
				return k
			}
		}
	}
	for _, c := range n.Content {
		if k := keyAt(c, line, col); k != nil {
			return k
		}
	}
	return nil
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
		res, err := pipeline.Evaluate(skew.Newest(), in)
		if err != nil {
			t.Fatal(err)
		}
		var carried *validate.Finding
		for i, f := range res.Findings {
			if f.Rule == validate.ConfigTypeMeta.ID || f.Rule == validate.DropInTypeMeta.ID {
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
		p, err := Make(in, []*skew.Minor{skew.Newest()})
		if err != nil {
			t.Fatal(err)
		}
		changed := p.Changed()
		if len(changed) != 1 || changed[0].Path != carried.File || string(changed[0].Fixed) != string(want) {
			t.Errorf("%s: fix writes %d files, the finding's repair gives %q", name, len(changed), want)
		}
	}
}
