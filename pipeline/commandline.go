package pipeline

// The kubelet's command line (Input.Flags), in the order RunE treats it: parse
// it with pflag over the minor's generated flag table (parseFlags), stop at
// --help or --version, set --feature-gates before any file is read (flagGates),
// ValidateKubeletFlags (validateFlags), and after the files are merged write the
// flags over them as kubeletConfigFlagPrecedence does (applyFlags). The Value
// types that parse each flag are in flagvalues.go.

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/kubeletcfg/kubeletcfg/finding"
	kubeletv1beta1 "github.com/kubeletcfg/kubeletcfg/upstream/kubelet/config/v1beta1"
	"github.com/spf13/pflag"
	"k8s.io/apimachinery/pkg/util/validation"
	cliflag "k8s.io/component-base/cli/flag"
	"k8s.io/component-base/featuregate"
	logsapi "k8s.io/component-base/logs/api/v1"
	kubeletapis "k8s.io/kubelet/pkg/apis"

	"github.com/kubeletcfg/kubeletcfg/internal/didyoumean"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/validate"
)

// CommandLine is where flags without a file position come from (--kubelet-flags).
const CommandLine = "(command line)"

// commandLine is the kubelet's command line parsed the way NewKubeletCommand's
// RunE parses it (cmd/kubelet/app/server.go: cleanFlagSet.Parse(args)), with
// pflag and the same Value types, over the minor's generated flag table.
type commandLine struct {
	// set lists the configuration flags given, in order of first appearance,
	// each with its parsed value.
	set []*setFlag
	// gates is the --feature-gates map (nil when not given).
	gates map[string]bool
	// nodeLabels is --node-labels (nil when not given), for ValidateKubeletFlags.
	nodeLabels   map[string]string
	nodeLabelsAt finding.Position
	// ignoreAllocatableEviction is --experimental-allocatable-ignore-eviction,
	// which decides where the run stage parses evictionHard.
	ignoreAllocatableEviction bool
	// windowsPriorityClass is the Windows kubelet's --windows-priorityclass
	// ("" when not given), which Run's initForOS reads before run().
	windowsPriorityClass   string
	windowsPriorityClassAt finding.Position
}

type setFlag struct {
	flag  *kubelets.Flag
	pos   finding.Position
	text  string        // the argument(s) as written: --max-pods=50
	value reflect.Value // pointer to the parsed value
}

// flagPos is where argument i was written.
func (in *Input) flagPos(i int) finding.Position {
	if i >= 0 && i < len(in.FlagPositions) && in.FlagPositions[i].File != "" {
		return in.FlagPositions[i]
	}
	return finding.Position{File: CommandLine}
}

// argName is the long or short flag name an argument names ("" for none).
func argName(arg string) (name string, short bool) {
	switch {
	case strings.HasPrefix(arg, "--") && len(arg) > 2:
		name, _, _ = strings.Cut(arg[2:], "=")
		return name, false
	case strings.HasPrefix(arg, "-") && len(arg) > 1 && arg[1] != '-':
		return arg[1:2], true
	}
	return "", false
}

