package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"reflect"
	"sort"
	"strings"

	"github.com/spf13/pflag"

	cliflag "k8s.io/component-base/cli/flag"
	kubeletconfigv1beta1 "k8s.io/kubelet/config/v1beta1"
	"k8s.io/kubernetes/cmd/kubelet/app/options"
	kubeletconfiginternal "k8s.io/kubernetes/pkg/kubelet/apis/config"
	kubeletconfigv1beta1conversion "k8s.io/kubernetes/pkg/kubelet/apis/config/v1beta1"

	"github.com/kubeletcfg/kubeletcfg/internal/kubeletdata"
)

// FlagTable is kubelets/data/<minor>/flags.json (kubeletdata's type, shared with
// kubelets, which reads it).
type (
	FlagTable = kubeletdata.FlagTable
	FlagInfo  = kubeletdata.Flag
)

func cmdFlags(args []string) error {
	fs := flag.NewFlagSet("flags", flag.ContinueOnError)
	out := fs.String("out", "", "file to write (- for stdout)")
	if err := fs.Parse(args); err != nil || *out == "" || fs.NArg() != 0 {
		return errUsage
	}
	t, err := buildFlagTable()
	if err != nil {
		return err
	}
	bound := 0
	for _, f := range t.Flags {
		if f.Path != "" {
			bound++
		}
	}
	fmt.Fprintf(os.Stderr, "%d flags (%d KubeletConfiguration fields)\n", t.Count, bound)
	return writeJSON(*out, t)
}

// kubeletFlagSet is NewKubeletCommand's cleanFlagSet (cmd/kubelet/app/server.go,
// NewKubeletCommand: AddFlags, AddKubeletConfigFlags, AddGlobalFlags, then help).
func kubeletFlagSet() *pflag.FlagSet {
	fs := pflag.NewFlagSet(componentKubelet, pflag.ContinueOnError)
	fs.SetNormalizeFunc(cliflag.WordSepNormalizeFunc)
	fs.SetOutput(io.Discard)
	cfg, err := options.NewKubeletConfiguration()
	if err != nil {
		panic(err)
	}
	options.NewKubeletFlags().AddFlags(fs)
	options.AddKubeletConfigFlags(fs, cfg)
	options.AddGlobalFlags(fs)
	fs.BoolP("help", "h", false, "help for kubelet")
	return fs
}

func buildFlagTable() (*FlagTable, error) {
	t := &FlagTable{
		Generated: fmt.Sprintf(generatedHeader, "flags", kubeletVersion()),
		Kubelet:   kubeletVersion(),
	}
	configFlags := map[string]bool{}
	probeSet, _ := freshConfigFlags()
	probeSet.VisitAll(func(f *pflag.Flag) { configFlags[f.Name] = true })

	var firstErr error
	kubeletFlagSet().VisitAll(func(f *pflag.Flag) {
		info := FlagInfo{
			Name: f.Name, Shorthand: f.Shorthand, Type: f.Value.Type(), Value: valueKind(f.Value),
			NoOptDefVal: f.NoOptDefVal, Deprecated: f.Deprecated, Hidden: f.Hidden,
		}
		if configFlags[f.Name] {
			path, err := flagPath(f.Name, info.Value)
			if err != nil && firstErr == nil {
				firstErr = err
			}
			info.Path = path
			switch {
			case f.Name == "feature-gates":
				info.Special = "featureGates"
			case strings.Contains(strings.ToLower(info.Value), "map"):
				info.Special = "map"
			case info.Value == "stringSlice" || info.Value == "reservedMemory" || info.Value == "taints":
				info.Special = "list"
			}
		}
		t.Flags = append(t.Flags, info)
	})
	if firstErr != nil {
		return nil, firstErr
	}
	sort.Slice(t.Flags, func(i, j int) bool { return t.Flags[i].Name < t.Flags[j].Name })
	t.Count = len(t.Flags)
	return t, nil
}

