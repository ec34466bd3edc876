package author

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"sort"
	"strings"

	"github.com/kubeletcfg/kubeletcfg/finding"
	kubeletv1beta1 "github.com/kubeletcfg/kubeletcfg/upstream/kubelet/config/v1beta1"

	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
)

// Verdict is what one kubelet minor does with the existing files plus the new drop-in.
type Verdict struct {
	Minor  string `json:"kubelet"`
	Starts bool   `json:"starts"`
	Panics bool   `json:"panics,omitempty"`
	// StartsWithout says whether the kubelet starts without the new file, so
	// a refusal can be blamed on the right change.
	StartsWithout bool `json:"startsWithout"`
	// Before and After are the .conf files merged before and after the new one.
	Before []string `json:"mergedBefore"`
	After  []string `json:"mergedAfter"`
	// Applied lists each key of the new file with the value the kubelet ends up with.
	Applied []Applied `json:"applied"`
	// Problems are findings that make the new file wrong at this minor: errors
	// anywhere (the kubelet stops) and warnings or errors in the new file
	// (dropped, ignored or shadowed keys).
	Problems []finding.Finding `json:"problems"`
}

// Applied is one leaf of the new drop-in and what becomes of it.
type Applied struct {
	Path string `json:"path"`
	// Want is the value the drop-in sets, as the kubelet serializes it; nil
	// for a deletion.
	Want any `json:"want"`
	// Got is the effective value (nil: unset).
	Got any `json:"got"`
	// OverriddenBy names the later file that sets the key last, to another
	// value, if any.
	OverriddenBy string `json:"overriddenBy,omitempty"`
	// AlsoSetBy names the later file that sets the key last to the same value:
	// the kubelet runs with what the new file says, and would without it.
	AlsoSetBy string `json:"alsoSetBy,omitempty"`
	// Delete marks a null: Got is whatever the kubelet falls back to.
	Delete bool `json:"delete,omitempty"`
}

// OK reports whether the new file does everything it says at this minor.
func (v *Verdict) OK() bool {
	if !v.Starts || len(v.Problems) > 0 {
		return false
	}
	for _, a := range v.Applied {
		if !a.Holds() {
			return false
		}
	}
	return true
}

// Holds reports whether the key took effect.
func (a Applied) Holds() bool {
	return a.OverriddenBy == "" && (a.Delete || reflect.DeepEqual(a.Want, a.Got))
}

// Overridden lists the applied keys that a later drop-in overrides.
func (v *Verdict) Overridden() []Applied {
	var out []Applied
	for _, a := range v.Applied {
		if a.OverriddenBy != "" {
			out = append(out, a)
		}
	}
	return out
}

// Check evaluates in (whose Virtual holds the new file at target, inside
// in.ConfigDir) at each minor and says what the new file does there.
func Check(in pipeline.Input, target string, doc *Document, minors []*kubelets.Minor) ([]Verdict, error) {
	target = filepath.Clean(target)
	want, err := normalized(doc)
	if err != nil {
		return nil, err
	}
	with, err := pipeline.Load(in)
	if err != nil {
		return nil, err
	}
	without := in
	without.Virtual = nil
	var withoutL *pipeline.Loaded
	out := make([]Verdict, 0, len(minors))
	for _, m := range minors {
		r, err := with.Evaluate(m)
		if err != nil {
			return nil, err
		}
		v := Verdict{Minor: m.Version, Starts: r.Starts, Panics: r.Panics, StartsWithout: true}
		v.Before, v.After = mergeNeighbours(r.Files, target)
		for _, f := range r.Findings {
			if f.Severity == finding.Error || (f.Severity >= finding.Warning && filepath.Clean(f.File) == target) {
				v.Problems = append(v.Problems, f)
			}
		}
		if !r.Starts {
			if withoutL == nil {
				if withoutL, err = pipeline.Load(without); err != nil {
					return nil, err
				}
			}
			rw, err := withoutL.Evaluate(m)
			if err != nil {
				return nil, err
			}
			v.StartsWithout = rw.Starts
		}
		eff := map[string]any{}
		if obj, err := r.EffectiveObject(); err != nil {
			return nil, err
		} else if obj != nil {
			eff = kubelets.Flatten(obj, m.Fields())
		}
		for _, path := range sortedKeys(want) {
			a := Applied{Path: path, Want: want[path], Got: eff[path], Delete: want[path] == nil}
			if a.Delete {
				// A deleted object or map has no leaf of its own: show what is left below it.
				a.Got = leavesUnder(eff, path)
			}
			if o, ok := r.Origins[path]; ok && o.File != "" && filepath.Clean(o.File) != target && r.Effective != nil {
				if !a.Delete && reflect.DeepEqual(a.Want, a.Got) {
					a.AlsoSetBy = o.File
				} else {
					a.OverriddenBy = o.File
				}
			}
			v.Applied = append(v.Applied, a)
		}
		out = append(out, v)
	}
	return out, nil
}

// normalized is the document's leaves as the kubelet serializes them ("0.5m"
// is "30s"): decoded into the v1beta1 type and encoded again. Deleted keys
// stay, with a nil value.
func normalized(doc *Document) (map[string]any, error) {
	patch := doc.Patch()
	raw, err := json.Marshal(patch)
	if err != nil {
		return nil, err
	}
	var kc kubeletv1beta1.KubeletConfiguration
	if err := json.Unmarshal(raw, &kc); err != nil {
		return nil, fmt.Errorf("the drop-in does not decode as a KubeletConfiguration: %w", err)
	}
	back, err := json.Marshal(&kc)
	if err != nil {
		return nil, err
	}
	var obj map[string]any
	if err := json.Unmarshal(back, &obj); err != nil {
		return nil, err
	}
	tree := kubelets.Tree()
	all := kubelets.Flatten(obj, tree)
	out := map[string]any{}
	for path := range kubelets.Flatten(patch, tree) {
		out[path] = all[path] // nil for a deletion
	}
	return out, nil
}

// mergeNeighbours splits the merged drop-ins (files ending in .conf, in merge
// order) around target. files[0] may be the main file, which is not a drop-in.
func mergeNeighbours(files []string, target string) (before, after []string) {
	seen := false
	for _, f := range files {
		switch {
		case filepath.Clean(f) == target:
			seen = true
		case filepath.Ext(f) != ".conf":
		case seen:
			after = append(after, f)
		default:
			before = append(before, f)
		}
	}
	return before, after
}

// leavesUnder gathers the leaves at or under path (nil when there are none).
func leavesUnder(flat map[string]any, path string) any {
	if v, ok := flat[path]; ok {
		return v
	}
	var out map[string]any
	for p, v := range flat {
		if kubelets.Below(p, path) {
			if out == nil {
				out = map[string]any{}
			}
			k := strings.TrimPrefix(strings.TrimPrefix(p, path), ".")
			if strings.HasPrefix(k, "[") && strings.Index(k, "]") == len(k)-1 {
				k = k[1 : len(k)-1]
			}
			out[k] = v
		}
	}
	if out == nil {
		return nil
	}
	return out
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