// parseFlags parses in.Flags; false means the kubelet stops here (the findings
// say why).
func (r *Result) parseFlags(m *kubelets.Minor, in *Input) (*commandLine, bool) {
	table, err := m.FlagsOn(in.OS)
	var unrecorded *kubelets.NoWindowsFlagsError
	switch {
	case errors.As(err, &unrecorded):
		// Not recorded for this minor: the Linux kubelet's flags, without the
		// Windows kubelet's own (windowsFlags says so).
		r.windowsFlags(in, unrecorded)
		table, err = m.Flags()
	case in.OS.Or() == kubelets.Linux:
		r.windowsFlags(in, nil)
	}
	if err != nil {
		panic(err) // embedded, generated data: a decoding error is a build defect
	}
	fs := pflag.NewFlagSet("kubelet", pflag.ContinueOnError)
	fs.SetNormalizeFunc(cliflag.WordSepNormalizeFunc)
	fs.SetOutput(io.Discard)
	values := map[string]*lazyValue{}
	release := in.release(m) // --version=vX.Y.Z must name the binary's own release
	for i := range table.Flags {
		f := &table.Flags[i]
		v := &lazyValue{flag: f, release: release}
		fl := fs.VarPF(v, f.Name, f.Shorthand, "")
		fl.NoOptDefVal = f.NoOptDefVal
		fl.Deprecated = f.Deprecated
		values[f.Name] = v
	}

	// Which argument each flag occurrence came from: pflag reads the arguments in
	// order, so the k-th occurrence of a name is its k-th argument.
	occurrences := map[string][]int{}
	for i, a := range in.Flags {
		if a == "--" {
			break
		}
		if name, short := argName(a); name != "" {
			if !short {
				name = string(cliflag.WordSepNormalizeFunc(fs, name))
			} else if f, ok := table.Shorthand(name); ok {
				name = f.Name
			}
			occurrences[name] = append(occurrences[name], i)
		}
	}
	argOf := func(name string) int {
		if q := occurrences[name]; len(q) > 0 {
			return q[0]
		}
		return -1
	}

	cl := &commandLine{}
	byName := map[string]*setFlag{}
	exits := map[string]exitFlag{}
	labelsSeen := false
	err = fs.ParseAll(in.Flags, func(fl *pflag.Flag, value string) error {
		i := argOf(fl.Name)
		if q := occurrences[fl.Name]; len(q) > 0 {
			occurrences[fl.Name] = q[1:]
		}
		if err := fs.Set(fl.Name, value); err != nil {
			return &flagError{err: err, arg: i}
		}
		f, _ := table.Lookup(fl.Name)
		text := "--" + fl.Name + "=" + value
		if i >= 0 && in.Flags[i] != "" {
			text = in.Flags[i]
		}
		pos := in.flagPos(i)
		switch fl.Name {
		case "help", "version":
			exits[fl.Name] = exitFlag{pos: pos, text: text, value: value}
		case "node-labels":
			cl.nodeLabelsAt, labelsSeen = pos, true
		case "experimental-allocatable-ignore-eviction":
			cl.ignoreAllocatableEviction = fl.Value.String() == "true"
		case "windows-priorityclass":
			cl.windowsPriorityClass, cl.windowsPriorityClassAt = value, pos
		}
		if f.Deprecated != "" {
			hint := "remove the flag"
			if f.Path != "" {
				hint = "set " + f.Path + " in the --config file or a drop-in instead"
			}
			msg := "--" + f.Name + " is deprecated"
			if f.Path != "" {
				msg += ": the config-file field is " + f.Path
			}
			// pflag prints this when it parses the flag (flag.go, FlagSet.Set).
			r.add(withKubelet(validate.FlagDeprecated.At(pos, f.Path, msg, hint),
				fmt.Sprintf("Flag --%s has been deprecated, %s", f.Name, f.Deprecated)))
		}
		if f.Path == "" {
			return nil
		}
		if s, ok := byName[f.Name]; ok {
			s.pos, s.text = pos, text
			return nil
		}
		if u, ok := fl.Value.(interface{ unset() bool }); ok && u.unset() {
			return nil // IPVar and ReservedMemoryVar ignore ""
		}
		s := &setFlag{flag: f, pos: pos, text: text, value: values[f.Name].pointer()}
		byName[f.Name] = s
		cl.set = append(cl.set, s)
		return nil
	})
	if err != nil {
		r.flagError(m, table, in, err)
		return nil, false
	}
	// RunE: "check if there are non-flag arguments in the command line".
	if rest := fs.Args(); len(rest) > 0 {
		i := nonFlagArg(table, in.Flags, rest[0])
		r.add(withKubelet(validate.FlagInvalid.Atf(in.flagPos(i), "", "pass every value as --flag=value; quote values with spaces",
			"%q is not a flag: the kubelet refuses to start on an argument that is not a flag", rest[0]),
			fmt.Sprintf("unknown command %+s", rest[0])))
		return nil, false
	}
	// RunE: "short-circuit on help", then on verflag (PrintAndExitIfRequested
	// exits for true and raw; false and a vX.Y.Z override do not).
	if e, ok := exits["help"]; ok && *values["help"].pointer().Interface().(*bool) {
		r.add(withKubelet(validate.FlagExits.Atf(e.pos, "", "", "%s: the kubelet prints its help and exits without starting", e.text), "help for kubelet (cmd.Help)"))
		return nil, false
	}
	if e, ok := exits["version"]; ok {
		if v := e.value; v == "raw" || !strings.HasPrefix(v, "v") && isTrue(v) {
			r.add(withKubelet(validate.FlagExits.Atf(e.pos, "", "", "%s: the kubelet prints its version and exits without starting", e.text), "verflag.PrintAndExitIfRequested"))
			return nil, false
		}
	}
	if s, ok := byName["feature-gates"]; ok {
		cl.gates = *s.value.Interface().(*map[string]bool)
	}
	if labelsSeen {
		cl.nodeLabels = *values["node-labels"].pointer().Interface().(*map[string]string)
	}
	return cl, true
}

