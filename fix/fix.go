// Package fix plans and applies the repairs of kubelet configuration files that
// need no guess: the KEP-4603 draft crashLoopBackOff.maxSeconds rewritten as
// maxContainerRestartPeriod (with the feature gate where a target minor needs
// it), field names and feature-gate names that differ from the real ones only
// in case. Repairs are byte edits of the original files at the positions the
// YAML parser reports, so comments, quoting, indentation and key order stay;
// the result is evaluated by the pipeline at every target minor and refused
// when it would lint worse than the original.
package fix

import (
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"

	dropin "github.com/kubeletcfg/kubeletcfg/drop-in"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
	"github.com/kubeletcfg/kubeletcfg/skew"
	"github.com/kubeletcfg/kubeletcfg/source"
	"github.com/kubeletcfg/kubeletcfg/validate"
)

// Fix is one repair.
type Fix struct {
	// Rule is the ID of the finding the repair clears (KC6001, KC1102,
	// KC2006, KC2007, KC3001).
	Rule string
	// Pos is the key repaired, in the original file.
	Pos    validate.Position
	Before string
	After  string
	// Also describes what the repair adds elsewhere in the file (the feature gate).
	Also  string
	edits []edit
}

// Skip is a mistake found but not repaired, with why.
type Skip struct {
	Rule   string
	Pos    validate.Position
	What   string
	Reason string
}

// File is one input file and its repairs.
type File struct {
	Path     string
	Original []byte
	// Fixed is Original with every repair applied.
	Fixed []byte
	Fixes []Fix
	Skips []Skip
}

// Changed reports whether the repairs change the file.
func (f *File) Changed() bool { return string(f.Fixed) != string(f.Original) }

// Count is how a minor's kubelet sees a set of files.
type Count struct {
	Errors, Warnings int
	Starts           bool
}

// Check compares the original and the fixed files at one minor.
type Check struct {
	Minor         string
	Before, After Count
}

// Regression is why the fixed files lint worse: the first finding at Minor
// that the fixed files have and the original ones do not.
type Regression struct {
	Minor   string
	Finding validate.Finding
	Why     string
}

// Plan is every repair of an input for a set of kubelet minors.
type Plan struct {
	Minors []*skew.Minor
	// Files are the files with repairs or skips: the main file, then the
	// drop-ins in merge order.
	Files []*File
	// Checks holds one entry per minor when anything is repaired.
	Checks []Check
	// Worse is set when the repaired files lint worse at some minor: nothing
	// may be written then.
	Worse *Regression
}

// Fixed counts the repairs; Skipped the mistakes left.
func (p *Plan) Fixed() int {
	n := 0
	for _, f := range p.Files {
		n += len(f.Fixes)
	}
	return n
}

// Skipped counts the mistakes found and not repaired.
func (p *Plan) Skipped() int {
	n := 0
	for _, f := range p.Files {
		n += len(f.Skips)
	}
	return n
}

// Changed lists the files the repairs change.
func (p *Plan) Changed() []*File {
	var out []*File
	for _, f := range p.Files {
		if f.Changed() {
			out = append(out, f)
		}
	}
	return out
}

// Make finds the repairs of in for the given minors (oldest first) and checks
// the result with the pipeline at each. Its error is an input error (a file
// that cannot be read) or an internal one; a result that lints worse is
// Plan.Worse, not an error.
func Make(in pipeline.Input, minors []*skew.Minor) (*Plan, error) {
	if len(minors) == 0 {
		return nil, errors.New("fix: no kubelet minor to check against")
	}
	// The repairs are edits of the bytes on disk: the original files are
	// linted from the disk too.
	in.Virtual = nil
	loaded, err := pipeline.Load(in)
	if err != nil {
		return nil, err
	}
	before := make([]*pipeline.Result, len(minors))
	for i, m := range minors {
		if before[i], err = loaded.Evaluate(m); err != nil {
			return nil, err
		}
	}
	p := &Plan{Minors: minors}
	env, err := newEnv(minors, before)
	if err != nil {
		return nil, err
	}
	var parsed []*parsedFile
	if in.Config != "" {
		if pf := readInput(in.Config, true); pf != nil {
			parsed = append(parsed, pf)
		}
	}
	if in.ConfigDir != "" {
		// The kubelet stops at a walk error; the files found before it are
		// still worth repairing, and the pipeline reports the error.
		entries, _ := dropin.Find(in.ConfigDir)
		for _, e := range entries {
			if !e.Conf {
				continue
			}
			if pf := readInput(e.Path, false); pf != nil {
				parsed = append(parsed, pf)
			}
		}
	}
	for _, pf := range parsed {
		env.find(pf)
	}
	env.resolveCrashLoop(parsed)
	for _, pf := range parsed {
		f, err := pf.finish()
		if err != nil {
			return nil, err
		}
		if len(f.Fixes) > 0 || len(f.Skips) > 0 {
			p.Files = append(p.Files, f)
		}
	}
	if p.Fixed() == 0 {
		return p, nil
	}
	if err := p.relabel(in); err != nil {
		return nil, err
	}
	if err := p.verify(in, before); err != nil {
		return nil, err
	}
	return p, nil
}

