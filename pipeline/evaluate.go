package pipeline

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/go-logr/logr"
	"github.com/kubeletcfg/kubeletcfg/finding"
	kubeletv1beta1 "github.com/kubeletcfg/kubeletcfg/upstream/kubelet/config/v1beta1"
	"k8s.io/component-base/featuregate"
	"k8s.io/klog/v2"
	"k8s.io/utils/ptr"

	"github.com/kubeletcfg/kubeletcfg/defaults"
	dropin "github.com/kubeletcfg/kubeletcfg/drop-in"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/source"
	"github.com/kubeletcfg/kubeletcfg/validate"
)

// Input names the files a kubelet would be started with.
type Input struct {
	// Config is the --config file; empty when the kubelet runs without one.
	Config string
	// ConfigDir is the --config-dir folder; empty when not used.
	ConfigDir string
	// ConfigDirInMemory: ConfigDir holds only the Virtual files directly in it
	// and is not read from the disk (the folder a bootstrapper writes on the
	// node, checked before the node exists).
	ConfigDirInMemory bool
	// OS is the node's operating system (kubelets.Linux, the default, or
	// kubelets.Windows): its kubelet's OS checks and defaults apply.
	OS kubelets.OS
	// CgroupVersion of the host: 1 or 2 (default 2); none on Windows.
	CgroupVersion int
	// Virtual holds files that exist only in memory, by path: they are read
	// instead of the disk. A path directly inside ConfigDir joins the drop-in
	// walk at the place its name sorts, so a drop-in can be checked before it is
	// written (or a changed one before it replaces the file on disk).
	Virtual map[string][]byte
	// Flags are more kubelet command-line arguments (--max-pods=50,
	// --feature-gates=A=true, ...), as the kubelet receives them after --config
	// and --config-dir.
	Flags []string
	// FlagPositions says where each of Flags was written (a flags file's line);
	// a missing or empty entry is the command line.
	FlagPositions []finding.Position
	// Release is the kubelet binary's own version (v1.37.3, v1.37.3-eks-1)
	// when known: --version=vX.Y.Z must name its major, minor and patch. Empty,
	// or of another minor than the one evaluated: the minor's recorded release
	// (kubelets.Minor.Patch).
	Release string
}

// Result is what the kubelet would do with the input.
type Result struct {
	Minor *kubelets.Minor
	// OS is the node's operating system the kubelet was evaluated for.
	OS kubelets.OS
	// Verdict is the node's: whether it ends up with a running kubelet, and
	// who stops it.
	Verdict
	// Effective is the configuration after merging and defaulting; nil when the
	// kubelet stops before it has one.
	Effective *kubeletv1beta1.KubeletConfiguration
	// Origins maps field paths to the file position that set them.
	Origins map[string]finding.Position
	// OriginNotes say, for paths no written key set, what did ("set by
	// kubeadm from networking.dnsDomain at FILE:12:3"); set by the
	// conversion of an input a tool expands (input.Source.Translate), nil
	// otherwise. Origins keeps a position for them all the same.
	OriginNotes map[string]string
	Findings    []finding.Finding
	// CrashLoopBackOff is what newCrashLoopBackOff computes; nil unless Starts.
	CrashLoopBackOff *Backoff
	// Lenient is set when the main file needed the lenient decoding fallback.
	Lenient bool
	// Files lists every file read: the main file, then the drop-in folder's
	// entries in merge order (including ignored ones).
	Files []string

	// Dropped lists the field paths written in the files that this kubelet
	// silently drops (unknown, misspelled or shadowed keys), sorted.
	Dropped []string

	warned map[string]bool
	// skipGates are feature gates evaluated as if no file or flag set them
	// (behind.go: getting past the kubelet's refusal of them).
	skipGates map[string]bool
	mainFile  string
	files     *source.Cache
	gateSets  *gateSets
}

// Evaluate runs the pipeline. Its error is an input error (a file that cannot be
// read at all); everything the kubelet would complain about is a finding.
func Evaluate(m *kubelets.Minor, in Input) (*Result, error) {
	l, err := Load(in)
	if err != nil {
		return nil, err
	}
	return l.Evaluate(m)
}

