package input

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/input/aks"
	"github.com/kubeletcfg/kubeletcfg/input/bootstrap"
	"github.com/kubeletcfg/kubeletcfg/input/capi"
	"github.com/kubeletcfg/kubeletcfg/input/k0s"
	"github.com/kubeletcfg/kubeletcfg/input/k3s"
	"github.com/kubeletcfg/kubeletcfg/input/karpenter"
	"github.com/kubeletcfg/kubeletcfg/input/nodeadm"
	"github.com/kubeletcfg/kubeletcfg/input/posmap"
	"github.com/kubeletcfg/kubeletcfg/input/talos"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/source"
	"github.com/kubeletcfg/kubeletcfg/validate"
)

// translator is a bootstrapper's translation (a package under input/): the
// files its tool writes for the kubelet from the file the user keeps.
type translator struct {
	format Format
	tool   bootstrap.Tool
	detect func(path string, data []byte) bool
	// accepts, when set, is what --input-format takes: the files the tool reads
	// at all, where detect must also tell them from other formats' (k3s reads any
	// YAML map; k0s checks neither apiVersion nor kind).
	accepts   func(path string, data []byte) bool
	translate func(path string, data []byte, opt bootstrap.Options) (*bootstrap.Output, error)
	// convert, when set, makes the Source in place of translate and fromBootstrap
	// (Cluster API: kubeadm's node documents attached, convertCAPI).
	convert func(path string, data []byte, opt Options) (*Source, error)
	// objects, when set, are the node groups of a file of several
	// (Source.Objects, Options.Object): k0s's worker profiles.
	objects func(data []byte, opt Options) []string
}

// translators are the bootstrappers read through input/bootstrap, in the
// order Detect tries them (after the formats of input.go). A new one is one
// entry here and its format's name in Formats.
var translators = []translator{
	{format: "nodeadm", tool: nodeadm.Tool, detect: nodeadm.Detect, translate: nodeadm.Translate},
	{format: "karpenter", tool: karpenter.Tool, detect: karpenter.Detect, translate: karpenter.Translate},
	{format: "cluster-api", tool: capi.Tool, detect: capi.Detect, translate: capi.Translate, convert: convertCAPI},
	{format: "talos", tool: talos.Tool, detect: talos.Detect, accepts: talos.Accepts, translate: talos.Translate},
	{format: "k0s", tool: k0s.Tool, detect: k0s.Detect, accepts: k0s.Accepts, translate: k0s.Translate,
		objects: func(data []byte, opt Options) []string { return k0s.Objects(data, opt.OS) }},
	{format: "k3s", tool: k3s.Tool, detect: k3s.Detect, accepts: k3s.Accepts, translate: k3s.Translate},
	{format: "aks", tool: aks.Tool, detect: aks.Detect, accepts: aks.Accepts, translate: aks.Translate},
}

// BootstrapperFormats are the --input-format names of the bootstrappers'
// files, in the order Detect tries them.
func BootstrapperFormats() []string {
	names := make([]string, len(translators))
	for i, t := range translators {
		names[i] = string(t.format)
	}
	return names
}

// translatorOf is the translator of format f, if f is a bootstrapper's.
func translatorOf(f Format) (translator, bool) {
	for _, t := range translators {
		if t.format == f {
			return t, true
		}
	}
	return translator{}, false
}

// detectTranslator is the first translator that recognises data, if any.
// A KubeletConfiguration, the common case, is no tool's file: it is told
// apart without the translators' parses (each reads the YAML its own way).
func detectTranslator(path string, data []byte) (Format, bool) {
	if kubeletConfigurationKind(data) {
		return "", false
	}
	for _, t := range translators {
		if t.detect(path, data) {
			return t.format, true
		}
	}
	return "", false
}

// convertBootstrapper runs t's translation of data (read from path) and turns
// it into the Source the pipeline reads: the tool's --config file in place
// of path, its drop-in folder in memory, its flags, every position mapped
// back to path by field path, and the tool's own findings.
func convertBootstrapper(t translator, path string, data []byte, opt Options) (*Source, error) {
	if t.convert != nil {
		return t.convert(path, data, opt)
	}
	out, err := t.translate(path, data, bootstrap.Options{Minor: opt.Minor, Set: opt.Set, OS: opt.OS, Object: opt.Object})
	if err != nil {
		return nil, &source.InputError{Path: path, Err: trimPath(err, path)}
	}
	s := fromBootstrap(path, t.format, out)
	if t.objects != nil && opt.Object == "" {
		if objects := t.objects(data, opt); len(objects) > 1 {
			s.Objects = objects
		}
	}
	return s, nil
}

