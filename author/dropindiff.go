package author

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/internal/atomicfile"
	"github.com/kubeletcfg/kubeletcfg/internal/optionerr"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
)

// lastName sorts after every name made of ASCII letters, digits and punctuation
// ('~' is the highest printable ASCII byte): the diff is checked as the last
// drop-in when Out does not put it in the folder.
const lastName = "~kubeletcfg-diff.conf"

// DiffRequest is what `kubeletcfg dropin diff` is asked: the drop-in that turns
// the configuration From into To.
type DiffRequest struct {
	// From names what the node runs today: the main --config file and/or the
	// --config-dir folder, or a configz dump (read as the main file).
	From []string
	// To is the desired full configuration (a kubelet config file or a configz dump).
	To string
	// Out is where to write the drop-in (a NAME.conf path); empty: nowhere,
	// the caller prints DiffReport.Content.
	Out string
	// Minors are the kubelet minors to check, oldest first; the two sides are
	// compared at the newest.
	Minors        []*kubelets.Minor
	CgroupVersion int
	// OS is the node's operating system ("": Linux).
	OS kubelets.OS
	// Force replaces an existing Out.
	Force bool
}

// DiffReport is what DropInDiff found and did.
type DiffReport struct {
	// Minor is the newest minor, at which the effective configurations were compared.
	Minor string
	// Checked are the minors the drop-in is checked at (DiffRequest.Minors).
	Checked []string
	// Content is the drop-in; nil when there is no difference (nothing written).
	Content []byte
	// Keys counts the top-level keys the drop-in sets.
	Keys int
	// Failures say, per minor, why merging the drop-in does not give the desired
	// configuration there ("kubelet 1.31: maxPods would be 110, not 50"); not
	// empty: nothing was written.
	Failures []string
	// failed are the errors behind Failures where one is (by index), for
	// Reword.
	failed map[int]error
	// Written: the drop-in was written to File (DiffRequest.Out).
	Written bool
	File    string
}

// Reword writes the failures that come from an error with words (the
// command's: kubeletcfg.CommandWords, --to where the library says
// DiffRequest.To).
func (r *DiffReport) Reword(words func(error) string) {
	for i, err := range r.failed {
		r.Failures[i] = words(err)
	}
}

// CountAtLeast counts the minors' failures (nothing written: exit code 1);
// dropin diff has no --fail-on, the threshold is not read.
func (r *DiffReport) CountAtLeast(finding.Severity) int { return len(r.Failures) }

// MarshalJSON is `dropin diff -o json`: Content as text (null when there is
// no difference), not the base64 encoding/json gives a []byte.
func (r *DiffReport) MarshalJSON() ([]byte, error) {
	var content *string
	if r.Content != nil {
		s := string(r.Content)
		content = &s
	}
	failures := r.Failures
	if failures == nil {
		failures = []string{}
	}
	return json.Marshal(struct {
		Kubelet  string   `json:"kubelet"`
		Checked  []string `json:"checkedAt"`
		Content  *string  `json:"content"`
		Keys     int      `json:"keys"`
		Failures []string `json:"failures"`
		Written  bool     `json:"written"`
	}{r.Minor, r.Checked, content, r.Keys, failures, r.Written})
}

// Validate checks that the request names both sides, without reading them.
// DropInDiff calls it first; a command may call it before parsing its own flags.
func (req *DiffRequest) Validate() error {
	if len(req.From) == 0 || req.To == "" {
		return diffErrorf("give {From} (the current files) and {To} (the desired configuration)")
	}
	return nil
}

