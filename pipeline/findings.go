package pipeline

import (
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/component-base/featuregate"
	kubeletv1beta1 "k8s.io/kubelet/config/v1beta1"

	"github.com/kubeletcfg/kubeletcfg/internal/didyoumean"
	"github.com/kubeletcfg/kubeletcfg/skew"
	"github.com/kubeletcfg/kubeletcfg/source"
	"github.com/kubeletcfg/kubeletcfg/validate"
)

// keyFindings reports the main file's keys that strict decoding rejects and the
// lenient fallback drops.
func keyFindings(f *source.File, keys []source.Key, m *skew.Minor) []validate.Finding {
	var out []validate.Finding
	for _, k := range keys {
		switch k.Kind {
		case source.KeyUnknown:
			hint := ""
			if k.Suggest != "" {
				hint = fmt.Sprintf("did you mean %q?", k.Suggest)
			}
			out = append(out, validate.UnknownFieldIn(validate.UnknownField, k.Pos, k.Path, k.Written, hint))
		case source.KeyCase:
			out = append(out, validate.CaseMismatch.Atf(k.Pos, k.Path, fmt.Sprintf("spell it %q", k.Suggest),
				"%q differs from the field %q only in case: the kubelet drops it in the main file and keeps the default", k.Written, k.Suggest))
		case source.KeyDuplicate:
			out = append(out, validate.DuplicateKey.Atf(k.Pos, k.Path, "delete one of the two",
				"duplicate key %q: the kubelet uses the value at line %d and drops this one", k.Written, k.Winner.Line))
		}
	}
	// The draft KEP-4603 name sits under a key the strict walk does not enter when
	// it is spelled crashloopbackoff; a case-insensitive walk finds it.
	for _, k := range source.Walk(f, m.Fields(), source.Fold) {
		if k.Kind == source.KeyUnknown {
			if fd, ok := validate.DraftCrashLoop(k.Pos, k.Path, k.Value); ok {
				out = append(out, fd)
			}
		}
	}
	return out
}

var jsonFieldRE = regexp.MustCompile(`Go struct field KubeletConfiguration\.([A-Za-z0-9_.]+)`)

// mainDecodeFinding classifies the kubelet's refusal to decode the main file.
func mainDecodeFinding(f *source.File, err error, keys []source.Key) validate.Finding {
	top := validate.Position{File: f.Path, Line: 1, Column: 1}
	kubelet := err.Error()
	var fd validate.Finding
	switch {
	case f.SyntaxErr != nil:
		pos := top
		if l := source.ErrorLine(f.SyntaxErr); l > 0 {
			pos.Line = l
		}
		fd = validate.ConfigSyntax.At(pos, "", "the config file is not valid YAML, the kubelet refuses to start: "+f.SyntaxErr.Error(), "fix the syntax (YAML indents with spaces, never tabs)")
	case runtime.IsMissingKind(errors.Unwrap(err)) || runtime.IsMissingVersion(errors.Unwrap(err)) || runtime.IsNotRegisteredError(errors.Unwrap(err)) || strings.Contains(kubelet, "failed to cast object"):
		pos := top
		for _, k := range keys {
			if k.Path == "apiVersion" || k.Path == "kind" {
				pos = k.Pos
				break
			}
		}
		fd = validate.ConfigTypeMeta.At(pos, "", "the config file is not a kubelet.config.k8s.io/v1beta1 KubeletConfiguration, the kubelet refuses to start",
			"start the file with apiVersion: kubelet.config.k8s.io/v1beta1 and kind: KubeletConfiguration")
	default:
		pos, path := top, ""
		if m := jsonFieldRE.FindStringSubmatch(kubelet); m != nil {
			for _, k := range keys {
				if strings.EqualFold(k.Path, m[1]) && k.Kind == source.KeyExact {
					pos, path = k.Pos, k.Path
				}
			}
		}
		fd = validate.ConfigDecode.At(pos, path, "a value has the wrong type, the kubelet refuses to start: "+shortJSONError(kubelet), "give the field a value of the type it takes")
	}
	fd.Kubelet = kubelet
	return fd
}

func shortJSONError(s string) string {
	if i := strings.LastIndex(s, "json: "); i >= 0 {
		return s[i:]
	}
	return s
}