// trimPath drops a leading "PATH: " from err, which InputError adds again.
func trimPath(err error, path string) error {
	if msg, ok := strings.CutPrefix(err.Error(), path+": "); ok {
		return &trimmedError{msg: msg, err: err}
	}
	return err
}

// trimmedError is an error's text without its path, still wrapping the error:
// the command finds an OptionError within it (kubeletcfg.CommandWords).
type trimmedError struct {
	msg string
	err error
}

func (e *trimmedError) Error() string { return e.msg }
func (e *trimmedError) Unwrap() error { return e.err }

// convertCAPI is the Source of a Cluster API manifest (fromBootstrap) with
// kubeadm's node documents attached as for a kubeadm file (capi.Convert).
func convertCAPI(path string, data []byte, opt Options) (*Source, error) {
	out, node, flagNotes, err := capi.Convert(path, data, bootstrap.Options{Minor: opt.Minor, Set: opt.Set, OS: opt.OS, Object: opt.Object})
	if err != nil {
		return nil, &source.InputError{Path: path, Err: trimPath(err, path)}
	}
	s := fromBootstrap(path, "cluster-api", out)
	s.node = node
	if objects := capi.Objects(data); len(objects) > 1 && opt.Object == "" {
		s.Objects = objects
	}
	if len(flagNotes) > 0 {
		if s.pos.FlagNotes == nil {
			s.pos.FlagNotes = map[string]string{}
		}
		maps.Copy(s.pos.FlagNotes, flagNotes)
	}
	return s, nil
}

// fromBootstrap is the Source of a translation. Findings in the generated
// files (the --config file, held at path, and the drop-ins, held at their node
// paths) are mapped to path by field path (Output.Positions), as a kubeadm
// file's are.
func fromBootstrap(file string, f Format, out *bootstrap.Output) *Source {
	s := &Source{Path: file, Format: f, tool: out.Tool.Name, Note: out.Note, KubeletVersion: out.KubeletVersion,
		Ships: out.Ships, Paired: out.Release, OS: out.OS, OSFrom: out.OSFrom,
		Flags: slices.Clone(out.Flags), FlagPositions: slices.Clone(out.FlagPositions)}
	if out.Config != nil {
		s.Data = out.Config.Data
	} else {
		s.noConfig = true
	}
	m := &posmap.Map{Path: file, ByPath: maps.Clone(out.Positions), Anchor: out.Anchor,
		Notes: maps.Clone(out.Notes), WrittenToo: maps.Clone(out.WrittenToo), DefaultNote: "set by " + out.Tool.Name, Generated: map[string]bool{}}
	if m.ByPath == nil {
		m.ByPath = map[string]finding.Position{}
	}
	if m.Anchor.File == "" {
		m.Anchor = finding.Position{File: file, Line: 1, Column: 1}
	}
	for p := range out.Notes {
		m.Set = append(m.Set, p)
	}
	for p := range out.Positions {
		m.Set = append(m.Set, p)
	}
	// Flags the user wrote in the file (k3s's kubelet-arg): a finding or
	// origin on the field a flag sets keeps the flag's position, as
	// minikube's do.
	if table, err := kubelets.Default().FlagsOn(out.OS); err == nil {
		for i, fp := range out.FlagPositions {
			if fp.File == "" || i >= len(out.Flags) {
				continue
			}
			name, _, _ := strings.Cut(strings.TrimLeft(out.Flags[i], "-"), "=")
			field := ""
			if tf, ok := table.Lookup(name); ok && tf.Path != "" {
				field = tf.Path
				m.Set = append(m.Set, field)
			}
			if m.FlagAt == nil {
				m.FlagAt = map[finding.Position][]string{}
			}
			m.FlagAt[fp] = append(m.FlagAt[fp], field)
		}
	}
	// Flags the tool writes of its own accord (no position in the file).
	for i, a := range out.Flags {
		if i < len(out.FlagPositions) && out.FlagPositions[i].File != "" {
			continue
		}
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if s.ownFlags == nil {
			s.ownFlags = map[string]bool{}
		}
		s.ownFlags[name] = true
	}
	s.writer = out.Tool
	if out.Writer != nil {
		s.writer = *out.Writer
	}
	s.flagWriters = out.FlagWriters
	slices.Sort(m.Set)
	if out.ConfigDir != "" {
		s.configDir = out.ConfigDir
		s.dropIns = map[string][]byte{}
		for _, d := range out.DropIns {
			p := path.Join(out.ConfigDir, path.Base(d.Path))
			s.dropIns[p] = d.Data
			m.Generated[p] = true
		}
	}
	s.pos = m
	out.Claim()
	for _, fi := range out.Findings {
		if fi.File == "" {
			fi.Position = m.Anchor
		}
		s.toolFindings = append(s.toolFindings, fi)
	}
	return s
}

