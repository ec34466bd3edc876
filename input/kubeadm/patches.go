package kubeadm

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"
	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/input/internal/yamlmap"
	kubeletv1beta1 "github.com/kubeletcfg/kubeletcfg/upstream/kubelet/config/v1beta1"
)

// kubeadm's patches (cmd/kubeadm/app/util/patches/patches.go and
// phases/kubelet/config.go, applyKubeletConfigPatches; the same in kubeadm
// 1.31-1.37): given a patches folder (kubeadm init --patches, or the
// InitConfiguration's patches.directory), WriteConfigToDisk patches the
// marshalled KubeletConfiguration with the folder's files for the target
// kubeletconfiguration, kubeletconfiguration[suffix][+strategic|+merge|+json].{yaml,json},
// in filepath.Walk's order (sub-folders too), before it writes
// /var/lib/kubelet/config.yaml. The harness's kubeadm goldens apply kubeadm's
// own function; kubeadm.TestKubeadmGoldens compares.

// PatchTarget is patches.KubeletConfiguration.
const PatchTarget = "kubeletconfiguration"

// kubeadmPatchTargets is patches.KnownTargets (1.37 added kubeproxydaemonset;
// before, a file named for it is ignored as an unknown target).
var kubeadmPatchTargets = []string{"etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler",
	PatchTarget, "corednsdeployment", "kubeproxydaemonset"}

var (
	kubeadmPatchExt  = regexp.MustCompile(`.+\.(json|yaml)$`)
	kubeadmPatchName = regexp.MustCompile(`^(` + strings.Join(kubeadmPatchTargets, "|") + `)([^.+\n]*)?(\+)?(json|merge|strategic)?`)
)

// Patch is one patch for the kubelet configuration: a document of a
// patch file, as JSON, and where its keys are written.
type Patch struct {
	file  string
	typ   string // strategic, merge or json
	patch []byte
	// ByPath: the patch's keys (strategic, merge) or operations' paths (json)
	// by field path, at the file's lines.
	ByPath map[string]finding.Position
}

// Patches are the kubelet configuration patches of a kubeadm patches
// folder, in the order kubeadm applies them.
type Patches struct {
	Dir  string
	List []Patch
	// Files are the patch files for the kubelet configuration, as read.
	Files []string
}

// ReadPatches reads a kubeadm patches folder as getPatchSetsFromPath
// does: every file under it whose name is a known target's is split into
// documents and converted to JSON (an error in any target's file stops
// kubeadm); the kubeletconfiguration ones are kept.
func ReadPatches(dir string) (*Patches, error) {
	out := &Patches{Dir: dir}
	info, err := os.Lstat(dir)
	if err == nil && !info.IsDir() {
		err = &os.PathError{Op: "getPatchSetsFromPath", Path: info.Name(), Err: errors.New("not a directory")}
	}
	if err == nil {
		err = filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
			if err != nil || info.IsDir() {
				return err
			}
			target, typ, ok, err := ParsePatchName(info.Name())
			if err != nil || !ok {
				return err
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return fmt.Errorf("could not read the file %q: %w", path, err)
			}
			if len(data) == 0 {
				return nil // kubeadm: "Ignoring empty file"
			}
			patches, err := SplitPatches(path, data, typ)
			if err != nil || target != PatchTarget {
				return err
			}
			out.List = append(out.List, patches...)
			out.Files = append(out.Files, path)
			return nil
		})
	}
	if err != nil {
		return nil, fmt.Errorf("could not list patch files for path %q: %w", dir, err)
	}
	return out, nil
}

// ParsePatchName is parseFilename: ok is false for a file kubeadm
// ignores (another extension, an unknown target); a "+" without a known
// patch type is an error.
func ParsePatchName(name string) (target, typ string, ok bool, err error) {
	if !kubeadmPatchExt.MatchString(name) {
		return "", "", false, nil
	}
	sub := kubeadmPatchName.FindStringSubmatch(name)
	if sub == nil {
		return "", "", false, nil
	}
	if sub[3] != "" && sub[4] == "" {
		return "", "", false, fmt.Errorf("unknown or missing patch type after '+', must be one of [json merge strategic]")
	}
	typ = sub[4]
	if typ == "" {
		typ = "strategic"
	}
	return sub[1], typ, true, nil
}

// SplitPatches is CreatePatchSet: the file split by the YAML reader,
// each non-empty document converted to JSON, with its keys' positions.
func SplitPatches(path string, data []byte, typ string) ([]Patch, error) {
	reader := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	var out []Patch
	for {
		doc, err := reader.Read()
		if err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("could not split patches for data:\n%s\n: %w", data, err)
		}
		doc = bytes.TrimSpace(doc)
		if len(doc) == 0 {
			continue
		}
		j, err := sigsyaml.YAMLToJSON(doc)
		if err != nil {
			return nil, fmt.Errorf("could not convert patch to JSON:\n%s\n: %w", doc, err)
		}
		out = append(out, Patch{file: path, typ: typ, patch: j, ByPath: map[string]finding.Position{}})
	}
	// Positions: the documents as SplitDocs finds them at the file's lines.
	var docs []Doc
	for _, d := range SplitDocs(data) {
		if strings.TrimSpace(string(d.Text)) != "" {
			docs = append(docs, d)
		}
	}
	for i := range out {
		if i >= len(docs) || docs[i].Root == nil && typ != "json" {
			continue
		}
		if typ == "json" {
			IndexJSONPatch(out[i].ByPath, path, docs[i].Text, docs[i].First)
			continue
		}
		IndexPaths(out[i].ByPath, path, docs[i].Root, "")
	}
	return out, nil
}