// exitFlag is the last --help or --version given.
type exitFlag struct {
	pos         finding.Position
	text, value string
}

func isTrue(s string) bool {
	b, err := strconv.ParseBool(s)
	return err == nil && b
}

// validateFlags is options.ValidateKubeletFlags (cmd/kubelet/app/options/options.go),
// which RunE runs after the command line's feature gates are set: --node-labels
// may name kubernetes.io and k8s.io labels only where the kubelet may set them
// on its own Node (kubeletapis.IsKubeletLabel), and every key and value must be
// a valid label. false means the kubelet stops here.
func (r *Result) validateFlags(cl *commandLine) bool {
	if cl == nil || cl.nodeLabels == nil {
		return true
	}
	var unknown, invalid []string
	keys := make([]string, 0, len(cl.nodeLabels))
	for k := range cl.nodeLabels {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := cl.nodeLabels[k]
		if isKubernetesLabel(k) && !kubeletapis.IsKubeletLabel(k) {
			unknown = append(unknown, k)
		}
		if errs := validation.IsQualifiedName(k); len(errs) > 0 {
			invalid = append(invalid, fmt.Sprintf("'%s' - %s", k, strings.Join(errs, ", ")))
		}
		if errs := validation.IsValidLabelValue(v); len(errs) > 0 {
			invalid = append(invalid, fmt.Sprintf("'%s' - %s", v, strings.Join(errs, ", ")))
		}
	}
	if len(unknown) > 0 {
		kubelet := fmt.Sprintf("failed to validate kubelet flags: unknown 'kubernetes.io' or 'k8s.io' labels specified with --node-labels: %v\n--node-labels in the 'kubernetes.io' namespace must begin with an allowed prefix (%s) or be in the specifically allowed set (%s)",
			unknown, strings.Join(kubeletapis.KubeletLabelNamespaces(), ", "), strings.Join(kubeletapis.KubeletLabels(), ", "))
		r.add(withKubelet(validate.FlagNodeLabels.Atf(cl.nodeLabelsAt, "", "labels the kubelet may set: "+strings.Join(kubeletapis.KubeletLabels(), ", ")+", and any under "+strings.Join(kubeletapis.KubeletLabelNamespaces(), "/ or ")+"/",
			"--node-labels %s: the kubelet may not set %s on its own Node and refuses to start", strings.Join(unknown, ", "), plural(len(unknown), "this label", "these labels")), kubelet))
		return false
	}
	if len(invalid) > 0 {
		r.add(withKubelet(validate.FlagNodeLabels.Atf(cl.nodeLabelsAt, "", "",
			"--node-labels has an invalid label and the kubelet refuses to start: %s", strings.Join(invalid, "; ")), "failed to validate kubelet flags: invalid node labels: "+strings.Join(invalid, "; ")))
		return false
	}
	return true
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// isKubernetesLabel is options.isKubernetesLabel: the key's namespace is
// kubernetes.io or k8s.io, or a subdomain of either.
func isKubernetesLabel(key string) bool {
	ns, _, ok := strings.Cut(key, "/")
	if !ok {
		return false
	}
	return ns == "kubernetes.io" || strings.HasSuffix(ns, ".kubernetes.io") || ns == "k8s.io" || strings.HasSuffix(ns, ".k8s.io")
}

// nonFlagArg is the index of the first argument pflag left as a non-flag
// argument: equal to arg and not the value of the flag before it.
func nonFlagArg(table *kubelets.FlagTable, args []string, arg string) int {
	for j, a := range args {
		if a == "--" {
			return j + 1
		}
		if a != arg {
			continue
		}
		if j > 0 && !strings.Contains(args[j-1], "=") {
			if name, short := argName(args[j-1]); name != "" {
				var f *kubelets.Flag
				if short {
					f, _ = table.Shorthand(name)
				} else {
					f, _ = table.Lookup(name)
				}
				if f != nil && f.NoOptDefVal == "" {
					continue // the previous flag's value
				}
			}
		}
		return j
	}
	return -1
}

// flagError is a parse error with the argument it happened at.
type flagError struct {
	err error
	arg int
}

func (e *flagError) Error() string { return e.err.Error() }

func withKubelet(f finding.Finding, msg string) finding.Finding {
	f.Kubelet = msg
	return f
}

// flagError reports why the kubelet's flag parse failed.
func (r *Result) flagError(m *kubelets.Minor, table *kubelets.FlagTable, in *Input, err error) {
	kubelet := "failed to parse kubelet flag: " + err.Error()
	var fe *flagError
	arg := -1
	if errors.As(err, &fe) {
		arg = fe.arg
	}
	msg := err.Error()
	var unknown string
	switch {
	case strings.HasPrefix(msg, "unknown flag: --"):
		unknown = strings.TrimPrefix(msg, "unknown flag: --")
	case strings.HasPrefix(msg, "unknown shorthand flag: '"):
		unknown = strings.TrimPrefix(msg, "unknown shorthand flag: '")
		unknown, _, _ = strings.Cut(unknown, "'")
	}
	if unknown == "" {
		if arg < 0 {
			// pflag names the flag: "flag needs an argument: --max-pods".
			for i, a := range in.Flags {
				if name, _ := argName(a); name != "" && strings.Contains(msg, "-"+name) {
					arg = i
					break
				}
			}
		}
		r.add(withKubelet(validate.FlagInvalid.Atf(in.flagPos(arg), "", "", "the kubelet cannot parse its command line and refuses to start: %s", msg), kubelet))
		return
	}
	for i, a := range in.Flags {
		if name, _ := argName(a); name == unknown {
			arg = i
			break
		}
	}
	hint := "remove the flag"
	if older := removedFlag(m, in.OS, unknown); older != nil {
		if older.f.Path != "" {
			hint = fmt.Sprintf("kubelet %s still had it; set %s in the --config file or a drop-in instead", older.minor, older.f.Path)
		} else {
			hint = fmt.Sprintf("kubelet %s still had it; it was removed since", older.minor)
		}
	} else if _, windows := validate.WindowsOnlyFlags[unknown]; windows && in.OS.Or() == kubelets.Linux {
		hint = windowsOnlyHint
	} else if linuxOnlyFlag(m, in.OS, unknown) {
		hint = fmt.Sprintf("only the Linux kubelet %s has --%s (the Windows kubelet does not register it): remove it from a Windows node's command line", m.Version, unknown)
	} else if s := didyoumean.Nearest(unknown, table.Names()); s != "" {
		hint = fmt.Sprintf("did you mean --%s?", s)
	}
	r.add(withKubelet(validate.FlagUnknown.Atf(in.flagPos(arg), "", hint,
		"kubelet %s has no flag --%s: it refuses to start", m.Version, unknown), kubelet))
}

type minorFlag struct {
	minor string
	f     *kubelets.Flag
}

// removedFlag finds the newest older minor whose kubelet for nodeOS still has
// the flag (the Windows kubelet never had cAdvisor's global flags, which the
// Linux kubelet registered up to 1.36).
func removedFlag(m *kubelets.Minor, nodeOS kubelets.OS, name string) *minorFlag {
	all := kubelets.Minors()
	for i := len(all) - 1; i >= 0; i-- {
		o := all[i]
		if !o.Before(m) {
			continue
		}
		t, err := o.FlagsOn(nodeOS)
		if err != nil {
			continue
		}
		if f, ok := t.Lookup(name); ok {
			return &minorFlag{minor: o.Version, f: f}
		}
	}
	return nil
}

// linuxOnlyFlag reports whether the flag the Windows kubelet refuses is one the
// Linux kubelet of the same minor has (cAdvisor's global flags up to 1.36,
// --housekeeping-interval).
func linuxOnlyFlag(m *kubelets.Minor, nodeOS kubelets.OS, name string) bool {
	if nodeOS.Or() != kubelets.Windows {
		return false
	}
	t, err := m.FlagsOn(kubelets.Linux)
	if err != nil {
		return false
	}
	_, ok := t.Lookup(name)
	return ok
}

// flagGates applies the command line's --feature-gates to a copy of the minor's
// gate set, as RunE does before it loads any file ("set feature gates from
// initial flags-based config"); defaulting then starts from that gate set
// (SetDefaults_KubeletConfiguration DeepCopies the global gate, 1.32+).
func (r *Result) flagGates(m *kubelets.Minor, cl *commandLine, base featuregate.MutableVersionedFeatureGate) (featuregate.MutableVersionedFeatureGate, bool) {
	if cl == nil || cl.gates == nil {
		return base, true
	}
	r.dropSkippedGates(cl.gates)
	var at finding.Position
	for _, s := range cl.set {
		if s.flag.Special == "featureGates" {
			at = s.pos
		}
	}
	for name := range cl.gates {
		r.Origins["featureGates["+name+"]"] = at
	}
	g := base.DeepCopy()
	if err := setGates(g, cl.gates); err != nil {
		r.add(gateFindings(m, cl.gates, r.Origins, at, err, false)...)
		return nil, false
	}
	r.gateWarnings(m, cl.gates, at)
	return g, true
}

// applyFlags writes the command line's values over the loaded configuration, as
// kubeletConfigFlagPrecedence's re-parse does: a flag wins over the files, a map
// or list flag replaces the whole value, and --feature-gates replaces the map
// before the files' gates it does not name come back (server.go,
// kubeletConfigFlagPrecedence: "Add back feature gates that were set in the
// original kc, but not in flags").
func (r *Result) applyFlags(cl *commandLine, kc *kubeletv1beta1.KubeletConfiguration) {
	if cl == nil {
		return
	}
	for _, s := range cl.set {
		path := s.flag.Path
		if s.flag.Special == "featureGates" {
			original := kc.FeatureGates
			gates := make(map[string]bool, len(cl.gates)+len(original))
			for k, v := range cl.gates {
				gates[k] = v
				key := "featureGates[" + k + "]"
				if pos, ok := r.Origins[key]; ok && pos.File != "" && pos != s.pos {
					if was, ok := original[k]; ok {
						r.add(validate.FlagOverridesFile.Atf(s.pos, key, "", "%s overrides featureGates[%s]: %t from %s", s.text, k, was, pos))
					}
				}
				r.Origins[key] = s.pos
			}
			for k, v := range original {
				if _, ok := gates[k]; !ok {
					gates[k] = v
				}
			}
			kc.FeatureGates = gates
			continue
		}
		if from, ok := r.fileOrigin(path); ok {
			r.add(validate.FlagOverridesFile.Atf(s.pos, path, "", "%s overrides %s from %s", s.text, describeValue(kc, path), from))
		}
		if err := setPath(kc, path, s.value.Elem()); err != nil {
			panic(fmt.Sprintf("flag --%s: %v", s.flag.Name, err)) // generated table and types disagree: a build defect
		}
		for k := range r.Origins {
			if strings.HasPrefix(k, path+"[") || strings.HasPrefix(k, path+".") {
				delete(r.Origins, k)
			}
		}
		r.Origins[path] = s.pos
		if v := s.value.Elem(); v.Kind() == reflect.Map {
			for _, k := range v.MapKeys() {
				r.Origins[path+"["+k.String()+"]"] = s.pos
			}
		}
	}
}

// fileOrigin is where a file set the value at path (or, for a map or list, any
// of its entries).
func (r *Result) fileOrigin(path string) (finding.Position, bool) {
	if pos, ok := r.Origins[path]; ok && pos.File != "" {
		return pos, true
	}
	var keys []string
	for k := range r.Origins {
		if strings.HasPrefix(k, path+"[") || strings.HasPrefix(k, path+".") {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		if pos := r.Origins[k]; pos.File != "" && pos.File != CommandLine {
			return pos, true
		}
	}
	return finding.Position{}, false
}

// describeValue is "maxPods: 110" for a scalar, the value as a file writes
// it (its JSON, as kubelets.Format prints an effective value: "4h0m0s", not Go's
// &Duration{...}); the field name for a map or list.
func describeValue(kc *kubeletv1beta1.KubeletConfiguration, path string) string {
	v, ok := lookupPath(reflect.ValueOf(kc).Elem(), path)
	if !ok {
		return path
	}
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return path
		}
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.Map, reflect.Slice:
		return path
	}
	var written any
	if b, err := json.Marshal(v.Interface()); err != nil || json.Unmarshal(b, &written) != nil {
		return path
	}
	return path + ": " + kubelets.Format(written)
}