// addToolFindings adds the tool's own findings to r's, and says of the
// kubelet's findings on a flag the tool writes itself that the file cannot
// change it; a tool's flag overriding a value the user did not write (the
// zero value a tool marshals) is no news and goes.
func (s *Source) addToolFindings(r []finding.Finding) []finding.Finding {
	if s == nil || s.tool == "" {
		return r
	}
	kept := r[:0]
	for _, f := range r {
		name := s.ownFlagOf(f)
		_, byOther := s.flagWriters[name]
		switch {
		case name == "", s.node != nil && !byOther: // kubeadm's flags: kubeadm.Node.Settle
		case f.Rule == validate.FlagOverridesFile.ID && f.Path != "" && !s.pos.UserWrote(f.Path):
			continue
		case f.Rule == validate.FlagDeprecated.ID || f.Rule == validate.FlagUnknown.ID:
			// The tool that writes the node's files passes the flag
			// (Karpenter's Bottlerocket nodes: Bottlerocket's template).
			w := s.writer
			if fw, ok := s.flagWriters[name]; ok {
				w = fw
			}
			f.Message += fmt.Sprintf(" (%s writes --%s itself)", w.Name, name)
			f.Hint = fmt.Sprintf("nothing to change in the file: %s %s passes the flag; whether a release for this kubelet minor does is the tool's", w.Name, w.Release)
		}
		kept = append(kept, f)
	}
	r = append(kept, s.toolFindings...)
	finding.SortFindings(r)
	return r
}

// ownFlagOf is the name of the flag the tool writes of its own accord that a
// finding on the command line is about, or "".
func (s *Source) ownFlagOf(f finding.Finding) string {
	// The kubelet reports its command line as pipeline.CommandLine; input
	// cannot name the constant without importing pipeline, so it checks the
	// message instead: a finding at a position in a file is not a flag of the tool.
	if f.Line != 0 || !strings.HasPrefix(f.Message, "--") && !strings.Contains(f.Message, " --") {
		return ""
	}
	for name := range s.ownFlags {
		for _, at := range []string{"--" + name + " ", "--" + name + ":", "--" + name + "="} {
			if strings.HasPrefix(f.Message, at) || strings.Contains(f.Message, " "+at) {
				return name
			}
		}
	}
	return ""
}

// kubeletConfigurationKind reports whether data says at its top level that it
// is a KubeletConfiguration: a line "kind: KubeletConfiguration" at column 0
// (YAML), or a JSON object whose kind is. No bootstrapper's file is one (the
// KubeletConfiguration documents a kubeadm file holds are told apart before
// the translators run).
func kubeletConfigurationKind(data []byte) bool {
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	if len(trimmed) > 0 && trimmed[0] == '{' {
		var tm struct {
			Kind string `json:"kind"`
		}
		return json.Unmarshal(trimmed, &tm) == nil && tm.Kind == "KubeletConfiguration"
	}
	for line := range bytes.Lines(data) {
		v, ok := bytes.CutPrefix(line, []byte("kind:"))
		if !ok {
			continue
		}
		v = bytes.TrimSpace(v)
		if i := bytes.Index(v, []byte(" #")); i >= 0 {
			v = bytes.TrimSpace(v[:i])
		}
		v = bytes.Trim(v, `"'`)
		if string(v) == "KubeletConfiguration" {
			return true
		}
	}
	return false
}
