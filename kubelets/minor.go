package kubelets

import (
	"embed"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/version"
	"k8s.io/component-base/featuregate"

	"github.com/kubeletcfg/kubeletcfg/internal/kubeletdata"
)

// data holds what a run reads as JSON: the field doc comments (fields.json),
// the JSON Schema and the round-trip zero values. gates.json, flags.json and
// internalnames.json are generated into tables_gen.go instead.
//
//go:embed data/*/fields.json data/*/schema.json data/*/roundtrip.json
var data embed.FS

// Minor is one supported kubelet minor.
type Minor struct {
	// Version is "1.37".
	Version string
	// Patch is the upstream release the data was generated from ("v1.37.2").
	Patch string
	// SchemeName is the name runtime.NewScheme gives the kubelet's scheme in
	// this release's k8s.io/apimachinery (its own call site), which decode
	// errors quote ("no kind ... is registered ... in scheme \"pkg/runtime/scheme.go:100\"").
	// The goldens of cases 009-014 record it.
	SchemeName string
	// JSONv2 is set when the kubelet release is built with a Go whose encoding/json
	// runs on encoding/json/v2 (Go 1.27's default; Kubernetes 1.38's go.mod needs
	// it): json.Unmarshal of the merged drop-ins words its type errors differently
	// (the root type and the path as written, no field for an Unmarshaler's own
	// error). Patch, SchemeName and JSONv2 come from data/<Version>/release.json,
	// which the harness linked against that release writes (tables_gen.go).
	JSONv2 bool

	gates sync.Once
	table *GateTable
	err   error
}

// Supported lists the supported minors, oldest first.
func Supported() []string {
	out := make([]string, len(minors))
	for i, m := range minors {
		out[i] = m.Version
	}
	return out
}

// compiledSchemeName is what runtime.NewScheme names a scheme in the
// k8s.io/apimachinery compiled in, the one whose errors kubeletcfg reproduces.
var compiledSchemeName = sync.OnceValue(func() string { return runtime.NewScheme().Name() })

// KubeletText rewrites an error text of the compiled-in k8s.io/apimachinery into
// the one this minor's kubelet prints: the scheme it names.
func (m *Minor) KubeletText(s string) string {
	if m.SchemeName == "" || !strings.Contains(s, "in scheme") {
		return s
	}
	return strings.ReplaceAll(s, strconv.Quote(compiledSchemeName()), strconv.Quote(m.SchemeName))
}

// Newest is the newest supported minor, a pre-release included: the one whose
// KubeletConfiguration types kubeletcfg decodes into (upstream/kubelet/config/v1beta1).
func Newest() *Minor { return minors[len(minors)-1] }

// Default is the newest minor generated from a release rather than a pre-release:
// the minor a command evaluates when none is named, and the top of the default skew
// window. A pre-release minor (1.38 from v1.38.0-beta.0) is there to be asked for;
// refreshing it to its GA release makes it the default.
func Default() *Minor { return newestRelease(minors) }

// newestRelease is the newest of ms (oldest first) that is not a pre-release,
// else the oldest: what Default and the default window end at.
func newestRelease(ms []*Minor) *Minor {
	for i := len(ms) - 1; i > 0; i-- {
		if !ms[i].PreRelease() {
			return ms[i]
		}
	}
	return ms[0]
}

// PreRelease reports whether the minor's knowledge comes from a pre-release of
// Kubernetes (an alpha, beta or rc: v1.38.0-beta.0), which its GA release may still change.
func (m *Minor) PreRelease() bool { return strings.Contains(m.Patch, "-") }

// PreReleaseVersion is the pre-release the minor is generated from
// (v1.38.0-beta.0), "" for a release: what JSON outputs carry as preRelease.
func (m *Minor) PreReleaseVersion() string {
	if m == nil || !m.PreRelease() {
		return ""
	}
	return m.Patch
}