// lookupPath finds the struct field at a dotted JSON path.
func lookupPath(v reflect.Value, path string) (reflect.Value, bool) {
	for _, name := range strings.Split(path, ".") {
		for v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return reflect.Value{}, false
			}
			v = v.Elem()
		}
		f, ok := jsonField(v, name)
		if !ok {
			return reflect.Value{}, false
		}
		v = f
	}
	return v, true
}

// jsonField is the field of struct v whose JSON name is name (inline members
// included).
func jsonField(v reflect.Value, name string) (reflect.Value, bool) {
	if v.Kind() != reflect.Struct {
		return reflect.Value{}, false
	}
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		if !sf.IsExported() {
			continue
		}
		tag, opts, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if tag == name {
			return v.Field(i), true
		}
		if tag == "" && (sf.Anonymous || strings.Contains(opts, "inline")) {
			if f, ok := jsonField(v.Field(i), name); ok {
				return f, true
			}
		}
	}
	return reflect.Value{}, false
}

var (
	durationType = reflect.TypeOf(time.Duration(0))
	flushType    = reflect.TypeOf(logsapi.TimeOrMetaDuration{})
)

// setPath stores a parsed flag value into the field at path, allocating pointers
// on the way and converting where the v1beta1 type differs from the flag's
// (pointers, named string types, metav1.Duration).
func setPath(kc *kubeletv1beta1.KubeletConfiguration, path string, val reflect.Value) error {
	v := reflect.ValueOf(kc).Elem()
	for _, name := range strings.Split(path, ".") {
		for v.Kind() == reflect.Pointer {
			if v.IsNil() {
				v.Set(reflect.New(v.Type().Elem()))
			}
			v = v.Elem()
		}
		f, ok := jsonField(v, name)
		if !ok {
			return fmt.Errorf("no field %q in %s", name, v.Type())
		}
		v = f
	}
	if v.Kind() == reflect.Pointer && val.Type() != v.Type() {
		v.Set(reflect.New(v.Type().Elem()))
		v = v.Elem()
	}
	switch {
	case val.Type() == durationType && v.Type() == flushType:
		// --log-flush-frequency sets FlushFrequency.Duration.Duration only.
		v.FieldByName("Duration").FieldByName("Duration").Set(val)
	case val.Type() == durationType && v.Kind() == reflect.Struct:
		v.FieldByName("Duration").Set(val) // metav1.Duration
	case val.Type().AssignableTo(v.Type()):
		v.Set(val)
	case val.Type().ConvertibleTo(v.Type()):
		v.Set(val.Convert(v.Type()))
	default:
		return fmt.Errorf("cannot store a %s in %s (%s)", val.Type(), path, v.Type())
	}
	return nil
}