// FileData is a file of Files as the evaluation read it from disk; ok is false
// for a file it did not read (a drop-in folder's file not ending in .conf),
// could not read, or held in memory (Input.Virtual: a converted input stands
// in for the file the user wrote).
func (r *Result) FileData(path string) (data []byte, ok bool) {
	f := r.files.Read(path)
	if f == nil || f.InMemory {
		return nil, false
	}
	return f.Data, true
}

// Loaded is an input whose files are read, parsed and decoded once, however many
// kubelet minors it is evaluated at (kubeletcfg skew and preflight). Evaluate
// may be called from several goroutines at once (skew evaluates minors in
// parallel): everything shared is in the concurrency-safe source.Cache.
type Loaded struct {
	in      Input
	files   *source.Cache
	gates   *gateSets
	entries []dropin.Entry
	walkErr error
}

// Load checks and reads the input. A missing --config-dir is almost always a typo
// on our command line, so it is an input error (the kubelet would refuse to start
// too). A file is walked as the kubelet walks it: a lone .conf file is applied.
func Load(in Input) (*Loaded, error) {
	in.OS = in.OS.Or()
	switch {
	case in.OS == kubelets.Windows:
		in.CgroupVersion = 0 // no cgroups: IsCgroup2UnifiedMode is false
	case in.CgroupVersion == 0:
		in.CgroupVersion = 2
	}
	l := &Loaded{in: in, files: source.NewCache(), gates: &gateSets{}}
	for path, data := range in.Virtual {
		l.files.Put(path, data)
	}
	readMain := func() error {
		if in.Config == "" {
			return nil
		}
		_, err := l.files.ReadFile(in.Config)
		return err
	}
	if in.ConfigDir != "" && !in.ConfigDirInMemory {
		if _, err := os.Stat(in.ConfigDir); err != nil {
			if err := readMain(); err != nil {
				return nil, err // the main file's error comes first
			}
			return nil, &source.InputError{Path: in.ConfigDir, Err: errors.Unwrap(err)}
		}
		l.entries, l.walkErr = dropin.Find(in.ConfigDir)
	}
	if in.ConfigDir != "" {
		for path := range in.Virtual {
			l.entries = dropin.Insert(l.entries, in.ConfigDir, path)
		}
	}
	l.prefetch()
	if err := readMain(); err != nil {
		return nil, err
	}
	return l, nil
}

// Prefetching reads and decodes the files on every core before the minors'
// sequential merges use them, when there is enough to read: many drop-ins, or
// megabytes. The cache holds each file's result whichever goroutine made it,
// so what is evaluated is the same; only the time to a verdict changes (a
// folder of 30,000 drop-ins, or two 2 MiB files). Small inputs, the usual
// case, are read as they are needed: goroutines would cost them more CPU than
// they save.
var (
	prefetchFiles = 16
	prefetchBytes = int64(512 << 10)
)

func (l *Loaded) prefetch() {
	var paths []string
	if l.in.Config != "" {
		paths = append(paths, l.in.Config)
	}
	for _, e := range l.entries {
		if e.Conf {
			paths = append(paths, e.Path)
		}
	}
	workers := min(runtime.GOMAXPROCS(0), len(paths))
	if workers < 2 {
		return
	}
	if len(paths) < prefetchFiles {
		size := int64(0)
		for _, p := range paths {
			if _, virtual := l.in.Virtual[p]; virtual {
				continue
			}
			if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
				size += fi.Size()
			}
		}
		if size < prefetchBytes {
			return
		}
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(paths) {
					return
				}
				f, err := l.files.ReadFile(paths[i])
				switch {
				case err != nil:
				case paths[i] == l.in.Config:
					l.files.DecodeMain(f)
				case len(f.Data) > 0:
					l.files.DecodeDropIn(f)
				}
			}
		}()
	}
	wg.Wait()
}

// Input is what was loaded.
func (l *Loaded) Input() Input { return l.in }

