package kubelets

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/internal/kubeletdata"
)

// TestGeneratedTablesMatchJSON checks that the generated tables hold what the
// harness's JSON says, as the decoding they replace read it: gates, flags,
// internal names, and the fields without their doc comments.
func TestGeneratedTablesMatchJSON(t *testing.T) {
	for _, m := range minors {
		t.Run(m.Version, func(t *testing.T) {
			var gates GateTable
			decodeData(t, m, "gates.json", &gates)
			gates.Count = len(gates.Gates)
			for name, g := range gates.Gates {
				g.Name = name
				lean := g.Lean()
				gates.Gates[name] = &lean
			}
			got, err := m.Gates()
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, &gates) {
				t.Errorf("gates differ from gates.json")
			}

			var flags FlagTable
			decodeData(t, m, "flags.json", &flags)
			ft, err := m.Flags()
			if err != nil {
				t.Fatal(err)
			}
			if ft.Kubelet != flags.Kubelet || !reflect.DeepEqual(ft.Flags, flags.Flags) {
				t.Errorf("flags differ from flags.json")
			}

			withDoc, err := m.FieldInfos()
			if err != nil {
				t.Fatal(err)
			}
			noDoc, err := m.fieldInfosNoDoc()
			if err != nil {
				t.Fatal(err)
			}
			if len(withDoc) != len(noDoc) {
				t.Fatalf("%d fields, %d generated", len(withDoc), len(noDoc))
			}
			for i, f := range withDoc {
				if !reflect.DeepEqual(f.Lean(), noDoc[i]) {
					t.Errorf("field %d: %+v, generated %+v", i, f, noDoc[i])
				}
			}

			if _, err := os.ReadFile("data/" + m.Version + "/internalnames.json"); err == nil {
				var names struct {
					Fields map[string]string `json:"fields"`
				}
				decodeData(t, m, "internalnames.json", &names)
				got, err := m.InternalNames()
				if err != nil || !reflect.DeepEqual(got, names.Fields) {
					t.Errorf("internal names differ from internalnames.json (%v)", err)
				}
			} else if _, err := m.InternalNames(); err == nil {
				t.Errorf("internal names without internalnames.json")
			}
		})
	}
}

// TestGeneratedTablesMissingMinor checks that a minor without generated tables
// fails as a missing data file did.
func TestGeneratedTablesMissingMinor(t *testing.T) {
	m := &Minor{Version: "1.99"}
	if _, err := m.Gates(); err == nil || err.Error() != "open data/1.99/gates.json: file does not exist" {
		t.Errorf("gates: %v", err)
	}
	if _, err := m.Flags(); err == nil {
		t.Errorf("flags: no error")
	}
	if _, err := m.FieldTree(); err == nil {
		t.Errorf("field tree: no error")
	}
}

func decodeData(t *testing.T, m *Minor, file string, v any) {
	t.Helper()
	raw, err := os.ReadFile("data/" + m.Version + "/" + file) // not all embedded

	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkMinorTables is what a run over the seven minors spends on their
// tables: gates, flags and field trees.
func BenchmarkMinorTables(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		for _, m := range minors {
			if _, err := m.gateTable(); err != nil {
				b.Fatal(err)
			}
			if _, err := m.flagTable(Linux); err != nil {
				b.Fatal(err)
			}
			infos, err := m.fieldInfosNoDoc()
			if err != nil {
				b.Fatal(err)
			}
			if _, err := treeFromInfos(infos); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// TestWindowsFlags: the Windows kubelet's table is its recorded
// flags-windows.json (1.37: the two Windows flags, no --housekeeping-interval);
// a minor not recorded yet says so rather than lending the Linux table.
func TestWindowsFlags(t *testing.T) {
	for _, m := range minors {
		raw, err := os.ReadFile(filepath.Join("data", m.Version, "flags-windows.json"))
		win, werr := m.FlagsOn(Windows)
		if os.IsNotExist(err) {
			var nw *NoWindowsFlagsError
			if !errors.As(werr, &nw) {
				t.Errorf("%s: no flags-windows.json, FlagsOn(Windows) = %v", m.Version, werr)
			}
			continue
		}
		var want kubeletdata.FlagTable
		if err := json.Unmarshal(raw, &want); err != nil || werr != nil {
			t.Fatalf("%s: %v %v", m.Version, err, werr)
		}
		if len(win.Flags) != len(want.Flags) {
			t.Errorf("%s: %d Windows flags, recorded %d", m.Version, len(win.Flags), len(want.Flags))
		}
		linux, _ := m.Flags()
		for _, name := range []string{"windows-service", "windows-priorityclass"} {
			if _, ok := win.Lookup(name); !ok {
				t.Errorf("%s: Windows kubelet without --%s", m.Version, name)
			}
			if _, ok := linux.Lookup(name); ok {
				t.Errorf("%s: Linux kubelet with --%s", m.Version, name)
			}
		}
	}
}
