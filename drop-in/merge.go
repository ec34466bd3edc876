package dropin

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	kubeletv1beta1 "k8s.io/kubelet/config/v1beta1"

	"github.com/kubeletcfg/kubeletcfg/internal/jsonscan"
	"github.com/kubeletcfg/kubeletcfg/skew"
	"github.com/kubeletcfg/kubeletcfg/source"
	"github.com/kubeletcfg/kubeletcfg/validate"
)

// Patch is one .conf drop-in as read and decoded.
type Patch struct {
	Path string
	File *source.File
	// Keys are the drop-in's keys matched case-insensitively against the field tree.
	Keys []source.Key
	// JSON is what the kubelet merges: the drop-in decoded into an unstructured object.
	JSON []byte
}

// Result is the outcome of merging every drop-in over a base config.
type Result struct {
	Patches []Patch
	// Config is the merged configuration decoded by encoding/json, not yet
	// defaulted; nil when the kubelet refuses (see Findings).
	Config *kubeletv1beta1.KubeletConfiguration
	// MergedJSON is the merged document before decoding.
	MergedJSON []byte
	Findings   []validate.Finding
	// Refused is set when the kubelet stops at the drop-in stage.
	Refused bool
}

// Options are the inputs of Merge besides the base.
type Options struct {
	// Tree is the KubeletConfiguration field tree of the kubelet minor.
	Tree *skew.Field
	// PathFields are the fields the main file's paths are resolved for; a drop-in
	// setting them to a relative path is reported.
	PathFields []string
	// Origins maps field paths to where their value came from; Merge updates it
	// with the drop-ins' keys that take effect.
	Origins map[string]validate.Position
	// Files reads and decodes the drop-ins, once across minors; nil reads directly.
	Files *source.Cache
	// KnownSince names the newer minor that has a field this one lacks ("" for
	// none), for the hint of an unknown key; nil gives no such hint.
	KnownSince func(path string) string
	// Minor is the kubelet minor whose types the merged document is decoded
	// into (skew.Minor.KnownJSON); nil decodes into the newest minor's.
	Minor *skew.Minor
	// Legacy selects kubelet 1.31's merge; nil is the merge of 1.32 and later.
	Legacy *Legacy
}

// Legacy is kubelet 1.31's mergeKubeletConfigurations. The base is json.Marshal
// of the internal type, whose fields mostly have no json tags, so its keys are
// Go field names ("MaxPods") and never collide with a drop-in's ("maxPods"). The
// drop-ins are merge-patched over it in order, the result is decoded onto the
// loaded config with encoding/json (case-insensitive, maps merged into, lists
// replaced) and nothing is defaulted afterwards. So a drop-in's key applies when
// it matches an internal field name case-insensitively, and a null removes an
// earlier drop-in's key but never the main file's value.
type Legacy struct {
	// Onto is the loaded configuration; Merge decodes onto a copy.
	Onto *kubeletv1beta1.KubeletConfiguration
	// InternalKeys maps v1beta1 field paths to the internal type's JSON key paths.
	InternalKeys map[string]string
}