// Evaluate runs the pipeline of one kubelet minor over the loaded files. Where
// the kubelet stops at a fatal error, it evaluates on as if that error were fixed
// (behind.go), and adds what the kubelet would report next, marked Behind.
func (l *Loaded) Evaluate(m *kubelets.Minor) (*Result, error) {
	r, err := l.evaluate(m, past{})
	if err != nil || r.Starts {
		return r, err
	}
	l.evaluateBehind(m, r)
	return r, nil
}

// evaluate runs the pipeline of one kubelet minor, getting past the fatal
// errors p names.
func (l *Loaded) evaluate(m *kubelets.Minor, p past) (*Result, error) {
	in := l.in
	if p.flags {
		in.Flags, in.FlagPositions = nil, nil
	}
	r := &Result{Minor: m, OS: in.OS, Origins: map[string]finding.Position{}, files: l.files, gateSets: l.gates, skipGates: p.gates}
	// The minor's registered gates, nothing set; every step works on a copy.
	base, err := m.BaseFeatureGate()
	if err != nil {
		return nil, err
	}
	// RunE parses the command line and applies its feature gates before it
	// reads any file; defaulting the files starts from those gates.
	var cl *commandLine
	fileBase := base
	if len(in.Flags) > 0 {
		var ok bool
		if cl, ok = r.parseFlags(m, &in); !ok {
			return r.finish(), nil
		}
		if fileBase, ok = r.flagGates(m, cl, base); !ok {
			return r.finish(), nil
		}
		if !r.validateFlags(cl) {
			return r.finish(), nil
		}
	}
	var kc *kubeletv1beta1.KubeletConfiguration
	if in.Config != "" {
		kc, err = r.loadConfigFile(m, fileBase, in.Config)
		if err != nil {
			return nil, err
		}
	} else {
		// Without --config the kubelet starts from its flag baseline:
		// options.NewKubeletConfiguration defaults an empty object, then
		// applyLegacyDefaults restores the historic flag defaults.
		kc = &kubeletv1beta1.KubeletConfiguration{}
		if !r.setDefaults(m, base, kc, finding.Position{}, defaults.ApplyObject) {
			return r.finish(), nil
		}
		if kc, err = r.roundTrip(m, kc); err != nil {
			return nil, err
		}
		applyLegacyDefaults(kc)
	}
	if kc == nil {
		return r.finish(), nil
	}
	if in.ConfigDir != "" {
		kc, err = r.mergeDropIns(m, fileBase, kc, l)
		if err != nil || kc == nil {
			return r.finish(), err
		}
	}
	r.flagPrecedence(kc)
	r.applyFlags(cl, kc)
	r.Effective = kc
	r.validate(m, fileBase, kc, in.OS, in.CgroupVersion, cl)
	return r.finish(), nil
}

// roundTrip is the conversion to the kubelet's internal type and back, which
// also drops what this minor's types do not have.
func (r *Result) roundTrip(m *kubelets.Minor, kc *kubeletv1beta1.KubeletConfiguration) (*kubeletv1beta1.KubeletConfiguration, error) {
	m.Prune(kc)
	out, err := m.RoundTrip(kc)
	if err != nil {
		return nil, err
	}
	m.Prune(out)
	return out, nil
}

func (r *Result) add(fs ...finding.Finding) { r.Findings = append(r.Findings, fs...) }

func (r *Result) finish() *Result {
	r.gateFixes()
	finding.SortFindings(r.Findings)
	r.kubeletVerdict()
	seen := map[string]bool{}
	for _, f := range r.Findings {
		switch f.Rule {
		case source.UnknownField.ID, source.CaseMismatch.ID, dropin.DropInUnknownField.ID, dropin.DropInCaseShadowed.ID:
			if f.Path != "" && !seen[f.Path] {
				seen[f.Path] = true
				r.Dropped = append(r.Dropped, f.Path)
			}
		}
	}
	sort.Strings(r.Dropped)
	return r
}

// EffectiveObject is the effective configuration as the kubelet of this minor
// serializes it: with apiVersion and kind, without fields it does not have.
func (r *Result) EffectiveObject() (map[string]any, error) {
	if r.Effective == nil {
		return nil, nil
	}
	// A shallow copy: only TypeMeta changes, and marshalling only reads.
	kc := *r.Effective
	kc.APIVersion = kubeletv1beta1.SchemeGroupVersion.String()
	kc.Kind = "KubeletConfiguration"
	raw, err := json.Marshal(&kc)
	if err != nil {
		return nil, err
	}
	var obj map[string]any
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, err
	}
	r.Minor.PruneJSON(obj)
	return obj, nil
}

