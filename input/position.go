package input

import (
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/source"
	"github.com/kubeletcfg/kubeletcfg/validate"
)

// Position maps p, a position the pipeline reported, to the file the user
// gave. Positions in other files, and positions without a line, are kept.
func (s *Source) Position(p finding.Position) finding.Position {
	return s.positionAt(p, "")
}

// positionAt is Position for the value at field path (empty: unknown).
func (s *Source) positionAt(p finding.Position, path string) finding.Position {
	return s.mapPosition(p, path, true)
}

// mapPosition is positionAt; flags keeps the positions of the input's own flags.
func (s *Source) mapPosition(p finding.Position, path string, flags bool) finding.Position {
	m := s.pos
	if m == nil || p.File != m.Path && !m.Generated[p.File] {
		return p
	}
	if m.ByPath != nil {
		if fps, ok := m.FlagAt[p]; ok && flags {
			for _, fp := range fps {
				if path == "" || fp != "" && kubelets.Within(path, fp) {
					return p
				}
			}
		}
		for path != "" {
			if q, ok := m.ByPath[path]; ok {
				return q
			}
			if _, ok := m.Notes[path]; ok {
				// The tool set this value (its note says so), not the user's
				// key above it: the anchor, not that key.
				return m.Anchor
			}
			path = kubelets.Parent(path)
		}
		return m.Anchor
	}
	if p.Line == 0 {
		return p
	}
	switch {
	case m.Fallback:
		p.Line, p.Column = m.KeyLine, m.KeyColumn
	case p.Line < m.First:
		// "The top of the file" (a defaulted value, missing apiVersion) is
		// the top of the block, not of the ConfigMap.
		p.Line, p.Column = m.First, m.Indent+1
	case p.Line > m.Last:
		p.Line, p.Column = m.Last, m.Indent+1
	case m.Dedented[p.Line]:
		p.Column += m.Indent
	}
	return p
}

// Translate maps every position of r (findings, origins) with Position. It
// is a no-op for inputs whose positions need no mapping, which is every input
// but a kubeadm ConfigMap; there it corrects only the top of the file,
// document markers and a quoted data.kubelet (the layout of the converted
// document keeps the rest). Commands call it on each Result they print
// (through Settle: inputFlags.evaluate, lint --nodes): that is less invasive than an Input
// field the pipeline would honour, keeps the pipeline unaware of input
// formats, and the layout already gives the commands that do not call it
// (skew, preflight, backoff) the right line of a literal block.
// The order of the findings is kept: the mapping of a block keeps it, and for
// a quoted string, where all share the key's position, the order inside the
// string is the useful one.
func (s *Source) Translate(r *Result) {
	if s == nil || s.pos == nil || r == nil {
		return
	}
	for i := range r.Findings {
		f := &r.Findings[i]
		if f.Rule == validate.FlagOverridesFile.ID && s.pos.ByPath != nil {
			// The message names where the file set the value: a position in the converted document.
			f.Message = s.mapMessage(f.Message, f.Path)
		}
		if _, onFlag := s.pos.FlagAt[f.Position]; s.tool != "" && !onFlag && (f.File == s.pos.Path || s.pos.Generated[f.File]) {
			if note, ok := s.pos.ToolNote(f.Path); ok {
				// The value is the tool's, not the user's: say so, since the
				// finding points at the anchor rather than a key, and say
				// what the user can do instead of the kubelet's repair.
				f.Message += " (" + note + ")"
				if f.Hint != "" {
					f.Hint = s.toolHint(f, r.Minor)
				}
			} else if note, ok := s.pos.ToolAlso(f.Path); ok {
				// The file and the tool both write the gate entry: the file's
				// line is the finding's, and taking it out leaves the tool's.
				for _, who := range []string{s.writer.Name + " " + s.writer.Release + ": ", s.writer.Name + ": "} {
					note = strings.TrimPrefix(note, who)
				}
				f.Message += fmt.Sprintf(" (%s writes it too: %s)", s.writer.Name, note)
				if f.Hint != "" {
					f.Hint = s.toolAlsoHint(f, r.Minor)
				}
			}
		}
		f.Position = s.positionAt(f.Position, f.Path)
		// A repair is byte edits of the document the pipeline read, the
		// converted one: not of the file the finding now names.
		f.Fixes, f.NoFix = nil, ""
	}
	for k, p := range r.Origins {
		if m := s.pos; m.ByPath != nil && (p.File == m.Path || m.Generated[p.File]) {
			_, written := m.ByPath[k]
			if !written && !m.SetsPath(k) {
				delete(r.Origins, k)
				continue
			}
			if !written && m.Notes != nil {
				// A flag the input names is the origin of what it sets; its
				// note, if the input has one (kubeadm's, naming the
				// kubeletExtraArgs entry), says how it got there.
				note, ok := m.NoteFor(k), true
				if m.FlagSets(p, k) {
					note, ok = m.FlagNotes[k]
				}
				if ok {
					if r.OriginNotes == nil {
						r.OriginNotes = map[string]string{}
					}
					r.OriginNotes[k] = note
				}
			}
		}
		r.Origins[k] = s.positionAt(p, k)
	}
	if s.pos.ByPath != nil {
		// Positions by path do not keep the converted document's order, and
		// two entries of the files the tool writes (its config.json and the
		// drop-in of the user's values) can map to one key of the user's
		// file with the same words: one finding there, in every format.
		finding.SortFindings(r.Findings)
		r.Findings = finding.Dedup(r.Findings)
	}
}