// PreReleaseNote is the sentence every text output adds for a minor (version,
// as outputs name it) generated from a pre-release; "" when release, its
// PreReleaseVersion, is empty.
func PreReleaseNote(version, release string) string {
	if release == "" {
		return ""
	}
	return "kubelet " + version + " is checked against " + release + ", a pre-release; its GA release may still differ"
}

// Lookup accepts "1.37", "v1.37" or "v1.37.2" and returns the minor, or an error
// that lists the supported ones.
func Lookup(v string) (*Minor, error) {
	if want, ok := ParseVersion(v); ok {
		for _, mi := range minors {
			if mi.MajorMinor() == want {
				return mi, nil
			}
		}
	}
	return nil, fmt.Errorf("unsupported kubelet version %q (supported: %s)", v, strings.Join(Supported(), ", "))
}

// GateSpec is one versioned spec of a feature gate, as registered upstream.
type GateSpec = kubeletdata.GateSpec

// Gate is one feature gate the kubelet binary registers.
type Gate = kubeletdata.Gate

// GateTable is the generated gate data of one minor (data/<minor>/gates.json);
// its Lookup, Names and At are kubeletdata's.
type GateTable = kubeletdata.GateTable

// Gates returns the minor's gate table (generated: tables_gen.go), built on first use.
func (m *Minor) Gates() (*GateTable, error) {
	m.gates.Do(func() { m.table, m.err = m.gateTable() })
	return m.table, m.err
}

// NewFeatureGate builds a fresh feature gate exactly as the kubelet binary of this
// minor registers it (emulation version, specs, dependencies), with nothing set.
func (m *Minor) NewFeatureGate() (featuregate.MutableVersionedFeatureGate, error) {
	r, err := m.gateRegistration()
	if err != nil {
		return nil, err
	}
	fg := featuregate.NewVersionedFeatureGateWithMinCompatibility(r.emulation, r.minCompat)
	if err := fg.AddVersioned(r.specs); err != nil {
		return nil, fmt.Errorf("kubelets: registering gates of %s: %w", m.Version, err)
	}
	if len(r.deps) > 0 {
		// AddDependencies sorts and compacts the lists of the map it is given, in
		// place: each gate gets its own copy of the shared registration's.
		deps := make(map[featuregate.Feature][]featuregate.Feature, len(r.deps))
		for k, v := range r.deps {
			deps[k] = slices.Clone(v)
		}
		if err := fg.AddDependencies(deps); err != nil {
			return nil, fmt.Errorf("kubelets: registering gate dependencies of %s: %w", m.Version, err)
		}
	}
	return fg, nil
}

// gateRegistration is the gate table in featuregate's types, parsed once per
// minor; featuregate copies the specs it is given, and NewFeatureGate copies
// the dependencies, which AddDependencies rewrites.
type gateRegistration struct {
	emulation, minCompat *version.Version
	specs                map[featuregate.Feature]featuregate.VersionedSpecs
	deps                 map[featuregate.Feature][]featuregate.Feature
}

var registrations sync.Map // minor -> func() (*gateRegistration, error)

func (m *Minor) gateRegistration() (*gateRegistration, error) {
	f, _ := registrations.LoadOrStore(m.Version, sync.OnceValues(func() (*gateRegistration, error) {
		g := m.generated()
		if g == nil {
			return nil, m.missing("gates.json")
		}
		r := &gateRegistration{
			emulation: mustParseVersion(g.EmulationVersion),
			minCompat: mustParseVersion(g.MinCompatibilityVersion),
			specs:     make(map[featuregate.Feature]featuregate.VersionedSpecs, len(g.Gates)),
			deps:      map[featuregate.Feature][]featuregate.Feature{},
		}
		for _, idx := range g.Gates {
			gate := &genGates[idx]
			if gate.Special {
				continue // AllAlpha and AllBeta: pre-registered by featuregate itself
			}
			vs, err := versionedSpecs(idx)
			if err != nil {
				return nil, err
			}
			r.specs[featuregate.Feature(gate.Name)] = vs
			for _, d := range gate.Dependencies {
				r.deps[featuregate.Feature(gate.Name)] = append(r.deps[featuregate.Feature(gate.Name)], featuregate.Feature(d))
			}
		}
		return r, nil
	}))
	return f.(func() (*gateRegistration, error))()
}

