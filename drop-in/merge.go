package dropin

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	kubeletv1beta1 "k8s.io/kubelet/config/v1beta1"

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
}

// Merge applies the .conf entries over base, the JSON of the defaulted main config,
// in order. It reads every file so that all problems are reported, but like the
// kubelet it stops merging at the first file it cannot use.
func Merge(base []byte, entries []Entry, opt Options) (*Result, error) {
	res := &Result{}
	merged := base
	for _, e := range entries {
		if !e.Conf {
			res.Findings = append(res.Findings, validate.DropInIgnored.At(validate.Position{File: e.Path}, "",
				"not merged: only files ending in .conf are read from the drop-in folder", "rename it to end in .conf if it is meant to apply"))
			continue
		}
		p, finding, err := readPatch(e.Path, opt.Tree)
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
		out, err := jsonpatch.MergePatch(merged, p.JSON)
		if err != nil {
			res.Findings = append(res.Findings, validate.DropInDecode.At(validate.Position{File: e.Path}, "",
				"the drop-in cannot be merged: "+err.Error(), ""))
			res.Refused = true
			continue
		}
		merged = out
	}
	res.MergedJSON = merged
	for _, p := range res.Patches {
		res.Findings = append(res.Findings, keyFindings(p, opt)...)
	}
	if res.Refused {
		return res, nil
	}
	cfg := &kubeletv1beta1.KubeletConfiguration{}
	if err := json.Unmarshal(merged, cfg); err != nil {
		res.Findings = append(res.Findings, mergeDecodeFinding(err, res.Patches))
		res.Refused = true
		return res, nil
	}
	res.Config = cfg
	res.Findings = append(res.Findings, applyOrigins(res.Patches, merged, opt)...)
	return res, nil
}

