package kubelets

import (
	"sort"
	"sync"

	"github.com/kubeletcfg/kubeletcfg/internal/kubeletdata"
)

// Flag is one flag of a kubelet minor's command line, from the generated
// data/<minor>/flags.json (conformance/harness flags: NewKubeletCommand's flag set,
// cmd/kubelet/app/server.go).
type Flag = kubeletdata.Flag

// FlagTable is a minor's command line: the generated file, indexed by long name,
// shorthand and field path.
type FlagTable struct {
	kubeletdata.FlagTable

	byName  map[string]*Flag
	byShort map[string]*Flag
	byPath  map[string]*Flag
}

// Lookup finds a flag by its (normalized) long name.
func (t *FlagTable) Lookup(name string) (*Flag, bool) {
	f, ok := t.byName[name]
	return f, ok
}

// Shorthand finds a flag by its one-letter name.
func (t *FlagTable) Shorthand(s string) (*Flag, bool) {
	f, ok := t.byShort[s]
	return f, ok
}

// ForPath finds the flag that sets a v1beta1 field path.
func (t *FlagTable) ForPath(path string) (*Flag, bool) {
	f, ok := t.byPath[path]
	return f, ok
}

// Names lists every long flag name, sorted.
func (t *FlagTable) Names() []string {
	out := make([]string, 0, len(t.Flags))
	for _, f := range t.Flags {
		out = append(out, f.Name)
	}
	sort.Strings(out)
	return out
}

var flagTables sync.Map // "os/minor" -> func() (*FlagTable, error)

// Flags is the minor's command-line flag table (generated: tables_gen.go), indexed on first use.
func (m *Minor) Flags() (*FlagTable, error) { return m.FlagsOn(Linux) }

// FlagsOn is the flag table of the minor's kubelet built for os: the Windows
// kubelet has flags of its own (--windows-service, --windows-priorityclass)
// and lacks some Linux ones; a *NoWindowsFlagsError where not recorded yet.
func (m *Minor) FlagsOn(os OS) (*FlagTable, error) {
	os = os.Or()
	f, _ := flagTables.LoadOrStore(string(os)+"/"+m.Version, sync.OnceValues(func() (*FlagTable, error) {
		t, err := m.flagTable(os)
		if err != nil {
			return nil, err
		}
		t.byName = make(map[string]*Flag, len(t.Flags))
		t.byShort = map[string]*Flag{}
		t.byPath = map[string]*Flag{}
		for i := range t.Flags {
			f := &t.Flags[i]
			t.byName[f.Name] = f
			if f.Shorthand != "" {
				t.byShort[f.Shorthand] = f
			}
			if f.Path != "" {
				t.byPath[f.Path] = f
			}
		}
		return t, nil
	}))
	return f.(func() (*FlagTable, error))()
}
