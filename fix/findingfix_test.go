package fix

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	dropin "github.com/kubeletcfg/kubeletcfg/drop-in"
	"github.com/kubeletcfg/kubeletcfg/finding"
	testcorpus "github.com/kubeletcfg/kubeletcfg/internal/corpus"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
	"github.com/kubeletcfg/kubeletcfg/rule"
	"github.com/kubeletcfg/kubeletcfg/source"
)

// TestRepairableFindingsSayWhy checks, over every case of the corpus and of
// testdata/fix at every supported minor, that each finding fix acts on
// (KC1102, KC2006, KC2007, KC6001, KC1002, KC2003, and the gate findings
// with a case-only name) carries either a repair or the reason it has none,
// never both; and that the repair, applied alone to the file, writes the
// field's own name (or the shipped crash-loop field) at the finding's key.
func TestRepairableFindingsSayWhy(t *testing.T) {
	dirs, _ := filepath.Glob("../testdata/conformance/cases/*")
	fixDirs, _ := filepath.Glob("../testdata/fix/*")
	repaired, reasons, carried := map[string]int{}, map[string]int{}, map[string]int{}
	for _, dir := range append(dirs, fixDirs...) {
		loaded, err := pipeline.Load(caseInput(dir))
		if err != nil {
			continue
		}
		for _, v := range kubelets.Supported() {
			m, _ := kubelets.Lookup(v)
			res, err := loaded.Evaluate(m)
			if err != nil {
				continue
			}
			for _, f := range res.Findings {
				if len(f.Fixes) > 0 {
					if r, ok := rule.Lookup(f.Rule); !ok || r.Repair.Kind == rule.RepairNone {
						t.Errorf("%s at %s, %s carries a repair, but its rule declares none (rule.Repair): fix would not make it", f.Rule, v, f.Position)
					}
					carried[f.Rule]++
				}
				var want string // the key's name once repaired ("" not checked)
				switch f.Rule {
				case source.CaseMismatch.ID, dropin.DropInCaseOnly.ID, dropin.DropInCaseShadowed.ID:
					want = lastName(f.Path)
				case source.DraftCrashLoopField.ID:
					want = "maxContainerRestartPeriod"
				case source.ConfigTypeMeta.ID, dropin.DropInTypeMeta.ID:
				case pipeline.GateUnknown.ID:
					if want, _ = pipeline.GateSpelling(gateName(f.Path)); want == "" {
						continue
					}
				default:
					continue
				}
				if len(f.Fixes) == 0 && f.NoFix == "" {
					if f.Rule == source.ConfigTypeMeta.ID || f.Rule == dropin.DropInTypeMeta.ID {
						continue // only a missing apiVersion beside kind KubeletConfiguration is repaired
					}
					t.Errorf("%s at %s, %s: neither a repair nor a reason", f.Rule, v, f.Position)
					continue
				}
				if len(f.Fixes) > 0 && f.NoFix != "" {
					t.Errorf("%s at %s, %s: a repair and a reason (%s)", f.Rule, v, f.Position, f.NoFix)
				}
				if f.NoFix != "" {
					reasons[f.Rule]++
					continue
				}
				_, fixed, err := applyFirst(f)
				if err != nil {
					t.Errorf("%s at %s, %s: %v", f.Rule, v, f.Position, err)
					continue
				}
				if want != "" {
					var doc yaml.Node
					if err := yaml.Unmarshal(fixed, &doc); err != nil || len(doc.Content) == 0 {
						t.Errorf("%s at %s, %s: the repaired file does not parse: %v", f.Rule, v, f.Position, err)
						continue
					}
					if k, _ := keyValueAt(doc.Content[0], f.Line, f.Column); k == nil || k.Value != want {
						t.Errorf("%s at %s, %s: the repair writes %v, want the key %q", f.Rule, v, f.Position, k, want)
					}
				}
				repaired[f.Rule]++
			}
		}
	}
	// fix's help lists the rules that declare a repair: each must make one.
	for _, r := range rule.Repairable() {
		if carried[r.ID] == 0 {
			t.Errorf("%s declares a repair (rule.Repair), but no finding of the corpus or testdata/fix carries one", r.ID)
		}
	}
	for _, rule := range []string{source.CaseMismatch.ID, dropin.DropInCaseOnly.ID, source.DraftCrashLoopField.ID, pipeline.GateUnknown.ID} {
		if repaired[rule] == 0 {
			t.Errorf("no %s finding with a repair checked", rule)
		}
	}
	for _, rule := range []string{dropin.DropInCaseShadowed.ID, source.DraftCrashLoopField.ID} {
		if reasons[rule] == 0 {
			t.Errorf("no %s finding with a reason checked", rule)
		}
	}
	t.Logf("repairs checked %v, reasons %v", repaired, reasons)
}