// Merge applies the .conf entries over base, the JSON of the defaulted main config,
// in order. It reads every file so that all problems are reported, but like the
// kubelet it stops merging at the first file it cannot use.
func Merge(base []byte, entries []Entry, opt Options) (*Result, error) {
	res := &Result{}
	merged := newPatcher(base)
	if opt.Legacy != nil {
		// Only the drop-ins' keys matter (see Legacy): patch an empty document.
		merged = newPatcher([]byte("{}"))
	}
	for _, e := range entries {
		if !e.Conf {
			res.Findings = append(res.Findings, validate.DropInIgnored.At(validate.Position{File: e.Path}, "",
				"not merged: only files ending in .conf are read from the drop-in folder", "rename it to end in .conf if it is meant to apply"))
			continue
		}
		p, finding, err := readPatch(e.Path, opt)
		if err != nil {
			return nil, err
		}
		if finding != nil {
			res.Findings = append(res.Findings, *finding)
			res.Refused = true
			continue
		}
		res.Patches = append(res.Patches, *p)
		if res.Refused {
			continue // the kubelet already stopped; keep reading for diagnostics only
		}
		if err := merged.apply(truncateDeep(p.JSON, maxPatchDepth)); err != nil {
			res.Findings = append(res.Findings, validate.DropInDecode.At(validate.Position{File: e.Path}, "",
				"the drop-in cannot be merged: "+err.Error(), ""))
			res.Refused = true
			continue
		}
	}
	mergedJSON, err := merged.bytes()
	if err != nil {
		return nil, err
	}
	res.MergedJSON = mergedJSON
	for _, p := range res.Patches {
		res.Findings = append(res.Findings, keyFindings(p, opt)...)
	}
	if res.Refused {
		return res, nil
	}
	cfg, target := &kubeletv1beta1.KubeletConfiguration{}, mergedJSON
	if opt.Minor != nil {
		// The kubelet decodes into its own minor's types: a key for a field it
		// does not have is ignored whatever its value, not a type error of the
		// newest minor's field.
		target = opt.Minor.KnownJSON(mergedJSON)
	}
	if opt.Legacy != nil {
		cfg = opt.Legacy.Onto.DeepCopy()
		target = toV1beta1Keys(mergedJSON, opt.Tree, opt.Legacy.InternalKeys)
	}
	if err := json.Unmarshal(target, cfg); err != nil {
		res.Findings = append(res.Findings, mergeDecodeFinding(err, res.Patches, opt))
		res.Refused = true
		return res, nil
	}
	res.Config = cfg
	res.Findings = append(res.Findings, applyOrigins(res.Patches, mergedJSON, cfg, opt)...)
	return res, nil
}

// maxPatchDepth is the nesting below which a drop-in's objects and lists are
// emptied before merging. json-patch re-parses every level of a
// value it inserts, so its cost grows with the square of the nesting: a drop-in
// nested 9,999 levels deep (the decoder's limit) costs it about 2 GB. The field
// tree is 4 levels deep and no field decodes a free-form value, so below this
// depth a value can only be dropped (under an unknown key) or be the wrong type
// (an object or a list where the field takes a scalar), which an empty object or
// list of the same kind reproduces exactly.
const maxPatchDepth = 32

// truncateDeep returns data, a valid JSON document, with the objects and lists at
// nesting level max+1 emptied: nothing is nested deeper than max+1 levels.
func truncateDeep(data []byte, max int) []byte {
	var out []byte
	copied, depth, start := 0, 0, -1
	inString, escaped := false, false
	for i, c := range data {
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			depth++
			if depth == max+1 {
				start = i
			}
		case '}', ']':
			if depth == max+1 && start >= 0 {
				out = append(out, data[copied:start]...)
				out = append(out, data[start], c)
				copied, start = i+1, -1
			}
			depth--
		}
	}
	if out == nil {
		return data
	}
	return append(out, data[copied:]...)
}

// readPatch reads and decodes one drop-in. A problem the kubelet stops on is a
// finding; a file we will not read (too large) is an input error.
func readPatch(path string, opt Options) (*Patch, *validate.Finding, error) {
	at := validate.Position{File: path}
	f, err := opt.Files.ReadFile(path)
	if err != nil {
		var ie *source.InputError
		if errors.As(err, &ie) && strings.Contains(ie.Err.Error(), "reads at most") {
			return nil, nil, err
		}
		fd := validate.DropInDecode.At(at, "", "the kubelet cannot read this drop-in: "+errors.Unwrap(err).Error(), "")
		return nil, &fd, nil
	}
	if len(f.Data) == 0 {
		fd := validate.DropInEmpty.At(at, "", "empty drop-in: the kubelet refuses to start (\"kubelet config file was empty\")",
			"delete the file or give it apiVersion: kubelet.config.k8s.io/v1beta1 and kind: KubeletConfiguration")
		return nil, &fd, nil
	}
	data, gvk, err := opt.Files.DecodeDropIn(f)
	if err != nil && f.SyntaxErr == nil && (runtime.IsMissingKind(err) || runtime.IsMissingVersion(err)) {
		// The decoder stops at the missing kind before anything else; a drop-in of
		// whitespace or comments only has no kind either.
		fd := validate.DropInTypeMeta.At(typeMetaPos(f, runtime.IsMissingVersion(err)), "", "the drop-in has no apiVersion/kind: the kubelet refuses to start",
			"add apiVersion: kubelet.config.k8s.io/v1beta1 and kind: KubeletConfiguration").AddingAPIVersion(f.Data, f.Doc)
		fd.Kubelet = err.Error()
		return nil, &fd, nil
	}
	if err != nil {
		fd := dropInDecodeFinding(f, err)
		return nil, &fd, nil
	}
	if gvk == nil || gvk.Empty() {
		fd := validate.DropInTypeMeta.At(at, "", "the drop-in has no apiVersion/kind: the kubelet refuses to start",
			"add apiVersion: kubelet.config.k8s.io/v1beta1 and kind: KubeletConfiguration")
		return nil, &fd, nil
	}
	if *gvk != source.KubeletGVK && opt.Legacy == nil {
		// 1.31 decodes drop-ins into Unstructured without checking the kind.
		fd := validate.DropInTypeMeta.At(typeMetaPos(f, gvk.GroupVersion() != source.KubeletGVK.GroupVersion()), "", fmt.Sprintf("the drop-in is %s, not kubelet.config.k8s.io/v1beta1 KubeletConfiguration: the kubelet refuses to start", gvkString(gvk.GroupVersion().String(), gvk.Kind)),
			"use apiVersion: kubelet.config.k8s.io/v1beta1 and kind: KubeletConfiguration").AddingAPIVersion(f.Data, f.Doc)
		return nil, &fd, nil
	}
	return &Patch{Path: path, File: f, Keys: opt.Files.Walk(f, opt.Tree, source.Fold), JSON: data}, nil, nil
}

