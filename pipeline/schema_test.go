package pipeline

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/skew"
	"github.com/kubeletcfg/kubeletcfg/source"
)

// TestSchemaAgreesWithWalk: the main file's unknown keys are decided by the
// minor's generated JSON Schema, while the walk gives their positions and the
// field tree decides what is decoded and pruned. Both are generated from the same
// types; on every case at every minor they must name the same keys.
func TestSchemaAgreesWithWalk(t *testing.T) {
	cases, _ := filepath.Glob(filepath.Join(corpus, "cases", "*"))
	if len(cases) == 0 {
		t.Fatal("no cases")
	}
	for _, v := range skew.Supported() {
		m, _ := skew.Lookup(v)
		schema, err := m.CompiledSchema()
		if err != nil {
			t.Fatalf("%s: %v", v, err)
		}
		keySchema, err := m.KeySchema()
		if err != nil {
			t.Fatalf("%s: %v", v, err)
		}
		checked := 0
		for _, dir := range cases {
			in, _ := caseInput(t, dir)
			if in.Config == "" {
				continue
			}
			if fi, err := os.Stat(in.Config); err != nil || !fi.Mode().IsRegular() || fi.Size() > source.MaxFileSize {
				continue
			}
			f, err := source.ReadFile(in.Config)
			if err != nil {
				continue
			}
			unknown, ok := source.SchemaUnknown(f, schema, m.Fields())
			if !ok {
				continue
			}
			byKeys, _ := source.SchemaUnknown(f, keySchema, m.Fields())
			if !reflect.DeepEqual(unknown, byKeys) {
				t.Errorf("%s %s: the full schema finds unknown %v, the key schema %v", v, filepath.Base(dir), unknown, byKeys)
			}
			checked++
			var walked, schemed []string
			for _, k := range source.Walk(f, m.Fields(), source.Strict) {
				if k.Kind == source.KeyUnknown || k.Kind == source.KeyCase {
					walked = append(walked, k.WrittenPath)
				}
			}
			for p := range unknown {
				schemed = append(schemed, p)
			}
			sort.Strings(walked)
			sort.Strings(schemed)
			walked = dedupe(walked)
			if strings.Join(walked, "\n") != strings.Join(schemed, "\n") {
				t.Errorf("%s %s: walk finds unknown %q, schema %q", v, filepath.Base(dir), walked, schemed)
			}
		}
		if checked < 100 {
			t.Errorf("%s: only %d main files checked", v, checked)
		}
	}
}

func dedupe(s []string) []string {
	out := s[:0]
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			out = append(out, x)
		}
	}
	return out
}