// toolHint is the hint of a finding on a value the tool writes of its own
// accord, which the user's file does not hold: whose it is (the tool that
// writes the node's files, Source.writer), and what the user can do (a gate
// entry the tool sets cannot be taken back by a file).
func (s *Source) toolHint(f *finding.Finding, m *kubelets.Minor) string {
	who, name, minor := s.writerWords(m)
	if !strings.HasPrefix(f.Path, "featureGates[") {
		return fmt.Sprintf("not in your file: %s writes %s itself; to change it, set it in the file where %s takes kubelet settings from (unless it protects the field)", who, f.Path, s.tool)
	}
	if f.Severity == finding.Error {
		return fmt.Sprintf("not in your file: %s writes this gate entry itself, and a file cannot take back a gate the tool sets; the node needs a release of %s that does not write it for %s", who, name, minor)
	}
	return fmt.Sprintf("not in your file: %s writes this gate entry itself, and a file cannot take back a gate the tool sets; nothing to change now, but before the kubelet minor that removes the gate the node needs a release of %s that no longer writes it", who, name)
}

// toolAlsoHint is the hint of a finding on a gate entry the user's file and
// the tool both write: taking the file's out is not enough.
func (s *Source) toolAlsoHint(f *finding.Finding, m *kubelets.Minor) string {
	who, name, minor := s.writerWords(m)
	if f.Severity == finding.Error {
		return fmt.Sprintf("remove it from the file, and the node needs a release of %s that does not write it for %s: %s writes this gate entry too, and a file cannot take back a gate the tool sets", name, minor, who)
	}
	return fmt.Sprintf("removing it from the file leaves %s's own entry (it writes this gate too, and a file cannot take back a gate the tool sets): before the kubelet minor that removes the gate the node needs a release of %s that no longer writes it", who, name)
}

// writerWords name, for the hints, the tool that writes the node's files
// with its release ("EKS nodeadm v20260724") and without, and the minor m
// ("kubelet 1.38", or "this kubelet minor" without one).
func (s *Source) writerWords(m *kubelets.Minor) (who, name, minor string) {
	who, name, minor = s.writer.Name, s.writer.Name, "this kubelet minor"
	if s.writer.Release != "" {
		who += " " + s.writer.Release
	}
	if m != nil {
		minor = "kubelet " + m.Version
	}
	return who, name, minor
}

// mapMessage maps the positions of the converted document a message quotes
// ("from PATH:LINE:COLUMN") as the position of the value at field path.
func (s *Source) mapMessage(msg, path string) string {
	re := regexp.MustCompile(`from ` + regexp.QuoteMeta(s.pos.Path) + `:(\d+):(\d+)`)
	return re.ReplaceAllStringFunc(msg, func(q string) string {
		m := re.FindStringSubmatch(q)
		line, _ := strconv.Atoi(m[1])
		col, _ := strconv.Atoi(m[2])
		// The file's value, not the flag's: never kept as a flag position.
		return "from " + s.mapPosition(finding.Position{File: s.pos.Path, Line: line, Column: col}, path, false).String()
	})
}

// Result is what Translate and Settle read and change of a pipeline result
// (pipeline.Result's fields of the same names): input does not import
// pipeline, so the module root copies them in and out.
type Result struct {
	Minor       *kubelets.Minor
	Findings    []finding.Finding
	Origins     map[string]finding.Position
	OriginNotes map[string]string
	Dropped     []string
	// Object is the effective configuration as a JSON object
	// (pipeline.Result.EffectiveObject); nil when the kubelet has none.
	Object func() (map[string]any, error)
}

// Evaluator runs the pipeline on one in-memory KubeletConfiguration file,
// named path, at minor m (pipeline.Evaluate of an Input with Config path and
// Virtual {path: data}): Settle evaluates what kubeadm writes, and a minor's
// defaults, with it.
type Evaluator func(m *kubelets.Minor, path string, data []byte) (*Result, error)

