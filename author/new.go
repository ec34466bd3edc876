package author

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/internal/atomicfile"
	"github.com/kubeletcfg/kubeletcfg/internal/didyoumean"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
	"github.com/kubeletcfg/kubeletcfg/report"
)

// NewRequest is what `kubeletcfg dropin new` is asked: a drop-in NAME.conf in
// the --config-dir folder, with --set and --feature-gate values, checked at
// Minors.
type NewRequest struct {
	// Name is the drop-in's file name (it must end in .conf), inside ConfigDir.
	Name      string
	ConfigDir string
	// Config is the main --config file, so that the check sees what the node
	// sees; empty: none.
	Config string
	// Sets are PATH=VALUE (ParseSet) and Gates NAME=BOOL (FeatureGate), in the
	// order the file lists them.
	Sets, Gates []string
	// Minors are the kubelet minors to check, oldest first; field names and
	// types come from the newest, so an older minor that lacks a field is
	// reported as dropping it.
	Minors        []*kubelets.Minor
	CgroupVersion int
	// OS is the node's operating system ("": Linux).
	OS kubelets.OS
	// Mode of the new file (0: 0644).
	Mode fs.FileMode
	// DryRun checks and reports without writing; Force replaces an existing
	// file; AllowOverride writes even when a later drop-in overrides some keys.
	DryRun, Force, AllowOverride bool
}

// NewReport is what `kubeletcfg dropin new` did and found; its JSON is what
// `-o json` prints.
type NewReport struct {
	// File is the drop-in's path and Content its bytes.
	File    string `json:"file"`
	Content string `json:"content"`
	// Exists says that File was there before.
	Exists  bool `json:"exists"`
	DryRun  bool `json:"dryRun"`
	Written bool `json:"written"`
	// Refused lists the minors at which the file would not do what it says
	// (not empty: nothing is written).
	Refused []string `json:"refusedBy"`
	// Notes are the remarks of ParseSet on the values (Setting.Notes).
	Notes []string `json:"notes,omitempty"`
	// MergeOrder is the main file, then every merged drop-in, the new one
	// included, at the newest minor.
	MergeOrder []string  `json:"mergeOrder"`
	Verdicts   []Verdict `json:"verdicts"`
}