// readPatch reads and decodes one drop-in. A problem the kubelet stops on is a
// finding; a file we will not read (too large) is an input error.
func readPatch(path string, tree *skew.Field) (*Patch, *validate.Finding, error) {
	at := validate.Position{File: path}
	f, err := source.ReadFile(path)
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
	data, gvk, err := source.DecodeDropIn(f.Data)
	if err != nil {
		fd := dropInDecodeFinding(f, err)
		return nil, &fd, nil
	}
	if gvk == nil || gvk.Empty() {
		fd := validate.DropInTypeMeta.At(at, "", "the drop-in has no apiVersion/kind: the kubelet refuses to start",
			"add apiVersion: kubelet.config.k8s.io/v1beta1 and kind: KubeletConfiguration")
		return nil, &fd, nil
	}
	if *gvk != source.KubeletGVK {
		fd := validate.DropInTypeMeta.At(typeMetaPos(f), "", fmt.Sprintf("the drop-in is %s, not kubelet.config.k8s.io/v1beta1 KubeletConfiguration: the kubelet refuses to start", gvkString(gvk.GroupVersion().String(), gvk.Kind)),
			"use apiVersion: kubelet.config.k8s.io/v1beta1 and kind: KubeletConfiguration")
		return nil, &fd, nil
	}
	return &Patch{Path: path, File: f, Keys: source.Walk(f, tree, source.Fold), JSON: data}, nil, nil
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

func typeMetaPos(f *source.File) validate.Position {
	for _, k := range source.Walk(f, skew.Tree(), source.Strict) {
		if k.Path == "apiVersion" || k.Path == "kind" {
			return k.Pos
		}
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
	} else if dup := firstDuplicate(f); dup != nil {
		pos = dup.Pos
		msg = fmt.Sprintf("duplicate key %q (again at line %d): drop-ins are decoded strictly", dup.Written, dup.Winner.Line)
	}
	fd := validate.DropInDecode.At(pos, "", "the kubelet cannot decode this drop-in and refuses to start: "+msg, "fix the file; each key may appear once per mapping")
	fd.Kubelet = err.Error()
	return fd
}

func firstDuplicate(f *source.File) *source.Key {
	for _, k := range source.Walk(f, skew.Tree(), source.Fold) {
		if k.Kind == source.KeyDuplicate {
			return &k
		}
	}
	return nil
}

// mergeDecodeFinding explains a json.Unmarshal failure of the merged document and
// names the drop-in that set the offending field, when it can.
func mergeDecodeFinding(err error, patches []Patch) validate.Finding {
	var ute *json.UnmarshalTypeError
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
	fd := validate.DropInMerged.At(pos, path, "the merged configuration does not decode, the kubelet refuses to start: "+err.Error(), "give the field a value of the right type")
	fd.Kubelet = "failed to unmarshal merged JSON into kubelet configuration: " + err.Error()
	return fd
}

// keyFindings reports keys of a drop-in that vanish and relative paths.
func keyFindings(p Patch, opt Options) []validate.Finding {
	var out []validate.Finding
	for _, k := range p.Keys {
		switch k.Kind {
		case source.KeyUnknown:
			hint := ""
			if k.Suggest != "" {
				hint = fmt.Sprintf("did you mean %q?", k.Suggest)
			}
			if fd, ok := draftCrashLoop(k); ok {
				out = append(out, fd)
				continue
			}
			out = append(out, validate.UnknownFieldIn(validate.DropInUnknownField, k.Pos, k.Path, k.Written, hint))
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
// shadowed by a correctly spelled key.
func applyOrigins(patches []Patch, merged []byte, opt Options) []validate.Finding {
	var writers map[string]string
	var present map[string]bool
	var out []validate.Finding
	for _, p := range patches {
		for _, k := range p.Keys {
			if k.Kind != source.KeyExact && k.Kind != source.KeyCase {
				continue
			}
			if k.WrittenPath != k.Path {
				if writers == nil {
					writers, present = lastWriters(merged, opt.Tree)
				}
				switch writtenEffect(writers, present, k) {
				case effectShadowed:
					if k.Kind == source.KeyCase {
						out = append(out, validate.DropInCaseShadowed.Atf(k.Pos, k.Path, fmt.Sprintf("spell it %q", lastSegment(k.Path)),
							"%q is overridden by %q already in the merged config: encoding/json applies the correctly spelled key last, so this value is lost", k.Written, lastSegment(k.Path)))
					}
					continue
				case effectGone:
					continue
				}
				if k.Kind == source.KeyCase {
					out = append(out, validate.DropInCaseOnly.Atf(k.Pos, k.Path, fmt.Sprintf("spell it %q", lastSegment(k.Path)),
						"%q takes effect as %q only because drop-ins match field names case-insensitively; in the main file it would be dropped", k.Written, k.Path))
				}
			}
			setOrigin(opt.Origins, k)
		}
	}
	return out
}

func lastSegment(path string) string {
	if i := strings.LastIndexAny(path, ".]"); i >= 0 && path[i] == '.' {
		return path[i+1:]
	}
	return path
}

func setOrigin(origins map[string]validate.Position, k source.Key) {
	if origins == nil {
		return
	}
	clearBelow := k.Null || k.Field == nil || k.Field.Kind == skew.List || k.Field.Kind == skew.Scalar
	if clearBelow {
		for p := range origins {
			if strings.HasPrefix(p, k.Path+".") || strings.HasPrefix(p, k.Path+"[") {
				delete(origins, p)
			}
		}
	}
	if k.Null {
		delete(origins, k.Path)
		return
	}
	origins[k.Path] = k.Pos
}

type effect int

const (
	effectApplied  effect = iota
	effectShadowed        // present in the merged JSON but overwritten during decoding
	effectGone            // removed from the merged JSON by a later drop-in
)

// writtenEffect says whether the key, as written, still decides at least one value
// after encoding/json has decoded the merged document.
func writtenEffect(writers map[string]string, present map[string]bool, k source.Key) effect {
	for canonical, written := range writers {
		if under(written, k.WrittenPath) && under(canonical, k.Path) {
			return effectApplied
		}
	}
	if present[k.WrittenPath] {
		return effectShadowed
	}
	return effectGone
}

// under reports whether path is p or lies below it.
func under(path, p string) bool {
	return path == p || strings.HasPrefix(path, p+".") || strings.HasPrefix(path, p+"[")
}

// lastWriters simulates encoding/json decoding the merged document: keys are
// applied in document order and matched case-insensitively; objects and maps merge
// into what an earlier key decoded, scalars and lists replace it. It returns, for
// every canonical leaf path, the written path of the key that set it last, and the
// set of written paths present in the document.
func lastWriters(merged []byte, tree *skew.Field) (map[string]string, map[string]bool) {
	w := jsonWalk{writers: map[string]string{}, present: map[string]bool{}, visited: map[string]bool{}}
	dec := json.NewDecoder(bytes.NewReader(merged))
	dec.UseNumber()
	w.value(dec, tree, "", "")
	return w.writers, w.present
}

type jsonWalk struct {
	writers map[string]string
	present map[string]bool
	// visited holds canonical paths already decoded once: only a second decoding
	// of the same field (a case variant) can replace values below it.
	visited map[string]bool
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
		if again {
			clearPrefix(out, path)
		}
		out[path] = wpath
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
		c, _ := f.Child(key)
		if c == nil {
			skipValue(dec)
			continue
		}
		w.value(dec, c, join(path, c.Name), join(wpath, key))
	}
	_, _ = dec.Token() // closing brace
}

func join(parent, name string) string {
	if parent == "" {
		return name
	}
	return parent + "." + name
}

func clearPrefix(out map[string]string, path string) {
	for p := range out {
		if p != path && under(p, path) {
			delete(out, p)
		}
	}
}

func skipValue(dec *json.Decoder) {
	tok, err := dec.Token()
	if err != nil {
		return
	}
	if d, ok := tok.(json.Delim); ok {
		skipRest(dec, d)
	}
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