// loadConfigFile mirrors cmd/kubelet/app/server.go loadConfigFile and the
// configfiles loader it calls.
func (r *Result) loadConfigFile(m *kubelets.Minor, base featuregate.MutableVersionedFeatureGate, path string) (*kubeletv1beta1.KubeletConfiguration, error) {
	f, err := r.files.ReadFile(path)
	if err != nil {
		return nil, err
	}
	r.mainFile = path
	r.Files = append(r.Files, path)
	top := r.mainPos()
	if len(f.Data) == 0 {
		r.add(source.ConfigEmpty.At(top, "", "the config file is empty: the kubelet refuses to start",
			"write at least apiVersion: kubelet.config.k8s.io/v1beta1 and kind: KubeletConfiguration"))
		return nil, nil
	}
	strictKeys := r.strictKeys(m, f)
	for k, pos := range source.Positions(strictKeys, source.Strict) {
		r.Origins[k] = pos
	}
	for _, line := range f.ExtraDocs {
		r.add(source.ExtraDocument.At(finding.Position{File: path, Line: line, Column: 1}, "",
			"only the first YAML document is read; this document is ignored by the kubelet", "move its settings into the first document or into a drop-in"))
	}
	dec := r.files.DecodeMain(f)
	if dec.Err != nil && hasUnknown(strictKeys) && m != kubelets.Newest() {
		// The newest types may fail on a key this older kubelet does not have
		// at all (crashLoopBackOff: 30 at 1.31): it drops the key instead.
		// Without them, the file either decodes or fails on a field this
		// kubelet does have: that error is the one it reports.
		if data, ok := r.files.WithoutKeys(f, unknownPaths(strictKeys)); ok {
			again := source.DecodeMain(data)
			if again.Err == nil || !isTypeMetaError(again.Err) {
				dec = again
			}
			if dec.Err == nil && dec.StrictErr == nil {
				dec.StrictErr = errors.New("unknown fields dropped")
			}
		}
	}
	if dec.Err != nil {
		fd := mainDecodeFinding(f, dec.Err, strictKeys)
		fd.Kubelet = m.KubeletText(fd.Kubelet)
		r.add(fd)
		if !isTypeMetaError(dec.Err) {
			// A file of another kind is refused whole: its keys say nothing.
			r.add(keyFindings(r.files, f, strictKeys, m)...)
		}
		return nil, nil
	}
	// The newest minor's types decoded the file; an older kubelet's strict
	// decoding also fails on the fields it does not have, and drops them.
	r.Lenient = dec.StrictErr != nil || hasUnknown(strictKeys)
	r.add(keyFindings(r.files, f, strictKeys, m)...)
	kc := dec.Config
	m.Prune(kc)
	// The UniversalDecoder defaults while decoding, with the file's own gates.
	if !r.setDefaults(m, base, kc, top, defaults.ApplyObject) {
		return nil, nil
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, &source.InputError{Path: path, Err: err}
	}
	for _, p := range defaults.ResolveRelativePaths(kc, filepath.Dir(abs), r.OS) {
		r.add(source.RelativePathResolved.Atf(r.Origins[p], p, "write an absolute path to make the intent explicit",
			"relative path resolved against the config file's folder: the kubelet uses %s", pathValue(kc, p)))
	}
	defaults.EvictionHard(m.Version, r.OS, kc)
	// The kubelet now holds the internal type; mergeKubeletConfigurations and the
	// rest of start-up see it through a conversion.
	return r.roundTrip(m, kc)
}

func hasUnknown(keys []source.Key) bool {
	for _, k := range keys {
		if k.Kind == source.KeyUnknown || k.Kind == source.KeyCase {
			return true
		}
	}
	return false
}