// CheckDropInName enforces what makes a name safe and merged: it ends in .conf
// (the kubelet skips anything else) and stays inside the folder.
func CheckDropInName(name string) error {
	switch {
	case name == "" || name == "." || name == "..":
		return fmt.Errorf("drop-in name %q: give a file name such as 50-crashloop.conf", name)
	case strings.ContainsAny(name, `/\`) || strings.Contains(name, ".."):
		return newRequestErrorf("drop-in name %q: a name, not a path (no /, \\ or ..); the folder is {ConfigDir}", name)
	case filepath.Ext(name) != ".conf" || name == ".conf":
		return fmt.Errorf("drop-in name %q: the kubelet merges only files ending in .conf", name)
	case strings.ContainsRune(name, 0):
		return fmt.Errorf("drop-in name %q: contains a NUL byte", name)
	}
	return nil
}

// Validate checks what the request must have without reading anything: a
// drop-in name (CheckDropInName), the folder, something to write. New calls it
// first; a command may call it earlier, to report these before its own flags.
func (req *NewRequest) Validate() error {
	if err := CheckDropInName(req.Name); err != nil {
		return err
	}
	if req.ConfigDir == "" {
		return newRequestErrorf("{ConfigDir} is required: the folder the drop-in goes into")
	}
	if len(req.Sets) == 0 && len(req.Gates) == 0 {
		return newRequestErrorf("nothing to write: give {Sets} PATH=VALUE or {Gates} NAME=BOOL")
	}
	return nil
}

// New builds the drop-in req asks for, checks it with the existing files at
// every minor (Check) and writes it (internal/atomicfile) unless a minor
// refuses it or req.DryRun. An error is a usage or input error (nothing
// checked); a refusal is a report with Refused set.
func New(req NewRequest) (*NewReport, error) {
	if err := req.Validate(); err != nil {
		return nil, err
	}
	if len(req.Minors) == 0 {
		return nil, fmt.Errorf("no kubelet minor to check")
	}
	fi, err := os.Stat(req.ConfigDir)
	if err != nil {
		return nil, newRequestErrorf("{ConfigDir} %s: %w", req.ConfigDir, unwrapPathError(err))
	}
	if !fi.IsDir() {
		return nil, newRequestErrorf("{ConfigDir} %s: not a folder", req.ConfigDir)
	}
	target := filepath.Join(req.ConfigDir, req.Name)
	exists := false
	if fi, err := os.Lstat(target); err == nil {
		if fi.IsDir() {
			return nil, fmt.Errorf("%s: is a folder", target)
		}
		exists = true
		if !req.Force && !req.DryRun {
			return nil, newRequestErrorf("%s: exists; use {Force} to replace it (kubeletcfg lint shows what it does now)", target)
		}
	}
	schema, err := SchemaOf(req.Minors[len(req.Minors)-1])
	if err != nil {
		return nil, err
	}
	var settings []Setting
	for _, s := range req.Sets {
		st, err := schema.ParseSet(s)
		if err != nil {
			return nil, err
		}
		settings = append(settings, st)
	}
	for _, g := range req.Gates {
		st, err := FeatureGate(g)
		if err != nil {
			return nil, err
		}
		settings = append(settings, st)
	}
	if err := knownGates(settings); err != nil {
		return nil, err
	}
	doc, err := NewDocument(settings)
	if err != nil {
		return nil, err
	}
	doc.Header = []string{
		"Written by kubeletcfg dropin new; checked against kubelet " + minorList(req.Minors) + ".",
		"Drop-ins merge in lexical order of their paths: a later file overrides these keys.",
	}
	content, err := doc.YAML()
	if err != nil {
		return nil, err
	}
	in := pipeline.Input{Config: req.Config, ConfigDir: req.ConfigDir, Virtual: map[string][]byte{target: content}, CgroupVersion: req.CgroupVersion, OS: req.OS}
	verdicts, err := Check(in, target, doc, req.Minors)
	if err != nil {
		return nil, err
	}
	refused := refusedMinors(verdicts, req.AllowOverride)
	if refused == nil {
		refused = []string{}
	}
	written := false
	if len(refused) == 0 && !req.DryRun {
		if err := writeFile(target, content, atomicfile.Options{Mode: req.Mode, Overwrite: req.Force}, newRequestErrorf); err != nil {
			return nil, err
		}
		written = true
	}
	rep := &NewReport{File: target, Content: string(content), Exists: exists, DryRun: req.DryRun, Written: written, Refused: refused, Verdicts: verdicts}
	for _, s := range settings {
		rep.Notes = append(rep.Notes, s.Notes...)
	}
	if len(verdicts) > 0 {
		rep.MergeOrder = mergeOrder(verdicts[len(verdicts)-1], req.Config, target)
	}
	return rep, nil
}

// minorList is "1.32, 1.33": the minors a file was checked against.
func minorList(ms []*kubelets.Minor) string {
	vs := make([]string, len(ms))
	for i, m := range ms {
		vs[i] = m.Version
	}
	return strings.Join(vs, ", ")
}

// refusedMinors lists the minors at which the new file does not do what it says.
func refusedMinors(vs []Verdict, allowOverride bool) []string {
	var out []string
	for _, v := range vs {
		bad := !v.Starts || len(v.Problems) > 0
		for _, a := range v.Applied {
			if a.OverriddenBy != "" {
				bad = bad || !allowOverride
			} else if !a.Holds() {
				bad = true
			}
		}
		if bad {
			out = append(out, v.Minor)
		}
	}
	return out
}

// mergeOrder lists the main file, then every merged drop-in, the new one included.
func mergeOrder(v Verdict, configFile, target string) []string {
	var out []string
	if configFile != "" {
		out = append(out, configFile)
	}
	out = append(out, v.Before...)
	out = append(out, target)
	return append(out, v.After...)
}

// knownGates refuses, as a usage error like an unknown field, a gate that no
// supported minor registers; a gate some minors lack is the check's to report.
func knownGates(settings []Setting) error {
	for _, st := range settings {
		name, ok := strings.CutPrefix(st.Path, "featureGates[")
		if !ok {
			continue
		}
		name = strings.TrimSuffix(name, "]")
		if registeredAnywhere(name) {
			continue
		}
		msg := fmt.Sprintf("no feature gate %q at any kubelet minor kubeletcfg knows (%s)", name, supportedRange())
		if near := didyoumean.Nearest(name, gatesAnywhere()); near != "" {
			msg += fmt.Sprintf("; did you mean %q?", near)
		}
		return errors.New(msg)
	}
	return nil
}

// registeredAnywhere reports whether a supported minor registers the gate.
func registeredAnywhere(gate string) bool {
	for _, v := range kubelets.Supported() {
		if m, _ := kubelets.Lookup(v); m != nil && m.Registers(gate) {
			return true
		}
	}
	return false
}

// gatesAnywhere lists the gates some supported minor registers, sorted: the
// candidates of a did-you-mean, which include a gate the newest minor removed.
func gatesAnywhere() []string {
	var names []string
	for _, m := range kubelets.Minors() {
		if g, err := m.Gates(); err == nil {
			names = append(names, g.Names()...)
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// supportedRange is "1.31–1.37": the supported minors, which are consecutive.
func supportedRange() string {
	s := kubelets.Supported()
	if len(s) == 1 {
		return s[0]
	}
	return s[0] + "–" + s[len(s)-1]
}

// CountAtLeast counts the minors that refuse the file (nothing written: exit
// code 1); dropin new has no --fail-on, the threshold is not read.
func (r *NewReport) CountAtLeast(finding.Severity) int { return len(r.Refused) }

// ParseMode reads --mode: octal permission bits such as 0644.
func ParseMode(s string) (os.FileMode, error) {
	n, err := strconv.ParseUint(s, 8, 32)
	if err != nil || n > 0o777 {
		return 0, newRequestErrorf("{Mode} %q: want octal permission bits such as 0644", s)
	}
	return os.FileMode(n), nil
}

// WriteJSON writes the report as `dropin new -o json` prints it, indented.
func (r *NewReport) WriteJSON(w io.Writer) error {
	return report.WriteJSON(w, r)
}

// unwrapPathError drops the *fs.PathError wrapper, whose text repeats the path
// the message already names.
func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
