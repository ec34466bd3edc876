package dropin

import (
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/kubeletcfg/kubeletcfg/finding"
	kubeletv1beta1 "github.com/kubeletcfg/kubeletcfg/upstream/kubelet/config/v1beta1"

	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/source"
)

// overrides finds the values a drop-in sets that a later drop-in overrides: the
// same field set again, or an enclosing field replaced (by null, or by a list or
// scalar). Objects and maps merge, so only values that replace are tracked. It
// is fed the keys that take effect, in merge order, and takes time linear in
// their number.
type overrides struct {
	seq int
	// cur is the key that last set each path, with the patch it came from.
	cur map[string]setter
	// below lists, for each enclosing path, the paths set under it (with the
	// sequence number of the setting, to skip those set again since).
	below  map[string][]setAt
	losses []loss
	// lists holds the list paths set: the keys of their items are not tracked,
	// the list is replaced whole.
	lists map[string]bool
}

// setter and loss point into the patches' keys (shared, never modified): a
// folder of thousands of drop-ins that each set the same fields records a loss
// per drop-in and field.
type setter struct {
	key   *source.Key
	patch int
	seq   int
}

type setAt struct {
	path string
	seq  int
}

type loss struct {
	loser setter
	by    *source.Key
}

// replaces reports whether a key's value replaces what is already at its path
// (JSON merge patch and encoding/json replace scalars and lists, merge objects
// and maps; null removes).
func replaces(k *source.Key) bool {
	return k.Null || k.Field == nil || k.Field.Kind == kubelets.Scalar || k.Field.Kind == kubelets.List
}

// set records that key k of patch number patch takes effect.
func (o *overrides) set(k *source.Key, patch int) {
	if !replaces(k) || k.Path == "apiVersion" || k.Path == "kind" {
		return // every drop-in repeats apiVersion and kind
	}
	if o.cur == nil {
		o.cur, o.below, o.lists = map[string]setter{}, map[string][]setAt{}, map[string]bool{}
	}
	inList := false
	ancestors(k.Path, func(a string) { inList = inList || o.lists[a] })
	if inList {
		return
	}
	if k.Field != nil && k.Field.Kind == kubelets.List {
		o.lists[k.Path] = true
	}
	if prev, ok := o.cur[k.Path]; ok && prev.patch < patch {
		o.losses = append(o.losses, loss{loser: prev, by: k})
	}
	for _, b := range o.below[k.Path] {
		if prev, ok := o.cur[b.path]; ok && prev.seq == b.seq {
			if prev.patch < patch {
				o.losses = append(o.losses, loss{loser: prev, by: k})
			}
			delete(o.cur, b.path)
		}
	}
	delete(o.below, k.Path)
	if k.Null && k.Field != nil && k.Field.Kind != kubelets.Scalar && k.Field.Kind != kubelets.List {
		return // a null object or map: nothing of its own to lose later
	}
	o.seq++
	o.cur[k.Path] = setter{key: k, patch: patch, seq: o.seq}
	ancestors(k.Path, func(a string) { o.below[a] = append(o.below[a], setAt{k.Path, o.seq}) })
}

// findings reports each lost value at its line, naming the key whose value
// applies in the end (the last to set that field, else the one that removed
// or replaced it) and that value as the merged configuration holds it.
func (o *overrides) findings(cfg *kubeletv1beta1.KubeletConfiguration) []finding.Finding {
	if len(o.losses) == 0 {
		return nil
	}
	var obj map[string]any
	if raw, err := json.Marshal(cfg); err == nil {
		_ = json.Unmarshal(raw, &obj)
	}
	out := make([]finding.Finding, 0, len(o.losses))
	for _, l := range o.losses {
		k := l.loser.key
		winner := l.by
		if w, ok := o.cur[k.Path]; ok {
			winner = w.key
		}
		var applies string
		switch {
		case winner.Null:
			applies = fmt.Sprintf("null there removes %s from the merge", winner.Path)
		case winner.Path != k.Path:
			applies = fmt.Sprintf("%s there replaces %s whole", describe(winner, obj), winner.Path)
		default:
			applies = "the value that applies is " + describe(winner, obj)
		}
		wrote := k.Path
		switch {
		case k.Null:
			wrote += ": null"
		case k.Value != "":
			wrote += ": " + k.Value
		}
		out = append(out, DropInOverridden.Atf(k.Pos, k.Path,
			fmt.Sprintf("set %s in one drop-in only, or rename the files so that the one meant to win sorts last", k.Path),
			"%s set here is overridden by %s, a later drop-in in name order: %s", wrote, short(winner.Pos), applies))
	}
	return out
}

// short is a position with the file's base name: the drop-ins share a folder.
func short(p finding.Position) string {
	p.File = filepath.Base(p.File)
	return p.String()
}

// describe renders the value a key sets: from the merged configuration when it
// holds the path, else as written.
func describe(k *source.Key, obj map[string]any) string {
	if k.Null {
		return "null"
	}
	if v, ok := lookup(obj, k.Path); ok {
		if raw, err := json.Marshal(v); err == nil {
			return string(raw)
		}
	}
	switch {
	case k.Value != "":
		return k.Value
	case k.Field != nil && k.Field.Kind == kubelets.List:
		return "[]" // omitted from the merged configuration: empty
	}
	return "its zero value"
}

// lookup finds a canonical path ("a.b", "m[key]") in a decoded JSON object.
func lookup(obj map[string]any, path string) (any, bool) {
	steps, ok := kubelets.Steps(path)
	if !ok {
		return nil, false
	}
	var cur any = obj
	for _, st := range steps {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[st.Name]; !ok || cur == nil {
			return nil, false
		}
	}
	return cur, cur != nil
}