func unknownPaths(keys []source.Key) []string {
	var out []string
	for _, k := range keys {
		if k.Kind == source.KeyUnknown || k.Kind == source.KeyCase {
			out = append(out, k.WrittenPath)
		}
	}
	return out
}

// strictKeys walks the main file for positions, names and duplicates; which keys
// the minor's kubelet does not know is decided on the document as the kubelet's
// serializer converts it (source.Unknown: last duplicate wins, merge keys
// resolved), against the same field tree. A key the walk thought unknown but the
// converted document does not have as unknown is kept as matched.
//
// The conversion is only needed when the walk has candidates: TestUnknownAgreesWithSchema
// checks on the whole corpus, at every minor, that the walk, the converted
// document and the minor's JSON Schema name the same keys.
func (r *Result) strictKeys(m *kubelets.Minor, f *source.File) []source.Key {
	keys := r.files.Walk(f, m.Fields(), source.Strict)
	if !hasUnknown(keys) {
		return keys
	}
	unknown, ok := r.files.Unknown(f, m.Fields())
	if !ok {
		return keys
	}
	out := make([]source.Key, 0, len(keys))
	for _, k := range keys {
		switch {
		case (k.Kind == source.KeyUnknown || k.Kind == source.KeyCase) && !unknown[k.WrittenPath]:
			continue // accepted by the schema: not dropped
		case k.Kind == source.KeyExact && unknown[k.WrittenPath]:
			k.Kind, k.Field = source.KeyUnknown, nil
		}
		out = append(out, k)
	}
	return out
}

// setDefaults mirrors SetDefaults_KubeletConfiguration, including its panic when
// the object's feature gates cannot be applied to the kubelet's gate set.
// apply is defaults.ApplyObject where the kubelet runs the scheme's generated
// defaulter (decoding a file), defaults.Apply where it calls the function directly
// (after the drop-in merge).
func (r *Result) setDefaults(m *kubelets.Minor, base featuregate.MutableVersionedFeatureGate, kc *kubeletv1beta1.KubeletConfiguration, at finding.Position,
	apply func(string, *kubeletv1beta1.KubeletConfiguration, func(string) bool) error) bool {
	if !defaults.GatesInDefaulting(m.Version) {
		// Before 1.32 defaulting does not look at the file's gates; a bad gate
		// stops the kubelet later, when RunE applies them (see validate). A copy
		// with nothing set answers as base does, so base is read directly.
		if err := apply(m.Version, kc, func(g string) bool { return gateOn(m, base, g) }); err != nil {
			panic(err) // unsupported minor: Lookup only returns supported ones
		}
		m.Prune(kc)
		return true
	}
	r.dropSkippedGates(kc.FeatureGates)
	local, err := r.gateSets.apply(m, base, kc.FeatureGates)
	if err != nil {
		r.Panics = true
		r.add(gateFindings(m, kc.FeatureGates, r.Origins, at, err, true)...)
		return false
	}
	r.gateWarnings(m, kc.FeatureGates, at)
	if err := apply(m.Version, kc, func(g string) bool { return gateOn(m, local, g) }); err != nil {
		panic(err) // unsupported minor: Lookup only returns supported ones
	}
	m.Prune(kc)
	return true
}

// gateOn is Enabled for a gate this minor may not register (featuregate panics
// on those); an unregistered gate is off.
func gateOn(m *kubelets.Minor, g featuregate.FeatureGate, name string) bool {
	if !m.Registers(name) {
		return false
	}
	return g.Enabled(featuregate.Feature(name))
}

