package kubelets

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/kubeletcfg/kubeletcfg/internal/optionerr"
)

// The minors a command compares and the leaf view of a configuration that
// several packages share (skew, input, author, explain, the library): they
// live with the minors.

// Skew is how many minors a kubelet may lag behind its control plane (the
// Kubernetes version-skew policy: n-3).
const Skew = 3

// Window picks the kubelet minors to compare, oldest first. With no flags it is
// the default minor (the newest GA release) and the Skew minors before it; controlPlane picks
// that minor and the Skew before it; versions is a range ("1.34..1.37") or a
// comma list ("1.33,1.37"). Every version named is checked with Lookup, so
// an error lists the supported minors. Only supported minors are returned.
func Window(versions, controlPlane string) ([]*Minor, error) {
	return window(Supported(), Lookup, versions, controlPlane)
}

// window is Window over any catalogue of minors (tests use fake ones).
func window(supported []string, lookup func(string) (*Minor, error), versions, controlPlane string) ([]*Minor, error) {
	if versions != "" && controlPlane != "" {
		return nil, optionerr.Errorf("{Versions} and {ControlPlane} are alternatives: give one")
	}
	all := make([]*Minor, 0, len(supported))
	for _, v := range supported {
		m, err := lookup(v)
		if err != nil {
			return nil, err
		}
		all = append(all, m)
	}
	if len(all) == 0 {
		return nil, fmt.Errorf("no supported kubelet minors")
	}
	between := func(lo, hi Version) []*Minor {
		var out []*Minor
		for _, m := range all {
			if m.AtLeast(lo) && hi.AtLeast(m.MajorMinor()) {
				out = append(out, m)
			}
		}
		return out
	}
	switch {
	case controlPlane != "":
		cp, err := lookup(controlPlane)
		if err != nil {
			return nil, optionerr.Errorf("{ControlPlane}: %w", err)
		}
		n := cp.MajorMinor()
		return between(n.Add(-Skew), n), nil
	case strings.Contains(versions, ".."):
		lo, hi, _ := strings.Cut(versions, "..")
		a, err := lookup(lo)
		if err != nil {
			return nil, optionerr.Errorf("{Versions}: %w", err)
		}
		b, err := lookup(hi)
		if err != nil {
			return nil, optionerr.Errorf("{Versions}: %w", err)
		}
		if b.Before(a) {
			return nil, optionerr.Errorf("{Versions} %s: %s is newer than %s (write the older minor first)", versions, a.Version, b.Version)
		}
		return between(a.MajorMinor(), b.MajorMinor()), nil
	case versions != "":
		seen := map[*Minor]bool{}
		var out []*Minor
		for _, v := range strings.Split(versions, ",") {
			m, err := lookup(v)
			if err != nil {
				return nil, optionerr.Errorf("{Versions}: %w", err)
			}
			if !seen[m] {
				seen[m] = true
				out = append(out, m)
			}
		}
		sort.SliceStable(out, func(i, j int) bool { return out[i].Before(out[j]) })
		return out, nil
	}
	// The default window ends at the newest minor from a release: a pre-release
	// minor is evaluated only when asked for.
	n := newestRelease(all).MajorMinor()
	return between(n.Add(-Skew), n), nil
}

// Flatten turns a KubeletConfiguration object into its leaf paths, spelled as
// everywhere else in kubeletcfg: object fields dotted, map keys in brackets
// (evictionHard[memory.available], featureGates[NodeSwap]). A list is one leaf
// (its value is the whole list); empty objects and maps have no leaves;
// apiVersion and kind are left out. tree says which objects are maps; without
// it (or for paths it does not have) every object is a struct.
func Flatten(obj map[string]any, tree *Field) map[string]any {
	out := map[string]any{}
	flatten(out, "", obj, tree)
	delete(out, "apiVersion")
	delete(out, "kind")
	return out
}

func flatten(out map[string]any, path string, v any, tree *Field) {
	obj, ok := v.(map[string]any)
	if !ok {
		out[path] = v
		return
	}
	isMap := false
	if path != "" && tree != nil {
		if f := tree.At(path); f != nil && f.Kind == Map {
			isMap = true
		}
	}
	for k, cv := range obj {
		p := JoinPath(path, k)
		if isMap {
			p = path + "[" + k + "]"
		}
		flatten(out, p, cv, tree)
	}
}

// Format prints a leaf value for humans: strings as they are (an empty string
// as ""), everything else as JSON, nil as (unset).
func Format(v any) string {
	switch x := v.(type) {
	case nil:
		return "(unset)"
	case string:
		if x == "" {
			return `""`
		}
		return x
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// CompleteVersions completes a --versions value being typed: a minor, then
// after "A.." the ranges from A on, after "A,B," the minors not listed yet.
// done says that a completion ends the value (a range).
func CompleteVersions(toComplete string) (completions []string, done bool) {
	supported := Supported()
	if lo, _, ok := strings.Cut(toComplete, ".."); ok {
		from := false
		for _, v := range supported {
			from = from || v == lo
			if from {
				completions = append(completions, lo+".."+v)
			}
		}
		return completions, true
	}
	i := strings.LastIndexByte(toComplete, ',')
	if i < 0 {
		return supported, false
	}
	prefix := toComplete[:i+1]
	have := map[string]bool{}
	for _, v := range strings.Split(prefix, ",") {
		have[v] = true
	}
	for _, v := range supported {
		if !have[v] {
			completions = append(completions, prefix+v)
		}
	}
	return completions, false
}
