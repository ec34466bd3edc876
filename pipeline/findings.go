package pipeline

import (
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/rule"
	kubeletv1beta1 "github.com/kubeletcfg/kubeletcfg/upstream/kubelet/config/v1beta1"
	"k8s.io/apimachinery/pkg/runtime"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
	"k8s.io/component-base/featuregate"

	"github.com/kubeletcfg/kubeletcfg/internal/didyoumean"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/source"
)

// keyFindings reports the main file's keys that strict decoding rejects and the
// lenient fallback drops.
func keyFindings(files *source.Cache, f *source.File, keys []source.Key, m *kubelets.Minor) []finding.Finding {
	n := 0
	for _, k := range keys {
		if k.Kind == source.KeyUnknown || k.Kind == source.KeyCase || k.Kind == source.KeyDuplicate {
			n++
		}
	}
	// A finding per such key: sized once, a file of 280,000 duplicate keys does
	// not copy its findings as the slice grows.
	out := make([]finding.Finding, 0, n)
	var merged mergedIndex
	for _, k := range keys {
		switch k.Kind {
		case source.KeyUnknown:
			hint := ""
			if newer := m.FirstNewerWith(k.Path); newer != nil {
				hint = fmt.Sprintf("%s is a field from kubelet %s on; kubelet %s does not have it", k.Path, newer.Version, m.Version)
			} else if h, ok := rule.MisplacedThresholdHint(k.WrittenPath); ok {
				hint = h
			} else if k.Suggest != "" {
				hint = fmt.Sprintf("did you mean %q?", k.Suggest)
			}
			out = append(out, rule.UnknownFieldIn(source.UnknownField, k.Pos, k.Path, k.Written, hint))
		case source.KeyCase:
			out = append(out, rule.RenamingField(source.CaseMismatch.Atf(k.Pos, k.Path, fmt.Sprintf("spell it %q", k.Suggest),
				"%q differs from the field %q only in case: the kubelet drops it in the main file and keeps the default", k.Written, k.Suggest),
				f.Text(), f.Keys(), k.Written, k.Suggest))
		case source.KeyDuplicate:
			if merged.in(keys, k) {
				// The dropped occurrence was merged in with <<: report where the
				// file overrides it, the line the kubelet's strict error names.
				out = append(out, source.DuplicateKey.Atf(k.Winner, k.Path, "drop the << merge or the override, or accept the override knowingly",
					"%q overrides the value merged in from line %d with <<: strict decoding calls this a duplicate key; the kubelet falls back to lenient decoding and keeps this value", k.Written, k.Pos.Line))
				continue
			}
			out = append(out, source.DuplicateKey.Atf(k.Pos, k.Path, "delete one of the two",
				"duplicate key %q: the kubelet uses the value at line %d and drops this one", k.Written, k.Winner.Line))
		}
	}
	// The draft KEP-4603 name sits under a key the strict walk does not enter when
	// it is spelled crashloopbackoff; a case-insensitive walk finds it.
	for _, k := range foldUnknownWalk(files, f, m) {
		if k.Kind == source.KeyUnknown {
			if fd, ok := source.DraftCrashLoop(k.Pos, k.Path, k.Value); ok {
				out = append(out, rule.ReplacingDraft(fd, f.Text(), f.Keys()))
			}
		}
	}
	return out
}

// foldUnknownWalk is the case-insensitive walk of f, for the draft name among
// its unknown keys. The two walks differ only below a key that matches a field
// case-insensitively (the strict walk does not enter it, the case-insensitive
// one does): without such a key, the strict walk already made has the same
// unknown keys in the same order, and a second walk of a large file (a third
// of a second at 4 MiB) is saved. The draft name's parent is a top-level key,
// which both walks list; without one spelled like it (a file of thousands of
// case-only keys elsewhere) the extra keys of the second walk cannot carry the
// draft name, and the strict walk is returned too. TestFoldUnknownWalk checks
// on every testdata input that the draft names found are the same.
// draftCrashLoopParent is the top-level key of the path source.DraftCrashLoop
// recognises (crashLoopBackOff.maxSeconds, in any case).
const draftCrashLoopParent = "crashLoopBackOff"

