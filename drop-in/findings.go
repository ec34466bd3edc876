package dropin

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	jsonv2v1 "github.com/go-json-experiment/json/v1"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/rule"
	"github.com/kubeletcfg/kubeletcfg/source"
)

// typeMetaPos is the position of the apiVersion key (when apiVersion is at fault)
// or of the kind key; else of whichever of the two comes first, else the top.
func typeMetaPos(f *source.File, apiVersion bool) finding.Position {
	want := "kind"
	if apiVersion {
		want = "apiVersion"
	}
	var first *finding.Position
	for _, k := range source.Walk(f, kubelets.Tree(), source.Strict) {
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
	return finding.Position{File: f.Path, Line: 1, Column: 1}
}

func dropInDecodeFinding(f *source.File, err error) finding.Finding {
	pos := finding.Position{File: f.Path, Line: 1, Column: 1}
	msg := err.Error()
	hint := "fix the file"
	if f.SyntaxErr != nil {
		msg, hint = f.SyntaxErr.Error(), source.SyntaxHint(f.Data)
		if l := source.ErrorLine(f.SyntaxErr); l > 0 {
			pos.Line = l
		}
	} else if at, ok := source.ExcessiveAliasing(err, f.Doc, pos); ok {
		pos, msg, hint = at, source.AliasingMessage, source.AliasingHint
	} else if strings.Contains(msg, "already set in map") {
		// The decoder names the line where a key comes again (the first such line
		// in its list); point at that key.
		line := source.ErrorLine(err)
		if first, again := duplicateAt(f, line); again != nil {
			pos = again.Pos
			msg = fmt.Sprintf("duplicate key %q (first at line %d): drop-ins are decoded strictly", again.Written, first.Pos.Line)
			hint = "fix the file; each key may appear once per mapping"
		} else if line > 0 {
			pos.Line = line
		}
	}
	fd := DropInDecode.At(pos, "", "the kubelet cannot decode this drop-in and refuses to start: "+msg, hint)
	fd.Kubelet = err.Error()
	return fd
}

// duplicateAt finds a key repeated in its mapping whose repetition sits at line,
// and its first occurrence; with line 0 (or no repetition there), the earliest
// repetition in the file.
func duplicateAt(f *source.File, line int) (first, again *source.Key) {
	keys := source.Walk(f, kubelets.Tree(), source.Fold)
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

func before(a, b finding.Position) bool {
	return a.Line < b.Line || (a.Line == b.Line && a.Column < b.Column)
}

// mergeDecodeFinding explains a json.Unmarshal failure of the merged document and
// names the drop-in that set the offending field, when it can.
func mergeDecodeFinding(err error, patches []Patch, opt Options) finding.Finding {
	text := err.Error()
	var ute *json.UnmarshalTypeError
	if opt.Legacy != nil && errors.As(err, &ute) {
		text = opt.Legacy.typeErrorText(ute, opt.Tree)
	}
	pos, path := finding.Position{}, ""
	field := ""
	if errors.As(err, &ute) {
		field = ute.Field
	}
	if v2 := (*jsonv2v1.UnmarshalTypeError)(nil); errors.As(err, &v2) {
		field = v2.Field // Go 1.27's: the path as written, dotted
	}
	if field != "" {
		path = field
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
		pos = finding.Position{File: patches[len(patches)-1].Path}
	}
	fd := DropInMerged.At(pos, path, "the merged configuration does not decode, the kubelet refuses to start: "+text, "give the field a value of the right type")
	fd.Kubelet = "failed to unmarshal merged JSON into kubelet configuration: " + text
	return fd
}

// keyFindings reports keys of a drop-in that vanish, relative paths and ignored
// YAML documents.
func keyFindings(p Patch, opt Options) []finding.Finding {
	out := legacyKeyFindings(p, opt)
	for _, line := range p.File.ExtraDocs {
		out = append(out, source.ExtraDocument.At(finding.Position{File: p.Path, Line: line, Column: 1}, "",
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
			} else if h, ok := rule.MisplacedThresholdHint(k.WrittenPath); ok {
				hint = h
			} else if k.Suggest != "" {
				hint = fmt.Sprintf("did you mean %q?", k.Suggest)
			}
			out = append(out, rule.UnknownFieldIn(DropInUnknownField, k.Pos, k.Path, k.Written, hint))
			if fd, ok := draftCrashLoop(k); ok {
				out = append(out, rule.ReplacingDraft(fd, p.File.Text(), p.File.Keys()))
			}
		case source.KeyExact:
			if !k.Null && k.Value != "" && isPathField(k.Path, opt.PathFields) && !filepath.IsAbs(k.Value) {
				out = append(out, DropInRelativePath.Atf(k.Pos, k.Path, "use an absolute path",
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
func draftCrashLoop(k source.Key) (finding.Finding, bool) {
	return source.DraftCrashLoop(k.Pos, k.Path, k.Value)
}

func knownSince(opt Options, path string) string {
	if opt.KnownSince == nil {
		return ""
	}
	return opt.KnownSince(path)
}