func gvkString(apiVersion, kind string) string {
	if apiVersion == "" {
		apiVersion = "(no apiVersion)"
	}
	if kind == "" {
		kind = "(no kind)"
	}
	return apiVersion + " " + kind
}

// typeMetaPos is the position of the apiVersion key (when apiVersion is at fault)
// or of the kind key; else of whichever of the two comes first, else the top.
func typeMetaPos(f *source.File, apiVersion bool) validate.Position {
	want := "kind"
	if apiVersion {
		want = "apiVersion"
	}
	var first *validate.Position
	for _, k := range source.Walk(f, skew.Tree(), source.Strict) {
		if k.Path == want {
			return k.Pos
		}
		if (k.Path == "apiVersion" || k.Path == "kind") && first == nil {
			first = &k.Pos
		}
	}
	if first != nil {
		return *first
	}
	return validate.Position{File: f.Path, Line: 1, Column: 1}
}

func dropInDecodeFinding(f *source.File, err error) validate.Finding {
	pos := validate.Position{File: f.Path, Line: 1, Column: 1}
	msg := err.Error()
	if f.SyntaxErr != nil {
		msg = f.SyntaxErr.Error()
		if l := source.ErrorLine(f.SyntaxErr); l > 0 {
			pos.Line = l
		}
	} else if strings.Contains(msg, "already set in map") {
		// The decoder names the line where a key comes again (the first such line
		// in its list); point at that key.
		line := source.ErrorLine(err)
		if first, again := duplicateAt(f, line); again != nil {
			pos = again.Pos
			msg = fmt.Sprintf("duplicate key %q (first at line %d): drop-ins are decoded strictly", again.Written, first.Pos.Line)
		} else if line > 0 {
			pos.Line = line
		}
	}
	fd := validate.DropInDecode.At(pos, "", "the kubelet cannot decode this drop-in and refuses to start: "+msg, "fix the file; each key may appear once per mapping")
	fd.Kubelet = err.Error()
	return fd
}

// duplicateAt finds a key repeated in its mapping whose repetition sits at line,
// and its first occurrence; with line 0 (or no repetition there), the earliest
// repetition in the file.
func duplicateAt(f *source.File, line int) (first, again *source.Key) {
	keys := source.Walk(f, skew.Tree(), source.Fold)
	var bestFirst, bestAgain *source.Key
	for i, k := range keys {
		if k.Kind != source.KeyDuplicate {
			continue
		}
		for j := i + 1; j < len(keys); j++ {
			if keys[j].WrittenPath != k.WrittenPath {
				continue
			}
			if keys[j].Pos.Line == line {
				return &keys[i], &keys[j]
			}
			if bestAgain == nil || before(keys[j].Pos, bestAgain.Pos) {
				bestFirst, bestAgain = &keys[i], &keys[j]
			}
			break
		}
	}
	if line > 0 {
		return nil, nil
	}
	return bestFirst, bestAgain
}

