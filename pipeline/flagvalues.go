package pipeline

// The flag Value types the kubelet registers, one per parser name of the generated
// flag table (kubelets.Flag.Value), picked by newFlagValue. pflag's built-in types,
// component-base's cliflag maps and logs flags and apimachinery's QuantityValue are
// the libraries' own; what lives in k8s.io/kubernetes, which kubeletcfg does not
// import, is ported here: pkg/util/flag's IP, reserved memory and taints values and
// component-base verflag's --version.

import (
	"fmt"
	"net"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/kubeletcfg/kubeletcfg/internal/taints"
	kubeletv1beta1 "github.com/kubeletcfg/kubeletcfg/upstream/kubelet/config/v1beta1"
	"github.com/spf13/pflag"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	utilversion "k8s.io/apimachinery/pkg/util/version"
	cliflag "k8s.io/component-base/cli/flag"
	logsapi "k8s.io/component-base/logs/api/v1"

	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

// newFlagValue makes the pflag.Value the kubelet registers for a flag (by the
// generated table's parser name) bound to a fresh variable, and a pointer to it.
// Flags that are not configuration fields only need to parse as the kubelet
// parses them: those of other types accept any value.
func newFlagValue(f *kubelets.Flag) (pflag.Value, reflect.Value) {
	switch f.Value {
	case "bool":
		var x bool
		return newPflagValue(f, &x, func(fs *pflag.FlagSet) { fs.BoolVar(&x, f.Name, false, "") })
	case "int32":
		var x int32
		return newPflagValue(f, &x, func(fs *pflag.FlagSet) { fs.Int32Var(&x, f.Name, 0, "") })
	case "int64":
		var x int64
		return newPflagValue(f, &x, func(fs *pflag.FlagSet) { fs.Int64Var(&x, f.Name, 0, "") })
	case "int":
		var x int
		return newPflagValue(f, &x, func(fs *pflag.FlagSet) { fs.IntVar(&x, f.Name, 0, "") })
	case "uint32":
		var x uint32
		return newPflagValue(f, &x, func(fs *pflag.FlagSet) { fs.Uint32Var(&x, f.Name, 0, "") })
	case "float64":
		var x float64
		return newPflagValue(f, &x, func(fs *pflag.FlagSet) { fs.Float64Var(&x, f.Name, 0, "") })
	case "string":
		var x string
		return newPflagValue(f, &x, func(fs *pflag.FlagSet) { fs.StringVar(&x, f.Name, "", "") })
	case "duration":
		var x time.Duration
		return newPflagValue(f, &x, func(fs *pflag.FlagSet) { fs.DurationVar(&x, f.Name, 0, "") })
	case "stringSlice":
		var x []string
		return newPflagValue(f, &x, func(fs *pflag.FlagSet) { fs.StringSliceVar(&x, f.Name, nil, "") })
	case "mapStringBool":
		x := map[string]bool{}
		return cliflag.NewMapStringBool(&x), reflect.ValueOf(&x)
	case "mapStringString", "configurationMap":
		x := map[string]string{}
		return cliflag.NewMapStringString(&x), reflect.ValueOf(&x)
	case "mapStringStringNoSplit":
		x := map[string]string{}
		return cliflag.NewMapStringStringNoSplit(&x), reflect.ValueOf(&x)
	case "langleSeparatedMapStringString":
		x := map[string]string{}
		return cliflag.NewLangleSeparatedMapStringString(&x), reflect.ValueOf(&x)
	case "colonSeparatedMultimapStringString":
		x := map[string][]string{}
		return cliflag.NewColonSeparatedMultimapStringString(&x), reflect.ValueOf(&x)
	case "verbosity":
		var x logsapi.VerbosityLevel
		return logsapi.VerbosityLevelPflag(&x), reflect.ValueOf(&x)
	case "vmodule":
		var x logsapi.VModuleConfiguration
		return logsapi.VModuleConfigurationPflag(&x), reflect.ValueOf(&x)
	case "quantity":
		x := &resource.QuantityValue{}
		return x, reflect.ValueOf(x)
	case "ip":
		x := &ipValue{}
		return x, reflect.ValueOf(&x.val)
	case "reservedMemory":
		x := &reservedMemoryValue{}
		return x, reflect.ValueOf(&x.val)
	case "taints":
		x := &taintsValue{}
		return x, reflect.ValueOf(&x.val)
	}
	if f.Value == "versionValue" {
		x := &versionValue{}
		return x, reflect.ValueOf(&x.val)
	}
	if f.Path != "" {
		panic("pipeline: no parser for the " + f.Value + " value of --" + f.Name) // TestFlagParsers
	}
	x := &anyValue{typ: f.Type}
	return x, reflect.ValueOf(&x.val)
}

// newPflagValue takes pflag's own Value for a built-in type by registering it on
// a scratch flag set.
func newPflagValue[T any](f *kubelets.Flag, p *T, register func(*pflag.FlagSet)) (pflag.Value, reflect.Value) {
	fs := pflag.NewFlagSet("", pflag.ContinueOnError)
	register(fs)
	return fs.Lookup(f.Name).Value, reflect.ValueOf(p)
}

// lazyValue is a kubelet flag's value, made when the command line first sets
// it: the kubelet has some 150 flags and a command line sets a few, and
// making every value up front (a pflag FlagSet apiece, newPflagValue) was a
// fifth of what an evaluation allocated. pflag reads a Value's String only
// for its usage text and DefValue, and its Type only in typed getters,
// neither of which the pipeline uses; NoOptDefVal comes from the table.
type lazyValue struct {
	flag *kubelets.Flag
	// release is --version's binary release (versionValue.release).
	release string
	v       pflag.Value
	ptr     reflect.Value
}

func (l *lazyValue) value() pflag.Value {
	if l.v == nil {
		l.v, l.ptr = newFlagValue(l.flag)
		if vv, ok := l.v.(*versionValue); ok {
			vv.release = l.release
		}
	}
	return l.v
}

// pointer is the value's typed pointer (newFlagValue's), made if need be.
func (l *lazyValue) pointer() reflect.Value {
	l.value()
	return l.ptr
}

func (l *lazyValue) Set(s string) error { return l.value().Set(s) }
func (l *lazyValue) Type() string       { return l.value().Type() }

func (l *lazyValue) String() string {
	if l.v == nil {
		return ""
	}
	return l.v.String()
}

// unset forwards the values that ignore "" (ipValue, reservedMemoryValue).
func (l *lazyValue) unset() bool {
	u, ok := l.value().(interface{ unset() bool })
	return ok && u.unset()
}

// anyValue accepts any value: a flag that is not a configuration field and whose
// type kubeletcfg does not model.
type anyValue struct {
	typ string
	val string
}

func (v *anyValue) Set(s string) error { v.val = s; return nil }
func (v *anyValue) String() string     { return v.val }
func (v *anyValue) Type() string       { return v.typ }

// versionValue is component-base verflag's --version (version/verflag/verflag.go,
// the same at 1.31-1.37): raw, a boolean, or a value starting with v, which
// version.SetDynamicVersion takes as the version to report instead of the
// binary's (not exiting) and refuses unless it is semantic and has the binary's
// own major, minor and patch (dynamic.go, validateDynamicVersion). Anything else
// is a parse error.
type versionValue struct {
	val string
	// release is the binary's gitVersion: the minor's release (kubelets.Minor.Patch),
	// the one the conformance harness stamps and checks.
	release string
}

func (v *versionValue) Set(s string) error {
	switch {
	case s == "raw":
	case strings.HasPrefix(s, "v"):
		if err := validateDynamicVersion(s, v.release); err != nil {
			return err
		}
	default:
		if _, err := strconv.ParseBool(s); err != nil {
			return err
		}
	}
	v.val = s
	return nil
}
func (v *versionValue) String() string { return v.val }
func (v *versionValue) Type() string   { return "version" }

// release is the binary's version --version is checked against: Release when
// it is a semantic version of m's minor, else the release m's data was recorded
// from.
func (in *Input) release(m *kubelets.Minor) string {
	if v, err := utilversion.ParseSemantic(in.Release); err == nil {
		if mm := m.MajorMinor(); int(v.Major()) == mm.Major && int(v.Minor()) == mm.Minor {
			return in.Release
		}
	}
	return m.Patch
}

// validateDynamicVersion is component-base/version's: a version other than the
// binary's own must parse as semantic and match its major, minor and patch.
func validateDynamicVersion(dynamic, release string) error {
	if dynamic == release {
		return nil
	}
	got, err := utilversion.ParseSemantic(dynamic)
	if err != nil {
		return err
	}
	own, err := utilversion.ParseSemantic(release)
	if err != nil {
		return err
	}
	if got.Major() != own.Major() || got.Minor() != own.Minor() || got.Patch() != own.Patch() {
		return fmt.Errorf("version %q must match major/minor/patch of default version %q", dynamic, release)
	}
	return nil
}

// ipValue is pkg/util/flag IPVar: an IP address, "" leaves the value alone.
type ipValue struct {
	val string
	set bool
}

func (v *ipValue) unset() bool { return !v.set }

func (v *ipValue) Set(s string) error {
	if s == "" {
		return nil
	}
	v.set = true
	// netutils.ParseIPSloppy also accepts leading zeros in IPv4 octets.
	if parseIPSloppy(s) == nil {
		return fmt.Errorf("%q is not a valid IP address", s)
	}
	v.val = s
	return nil
}
func (v *ipValue) String() string { return v.val }
func (v *ipValue) Type() string   { return "ip" }

// parseIPSloppy is k8s.io/utils/net ParseIPSloppy: leading zeros are decimal.
func parseIPSloppy(s string) net.IP {
	if ip := net.ParseIP(s); ip != nil {
		return ip
	}
	if strings.Count(s, ".") == 3 && !strings.Contains(s, ":") {
		parts := strings.Split(s, ".")
		for i, p := range parts {
			n, err := strconv.ParseUint(p, 10, 8)
			if err != nil || p == "" {
				return nil
			}
			parts[i] = strconv.FormatUint(n, 10)
		}
		return net.ParseIP(strings.Join(parts, "."))
	}
	return nil
}

// reservedMemoryValue is pkg/util/flag ReservedMemoryVar: the first use replaces
// the list, later uses append; "0:memory=1Gi,hugepages-1Gi=2Gi;1:memory=2Gi".
type reservedMemoryValue struct {
	val         []kubeletv1beta1.MemoryReservation
	initialized bool
}

func (v *reservedMemoryValue) unset() bool { return !v.initialized }

func (v *reservedMemoryValue) Set(s string) error {
	if s == "" {
		return nil
	}
	if !v.initialized || v.val == nil {
		v.val = []kubeletv1beta1.MemoryReservation{}
		v.initialized = true
	}
	for _, reservation := range strings.Split(s, ";") {
		parts := strings.Split(reservation, ":")
		if len(parts) != 2 {
			return fmt.Errorf("the reserved memory has incorrect format, expected numaNodeID:type=quantity[,type=quantity...], got %s", reservation)
		}
		id, err := strconv.Atoi(parts[0])
		if err != nil {
			return fmt.Errorf("failed to convert the NUMA node ID, expected integer, got %s", parts[0])
		}
		mr := kubeletv1beta1.MemoryReservation{NumaNode: int32(id), Limits: v1.ResourceList{}}
		for _, limit := range strings.Split(parts[1], ",") {
			kv := strings.Split(limit, "=")
			if len(kv) != 2 {
				return fmt.Errorf("the reserved limit has incorrect value, expected type=quantity, got %s", limit)
			}
			name := v1.ResourceName(kv[0])
			if name != v1.ResourceMemory && !strings.HasPrefix(kv[0], v1.ResourceHugePagesPrefix) {
				return fmt.Errorf("memory type conversion error, unknown type: %q", name)
			}
			q, err := resource.ParseQuantity(kv[1])
			if err != nil {
				return fmt.Errorf("failed to parse the quantity: %s", kv[1])
			}
			mr.Limits[name] = q
		}
		v.val = append(v.val, mr)
	}
	return nil
}
func (v *reservedMemoryValue) String() string { return "" }
func (v *reservedMemoryValue) Type() string   { return "reserved-memory" }

// taintsValue is pkg/util/flag RegisterWithTaintsVar over pkg/util/taints
// ParseTaints: "key=value:Effect,...", each use replaces the list; removals
// ("key-") parse but are dropped.
type taintsValue struct{ val []v1.Taint }

func (t *taintsValue) Set(s string) error {
	if s == "" {
		t.val = nil
		return nil
	}
	var parsed []v1.Taint
	unique := map[v1.TaintEffect]map[string]bool{}
	for _, spec := range strings.Split(s, ",") {
		if strings.HasSuffix(spec, "-") {
			if _, err := taints.Parse(strings.TrimSuffix(spec, "-")); err != nil {
				return err
			}
			continue
		}
		taint, err := taints.Parse(spec)
		if err != nil {
			return err
		}
		if taint.Effect == "" {
			return fmt.Errorf("invalid taint spec: %v", spec)
		}
		if unique[taint.Effect][taint.Key] {
			return fmt.Errorf("duplicated taints with the same key and effect: %v", taint)
		}
		if unique[taint.Effect] == nil {
			unique[taint.Effect] = map[string]bool{}
		}
		unique[taint.Effect][taint.Key] = true
		parsed = append(parsed, taint)
	}
	t.val = parsed
	return nil
}
func (t *taintsValue) String() string { return "" }
func (t *taintsValue) Type() string   { return "[]v1.Taint" }