// genSpecs holds each distinct gate registration of the generated tables
// (genGates) in featuregate's types, converted on first use: a gate that
// several minors register alike (most of them) is converted once for all.
// Sharing is safe: AddVersioned copies the specs it is given and featuregate
// never writes them.
var genSpecs [len(genGates)]struct {
	once  sync.Once
	specs featuregate.VersionedSpecs
	err   error
}

func versionedSpecs(idx uint16) (featuregate.VersionedSpecs, error) {
	c := &genSpecs[idx]
	c.once.Do(func() { c.specs, c.err = convertSpecs(&genGates[idx]) })
	return c.specs, c.err
}

// convertSpecs is one gate's generated specs in featuregate's types.
func convertSpecs(g *Gate) (featuregate.VersionedSpecs, error) {
	vs := make(featuregate.VersionedSpecs, 0, len(g.Specs)+1)
	if len(g.Specs) > 0 && g.Specs[0].PreRelease == string(featuregate.Deprecated) && mustParseVersion(g.Specs[0].Version).Minor() != 0 {
		// Before 1.33 a gate could be introduced as deprecated; the newer
		// featuregate library linked here wants a 1.0 entry for its prior
		// state. The entry is never in force: every spec is read at the
		// minor's own emulation version, which the generated spec reaches.
		vs = append(vs, featuregate.FeatureSpec{Default: g.Specs[0].Default, PreRelease: featuregate.GA, Version: version.MajorMinor(1, 0)})
	}
	for i, s := range g.Specs {
		fs := featuregate.FeatureSpec{
			Default:       s.Default,
			LockToDefault: s.LockToDefault,
			Version:       mustParseVersion(s.Version),
		}
		if err := setPreRelease(&fs, s.PreRelease); err != nil {
			return nil, fmt.Errorf("kubelets: gate %s: %w", g.Name, err)
		}
		// The harness records the specs as registered (GetAllVersioned), where
		// featuregate has copied a MinCompatibilityVersion into every later entry
		// that did not declare one; registering that again is refused ("without a
		// preceding entry at the same Version"). A declared one always follows an
		// entry of the same Version, so any other is such a copy and is left for
		// AddVersioned to fill in again (1.38's DRAFractionalCapacityRange).
		declared := i > 0 && g.Specs[i-1].Version == s.Version
		if s.MinCompatibilityVersion != "" && declared {
			fs.MinCompatibilityVersion = mustParseVersion(s.MinCompatibilityVersion)
		}
		vs = append(vs, fs)
	}
	return vs, nil
}

var parsedVersions sync.Map // string -> *version.Version

// mustParseVersion is version.MustParse, once per string: the gate tables spell
// a few dozen versions over thousands of specs, and parsing is a regexp match.
// A *version.Version is never modified after parsing, so sharing it is safe.
func mustParseVersion(s string) *version.Version {
	if v, ok := parsedVersions.Load(s); ok {
		return v.(*version.Version)
	}
	v := version.MustParse(s)
	parsedVersions.Store(s, v)
	return v
}

// setPreRelease maps the generated stage string back to featuregate's constants
// (their type is unexported, so the constants are the only way in).
func setPreRelease(fs *featuregate.FeatureSpec, stage string) error {
	switch stage {
	case string(featuregate.PreAlpha):
		fs.PreRelease = featuregate.PreAlpha
	case string(featuregate.Alpha):
		fs.PreRelease = featuregate.Alpha
	case string(featuregate.Beta):
		fs.PreRelease = featuregate.Beta
	case string(featuregate.GA):
		fs.PreRelease = featuregate.GA
	case string(featuregate.Deprecated):
		fs.PreRelease = featuregate.Deprecated
	default:
		return fmt.Errorf("unknown stage %q", stage)
	}
	return nil
}