func before(a, b validate.Position) bool {
	return a.Line < b.Line || (a.Line == b.Line && a.Column < b.Column)
}

// mergeDecodeFinding explains a json.Unmarshal failure of the merged document and
// names the drop-in that set the offending field, when it can.
func mergeDecodeFinding(err error, patches []Patch, opt Options) validate.Finding {
	text := err.Error()
	var ute *json.UnmarshalTypeError
	if opt.Legacy != nil && errors.As(err, &ute) {
		text = opt.Legacy.typeErrorText(ute, opt.Tree)
	}
	pos, path := validate.Position{}, ""
	if errors.As(err, &ute) && ute.Field != "" {
		path = ute.Field
		for i := len(patches) - 1; i >= 0 && pos.File == ""; i-- {
			for _, k := range patches[i].Keys {
				if strings.EqualFold(k.Path, path) || strings.EqualFold(k.WrittenPath, path) {
					pos, path = k.Pos, k.Path
					break
				}
			}
		}
	}
	if pos.File == "" && len(patches) > 0 {
		pos = validate.Position{File: patches[len(patches)-1].Path}
	}
	fd := validate.DropInMerged.At(pos, path, "the merged configuration does not decode, the kubelet refuses to start: "+text, "give the field a value of the right type")
	fd.Kubelet = "failed to unmarshal merged JSON into kubelet configuration: " + text
	return fd
}

// keyFindings reports keys of a drop-in that vanish, relative paths and ignored
// YAML documents.
func keyFindings(p Patch, opt Options) []validate.Finding {
	out := legacyKeyFindings(p, opt)
	for _, line := range p.File.ExtraDocs {
		out = append(out, validate.ExtraDocument.At(validate.Position{File: p.Path, Line: line, Column: 1}, "",
			"only the first YAML document is read; this document is ignored by the kubelet", "move its settings into the first document or into another drop-in"))
	}
	for _, k := range p.Keys {
		switch k.Kind {
		case source.KeyUnknown:
			if legacyInternalName(k, opt) {
				continue // 1.31 applies it to the internal field of that name
			}
			hint := ""
			if since := knownSince(opt, k.Path); since != "" {
				hint = fmt.Sprintf("%s is a field from kubelet %s on; this kubelet does not have it", k.Path, since)
			} else if h, ok := validate.MisplacedThresholdHint(k.WrittenPath); ok {
				hint = h
			} else if k.Suggest != "" {
				hint = fmt.Sprintf("did you mean %q?", k.Suggest)
			}
			out = append(out, validate.UnknownFieldIn(validate.DropInUnknownField, k.Pos, k.Path, k.Written, hint))
			if fd, ok := draftCrashLoop(k); ok {
				out = append(out, fd.ReplacingDraft(p.File.Data, p.File.Doc))
			}
		case source.KeyExact:
			if !k.Null && k.Value != "" && isPathField(k.Path, opt.PathFields) && !filepath.IsAbs(k.Value) {
				out = append(out, validate.DropInRelativePath.Atf(k.Pos, k.Path, "use an absolute path",
					"%s %q is relative: drop-ins are not resolved against their folder, the kubelet uses it relative to its working directory", k.Path, k.Value))
			}
		}
	}
	return out
}

func isPathField(path string, fields []string) bool {
	for _, f := range fields {
		if f == path {
			return true
		}
	}
	return false
}

// draftCrashLoop recognises the KEP-4603 draft spelling crashloopbackoff.maxSeconds.
func draftCrashLoop(k source.Key) (validate.Finding, bool) {
	return validate.DraftCrashLoop(k.Pos, k.Path, k.Value)
}