// freshConfigFlags registers AddKubeletConfigFlags on a new flag set bound to a new
// configuration (options.NewKubeletConfiguration, as NewKubeletCommand does).
func freshConfigFlags() (*pflag.FlagSet, *kubeletconfiginternal.KubeletConfiguration) {
	cfg, err := options.NewKubeletConfiguration()
	if err != nil {
		panic(err)
	}
	fs := pflag.NewFlagSet("probe", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	options.AddKubeletConfigFlags(fs, cfg)
	return fs, cfg
}

// valueKind names the parser of a flag value: pflag's own types by their Type(),
// other Value implementations by their Go type name (lower camel case).
func valueKind(v pflag.Value) string {
	rt := reflect.TypeOf(v)
	for rt.Kind() == reflect.Pointer {
		rt = rt.Elem()
	}
	if rt.PkgPath() == "github.com/spf13/pflag" {
		return v.Type()
	}
	name := rt.Name()
	switch name {
	case "MapStringString":
		// NewMapStringStringNoSplit: one key=value per flag, commas are kept.
		if rv := reflect.ValueOf(v).Elem(); rv.FieldByName("NoSplit").Bool() {
			return "mapStringStringNoSplit"
		}
	case "RegisterWithTaintsVar":
		return "taints"
	case "ReservedMemoryVar":
		return "reservedMemory"
	case "IPVar":
		return "ip"
	case "verbosityLevelPflag":
		return "verbosity"
	case "vmoduleConfigurationPFlag":
		return "vmodule"
	case "QuantityValue":
		return "quantity"
	}
	if name == "" {
		return v.Type()
	}
	return strings.ToLower(name[:1]) + name[1:]
}

// probeValues are values that every parser accepts, two per parser so that one of
// them differs from the registration default.
var probeValues = map[string][]string{
	"bool":                               {"true", "false"},
	"int32":                              {"4242", "4343"},
	"int64":                              {"4242", "4343"},
	"int":                                {"4242", "4343"},
	"uint32":                             {"4242", "4343"},
	"uint64":                             {"4242", "4343"},
	"float64":                            {"42.5", "43.5"},
	"string":                             {"probe", "probe2"},
	"duration":                           {"4242s", "4343s"},
	"stringSlice":                        {"probe-a,probe-b"},
	"mapStringBool":                      {"ProbeGate=true"},
	"mapStringString":                    {"probe=1"},
	"mapStringStringNoSplit":             {"probe=1"},
	"langleSeparatedMapStringString":     {"probe<1"},
	"colonSeparatedMultimapStringString": {"probe:1"},
	"ip":                                 {"10.42.42.42", "10.43.43.43"},
	"reservedMemory":                     {"0:memory=1Gi"},
	"taints":                             {"probe=x:NoSchedule"},
	"verbosity":                          {"7", "8"},
	"vmodule":                            {"probe=3"},
	"quantity":                           {"1Mi", "2Mi"},
}

// flagPath sets the flag on a fresh flag set bound to a fresh configuration and
// returns the one v1beta1 field path whose value changed.
func flagPath(name, kind string) (string, error) {
	values, ok := probeValues[kind]
	if !ok {
		return "", fmt.Errorf("flag --%s: no probe value for a %s value", name, kind)
	}
	for _, val := range values {
		fs, cfg := freshConfigFlags()
		before, err := toV1beta1(cfg)
		if err != nil {
			return "", err
		}
		if err := fs.Set(name, val); err != nil {
			return "", fmt.Errorf("flag --%s=%s: %w", name, val, err)
		}
		after, err := toV1beta1(cfg)
		if err != nil {
			return "", err
		}
		var paths []string
		diffPaths(reflect.ValueOf(before).Elem(), reflect.ValueOf(after).Elem(), "", &paths)
		switch len(paths) {
		case 0:
			continue
		case 1:
			return paths[0], nil
		default:
			return "", fmt.Errorf("flag --%s changes several fields: %v", name, paths)
		}
	}
	return "", fmt.Errorf("flag --%s=%v changes no v1beta1 field", name, values)
}

var jsonMarshaler = reflect.TypeOf((*json.Marshaler)(nil)).Elem()

func toV1beta1(kc *kubeletconfiginternal.KubeletConfiguration) (*kubeletconfigv1beta1.KubeletConfiguration, error) {
	out := &kubeletconfigv1beta1.KubeletConfiguration{}
	// The conversion may alias the internal object's memory (bool to *bool): copy.
	err := kubeletconfigv1beta1conversion.Convert_config_KubeletConfiguration_To_v1beta1_KubeletConfiguration(kc, out, nil)
	return out.DeepCopy(), err
}

// diffPaths appends the JSON field paths where a and b differ, descending into
// structs (inline members keep their parent's path) but not into values with their
// own JSON form (metav1.Duration, resource.Quantity), maps or lists.
func diffPaths(a, b reflect.Value, prefix string, out *[]string) {
	if reflect.DeepEqual(a.Interface(), b.Interface()) {
		return
	}
	t := a.Type()
	if t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Struct && !a.IsNil() && !b.IsNil() {
		diffPaths(a.Elem(), b.Elem(), prefix, out)
		return
	}
	if t.Kind() != reflect.Struct || reflect.PointerTo(t).Implements(jsonMarshaler) || t.Implements(jsonMarshaler) {
		*out = append(*out, prefix)
		return
	}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		tag := strings.Split(f.Tag.Get("json"), ",")[0]
		if tag == "-" {
			continue
		}
		p := prefix
		if tag != "" {
			if p != "" {
				p += "."
			}
			p += tag
		}
		diffPaths(a.Field(i), b.Field(i), p, out)
	}
}