// applyFirst applies the first repair f carries to its file as on disk.
func applyFirst(f finding.Finding) (data, fixed []byte, err error) {
	if data, err = os.ReadFile(f.File); err != nil {
		return nil, nil, err
	}
	fixed, err = finding.ApplyEdits(data, f.Fixes[0].Edits)
	return data, fixed, err
}

// caseInput is the input of a corpus case, or of a testdata/fix folder
// (config.yaml and conf.d).
func caseInput(dir string) pipeline.Input {
	if c, err := testcorpus.Read(dir); err == nil && c.Config+c.ConfigDir != "" {
		return pipeline.Input{Config: c.Config, ConfigDir: c.ConfigDir, CgroupVersion: c.CgroupVersion, Flags: c.Flags}
	}
	var in pipeline.Input
	if _, err := os.Stat(filepath.Join(dir, "config.yaml")); err == nil {
		in.Config = filepath.Join(dir, "config.yaml")
	}
	if fi, err := os.Stat(filepath.Join(dir, "conf.d")); err == nil && fi.IsDir() {
		in.ConfigDir = filepath.Join(dir, "conf.d")
	}
	return in
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
		res, err := pipeline.Evaluate(kubelets.Default(), in)
		if err != nil {
			t.Fatal(err)
		}
		var carried *finding.Finding
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
		want, err := finding.ApplyEdits(data, carried.Fixes[0].Edits)
		if err != nil {
			t.Fatal(err)
		}
		p, err := Make(in, []*kubelets.Minor{kubelets.Default()})
		if err != nil {
			t.Fatal(err)
		}
		changed := p.Changed()
		if len(changed) != 1 || changed[0].Path != carried.File || string(changed[0].Fixed) != string(want) {
			t.Errorf("%s: fix writes %d files, the finding's repair gives %q", name, len(changed), want)
		}
	}
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

// TestGateRemovalOffersAreFixes checks that the removal a gate finding carries
// (pipeline's gate step: the entry is set to the value its gate is locked to
// at that minor) is the repair fix makes at that minor alone, or a skip with
// its reason, over testdata/fix and the corpus at every supported minor; and
// that applied alone it removes that entry and nothing else of the mapping.
func TestGateRemovalOffersAreFixes(t *testing.T) {
	dirs, _ := filepath.Glob("../testdata/conformance/cases/*")
	fixDirs, _ := filepath.Glob("../testdata/fix/*")
	checked := 0
	for _, dir := range append(fixDirs, dirs...) {
		in := caseInput(dir)
		if in.Config == "" && in.ConfigDir == "" {
			continue
		}
		for _, v := range kubelets.Supported() {
			m, _ := kubelets.Lookup(v)
			res, err := pipeline.Evaluate(m, in)
			if err != nil {
				continue
			}
			var plan *Plan
			for _, f := range res.Findings {
				if kindOf(&f) != gateRemoval || len(f.Fixes) != 1 {
					continue
				}
				data, fixed, err := applyFirst(f)
				if err != nil {
					t.Fatalf("%s at %s: %v", f.Position, v, err)
				}
				name := gateName(f.Path)
				if strings.Contains(string(fixed), name+":") {
					t.Errorf("%s at %s: the repair leaves featureGates[%s]: %q", f.Position, v, name, fixed)
				}
				if len(fixed) >= len(data) {
					t.Errorf("%s at %s: the repair removes nothing", f.Position, v)
				}
				if plan == nil {
					if plan, err = Make(in, []*kubelets.Minor{m}); err != nil {
						t.Fatal(err)
					}
				}
				found := false
				for _, pf := range plan.Files {
					for _, fx := range pf.Fixes {
						found = found || (fx.Pos == f.Position && fx.gate == name)
					}
					for _, s := range pf.Skips {
						found = found || s.Pos == f.Position
					}
				}
				if !found {
					t.Errorf("%s at %s: the finding offers removing featureGates[%s]; fix neither removes nor skips it", f.Position, v, name)
				}
				checked++
			}
		}
	}
	if checked == 0 {
		t.Fatal("no gate finding with a removal checked")
	}
	t.Logf("%d removals checked", checked)
}