// Settle is what every command does with a Result of this input before
// printing it: Translate, and for a configz dump, drop the KC6002 findings
// (a gated field set while its gate is off) whose value is the minor's own
// default. A dump writes out every field the running kubelet holds, defaults
// included, so only a value the kubelet would not have chosen itself was set.
func (s *Source) Settle(r *Result, eval Evaluator) error {
	s.Translate(r)
	if r != nil {
		r.Findings = s.addToolFindings(r.Findings)
	}
	if err := s.addWritten(r, eval); err != nil {
		return err
	}
	if s != nil && r != nil {
		s.node.Settle(&r.Findings, r.Minor, s.pos)
	}
	if s == nil || s.Format != Configz || r == nil || r.Object == nil {
		return nil
	}
	got, err := r.Object()
	if err != nil {
		return err
	}
	defaults, err := minorDefaults(r.Minor, eval)
	if err != nil {
		return err
	}
	tree := r.Minor.Fields()
	have := kubelets.Flatten(got, tree)
	kept := r.Findings[:0]
	for _, f := range r.Findings {
		if f.Rule == validate.GatedFieldIgnored.ID && equalBelow(have, defaults, f.Path) {
			continue
		}
		kept = append(kept, f)
	}
	r.Findings = kept
	return nil
}

// defaultsByMinor caches minorDefaults: lint --nodes settles every node's dump
// at the same minor, and the defaults do not depend on the node.
var defaultsByMinor sync.Map // *kubelets.Minor -> func() (map[string]any, error)

// minorDefaults is the effective configuration of a file with only apiVersion
// and kind at m, flattened; callers only read it.
func minorDefaults(m *kubelets.Minor, eval Evaluator) (map[string]any, error) {
	f, _ := defaultsByMinor.LoadOrStore(m, sync.OnceValues(func() (map[string]any, error) { return computeDefaults(m, eval) }))
	return f.(func() (map[string]any, error))()
}

func computeDefaults(m *kubelets.Minor, eval Evaluator) (map[string]any, error) {
	const empty = "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n"
	path := "(defaults of kubelet " + m.Version + ")"
	r, err := eval(m, path, []byte(empty))
	if err != nil || r.Object == nil {
		return nil, err
	}
	obj, err := r.Object()
	if err != nil || obj == nil {
		return nil, err
	}
	return kubelets.Flatten(obj, m.Fields()), nil
}

// equalBelow reports whether a and b agree on every leaf at or below path.
func equalBelow(a, b map[string]any, path string) bool {
	for _, m := range []map[string]any{a, b} {
		for p := range m {
			if kubelets.Within(p, path) && !reflect.DeepEqual(a[p], b[p]) {
				return false
			}
		}
	}
	return true
}

// writtenRules are the findings about keys as written that kubeadm's decoding
// (lenient, like the kubelet's fallback) drops or folds before it writes the
// node's file, so the node's file no longer shows them.
var writtenRules = map[string]bool{
	source.UnknownField.ID: true,
	source.CaseMismatch.ID: true,
	source.DuplicateKey.ID: true,
}

// addWritten replaces, in r, the result for what kubeadm writes to the node, the
// findings on keys the kubelet drops by those on the keys of the document as
// written. kubeadm decodes the document into its own minor's types, so the
// node's file of kubeadm M has no key kubelet M does not know: a key kubeletcfg's
// port (the newest types) writes and an older minor lacks is not on that node,
// and what the file misspells kubeadm has already dropped.
func (s *Source) addWritten(r *Result, eval Evaluator) error {
	if s == nil || !s.nodeFile || r == nil || r.Minor == nil {
		return nil
	}
	kept := r.Findings[:0]
	for _, f := range r.Findings {
		// A key a kubeadm patch wrote (its finding in the patch file) is on the node.
		if !writtenRules[f.Rule] || f.Rule == source.DuplicateKey.ID || s.pos != nil && s.pos.PatchFiles[f.File] {
			kept = append(kept, f)
		}
	}
	r.Findings = kept
	r.Dropped = nil
	if s.written == nil {
		return nil
	}
	w, err := eval(r.Minor, s.Path, s.written)
	if err != nil {
		return err
	}
	for _, f := range w.Findings {
		if writtenRules[f.Rule] && f.File == s.Path {
			f.Position = s.positionAt(f.Position, f.Path)
			f.Fixes, f.NoFix = nil, ""
			f.Message += " (kubeadm already drops it: the node's config.yaml does not have it)"
			r.Findings = append(r.Findings, f)
		}
	}
	r.Dropped = w.Dropped
	finding.SortFindings(r.Findings)
	return nil
}