// mergeDropIns mirrors cmd/kubelet/app/server.go mergeKubeletConfigurations.
func (r *Result) mergeDropIns(m *kubelets.Minor, base featuregate.MutableVersionedFeatureGate, kc *kubeletv1beta1.KubeletConfiguration, l *Loaded) (*kubeletv1beta1.KubeletConfiguration, error) {
	dir := l.in.ConfigDir
	for _, e := range l.entries {
		r.Files = append(r.Files, e.Path)
	}
	opt := dropin.Options{Minor: m, Tree: m.Fields(), PathFields: defaults.PathFields, Origins: r.Origins, Files: l.files, KnownSince: knownSince(m)}
	legacy := !defaults.GatesInDefaulting(m.Version)
	var baseJSON []byte
	if legacy {
		// 1.31 merge-patches the JSON of its internal type (Go field names) and
		// decodes the result onto the loaded config: see dropin.Legacy.
		names, err := m.InternalNames()
		if err != nil {
			return nil, err
		}
		opt.Legacy = &dropin.Legacy{Onto: kc, InternalKeys: names}
	} else {
		var err error
		if baseJSON, err = json.Marshal(kc); err != nil {
			return nil, fmt.Errorf("marshal base config: %w", err)
		}
	}
	res, err := dropin.Merge(baseJSON, l.entries, opt)
	if err != nil {
		return nil, err
	}
	r.add(res.Findings...)
	if l.walkErr != nil {
		r.add(dropin.DropInDecode.At(finding.Position{File: dir}, "", "the kubelet cannot walk the drop-in folder and refuses to start: "+l.walkErr.Error(), ""))
		return nil, nil
	}
	if res.Config == nil {
		return nil, nil
	}
	merged := res.Config
	if legacy {
		// 1.31 neither defaults nor converts after the merge: the struct it
		// decoded onto is the effective configuration.
		return r.roundTrip(m, merged)
	}
	// Defaults run again after the merge, with the merged gates; a gate error
	// panics here too. evictionHard and path resolution are not re-applied.
	gatesAt := finding.Position{File: dir}
	if !r.setDefaults(m, base, merged, gatesAt, defaults.Apply) {
		return nil, nil
	}
	return r.roundTrip(m, merged)
}

// knownSince names, for a field path this minor does not have, the first newer
// minor that has it ("" when none does).
func knownSince(m *kubelets.Minor) func(path string) string {
	return func(path string) string {
		if n := m.FirstNewerWith(path); n != nil {
			return n.Version
		}
		return ""
	}
}

// applyLegacyDefaults mirrors cmd/kubelet/app/options applyLegacyDefaults: the
// flag-only baseline used when there is no --config.
func applyLegacyDefaults(kc *kubeletv1beta1.KubeletConfiguration) {
	kc.Authentication.Anonymous.Enabled = ptr.To(true)
	kc.Authentication.Webhook.Enabled = ptr.To(false)
	kc.Authorization.Mode = kubeletv1beta1.KubeletAuthorizationModeAlwaysAllow
	kc.ReadOnlyPort = kubeletReadOnlyPort
}

// kubeletReadOnlyPort is ports.KubeletReadOnlyPort (pkg/cluster/ports).
const kubeletReadOnlyPort = 10255

// flagPrecedence mirrors the side effects of kubeletConfigFlagPrecedence with no
// kubelet flags besides --config and --config-dir: registering the flags over the
// loaded config writes each flag's registration default into its field. Every
// flag is registered with the field's current value except the split-stream
// logging flags, whose literal default false overwrites the files' value.
func (r *Result) flagPrecedence(kc *kubeletv1beta1.KubeletConfiguration) {
	for _, s := range []struct {
		path string
		p    *bool
	}{
		{"logging.options.text.splitStream", &kc.Logging.Options.Text.SplitStream},
		{"logging.options.json.splitStream", &kc.Logging.Options.JSON.SplitStream},
	} {
		if !*s.p {
			continue
		}
		*s.p = false
		pos := r.origin(s.path)
		delete(r.Origins, s.path)
		r.add(validate.SplitStreamReset.At(pos, s.path,
			"splitStream: true is reset to false when the kubelet re-parses its flags over the loaded config: the setting never takes effect",
			"pass --log-text-split-stream (or --log-json-split-stream) on the kubelet command line instead"))
	}
}

// setGates is SetFromMap without the library's klog warnings on stderr ("setting
// GA feature gate"): kubeletcfg reports those as findings (KC3005, KC3006).
func setGates(g featuregate.MutableVersionedFeatureGate, gates map[string]bool) error {
	if l, ok := g.(featuregate.MutableFeatureGateWithLogger); ok {
		return l.SetFromMapWithLogger(klog.Logger(logr.Discard()), gates)
	}
	return g.SetFromMap(gates)
}