// windowsFlags notes each flag only the Windows kubelet has (KC2508). Evaluated
// as Linux (unrecorded nil), the flag stays on the command line, where the Linux
// kubelet refuses it as unknown (KC2502): the note says the node looks like a
// Windows one. As Windows at a minor whose Windows flags are not recorded
// (unrecorded), the flag is left out of in.Flags, since the Linux flag table
// the rest is checked against lacks it.
func (r *Result) windowsFlags(in *Input, unrecorded *kubelets.NoWindowsFlagsError) {
	var flags []string
	var positions []finding.Position
	args := false // after "--": arguments, not flags
	for i := 0; i < len(in.Flags); i++ {
		a := in.Flags[i]
		args = args || a == "--"
		name, short := argName(a)
		boolean, windows := validate.WindowsOnlyFlags[name]
		if args || short || !windows {
			flags, positions = append(flags, a), append(positions, in.flagPos(i))
			continue
		}
		text, at := a, in.flagPos(i)
		if unrecorded == nil {
			r.add(validate.FlagWindowsOnly.Atf(at, "", windowsOnlyHint,
				"%s is a flag of the Windows kubelet only, which the Linux kubelet refuses as unknown: this looks like a Windows node evaluated as Linux", a))
			flags, positions = append(flags, a), append(positions, at)
			continue
		}
		if !boolean && !strings.Contains(a, "=") && i+1 < len(in.Flags) {
			i++ // its value is the next argument
			text += " " + in.Flags[i]
		}
		r.add(validate.FlagWindowsOnly.Atf(at, "", "nothing to change for a Windows node; its command line is checked against the Linux kubelet's flags until the Windows kubelet's are recorded (make generate-windows)",
			"%s is a flag of the Windows kubelet only, and %s; the flag is left out and the rest of the command line is checked against the Linux kubelet's flags", text, unrecorded))
	}
	if len(flags) != len(in.Flags) {
		in.Flags, in.FlagPositions = flags, positions
	}
}

// windowsOnlyHint is what to do about a Windows-only flag on a node evaluated
// as Linux.
const windowsOnlyHint = "evaluate a Windows node with --os windows (its own flags, checks and defaults); on a Linux node, remove the flag, which the Linux kubelet refuses"