// DropInDiff computes the drop-in whose merge over From's effective
// configuration gives To's (Diff, rendered by PatchYAML), checks it by merging
// it back at every minor (Verify), in the From folder under Out's name or as
// the last drop-in, and writes it to Out (internal/atomicfile) when every minor
// ends up with the desired configuration. An error is a usage or input error.
func DropInDiff(req DiffRequest) (*DiffReport, error) {
	if err := req.Validate(); err != nil {
		return nil, err
	}
	if len(req.Minors) == 0 {
		return nil, fmt.Errorf("no kubelet minor to check")
	}
	cur := pipeline.Input{Virtual: map[string][]byte{}, CgroupVersion: req.CgroupVersion, OS: req.OS}
	for _, p := range req.From {
		if err := addFrom(&cur, p); err != nil {
			return nil, err
		}
	}
	want := pipeline.Input{Config: req.To, Virtual: map[string][]byte{}, CgroupVersion: req.CgroupVersion, OS: req.OS}
	if err := addConfigz(&want, req.To); err != nil {
		return nil, err
	}
	out := req.Out
	if out != "" {
		if err := CheckDropInName(filepath.Base(out)); err != nil {
			return nil, err
		}
		if fi, err := os.Lstat(out); err == nil && !req.Force {
			if fi.IsDir() {
				return nil, fmt.Errorf("%s: is a folder", out)
			}
			return nil, diffErrorf("%s: exists; use {Force} to replace it", out)
		}
	}
	newest := req.Minors[len(req.Minors)-1]
	rep := &DiffReport{Minor: newest.Version}
	for _, m := range req.Minors {
		rep.Checked = append(rep.Checked, m.Version)
	}
	curL, err := pipeline.Load(cur)
	if err != nil {
		return nil, err
	}
	wantL, err := pipeline.Load(want)
	if err != nil {
		return nil, err
	}
	current, err := effectiveAt(curL, newest, "From")
	if err != nil {
		return nil, err
	}
	desired, err := effectiveAt(wantL, newest, "To")
	if err != nil {
		return nil, err
	}
	patch, err := Diff(current, desired)
	if err != nil {
		return nil, err
	}
	if len(patch) == 0 {
		return rep, nil
	}
	content, err := PatchYAML(patch, []string{
		"Written by kubeletcfg dropin diff: merged after the current files, it gives " + req.To + ".",
		"Checked against kubelet " + strings.Join(rep.Checked, ", ") + ".",
	})
	if err != nil {
		return nil, err
	}
	rep.Content, rep.Keys = content, len(patch)
	// Check it where it will sit: in the --from folder under its own
	// name, else as the last drop-in (in a scratch folder if there is none).
	check := cur
	check.Virtual = map[string][]byte{}
	for k, v := range cur.Virtual {
		check.Virtual[k] = v
	}
	var checkedAs string // the drop-in's path in the check
	switch {
	case out != "" && cur.ConfigDir != "" && filepath.Clean(filepath.Dir(out)) == filepath.Clean(cur.ConfigDir):
		checkedAs = out
	case cur.ConfigDir != "":
		checkedAs = filepath.Join(cur.ConfigDir, lastName)
	default:
		tmp, err := os.MkdirTemp("", "kubeletcfg-diff-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(tmp)
		check.ConfigDir = tmp
		checkedAs = filepath.Join(tmp, lastName)
	}
	check.Virtual[checkedAs] = content
	if checkedAs == out {
		checkedAs = "" // the user's own name for it
	}
	checkL, err := pipeline.Load(check)
	if err != nil {
		return nil, err
	}
	for _, m := range req.Minors {
		d := desired
		if m != newest {
			if d, err = effectiveAt(wantL, m, "To"); err != nil {
				err = fmt.Errorf("kubelet %s: %w", m.Version, err)
				if rep.failed == nil {
					rep.failed = map[int]error{}
				}
				rep.failed[len(rep.Failures)] = err
				rep.Failures = append(rep.Failures, err.Error())
				continue
			}
		}
		r, mismatches, err := Verify(checkL, m, d)
		if err != nil {
			return nil, err
		}
		if !r.Starts {
			rep.Failures = append(rep.Failures, fmt.Sprintf("kubelet %s: would not start with the drop-in: %s", m.Version, firstErrorIn(r, checkedAs)))
			continue
		}
		for _, c := range mismatches {
			rep.Failures = append(rep.Failures, fmt.Sprintf("kubelet %s: %s would be %s, not %s", m.Version, c.Path, kubelets.Format(c.From), kubelets.Format(c.To)))
		}
	}
	if len(rep.Failures) > 0 || out == "" {
		return rep, nil
	}
	if err := writeFile(out, content, atomicfile.Options{Overwrite: req.Force}, diffErrorf); err != nil {
		return nil, err
	}
	rep.Written, rep.File = true, out
	return rep, nil
}

// addFrom adds one --from path to the input: a folder is --config-dir, a file
// is --config (a configz dump is converted in memory).
func addFrom(in *pipeline.Input, p string) error {
	fi, err := os.Stat(p)
	if err != nil {
		return diffErrorf("{From} %s: %w", p, unwrapPathError(err))
	}
	if fi.IsDir() {
		if in.ConfigDir != "" {
			return diffErrorf("{From} %s: a second folder (already %s); the kubelet has one --config-dir", p, in.ConfigDir)
		}
		in.ConfigDir = p
		return nil
	}
	if in.Config != "" {
		return diffErrorf("{From} %s: a second file (already %s); the kubelet has one --config", p, in.Config)
	}
	in.Config = p
	return addConfigz(in, p)
}

// addConfigz reads in.Config from memory when path is a configz dump.
func addConfigz(in *pipeline.Input, path string) error {
	doc, ok, err := ReadConfigz(path)
	if err != nil {
		return err
	}
	if ok {
		in.Virtual[path] = doc
	}
	return nil
}

// effectiveAt is the effective configuration of l at m, or an error saying
// that the kubelet would not get that far with the files of field (From, To).
func effectiveAt(l *pipeline.Loaded, m *kubelets.Minor, field string) (map[string]any, error) {
	r, err := l.Evaluate(m)
	if err != nil {
		return nil, err
	}
	if !r.Starts {
		return nil, diffErrorf("{"+field+"}: kubelet %s would not start with it (%s); kubeletcfg lint shows why", m.Version, firstErrorText(r))
	}
	return r.EffectiveObject()
}

func firstErrorText(r *pipeline.Result) string {
	return firstErrorIn(r, "")
}

// firstErrorIn is firstErrorText where a finding in the file at checked (the
// drop-in under the name it was checked with, not a file the user has) is
// placed by its line in the drop-in printed above.
func firstErrorIn(r *pipeline.Result, checked string) string {
	f := r.FirstError()
	if f == nil {
		return "no finding"
	}
	where := f.Position.String()
	if checked != "" && filepath.Clean(f.Position.File) == filepath.Clean(checked) {
		where = fmt.Sprintf("line %d of the drop-in", f.Position.Line)
	}
	return strings.TrimSpace(where + " " + f.Rule + ": " + f.Message)
}

// diffErrorf is an error about DiffRequest's fields (DiffRequest.From; the
// command's --from).
var diffErrorf = optionerr.In("DiffRequest").Errorf

// writeFile writes a drop-in (internal/atomicfile); a file that appeared after
// the request's check names the request's Force (NewRequest.Force; the
// command's --force), which atomicfile cannot know: errorf is the request's.
func writeFile(path string, content []byte, opt atomicfile.Options, errorf func(string, ...any) error) error {
	err := atomicfile.Write(path, content, opt)
	if errors.Is(err, atomicfile.ErrExists) {
		return errorf("%w (use {Force} to overwrite)", err)
	}
	return err
}