// FieldInfo is one field of the generated field table (data/<minor>/fields.json).
type FieldInfo = kubeletdata.FieldInfo

// fieldTable is the whole file; FieldInfos keeps its Fields.
type fieldTable = kubeletdata.FieldTable

var fieldTables sync.Map // minor -> func() ([]FieldInfo, error)

// FieldInfos returns the generated field table of the minor (doc comments and
// +featureGate markers), decoding it on first use.
func (m *Minor) FieldInfos() ([]FieldInfo, error) {
	f, _ := fieldTables.LoadOrStore(m.Version, sync.OnceValues(func() ([]FieldInfo, error) {
		raw, err := data.ReadFile("data/" + m.Version + "/fields.json")
		if err != nil {
			return nil, err
		}
		var t fieldTable
		if err := json.Unmarshal(raw, &t); err != nil {
			return nil, fmt.Errorf("kubelets: fields of %s: %w", m.Version, err)
		}
		return t.Fields, nil
	}))
	return f.(func() ([]FieldInfo, error))()
}

// FieldGates maps each field path that carries a +featureGate marker to its gates.
func (m *Minor) FieldGates() (map[string][]string, error) {
	infos, err := m.fieldInfosNoDoc()
	if err != nil {
		return nil, err
	}
	out := map[string][]string{}
	for _, f := range infos {
		if len(f.FeatureGates) > 0 {
			out[f.Path] = f.FeatureGates
		}
	}
	return out, nil
}

// FirstNewerWith returns the oldest minor newer than m whose field tree has path
// (spelled exactly), or nil: the hint for a key an older kubelet drops.
func (m *Minor) FirstNewerWith(path string) *Minor {
	newer := false
	for _, o := range minors {
		if o == m {
			newer = true
			continue
		}
		if newer && o.Fields().AtExact(path) != nil {
			return o
		}
	}
	return nil
}

// Older reports whether m is an older minor than o (Before).
func (m *Minor) Older(o *Minor) bool { return m.Before(o) }

var internalNames sync.Map // minor -> func() (map[string]string, error)

// InternalNames maps each v1beta1 field path to the JSON key path under which
// encoding/json marshals the kubelet's internal type (mostly Go field names):
// the 1.31 drop-in merge patches that JSON (data/<minor>/internalnames.json).
func (m *Minor) InternalNames() (map[string]string, error) {
	f, _ := internalNames.LoadOrStore(m.Version, sync.OnceValues(m.internalNameTable))
	return f.(func() (map[string]string, error))()
}

// GateHistory places a gate m does not register among the supported minors:
// last is the newest older minor that registers it and removed the first
// minor after last that does not (a gate removed before m); first is the
// oldest newer minor that registers it (a gate newer than m). All nil: no
// supported minor registers it, so it was removed before the oldest (whose
// tables kubeletcfg lacks), is misspelled or never existed.
func (m *Minor) GateHistory(gate string) (last, removed, first *Minor) {
	for _, o := range minors {
		if o == m || !o.Registers(gate) {
			continue
		}
		if o.Older(m) {
			last = o
		} else if first == nil {
			first = o
		}
	}
	if last != nil {
		removed = m
		for _, o := range minors {
			if last.Older(o) && !o.Registers(gate) {
				removed = o
				break
			}
		}
	}
	return last, removed, first
}

// Registers reports whether the minor's kubelet registers the gate (exact name).
func (m *Minor) Registers(gate string) bool {
	t, err := m.Gates()
	if err != nil {
		return false
	}
	_, ok := t.Lookup(gate)
	return ok
}