// gateFindings explains why SetFromMap failed, one finding per offending gate; the
// kubelet panics while defaulting.
func gateFindings(m *skew.Minor, gates map[string]bool, origins map[string]validate.Position, at validate.Position, err error) []validate.Finding {
	table, terr := m.Gates()
	if terr != nil {
		return []validate.Finding{validate.GateUnknown.At(at, "featureGates", terr.Error(), "")}
	}
	const panics = "the kubelet panics at startup while applying defaults"
	var out []validate.Finding
	fg, _ := m.NewFeatureGate()
	for _, name := range sortedKeys(gates) {
		v := gates[name]
		path := "featureGates[" + name + "]"
		pos := origins[path]
		if pos.File == "" {
			pos = at
		}
		g, ok := table.Lookup(name)
		if !ok {
			hint := "remove it: gate names are case-sensitive and this kubelet does not register it"
			if s := didyoumean.Nearest(name, table.Names()); s != "" {
				hint = fmt.Sprintf("did you mean %q?", s)
			}
			out = append(out, validate.GateUnknown.Atf(pos, path, hint, "unknown feature gate %q: %s", name, panics))
			continue
		}
		spec := table.At(g)
		switch {
		case spec.LockToDefault && spec.Default != v:
			out = append(out, validate.GateLocked.Atf(pos, path, fmt.Sprintf("remove the entry (it is %t and cannot change)", spec.Default),
				"feature gate %s is locked to %t (%s since %s): %s", name, spec.Default, stageName(spec.PreRelease), spec.Version, panics))
		case spec.PreRelease == string(featuregate.PreAlpha):
			out = append(out, validate.GatePreAlpha.Atf(pos, path, "remove it, or target a newer kubelet",
				"feature gate %s is not available yet at kubelet %s: %s", name, m.Version, panics))
		}
	}
	if len(out) == 0 && fg != nil {
		// Every gate is known and settable one by one: a dependency is missing.
		for _, name := range sortedKeys(gates) {
			if !gates[name] {
				continue
			}
			g, _ := table.Lookup(name)
			var off []string
			probe := fg.DeepCopy()
			_ = probe.SetFromMap(map[string]bool{})
			for _, d := range g.Dependencies {
				if v, set := gates[d]; (set && !v) || (!set && !probe.Enabled(featuregate.Feature(d))) {
					off = append(off, d)
				}
			}
			if len(off) > 0 {
				path := "featureGates[" + name + "]"
				pos := origins[path]
				if pos.File == "" {
					pos = at
				}
				out = append(out, validate.GateDependency.Atf(pos, path, "enable "+strings.Join(off, ", ")+" too, or disable "+name,
					"feature gate %s is enabled but depends on %s, which is disabled: %s", name, strings.Join(off, ", "), panics))
			}
		}
	}
	if len(out) == 0 {
		out = append(out, validate.GateDependency.At(at, "featureGates", "the feature gates cannot be applied: "+panics, ""))
	}
	for i := range out {
		out[i].Kubelet = "failed to merge global and in-flight KubeletConfiguration while setting defaults, error: " + err.Error()
	}
	return out
}

// gateWarnings reports gates that are accepted but will stop working, once per
// place they are written (the kubelet defaults twice: main file, then merged).
func (r *Result) gateWarnings(m *skew.Minor, gates map[string]bool, at validate.Position) {
	table, err := m.Gates()
	if err != nil {
		return
	}
	for _, name := range sortedKeys(gates) {
		path := "featureGates[" + name + "]"
		pos, ok := r.Origins[path]
		if !ok {
			pos = at
		}
		if r.warned[path+"@"+pos.String()] {
			continue
		}
		if r.warned == nil {
			r.warned = map[string]bool{}
		}
		r.warned[path+"@"+pos.String()] = true
		g, _ := table.Lookup(name)
		spec := table.At(g)
		switch spec.PreRelease {
		case string(featuregate.GA):
			r.add(validate.GateGA.Atf(pos, path, "remove the entry; once the gate is removed the kubelet panics on it",
				"feature gate %s is GA since %s and always %t: setting it is a no-op that will break when the gate is removed", name, spec.Version, spec.Default))
		case string(featuregate.Deprecated):
			r.add(validate.GateDeprecated.Atf(pos, path, "remove the entry before the gate is removed",
				"feature gate %s is deprecated since %s and will be removed", name, spec.Version))
		}
	}
}

func stageName(p string) string {
	switch p {
	case string(featuregate.GA):
		return "GA"
	case string(featuregate.Deprecated):
		return "deprecated"
	case string(featuregate.Beta):
		return "beta"
	case string(featuregate.Alpha):
		return "alpha"
	}
	return strings.ToLower(p)
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// pathValue prints the value of one of the path fields.
func pathValue(kc *kubeletv1beta1.KubeletConfiguration, path string) string {
	switch path {
	case "staticPodPath":
		return kc.StaticPodPath
	case "authentication.x509.clientCAFile":
		return kc.Authentication.X509.ClientCAFile
	case "tlsCertFile":
		return kc.TLSCertFile
	case "tlsPrivateKeyFile":
		return kc.TLSPrivateKeyFile
	case "resolvConf":
		if kc.ResolverConfig != nil {
			return *kc.ResolverConfig
		}
	case "volumePluginDir":
		return kc.VolumePluginDir
	case "podLogsDir":
		return kc.PodLogsDir
	}
	return ""
}