// readInput reads one file to repair; nil when there is nothing the fixer can
// work on (unreadable, not YAML, not a mapping): the linter reports those.
func readInput(path string, main bool) *parsedFile {
	f, err := source.ReadFile(path)
	if err != nil || f.SyntaxErr != nil || f.Doc == nil {
		return nil
	}
	pf := &parsedFile{file: f, main: main, t: newText(f.Data)}
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		pf.symlink = true
	}
	return pf
}

// relabel names the rule of drop-in case repairs as the newest minor that
// reaches the drop-ins tells it: in the original files an error of the main
// file (an unknown gate) may stop the linter before them, so the drop-ins are
// linted again over the repaired main file, where a shadowed key (KC2007) is
// told from one that works (KC2006).
func (p *Plan) relabel(in pipeline.Input) error {
	var pending []*Fix
	in.Virtual = map[string][]byte{}
	for _, f := range p.Files {
		for i := range f.Fixes {
			if r := f.Fixes[i].Rule; f.Path != in.Config && (r == validate.DropInCaseOnly.ID || r == validate.DropInCaseShadowed.ID) {
				pending = append(pending, &f.Fixes[i])
			}
		}
		if f.Path == in.Config && f.Changed() {
			in.Virtual[f.Path] = f.Fixed
		}
	}
	if len(pending) == 0 {
		return nil
	}
	loaded, err := pipeline.Load(in)
	if err != nil {
		return err
	}
	rules := map[validate.Position]string{}
	for _, m := range p.Minors {
		r, err := loaded.Evaluate(m)
		if err != nil {
			return err
		}
		for _, f := range r.Findings {
			// The newest minor's rule wins, as in newEnv.
			if f.Rule == validate.DropInCaseOnly.ID || f.Rule == validate.DropInCaseShadowed.ID {
				rules[f.Position] = f.Rule
			}
		}
	}
	for _, fx := range pending {
		if r, ok := rules[fx.Pos]; ok {
			fx.Rule = r
		}
	}
	return nil
}

// verify evaluates the repaired files at every minor and compares them with
// the original ones.
func (p *Plan) verify(in pipeline.Input, before []*pipeline.Result) error {
	in.Virtual = map[string][]byte{}
	for _, f := range p.Changed() {
		in.Virtual[f.Path] = f.Fixed
	}
	loaded, err := pipeline.Load(in)
	if err != nil {
		return err
	}
	for i, m := range p.Minors {
		after, err := loaded.Evaluate(m)
		if err != nil {
			return err
		}
		c := Check{Minor: m.Version, Before: count(before[i]), After: count(after)}
		p.Checks = append(p.Checks, c)
		if p.Worse == nil {
			if why := worse(c); why != "" {
				p.Worse = &Regression{Minor: m.Version, Finding: newFinding(before[i], after), Why: why}
			}
		}
	}
	return nil
}

func count(r *pipeline.Result) Count {
	c := Count{Starts: r.Starts}
	for _, f := range r.Findings {
		switch f.Severity {
		case validate.Error:
			c.Errors++
		case validate.Warning:
			c.Warnings++
		}
	}
	return c
}

// worse says how the repaired files lint worse than the original ones, or "".
// More warnings count only when the errors are as many as before: an error
// that stops the kubelet early hides the findings of the steps after it
// (an unknown gate in the main file hides every drop-in), and repairing it
// brings them to light without making anything worse.
func worse(c Check) string {
	switch {
	case c.Before.Starts && !c.After.Starts:
		return "the kubelet would no longer start"
	case c.After.Errors > c.Before.Errors:
		return fmt.Sprintf("%d errors instead of %d", c.After.Errors, c.Before.Errors)
	case c.After.Errors == c.Before.Errors && c.After.Warnings > c.Before.Warnings:
		return fmt.Sprintf("%d warnings instead of %d", c.After.Warnings, c.Before.Warnings)
	}
	return ""
}

// newFinding is the most severe finding of after that before does not have,
// compared by rule and field path (positions move with the edits).
func newFinding(before, after *pipeline.Result) validate.Finding {
	seen := map[string]int{}
	for _, f := range before.Findings {
		seen[f.Rule+" "+f.Path]++
	}
	var fresh []validate.Finding
	for _, f := range after.Findings {
		k := f.Rule + " " + f.Path
		if seen[k] > 0 {
			seen[k]--
			continue
		}
		fresh = append(fresh, f)
	}
	sort.SliceStable(fresh, func(i, j int) bool { return fresh[i].Severity > fresh[j].Severity })
	if len(fresh) == 0 {
		return validate.Finding{}
	}
	return fresh[0]
}

// minorList prints minors as "1.32, 1.33 and 1.34".
func minorList(ms []*skew.Minor) string {
	vs := make([]string, len(ms))
	for i, m := range ms {
		vs[i] = m.Version
	}
	if len(vs) < 2 {
		return strings.Join(vs, "")
	}
	return strings.Join(vs[:len(vs)-1], ", ") + " and " + vs[len(vs)-1]
}

// verb picks the singular or plural form for n subjects.
func verb(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