// applyOrigins records, in merge order, which drop-in key set each field, and
// reports keys that only take effect through case-insensitive matching or that are
// shadowed by a correctly spelled key. It takes time linear in the number of keys:
// a drop-in may hold tens of thousands.
func applyOrigins(patches []Patch, merged []byte, cfg *kubeletv1beta1.KubeletConfiguration, opt Options) []validate.Finding {
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
	var out []validate.Finding
	for i, p := range patches {
		var valued map[string]bool
		for _, k := range p.Keys {
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
						out = append(out, validate.DropInCaseShadowed.Atf(k.Pos, k.Path, fmt.Sprintf("spell it %q", lastSegment(k.Path)),
							"%q is overridden by %q already in the merged config: encoding/json applies the correctly spelled key last, so this value is lost", k.Written, lastSegment(k.Path)).
							Renaming(p.File.Data, k.Written, lastSegment(k.Path)))
					}
					continue
				case effectGone:
					continue
				}
				if k.Kind == source.KeyCase {
					out = append(out, validate.DropInCaseOnly.Atf(k.Pos, k.Path, fmt.Sprintf("spell it %q", lastSegment(k.Path)),
						"%q takes effect as %q only because drop-ins match field names case-insensitively; in the main file it would be dropped", k.Written, k.Path).
						Renaming(p.File.Data, k.Written, lastSegment(k.Path)))
				}
			}
			origins.set(k)
			if !legacyIgnored(k, opt) {
				lost.set(k, i)
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

// ancestors calls fn with every path p lies strictly below (see skew.Below), longest
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
	origins map[string]validate.Position
	seq     int
	setAt   map[string]int // sequence number of the origins set here; 0 for earlier ones
	cleared map[string]int // sequence number of the last removal below a path
}

func newOriginSetter(origins map[string]validate.Position) *originSetter {
	return &originSetter{origins: origins, setAt: map[string]int{}, cleared: map[string]int{}}
}

func (o *originSetter) set(k source.Key) {
	if o.origins == nil {
		return
	}
	o.seq++
	if k.Null || k.Field == nil || k.Field.Kind == skew.List || k.Field.Kind == skew.Scalar {
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

func newEffects(merged []byte, tree *skew.Field, tops map[string]bool) *effects {
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
		if skew.Within(canonical, k.Path) {
			return effectApplied
		}
	}
	if !e.present[k.WrittenPath] {
		return effectGone
	}
	// encoding/json merges an object or a map into what an earlier key decoded:
	// one that sets no known value (empty, or only unknown keys) is decoded all
	// the same, it cannot be overridden.
	if k.Field != nil && (k.Field.Kind == skew.Object || k.Field.Kind == skew.Map) && !setsValue {
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
			(c.Field.Kind != skew.Scalar && c.Field.Kind != skew.List) {
			continue
		}
		ancestors(c.WrittenPath, func(a string) { out[a] = true })
	}
	return out
}

// lastWriters simulates encoding/json decoding the merged document: keys are
// applied in document order and matched case-insensitively; objects and maps merge
// into what an earlier key decoded, scalars and lists replace it. It returns, for
// every canonical leaf path, the written path of the key that set it last, and the
// set of written paths present in the document.
//
// With tops, only the values of top-level keys naming those fields are walked:
// the answers for paths under them are the same, the rest are left out.
func lastWriters(merged []byte, tree *skew.Field, tops map[string]bool) (map[string]string, map[string]bool) {
	w := jsonWalk{writers: map[string]string{}, present: map[string]bool{}, visited: map[string]bool{},
		setAt: map[string]int{}, cleared: map[string]int{}, tops: tops}
	if tops != nil && tree != nil && tree.Kind == skew.Object {
		// The document is valid JSON (it decoded before this runs): split its
		// top-level members with a byte scan and decode only the wanted ones.
		w.present[""], w.visited[""] = true, true
		if scanMembers(merged, func(key string, val []byte) {
			if c := fieldFor(tree, key); c != nil && tops[c.Name] {
				dec := json.NewDecoder(bytes.NewReader(val))
				dec.UseNumber()
				w.value(dec, c, skew.JoinPath("", c.Name), skew.JoinPath("", key))
			}
		}) {
			w.finish()
			return w.writers, w.present
		}
		w = jsonWalk{writers: map[string]string{}, present: map[string]bool{}, visited: map[string]bool{},
			setAt: map[string]int{}, cleared: map[string]int{}}
	}
	dec := json.NewDecoder(bytes.NewReader(merged))
	dec.UseNumber()
	w.value(dec, tree, "", "")
	w.finish()
	return w.writers, w.present
}

// scanMembers calls fn with the key and raw value of every member of the JSON
// object data, in document order. data must be valid JSON; false (before any
// call) when it is not an object.
func scanMembers(data []byte, fn func(key string, val []byte)) bool {
	i := jsonscan.Space(data, 0)
	if i >= len(data) || data[i] != '{' {
		return false
	}
	for i = jsonscan.Space(data, i+1); i < len(data) && data[i] != '}'; {
		end := jsonscan.End(data, i) // the key string
		key := string(data[i+1 : end-1])
		if bytes.IndexByte(data[i:end], '\\') >= 0 {
			_ = json.Unmarshal(data[i:end], &key)
		}
		i = jsonscan.Space(data, end)
		i = jsonscan.Space(data, i+1) // ':'
		end = jsonscan.End(data, i)
		fn(key, data[i:end])
		i = jsonscan.Space(data, end)
		if i < len(data) && data[i] == ',' {
			i = jsonscan.Space(data, i+1)
		}
	}
	return true
}

type jsonWalk struct {
	writers map[string]string
	present map[string]bool
	// visited holds canonical paths already decoded once: only a second decoding
	// of the same field (a case variant) can replace values below it.
	visited map[string]bool
	// A value that replaces what an earlier key decoded removes the writers below
	// it: the removals are recorded with a sequence number (seq, cleared, setAt)
	// and applied by finish in one pass, as a document with many keys would
	// otherwise take quadratic time.
	seq     int
	setAt   map[string]int
	cleared map[string]int
	// tops, when set, are the canonical top-level fields walked (see lastWriters).
	tops map[string]bool
}

func (w *jsonWalk) finish() {
	if len(w.cleared) == 0 {
		return
	}
	for p := range w.writers {
		set, gone := w.setAt[p], false
		ancestors(p, func(a string) {
			if c, ok := w.cleared[a]; ok && c > set {
				gone = true
			}
		})
		if gone {
			delete(w.writers, p)
		}
	}
}

func (w *jsonWalk) value(dec *json.Decoder, f *skew.Field, path, wpath string) {
	w.present[wpath] = true
	again := w.visited[path]
	w.visited[path] = true
	out := w.writers
	tok, err := dec.Token()
	if err != nil {
		return
	}
	delim, isDelim := tok.(json.Delim)
	if !isDelim || f == nil || f.Kind == skew.Scalar || f.Kind == skew.List {
		if isDelim {
			skipRest(dec, delim)
		}
		w.seq++
		if again {
			w.cleared[path] = w.seq
		}
		out[path] = wpath
		w.setAt[path] = w.seq
		return
	}
	if delim != '{' {
		skipRest(dec, delim)
		return
	}
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return
		}
		key, _ := kt.(string)
		if f.Kind == skew.Map {
			w.value(dec, f.Elem, path+"["+key+"]", wpath+"["+key+"]")
			continue
		}
		c := fieldFor(f, key)
		if c == nil || (path == "" && w.tops != nil && !w.tops[c.Name]) {
			skipValue(dec)
			continue
		}
		w.value(dec, c, skew.JoinPath(path, c.Name), skew.JoinPath(wpath, key))
	}
	_, _ = dec.Token() // closing brace
}

