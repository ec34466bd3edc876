// Package posmap maps positions in a document a translator converted (what
// kubeadm, kind, minikube or a bootstrapper writes for the kubelet) back to
// the file the user keeps. Each translator under input/ fills a Map; package
// input applies it to the pipeline's findings and origins (input.Source).
package posmap

import (
	"strings"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

// Map maps positions in a converted document to the file the user keeps, in
// one of three layouts: Fallback (every position is one key's: a kubeadm
// ConfigMap whose value is quoted), a literal block (First..Last), or ByPath
// (the converted document has a layout of its own: kubeadm's config.yaml, a
// bootstrapper's files).
type Map struct {
	Path string
	// Fallback: every position in the file is the kubelet: key's.
	Fallback           bool
	KeyLine, KeyColumn int
	// A literal block: lines First..Last hold the value, indented by Indent,
	// except the dedented lines (document markers, directives).
	First, Last, Indent int
	Dedented            map[int]bool
	// ByPath: the converted document is not laid out like the file (kubeadm's
	// config.yaml); a position is found by its field path, the nearest written
	// ancestor's, else anchor.
	ByPath map[string]finding.Position
	Anchor finding.Position
	// Set are the paths kubeadm (or kind) sets; any other key of the converted
	// document the file does not have is a zero value kubeadm marshals, which the
	// kubelet defaults as if it were absent: its origin is the default.
	Set []string
	// PatchFiles are the kubeadm patch files whose keys byPath holds.
	PatchFiles map[string]bool
	// Notes say what set the paths the tool sets that the file does not
	// write (Result.OriginNotes), by path, a nearest ancestor's, else
	// defaultNote; nil: no Notes.
	Notes       map[string]string
	DefaultNote string
	// WrittenToo: paths the file writes that the tool writes too, with the
	// tool's note (bootstrap.Output.WrittenToo).
	WrittenToo map[string]string
	// FlagAt: positions in the file of the kubelet flags the input itself names
	// (minikube's), by the field path each flag sets: a finding or origin there
	// on that path is the flag's and keeps its position.
	FlagAt map[finding.Position][]string
	// Generated are the other files a bootstrapper writes (its drop-ins, by
	// node path): their positions map by field path too.
	Generated map[string]bool
	// FlagNotes are the notes of paths the input's own flags set (flagAt),
	// by path: "set by kubeadm from nodeRegistration.kubeletExtraArgs[...]".
	FlagNotes map[string]string
}

// ToolAlso is the note of a gate entry the user's file writes and the tool
// writes too (bootstrap.Output.WrittenToo), if p is one.
func (m *Map) ToolAlso(p string) (string, bool) {
	if !strings.HasPrefix(p, "featureGates[") {
		return "", false
	}
	n, ok := m.WrittenToo[p]
	return n, ok
}

// ToolNote is the note of a path the tool sets and the user's file does not
// write (mapPosition sends its findings to the anchor), if p is one.
func (m *Map) ToolNote(p string) (string, bool) {
	for ; p != ""; p = kubelets.Parent(p) {
		if _, ok := m.ByPath[p]; ok {
			return "", false
		}
		if n, ok := m.Notes[p]; ok {
			return n, true
		}
	}
	return "", false
}

// NoteFor is the note of path p: its own, a nearest ancestor's, else the default.
func (m *Map) NoteFor(p string) string {
	for q := p; q != ""; q = kubelets.Parent(q) {
		if n, ok := m.Notes[q]; ok {
			return n
		}
	}
	return m.DefaultNote
}

// FlagSets reports whether p is the position of a flag the input names that
// sets path k (its origin is the flag, not a note).
func (m *Map) FlagSets(p finding.Position, k string) bool {
	for _, fp := range m.FlagAt[p] {
		if fp != "" && kubelets.Within(k, fp) {
			return true
		}
	}
	return false
}

// SetsPath reports whether p is, is within or holds a path kubeadm sets.
func (m *Map) SetsPath(p string) bool {
	for _, q := range m.Set {
		if kubelets.Within(p, q) || kubelets.Within(q, p) {
			return true
		}
	}
	return false
}

// UserWrote reports whether the user's file writes path or a key below it.
func (m *Map) UserWrote(path string) bool {
	for p := range m.ByPath {
		if kubelets.Within(p, path) {
			return true
		}
	}
	return false
}
