package dropin

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	jsonv2v1 "github.com/go-json-experiment/json/v1"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/rule"
	kubeletv1beta1 "github.com/kubeletcfg/kubeletcfg/upstream/kubelet/config/v1beta1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kubeletcfg/kubeletcfg/internal/jsonscan"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/source"
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
	Findings   []finding.Finding
	// Refused is set when the kubelet stops at the drop-in stage.
	Refused bool
}

// Options are the inputs of Merge besides the base.
type Options struct {
	// Tree is the KubeletConfiguration field tree of the kubelet minor.
	Tree *kubelets.Field
	// PathFields are the fields the main file's paths are resolved for; a drop-in
	// setting them to a relative path is reported.
	PathFields []string
	// Origins maps field paths to where their value came from; Merge updates it
	// with the drop-ins' keys that take effect.
	Origins map[string]finding.Position
	// Files reads and decodes the drop-ins, once across minors; nil reads directly.
	Files *source.Cache
	// KnownSince names the newer minor that has a field this one lacks ("" for
	// none), for the hint of an unknown key; nil gives no such hint.
	KnownSince func(path string) string
	// Minor is the kubelet minor whose types the merged document is decoded
	// into (kubelets.Minor.KnownJSON); nil decodes into the newest minor's.
	Minor *kubelets.Minor
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
			res.Findings = append(res.Findings, DropInIgnored.At(finding.Position{File: e.Path}, "",
				"not merged: only files ending in .conf are read from the drop-in folder", "rename it to end in .conf if it is meant to apply"))
			continue
		}
		p, refusal, err := readPatch(e.Path, opt)
		if err != nil {
			return nil, err
		}
		if refusal != nil {
			res.Findings = append(res.Findings, *refusal)
			res.Refused = true
			continue
		}
		res.Patches = append(res.Patches, *p)
		if res.Refused {
			continue // the kubelet already stopped; keep reading for diagnostics only
		}
		if err := merged.apply(truncateDeep(p.JSON, maxPatchDepth)); err != nil {
			res.Findings = append(res.Findings, DropInDecode.At(finding.Position{File: e.Path}, "",
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
	unmarshal := json.Unmarshal
	if opt.Minor != nil && opt.Minor.JSONv2 {
		// Go 1.27's encoding/json, as the kubelet of this minor links it: the
		// same decoding, other error texts.
		unmarshal = jsonv2v1.Unmarshal
	}
	if err := unmarshal(target, cfg); err != nil {
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
	for i := 0; i < len(data); i++ {
		switch c := data[i]; c {
		case '"':
			i = jsonscan.StringEnd(data, i) - 1
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
func readPatch(path string, opt Options) (*Patch, *finding.Finding, error) {
	at := finding.Position{File: path}
	f, err := opt.Files.ReadFile(path)
	if err != nil {
		var ie *source.InputError
		if errors.As(err, &ie) && strings.Contains(ie.Err.Error(), "reads at most") {
			return nil, nil, err
		}
		fd := DropInDecode.At(at, "", "the kubelet cannot read this drop-in: "+errors.Unwrap(err).Error(), "")
		return nil, &fd, nil
	}
	if len(f.Data) == 0 {
		fd := DropInEmpty.At(at, "", "empty drop-in: the kubelet refuses to start (\"kubelet config file was empty\")",
			"delete the file or give it apiVersion: kubelet.config.k8s.io/v1beta1 and kind: KubeletConfiguration")
		return nil, &fd, nil
	}
	data, gvk, err := opt.Files.DecodeDropIn(f)
	if err != nil && f.SyntaxErr == nil && (runtime.IsMissingKind(err) || runtime.IsMissingVersion(err)) {
		// The decoder stops at the missing kind before anything else; a drop-in of
		// whitespace or comments only has no kind either.
		fd := rule.AddingAPIVersion(DropInTypeMeta.At(typeMetaPos(f, runtime.IsMissingVersion(err)), "", "the drop-in has no apiVersion/kind: the kubelet refuses to start",
			"add apiVersion: kubelet.config.k8s.io/v1beta1 and kind: KubeletConfiguration"), f.Text(), f.Doc)
		fd.Kubelet = err.Error()
		return nil, &fd, nil
	}
	if err != nil {
		fd := dropInDecodeFinding(f, err)
		return nil, &fd, nil
	}
	if gvk == nil || gvk.Empty() {
		fd := DropInTypeMeta.At(at, "", "the drop-in has no apiVersion/kind: the kubelet refuses to start",
			"add apiVersion: kubelet.config.k8s.io/v1beta1 and kind: KubeletConfiguration")
		return nil, &fd, nil
	}
	if *gvk != source.KubeletGVK && opt.Legacy == nil {
		// 1.31 decodes drop-ins into Unstructured without checking the kind.
		fd := rule.AddingAPIVersion(DropInTypeMeta.At(typeMetaPos(f, gvk.GroupVersion() != source.KubeletGVK.GroupVersion()), "", fmt.Sprintf("the drop-in is %s, not kubelet.config.k8s.io/v1beta1 KubeletConfiguration: the kubelet refuses to start", gvkString(gvk.GroupVersion().String(), gvk.Kind)),
			"use apiVersion: kubelet.config.k8s.io/v1beta1 and kind: KubeletConfiguration"), f.Text(), f.Doc)
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