// fieldFor finds the field a key names as encoding/json matches it: exactly, else
// case-insensitively with Unicode folding ("ſ" matches "s", the Kelvin sign "k"),
// which Field.Child does not do.
func fieldFor(f *skew.Field, key string) *skew.Field {
	if c, _ := f.Child(key); c != nil || f.Kind != skew.Object || !hasNonASCII(key) {
		return c
	}
	// No two field names fold to each other, so at most one matches.
	for n, c := range f.Children {
		if strings.EqualFold(n, key) {
			return c
		}
	}
	return nil
}

func hasNonASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return true
		}
	}
	return false
}

// skipValue consumes one value; Decode scans it whole, much faster than
// Token by Token.
func skipValue(dec *json.Decoder) {
	var raw json.RawMessage
	_ = dec.Decode(&raw)
}

// topSegment is the first field name of a canonical path ("a" of "a.b[k]").
func topSegment(p string) string {
	if i := strings.IndexAny(p, ".["); i >= 0 {
		return p[:i]
	}
	return p
}

func skipRest(dec *json.Decoder, open json.Delim) {
	if open != '{' && open != '[' {
		return
	}
	depth := 1
	for depth > 0 {
		tok, err := dec.Token()
		if err != nil {
			return
		}
		if d, ok := tok.(json.Delim); ok {
			switch d {
			case '{', '[':
				depth++
			default:
				depth--
			}
		}
	}
}

func knownSince(opt Options, path string) string {
	if opt.KnownSince == nil {
		return ""
	}
	return opt.KnownSince(path)
}
