package kubelets

import (
	"fmt"
	"io/fs"
	"sync"

	"github.com/kubeletcfg/kubeletcfg/internal/kubeletdata"
)

//go:generate sh -c "cd .. && go run ./kubelets/internal/gen"

// genTable is one minor's generated tables (tables_gen.go, written by
// kubelets/internal/gen from data/<minor>/*.json): what a run needs of the gates,
// fields and flags, as indices into tables shared by all minors, so nothing is
// decoded from JSON at start-up. The field doc comments stay in fields.json,
// read only by FieldInfos.
type genTable struct {
	Version                 string
	Generated               string // gates.json's _generated
	Kubelet                 string // the release the gates were generated from
	EmulationVersion        string
	MinCompatibilityVersion string
	Gates                   []uint16 // into genGates, sorted by name
	Fields                  []uint16 // into genFields, in fields.json's order
	// Tree numbers the minor's field tree among the distinct ones (the
	// generator compares their paths, kinds and Go types): minors with the
	// same number share one *Field.
	Tree         int
	FlagsKubelet string   // flags.json's kubelet
	Flags        []uint16 // into genFlags, in flags.json's order
	// WindowsFlags are the Windows kubelet's (flags-windows.json, recorded
	// under Wine), into genFlags; nil where not recorded yet.
	WindowsFlags  []uint16
	InternalNames []string // internalnames.json's pairs (path, internal path); nil when absent
}

// generated returns the minor's generated tables, or nil.
func (m *Minor) generated() *genTable {
	for i := range genTables {
		if genTables[i].Version == m.Version {
			return &genTables[i]
		}
	}
	return nil
}

// missing is the error of a minor without generated tables, as reading its
// data file would have been.
func (m *Minor) missing(file string) error {
	return &fs.PathError{Op: "open", Path: "data/" + m.Version + "/" + file, Err: fs.ErrNotExist}
}

// gateTable builds the minor's GateTable from the generated tables: each Gate
// is the minor's own copy (its slices are shared and never written).
func (m *Minor) gateTable() (*GateTable, error) {
	g := m.generated()
	if g == nil {
		return nil, m.missing("gates.json")
	}
	t := &GateTable{
		Generated:               g.Generated,
		Kubelet:                 g.Kubelet,
		EmulationVersion:        g.EmulationVersion,
		MinCompatibilityVersion: g.MinCompatibilityVersion,
		Count:                   len(g.Gates),
		Gates:                   make(map[string]*Gate, len(g.Gates)),
	}
	gates := make([]Gate, len(g.Gates))
	for i, idx := range g.Gates {
		gates[i] = genGates[idx]
		t.Gates[gates[i].Name] = &gates[i]
	}
	return t, nil
}

var fieldsNoDoc sync.Map // minor -> func() ([]FieldInfo, error)

// fieldInfosNoDoc is FieldInfos without the doc comments, from the generated
// tables: what the field tree and FieldGates need.
func (m *Minor) fieldInfosNoDoc() ([]FieldInfo, error) {
	f, _ := fieldsNoDoc.LoadOrStore(m.Version, sync.OnceValues(func() ([]FieldInfo, error) {
		g := m.generated()
		if g == nil {
			return nil, m.missing("fields.json")
		}
		out := make([]FieldInfo, len(g.Fields))
		for i, idx := range g.Fields {
			out[i] = genFields[idx]
		}
		return out, nil
	}))
	return f.(func() ([]FieldInfo, error))()
}

// treesByGroup holds one tree per genTable.Tree.
var treesByGroup [genTreeCount]struct {
	once sync.Once
	tree *Field
	err  error
}

// groupTree builds the tree of the minor's group once, from the infos of the
// first minor that asks (all of the group's give the same tree).
func (m *Minor) groupTree() (*Field, error) {
	g := m.generated()
	if g == nil {
		return nil, m.missing("fields.json")
	}
	if g.Tree < 0 || g.Tree >= len(treesByGroup) {
		return nil, fmt.Errorf("kubelets: fields of %s: tree group %d out of range", m.Version, g.Tree)
	}
	e := &treesByGroup[g.Tree]
	e.once.Do(func() {
		infos, err := m.fieldInfosNoDoc()
		if err != nil {
			e.err = err
			return
		}
		e.tree, e.err = treeFromInfos(infos)
	})
	return e.tree, e.err
}

// flagTable builds the minor's FlagTable from the generated tables.
func (m *Minor) flagTable(os OS) (*FlagTable, error) {
	g := m.generated()
	if g == nil {
		return nil, m.missing("flags.json")
	}
	idx := g.Flags
	if os == Windows {
		if g.WindowsFlags == nil {
			return nil, &NoWindowsFlagsError{Minor: m.Version}
		}
		idx = g.WindowsFlags
	}
	t := &FlagTable{FlagTable: kubeletdata.FlagTable{Kubelet: g.FlagsKubelet, Flags: make([]Flag, len(idx))}}
	for i, n := range idx {
		t.Flags[i] = genFlags[n]
	}
	return t, nil
}

// NoWindowsFlagsError: the Windows kubelet's flags are not recorded for the
// minor yet (kubelets/data/<minor>/flags-windows.json, make generate-windows).
type NoWindowsFlagsError struct{ Minor string }

func (e *NoWindowsFlagsError) Error() string {
	return fmt.Sprintf("the Windows kubelet %s's command-line flags are not recorded yet (only the Linux kubelet's): kubeletcfg cannot check a Windows command line at %s", e.Minor, e.Minor)
}

// internalNameTable builds InternalNames' map from the generated pairs.
func (m *Minor) internalNameTable() (map[string]string, error) {
	g := m.generated()
	if g == nil || g.InternalNames == nil {
		return nil, m.missing("internalnames.json")
	}
	out := make(map[string]string, len(g.InternalNames)/2)
	for i := 0; i+1 < len(g.InternalNames); i += 2 {
		out[g.InternalNames[i]] = g.InternalNames[i+1]
	}
	return out, nil
}