func foldUnknownWalk(files *source.Cache, f *source.File, m *kubelets.Minor) []source.Key {
	strict := files.Walk(f, m.Fields(), source.Strict)
	caseKey, draftParent := false, false
	for _, k := range strict {
		caseKey = caseKey || k.Kind == source.KeyCase
		draftParent = draftParent || strings.EqualFold(k.Path, draftCrashLoopParent) || strings.EqualFold(k.WrittenPath, draftCrashLoopParent)
	}
	if caseKey && draftParent {
		return files.Walk(f, m.Fields(), source.Fold)
	}
	return strict
}

// jsonFieldRE finds the field in encoding/json's type errors: "Go struct field
// <Type>.<json path>", where the path is from the top of the document.
var jsonFieldRE = regexp.MustCompile(`Go struct field [A-Za-z0-9_]+\.([A-Za-z0-9_.]+)`)

// isTypeMetaError reports whether decoding failed before any field was read:
// apiVersion/kind missing, unknown to the scheme, or another kind.
func isTypeMetaError(err error) bool {
	inner := errors.Unwrap(err)
	msg := err.Error()
	return runtime.IsMissingKind(inner) || runtime.IsMissingVersion(inner) || runtime.IsNotRegisteredError(inner) ||
		strings.Contains(msg, "failed to cast object") || strings.Contains(msg, "couldn't get version/kind")
}

// typeMetaPos points at the wrong one of apiVersion and kind (the first when
// both are wrong), or at the top of the file when they are missing.
func typeMetaPos(keys []source.Key, top finding.Position) finding.Position {
	want := map[string]string{"apiVersion": "kubelet.config.k8s.io/v1beta1", "kind": "KubeletConfiguration"}
	var first *source.Key
	for i, k := range keys {
		if v, ok := want[k.Path]; ok && k.Kind == source.KeyExact {
			if first == nil {
				first = &keys[i]
			}
			if k.Value != v {
				return k.Pos
			}
		}
	}
	if first != nil {
		return first.Pos
	}
	return top
}

