package dropin

import (
	"fmt"
	"strings"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/rule"
	kubeletv1beta1 "github.com/kubeletcfg/kubeletcfg/upstream/kubelet/config/v1beta1"

	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/source"
)

// applyOrigins records, in merge order, which drop-in key set each field, and
// reports keys that only take effect through case-insensitive matching or that are
// shadowed by a correctly spelled key. It takes time linear in the number of keys:
// a drop-in may hold tens of thousands.
func applyOrigins(patches []Patch, merged []byte, cfg *kubeletv1beta1.KubeletConfiguration, opt Options) []finding.Finding {
	var eff *effects
	// Only keys written otherwise than their canonical path ask the effects, and
	// encoding/json matches each top-level key on its own: the merged document is
	// walked under their top-level fields only.
	var tops map[string]bool
	for _, p := range patches {
		for _, k := range p.Keys {
			if (k.Kind == source.KeyExact || k.Kind == source.KeyCase) && k.WrittenPath != k.Path {
				if tops == nil {
					tops = map[string]bool{}
				}
				tops[topSegment(k.Path)] = true
			}
		}
	}
	origins := newOriginSetter(opt.Origins)
	var lost overrides
	var out []finding.Finding
	for i, p := range patches {
		var valued map[string]bool
		for j := range p.Keys {
			k := p.Keys[j]
			if k.Kind != source.KeyExact && k.Kind != source.KeyCase {
				continue
			}
			if k.WrittenPath != k.Path {
				if eff == nil {
					eff = newEffects(merged, opt.Tree, tops)
				}
				if valued == nil {
					valued = valuedPaths(p.Keys)
				}
				switch eff.of(k, valued[k.WrittenPath]) {
				case effectShadowed:
					if k.Kind == source.KeyCase {
						out = append(out, rule.RenamingField(DropInCaseShadowed.Atf(k.Pos, k.Path, fmt.Sprintf("spell it %q", lastSegment(k.Path)),
							"%q is overridden by %q already in the merged config: encoding/json applies the correctly spelled key last, so this value is lost", k.Written, lastSegment(k.Path)),
							p.File.Text(), p.File.Keys(), k.Written, lastSegment(k.Path)))
					}
					continue
				case effectGone:
					continue
				}
				if k.Kind == source.KeyCase {
					out = append(out, rule.RenamingField(DropInCaseOnly.Atf(k.Pos, k.Path, fmt.Sprintf("spell it %q", lastSegment(k.Path)),
						"%q takes effect as %q only because drop-ins match field names case-insensitively; in the main file it would be dropped", k.Written, k.Path),
						p.File.Text(), p.File.Keys(), k.Written, lastSegment(k.Path)))
				}
			}
			origins.set(k)
			if !legacyIgnored(k, opt) {
				lost.set(&p.Keys[j], i)
			}
		}
	}
	origins.finish()
	return append(out, lost.findings(cfg)...)
}

func lastSegment(path string) string {
	if i := strings.LastIndexAny(path, ".]"); i >= 0 && path[i] == '.' {
		return path[i+1:]
	}
	return path
}

// ancestors calls fn with every path p lies strictly below (see kubelets.Below), longest
// last: the prefixes of p that end before a "." or a "[".
func ancestors(p string, fn func(string)) {
	for i := 1; i < len(p); i++ {
		if p[i] == '.' || p[i] == '[' {
			fn(p[:i])
		}
	}
}

// originSetter applies drop-in keys to the origins in order. A key that replaces
// a whole value (a scalar, a list, null) removes the origins below it; the
// removals are recorded with a sequence number and applied in one pass by finish,
// which leaves the same origins as removing them at once.
type originSetter struct {
	origins map[string]finding.Position
	seq     int
	setAt   map[string]int // sequence number of the origins set here; 0 for earlier ones
	cleared map[string]int // sequence number of the last removal below a path
}

func newOriginSetter(origins map[string]finding.Position) *originSetter {
	return &originSetter{origins: origins, setAt: map[string]int{}, cleared: map[string]int{}}
}

func (o *originSetter) set(k source.Key) {
	if o.origins == nil {
		return
	}
	o.seq++
	if k.Null || k.Field == nil || k.Field.Kind == kubelets.List || k.Field.Kind == kubelets.Scalar {
		o.cleared[k.Path] = o.seq
	}
	if k.Null {
		delete(o.origins, k.Path)
		return
	}
	o.origins[k.Path] = k.Pos
	o.setAt[k.Path] = o.seq
}

func (o *originSetter) finish() {
	if o.origins == nil || len(o.cleared) == 0 {
		return
	}
	for p := range o.origins {
		set, gone := o.setAt[p], false
		ancestors(p, func(a string) {
			if c, ok := o.cleared[a]; ok && c > set {
				gone = true
			}
		})
		if gone {
			delete(o.origins, p)
		}
	}
}

type effect int

const (
	effectApplied  effect = iota
	effectShadowed        // present in the merged JSON but overwritten during decoding
	effectGone            // removed from the merged JSON by a later drop-in
)

// effects knows, for the merged document, which written paths still decide a
// value once encoding/json has decoded it.
type effects struct {
	// decides maps a written path, and every path it lies below, to the canonical
	// paths of the values it decides.
	decides map[string][]string
	present map[string]bool
}

func newEffects(merged []byte, tree *kubelets.Field, tops map[string]bool) *effects {
	writers, present := lastWriters(merged, tree, tops)
	e := &effects{decides: map[string][]string{}, present: present}
	for canonical, written := range writers {
		e.decides[written] = append(e.decides[written], canonical)
		ancestors(written, func(a string) { e.decides[a] = append(e.decides[a], canonical) })
	}
	return e
}

// of says whether the key, as written, still decides at least one value after
// encoding/json has decoded the merged document. setsValue tells whether the
// drop-in has a known scalar or list below the key.
func (e *effects) of(k source.Key, setsValue bool) effect {
	for _, canonical := range e.decides[k.WrittenPath] {
		if kubelets.Within(canonical, k.Path) {
			return effectApplied
		}
	}
	if !e.present[k.WrittenPath] {
		return effectGone
	}
	// encoding/json merges an object or a map into what an earlier key decoded:
	// one that sets no known value (empty, or only unknown keys) is decoded all
	// the same, it cannot be overridden.
	if k.Field != nil && (k.Field.Kind == kubelets.Object || k.Field.Kind == kubelets.Map) && !setsValue {
		return effectApplied
	}
	return effectShadowed
}

// valuedPaths returns the written paths of a drop-in that hold a known scalar or
// list somewhere below them.
func valuedPaths(keys []source.Key) map[string]bool {
	out := map[string]bool{}
	for _, c := range keys {
		if c.Null || c.Field == nil || (c.Kind != source.KeyExact && c.Kind != source.KeyCase) ||
			(c.Field.Kind != kubelets.Scalar && c.Field.Kind != kubelets.List) {
			continue
		}
		ancestors(c.WrittenPath, func(a string) { out[a] = true })
	}
	return out
}