// IndexJSONPatch records, for each operation of a JSON patch (text, at the
// file's line first), its path and the keys of its value at their positions.
func IndexJSONPatch(m map[string]finding.Position, file string, text []byte, first int) {
	var n yaml.Node
	if yaml.Unmarshal(text, &n) != nil || len(n.Content) != 1 || n.Content[0].Kind != yaml.SequenceNode {
		return
	}
	shiftLines(&n, first-1)
	for _, op := range n.Content[0].Content {
		p := yamlmap.Value(op, "path")
		if op.Kind != yaml.MappingNode || p == nil || !strings.HasPrefix(p.Value, "/") {
			continue
		}
		for _, fp := range pointerPaths(strings.Split(p.Value[1:], "/")) {
			if _, dup := m[fp]; !dup {
				m[fp] = finding.Position{File: file, Line: op.Line, Column: op.Column}
			}
			if v := yamlmap.Value(op, "value"); v != nil {
				IndexPaths(m, file, v, fp)
			}
		}
	}
}

// pointerPaths spells the field path of JSON pointer segments both ways
// findings spell a level (a.b and a[b]), as indexPaths records keys.
func pointerPaths(segs []string) []string {
	unescape := strings.NewReplacer("~1", "/", "~0", "~")
	out := []string{unescape.Replace(segs[0])}
	for _, s := range segs[1:] {
		if len(out) > 1<<maxPathDepth {
			break
		}
		s = unescape.Replace(s)
		var next []string
		for _, p := range out {
			next = append(next, p+"["+s+"]")
			if _, err := strconv.Atoi(s); err != nil {
				next = append(next, p+"."+s)
			}
		}
		out = next
	}
	return out
}

// Apply patches doc, the marshalled KubeletConfiguration, as
// ApplyPatchesToTarget and applyKubeletConfigPatches do: to its JSON, patch
// by patch, then back to YAML. An error is kubeadm's, which stops kubeadm init.
func (p *Patches) Apply(doc []byte) ([]byte, error) {
	data, err := sigsyaml.YAMLToJSON(doc)
	if err != nil {
		return nil, err
	}
	for _, patch := range p.List {
		switch patch.typ {
		case "json":
			var ops jsonpatch.Patch
			if ops, err = jsonpatch.DecodePatch(patch.patch); err == nil {
				data, err = ops.Apply(data)
			}
		case "merge":
			data, err = jsonpatch.MergePatch(data, patch.patch)
		default:
			data, err = strategicpatch.StrategicMergePatch(data, patch.patch, kubeletv1beta1.KubeletConfiguration{})
		}
		if err != nil {
			return nil, fmt.Errorf("could not apply patches to the KubeletConfiguration: could not apply the following patch of type %q to target %q:\n%s\n: %w",
				patchType(patch.typ), PatchTarget, patch.patch, err)
		}
	}
	return sigsyaml.JSONToYAML(data)
}

// patchType is the types.PatchType kubeadm's errors quote.
func patchType(typ string) string {
	switch typ {
	case "json":
		return "application/json-patch+json"
	case "merge":
		return "application/merge-patch+json"
	}
	return "application/strategic-merge-patch+json"
}

// Positions are the patches' keys by field path, a later patch's over an
// earlier one's.
func (p *Patches) Positions() map[string]finding.Position {
	m := map[string]finding.Position{}
	for _, patch := range p.List {
		maps.Copy(m, patch.ByPath)
	}
	return m
}

// patchesOf reads the patches folder kubeadm init (or join) applies: the
// --patches flag's (opt.Patches), else the InitConfiguration's (JoinConfiguration's)
// patches.directory (kubeadm's initData.PatchesDir, joinData.PatchesDir). A relative folder is
// kubeadm's working folder's, as os.Lstat reads it. nil: none.
func patchesOf(docs []Doc, opt Options) (*Patches, error) {
	dir := opt.Patches
	// kubeadm join's node document is the JoinConfiguration (joinData.PatchesDir).
	node := "InitConfiguration"
	if n := NodeOf("", docs); n.join {
		node = "JoinConfiguration"
	}
	for i := range docs {
		d := &docs[i]
		if dir != "" || d.Kind != node || Group(d.APIVersion) != "kubeadm.k8s.io" {
			continue
		}
		if p := yamlmap.Value(d.Root, "patches"); p != nil {
			if v := yamlmap.Value(p, "directory"); v != nil {
				dir = v.Value
			}
		}
	}
	if dir == "" {
		return nil, nil
	}
	return ReadPatches(dir)
}

// patchFilesNote names the kubelet configuration patch files for the note.
func patchFilesNote(p *Patches) string {
	if len(p.Files) == 0 {
		return "none for kubeletconfiguration"
	}
	var names []string
	for _, f := range p.Files {
		if rel, err := filepath.Rel(p.Dir, f); err == nil {
			f = rel
		}
		names = append(names, f)
	}
	return strings.Join(names, ", ")
}