// mainDecodeFinding classifies the kubelet's refusal to decode the main file.
func mainDecodeFinding(f *source.File, err error, keys []source.Key) finding.Finding {
	top := finding.Position{File: f.Path, Line: 1, Column: 1}
	kubelet := err.Error()
	aliasAt, aliasBomb := source.ExcessiveAliasing(err, f.Doc, top)
	var fd finding.Finding
	switch {
	case f.SyntaxErr != nil:
		pos := top
		if l := source.ErrorLine(f.SyntaxErr); l > 0 {
			pos.Line = l
		} else if line, col, bad := source.InvalidUTF8(f.Data); bad {
			// yaml's UTF-8 errors name no line: point at the byte.
			pos.Line, pos.Column = line, col
		}
		fd = source.ConfigSyntax.At(pos, "", "the config file is not valid YAML, the kubelet refuses to start: "+f.SyntaxErr.Error(), source.SyntaxHint(f.Data))
	case aliasBomb:
		fd = source.ConfigSyntax.At(aliasAt, "", "the kubelet refuses to start: "+source.AliasingMessage, source.AliasingHint)
	case isTypeMetaError(err):
		hint := "start the file with apiVersion: kubelet.config.k8s.io/v1beta1 and kind: KubeletConfiguration"
		if h := bootstrapperHint(keys); h != "" {
			hint = h
		}
		fd = rule.AddingAPIVersion(source.ConfigTypeMeta.At(typeMetaPos(keys, top), "", "the config file is not a kubelet.config.k8s.io/v1beta1 KubeletConfiguration, the kubelet refuses to start",
			hint), f.Text(), f.Doc)
	default:
		pos, path := top, ""
		named := ""
		if m := jsonFieldRE.FindStringSubmatch(kubelet); m != nil {
			named = m[1]
			for _, k := range keys {
				if strings.EqualFold(k.Path, named) && k.Kind == source.KeyExact {
					pos, path = k.Pos, k.Path
				}
			}
		}
		// The error may name no field (a Duration's own parse error) or only a map
		// (featureGates): find the key whose value alone fails to decode.
		if k := culprit(f, keys, named); k != nil {
			pos, path = k.Pos, k.Path
		}
		fd = source.ConfigDecode.At(pos, path, "a value has the wrong type, the kubelet refuses to start: "+shortJSONError(kubelet), "give the field a value of the type it takes")
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

const maxGateSuggestions = 1000

// gateFindings explains why SetFromMap failed, one finding per offending gate; the
// kubelet panics while defaulting.
//
// SetFromMap walks the map in Go's random order: it collects an error for every
// locked or PreAlpha gate until it meets an unrecognized gate, which ends the walk,
// and checks dependencies (in the order of another map) only when no gate failed.
// So each finding quotes the kubelet's words for its own gate, and says so where
// the kubelet's choice is random; err itself is one random draw and only quoted,
// with its items sorted, when no single gate is to blame.
func gateFindings(m *kubelets.Minor, gates map[string]bool, origins map[string]finding.Position, at finding.Position, err error, panicking bool) []finding.Finding {
	table, terr := m.Gates()
	if terr != nil {
		return []finding.Finding{GateUnknown.At(at, "featureGates", terr.Error(), "")}
	}
	panics, kubelet := "the kubelet panics at startup while applying defaults", "failed to merge global and in-flight KubeletConfiguration while setting defaults, error: "
	if !panicking {
		panics, kubelet = "the kubelet refuses to start", "failed to set feature gates from initial flags-based config: "
	}
	var out []finding.Finding
	var items []string // the kubelet's error item for out[i]'s gate
	var names *didyoumean.Index
	suggested, unknown, perGate := 0, 0, 0
	for _, name := range sortedKeys(gates) {
		v := gates[name]
		path := "featureGates[" + name + "]"
		pos := origins[path]
		if pos.File == "" {
			pos = at
		}
		g, ok := table.Lookup(name)
		if !ok {
			hint := unknownGateHint(m, name)
			if hint == "" {
				// No supported minor registers it: kubeletcfg cannot tell a gate
				// removed before its oldest table from a misspelling.
				hint = fmt.Sprintf("remove it: no kubelet %s registers it: it was removed before %s (the oldest gate table kubeletcfg has) or is misspelled (gate names are case-sensitive)", kubelets.Span(kubelets.Supported()), kubelets.Supported()[0])
				if names == nil {
					// the gate names lowercased once for all the searches
					names = didyoumean.NewIndex(table.Names())
				}
				// Suggestions are bounded so that a hostile file with huge gate maps stays cheap.
				if suggested++; suggested > maxGateSuggestions {
					// no hint beyond the bound
				} else if s := names.Nearest(name); s != "" {
					hint = fmt.Sprintf("did you mean %q?", s)
				}
			}
			out = append(out, GateUnknown.Atf(pos, path, hint, "unknown feature gate %q: %s", name, panics))
			items = append(items, "unrecognized feature gate: "+name)
			unknown++
			continue
		}
		spec := table.At(g)
		switch {
		case spec.LockToDefault && spec.Default != v:
			out = append(out, GateLocked.Atf(pos, path, fmt.Sprintf("remove the entry (it is %t and cannot change)", spec.Default),
				"feature gate %s is locked to %t (%s since %s): %s", name, spec.Default, stageName(spec.PreRelease), spec.Version, panics))
			items = append(items, fmt.Sprintf("cannot set feature gate %s to %t, feature is locked to %t", name, v, spec.Default))
			perGate++
		case spec.PreRelease == string(featuregate.PreAlpha):
			out = append(out, GatePreAlpha.Atf(pos, path, "remove it, or target a newer kubelet",
				"feature gate %s is not available yet at kubelet %s: %s", name, m.Version, panics))
			items = append(items, fmt.Sprintf("cannot set feature gate %s to %t, feature is PreAlpha at emulated version %s, min compatibility version %s",
				name, v, table.EmulationVersion, table.MinCompatibilityVersion))
			perGate++
		}
	}
	for i := range out {
		switch {
		case out[i].Rule == GateUnknown.ID && unknown > 1:
			out[i].Message += fmt.Sprintf(" (the kubelet reports one of these %d gates, chosen at random)", unknown)
		case out[i].Rule != GateUnknown.ID && unknown > 0:
			out[i].Message += " (the kubelet reports it only when it meets it before an unknown gate, in random order)"
		case out[i].Rule != GateUnknown.ID && perGate > 1:
			out[i].Message += fmt.Sprintf(" (the kubelet reports these %d gates in one error, in random order)", perGate)
		}
	}
	if len(out) == 0 {
		// Every gate is known and settable one by one: a dependency is broken.
		out, items = dependencyFindings(table, gates, origins, at, panics)
		if len(out) > 1 {
			for i := range out {
				out[i].Message += fmt.Sprintf(" (the kubelet reports these %d dependencies in one error, in random order)", len(out))
			}
		}
	}
	if len(out) == 0 {
		out = append(out, GateDependency.At(at, "featureGates", "the feature gates cannot be applied: "+panics, ""))
		items = append(items, sortedError(err))
	}
	for i := range out {
		out[i].Kubelet = kubelet + items[i]
		out[i].Panics = panicking
	}
	return out
}

// unknownGateHint says when a gate this minor does not register was removed or
// is yet to come, from the other minors' tables; "" when no supported minor has it.
func unknownGateHint(m *kubelets.Minor, name string) string {
	last, removed, first := m.GateHistory(name)
	if last != nil {
		return fmt.Sprintf("remove it: the gate was removed in %s (last registered in %s)", removed.Version, last.Version)
	}
	if first != nil {
		return fmt.Sprintf("remove it, or target kubelet %s or newer: the gate is new in %s", first.Version, first.Version)
	}
	return ""
}

// sortedError is err's text with the items of an aggregate sorted, as the harness
// records them: SetFromMap's items come in map order.
func sortedError(err error) string {
	var agg utilerrors.Aggregate
	if !errors.As(err, &agg) || len(agg.Errors()) < 2 {
		return err.Error()
	}
	msgs := make([]string, 0, len(agg.Errors()))
	for _, e := range agg.Errors() {
		msgs = append(msgs, e.Error())
	}
	sort.Strings(msgs)
	return "[" + strings.Join(msgs, ", ") + "]"
}

// gateWarnings reports gates that are accepted but will stop working, once per
// place they are written (the kubelet defaults twice: main file, then merged).
func (r *Result) gateWarnings(m *kubelets.Minor, gates map[string]bool, at finding.Position) {
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
			if spec.LockToDefault {
				r.add(GateGA.Atf(pos, path, "remove the entry; once the gate is removed the kubelet panics on it",
					"feature gate %s is GA since %s and locked to %t: setting it is a no-op that will break when the gate is removed", name, spec.Version, spec.Default))
			} else {
				r.add(GateGA.Atf(pos, path, "stop depending on the gate: once it is removed, this entry makes the kubelet panic",
					"feature gate %s is GA since %s (default %t, not yet locked): setting it works today but will break when the gate is locked or removed", name, spec.Version, spec.Default))
			}
		case string(featuregate.Deprecated):
			r.add(GateDeprecated.Atf(pos, path, "remove the entry before the gate is removed",
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

// dependencyFindings explains dependency failures the way featuregate evaluates
// them: a gate is on when set explicitly, else when AllAlpha/AllBeta set its
// stage, else by default; every gate that is on needs its dependencies on. The
// finding sits where the user caused it: the gate's own entry, the AllAlpha or
// AllBeta entry that turned it on, or the entry that turned its dependency off.
func dependencyFindings(table *kubelets.GateTable, gates map[string]bool, origins map[string]finding.Position, at finding.Position, panics string) ([]finding.Finding, []string) {
	enabled := func(name string) (bool, string) {
		if v, ok := gates[name]; ok {
			return v, name
		}
		g, ok := table.Lookup(name)
		if !ok {
			return false, ""
		}
		spec := table.At(g)
		for special, stage := range map[string]string{"AllAlpha": string(featuregate.Alpha), "AllBeta": string(featuregate.Beta)} {
			if v, ok := gates[special]; ok && spec.PreRelease == stage && !g.Special {
				return v, special
			}
		}
		return spec.Default, ""
	}
	posOf := func(name string) (finding.Position, string) {
		path := "featureGates[" + name + "]"
		if pos, ok := origins[path]; ok && pos.File != "" {
			return pos, path
		}
		return at, path
	}
	var out []finding.Finding
	var items []string // the kubelet's error item for out[i]
	for _, name := range table.Names() {
		on, why := enabled(name)
		g, _ := table.Lookup(name)
		if !on || len(g.Dependencies) == 0 {
			continue
		}
		var off []string
		blame := why
		for _, d := range g.Dependencies {
			if depOn, depWhy := enabled(d); !depOn {
				off = append(off, d)
				if blame == "" {
					blame = depWhy
				}
			}
		}
		if len(off) == 0 || blame == "" {
			continue
		}
		pos, path := posOf(blame)
		deps := strings.Join(off, ", ")
		var msg, hint string
		switch {
		case why == name:
			msg = fmt.Sprintf("feature gate %s is enabled but depends on %s, which is disabled: %s", name, deps, panics)
			hint = "enable " + deps + " too, or disable " + name
		case why != "":
			msg = fmt.Sprintf("%s=true enables %s, which depends on %s, which is disabled: %s", why, name, deps, panics)
			hint = "also set " + name + ": false, or enable " + deps
		default:
			msg = fmt.Sprintf("disabling %s breaks %s, which is on by default and depends on it: %s", blame, name, panics)
			hint = "also set " + name + ": false, or keep " + blame + " enabled"
		}
		out = append(out, GateDependency.At(pos, path, msg, hint))
		items = append(items, fmt.Sprintf("%s is enabled, but depends on features that are disabled: %v", name, off))
	}
	return out, items
}

// mergedIndex answers whether a duplicate occurrence is a key of another mapping
// reached through a YAML merge key: the same position is also walked under
// another path. It indexes the keys by position on first use, so that a file
// with many duplicates costs linear time, not a scan of all keys per duplicate.
//
// A walk that never went through an alias or a merge key meets every key node
// once, in document order, so its positions strictly increase (an alias always
// points back, at an anchor defined before it): then no position is walked
// twice and the index, a map of every key, is not built.
type mergedIndex struct {
	built, ordered bool
	// first is the first path walked at each position; multi marks the
	// positions walked under more than one path.
	first map[finding.Position]string
	multi map[finding.Position]bool
}

func (x *mergedIndex) in(keys []source.Key, dup source.Key) bool {
	if !x.built {
		x.built = true
		x.ordered = inDocumentOrder(keys)
		if !x.ordered {
			x.first = make(map[finding.Position]string, len(keys))
			x.multi = map[finding.Position]bool{}
			for _, k := range keys {
				if p, ok := x.first[k.Pos]; !ok {
					x.first[k.Pos] = k.Path
				} else if p != k.Path {
					x.multi[k.Pos] = true
				}
			}
		}
	}
	if x.ordered {
		return false
	}
	return x.multi[dup.Pos] || x.first[dup.Pos] != dup.Path
}

// inDocumentOrder reports whether the keys' positions strictly increase.
func inDocumentOrder(keys []source.Key) bool {
	for i := 1; i < len(keys); i++ {
		a, b := keys[i-1].Pos, keys[i].Pos
		if a.File != b.File || b.Line < a.Line || (b.Line == a.Line && b.Column <= a.Column) {
			return false
		}
	}
	return true
}
