package fix

import (
	"errors"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strings"

	"github.com/kubeletcfg/kubeletcfg/finding"
	kubeletv1beta1 "github.com/kubeletcfg/kubeletcfg/upstream/kubelet/config/v1beta1"

	dropin "github.com/kubeletcfg/kubeletcfg/drop-in"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
	"github.com/kubeletcfg/kubeletcfg/source"
	yaml "go.yaml.in/yaml/v3"
)

// Fix is one repair.
type Fix struct {
	// Rule is the ID of the finding the repair clears (KC6001, KC1102,
	// KC2006, KC2007, KC3001).
	Rule string
	// Pos is the key repaired, in the original file.
	Pos    finding.Position
	Before string
	After  string
	// Also describes what the repair adds elsewhere in the file (the feature
	// gate), or why a removed gate entry changes nothing.
	Also  string
	edits []edit
	// gate is the feature gate whose entry the repair removes; typeMeta is set
	// on the repair that adds the missing apiVersion.
	gate     string
	typeMeta bool
}

// Skip is a mistake found but not repaired, with why.
type Skip struct {
	Rule   string
	Pos    finding.Position
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
	Finding finding.Finding
	Why     string
}

// Plan is every repair of an input for a set of kubelet minors.
type Plan struct {
	Minors []*kubelets.Minor
	// Files are the files with repairs or skips: the main file, then the
	// drop-ins in merge order.
	Files []*File
	// Checks holds one entry per minor when anything is repaired.
	Checks []Check
	// Worse is set when the repaired files lint worse at some minor: nothing
	// may be written then.
	Worse *Regression
	// Remaining lists every error and warning the files still have once
	// repaired (as they are, when nothing may be written), at any target
	// minor: what fix could not repair.
	Remaining []Remaining
}

// Remaining is one finding left after the repairs, at the target minors that
// report it (the message is the newest one's). Positions are in the repaired
// files.
type Remaining struct {
	finding.Finding

	Minors []string
}

// Left counts the errors and warnings left, each once however many minors
// report it.
func (p *Plan) Left() (errs, warns int) {
	for _, r := range p.Remaining {
		if r.Severity == finding.Error {
			errs++
		} else {
			warns++
		}
	}
	return errs, warns
}

// remaining merges the errors and warnings of each minor's result: one entry
// per position, rule and field path, in file order (the main file, then the
// drop-ins in merge order), then line, column and rule.
func remaining(minors []*kubelets.Minor, results []*pipeline.Result) []Remaining {
	order := map[string]int{}
	byKey := map[string]int{}
	var out []Remaining
	for i, r := range results {
		for _, f := range r.Files {
			if _, ok := order[f]; !ok {
				order[f] = len(order)
			}
		}
		for _, f := range r.Findings {
			if f.Severity < finding.Warning {
				continue
			}
			k := f.Position.String() + " " + f.Rule + " " + f.Path
			j, ok := byKey[k]
			if !ok {
				j = len(out)
				byKey[k] = j
				out = append(out, Remaining{})
			}
			out[j].Finding = f // the newest minor's words
			if ms := out[j].Minors; len(ms) == 0 || ms[len(ms)-1] != minors[i].Version {
				out[j].Minors = append(ms, minors[i].Version)
			}
		}
	}
	rank := func(file string) int {
		if n, ok := order[file]; ok {
			return n
		}
		return len(order)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if ra, rb := rank(a.File), rank(b.File); ra != rb {
			return ra < rb
		}
		return finding.Less(&a.Finding, &b.Finding)
	})
	return out
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
func Make(in pipeline.Input, minors []*kubelets.Minor) (*Plan, error) {
	if len(minors) == 0 {
		return nil, errors.New("fix: no kubelet minor to check against")
	}
	// The repairs are edits of the bytes on disk: the original files are
	// linted from the disk too.
	before, err := evaluateAt(in, nil, minors)
	if err != nil {
		return nil, err
	}
	p := &Plan{Minors: minors}
	env, err := newEnv(minors)
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
	files := map[string]*parsedFile{}
	for _, pf := range parsed {
		files[pf.file.Path] = pf
		pf.locateGates()
		env.typeMeta(pf)
	}
	// The renames first, evaluated again until the kubelet reads every key
	// they let it read; then the repairs that depend on everything it reads.
	last, err := env.discover(in, parsed, before)
	if err != nil {
		return nil, err
	}
	drafts, order, err := offers(files, last, draftRepair)
	if err != nil {
		return nil, err
	}
	env.resolveCrashLoop(files, drafts, order, last)
	removals, _, err := offers(files, last, gateRemoval)
	if err != nil {
		return nil, err
	}
	for _, pf := range parsed {
		env.lockedGates(pf, removals)
	}
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
		p.Remaining = remaining(minors, before)
		return p, nil
	}
	if err := p.relabel(in); err != nil {
		return nil, err
	}
	base, err := p.baseline(in, before)
	if err != nil {
		return nil, err
	}
	if p.Fixed() == 0 {
		p.Remaining = remaining(minors, before)
		return p, nil
	}
	after, err := p.verify(in, before, base)
	if err != nil {
		return nil, err
	}
	if p.Worse != nil {
		// Nothing is written: what is left is what the files have now.
		after = before
	}
	p.Remaining = remaining(minors, after)
	return p, nil
}

// readInput reads one file to repair; nil when there is nothing the fixer can
// work on (unreadable, not YAML, not a mapping): the linter reports those.
func readInput(path string, main bool) *parsedFile {
	f, err := source.ReadFile(path)
	if err != nil || f.SyntaxErr != nil || f.Doc == nil {
		return nil
	}
	pf := &parsedFile{file: f, main: main, t: f.Text(), keys: f.Keys(), renamed: map[*yaml.Node]bool{}, decided: map[int]bool{}}
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
			if r := f.Fixes[i].Rule; f.Path != in.Config && (r == dropin.DropInCaseOnly.ID || r == dropin.DropInCaseShadowed.ID) {
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
	rules := map[finding.Position]string{}
	for _, m := range p.Minors {
		r, err := loaded.Evaluate(m)
		if err != nil {
			return err
		}
		for _, f := range r.Findings {
			// The newest minor's rule wins, as in newEnv.
			if f.Rule == dropin.DropInCaseOnly.ID || f.Rule == dropin.DropInCaseShadowed.ID {
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

// evaluate lints the files with the repairs keep picks applied, at every
// minor.
func (p *Plan) evaluate(in pipeline.Input, keep func(*Fix) bool) ([]*pipeline.Result, error) {
	virtual := map[string][]byte{}
	for _, f := range p.Files {
		var edits []edit
		for i := range f.Fixes {
			if keep(&f.Fixes[i]) {
				edits = append(edits, f.Fixes[i].edits...)
			}
		}
		if len(edits) == 0 {
			continue
		}
		data, err := apply(f.Original, edits)
		if err != nil {
			return nil, fmt.Errorf("fix %s: %w", f.Path, err)
		}
		virtual[f.Path] = data
	}
	return evaluateAt(in, virtual, p.Minors)
}

// baseline is what the other repairs are compared with: the original files
// with the missing apiVersion added and the locked gate entries removed.
// Both let the kubelet read further (a file it cannot decode, a gate it
// panics on, hide everything after them), so the findings they bring to
// light are not the repairs' doing. The gate removals are proven here: at
// every minor where the kubelet started without them it still starts, with
// no more errors or warnings and the same effective configuration apart from
// the removed entries; else they are not made.
func (p *Plan) baseline(in pipeline.Input, before []*pipeline.Result) ([]*pipeline.Result, error) {
	has := func(keep func(*Fix) bool) bool {
		for _, f := range p.Files {
			for i := range f.Fixes {
				if keep(&f.Fixes[i]) {
					return true
				}
			}
		}
		return false
	}
	typeMeta := func(fx *Fix) bool { return fx.typeMeta }
	base := before
	if has(typeMeta) {
		var err error
		if base, err = p.evaluate(in, typeMeta); err != nil {
			return nil, err
		}
	}
	gates := func(fx *Fix) bool { return fx.gate != "" }
	if !has(gates) {
		return base, nil
	}
	withGates, err := p.evaluate(in, func(fx *Fix) bool { return fx.typeMeta || fx.gate != "" })
	if err != nil {
		return nil, err
	}
	removed := map[string]bool{}
	for _, f := range p.Files {
		for _, fx := range f.Fixes {
			if fx.gate != "" {
				removed[fx.gate] = true
			}
		}
	}
	for i, m := range p.Minors {
		if why := gateChange(base[i], withGates[i], removed); why != "" {
			p.dropGateFixes(fmt.Sprintf("removing the entry would change what kubelet %s does: %s", m.Version, why))
			return base, nil
		}
	}
	return withGates, nil
}

// gateChange says how removing the gate entries changes a minor's verdict or
// effective configuration, or "".
func gateChange(before, after *pipeline.Result, removed map[string]bool) string {
	if !before.Starts {
		return "" // the kubelet did nothing with these files
	}
	b, a := count(before), count(after)
	switch {
	case !a.Starts:
		return "it would no longer start"
	case a.Errors > b.Errors || a.Warnings > b.Warnings:
		return fmt.Sprintf("%s instead of %s", a, b)
	case before.Effective == nil || after.Effective == nil:
		return ""
	}
	strip := func(c *kubeletv1beta1.KubeletConfiguration) *kubeletv1beta1.KubeletConfiguration {
		out := *c
		out.FeatureGates = nil
		for name, v := range c.FeatureGates {
			if !removed[name] {
				if out.FeatureGates == nil {
					out.FeatureGates = map[string]bool{}
				}
				out.FeatureGates[name] = v
			}
		}
		return &out
	}
	if !reflect.DeepEqual(strip(before.Effective), strip(after.Effective)) {
		return "the effective configuration differs beyond the removed entries"
	}
	if !reflect.DeepEqual(before.CrashLoopBackOff, after.CrashLoopBackOff) {
		return "the crash-loop backoff differs"
	}
	return ""
}

// dropGateFixes turns every gate removal into a skip and applies the other
// repairs again.
func (p *Plan) dropGateFixes(reason string) {
	for _, f := range p.Files {
		var keep []Fix
		var edits []edit
		for _, fx := range f.Fixes {
			if fx.gate == "" {
				keep = append(keep, fx)
				edits = append(edits, fx.edits...)
				continue
			}
			f.Skips = append(f.Skips, Skip{Rule: fx.Rule, Pos: fx.Pos, What: fx.Before, Reason: reason})
		}
		f.Fixes = keep
		// The edits applied before, minus some: they cannot overlap now.
		f.Fixed, _ = apply(f.Original, edits)
		sort.SliceStable(f.Skips, func(i, j int) bool { return before(f.Skips[i].Pos, f.Skips[j].Pos) })
	}
}

// verify evaluates the repaired files at every minor and compares them with
// the original ones (Checks) and with the baseline (Worse).
func (p *Plan) verify(in pipeline.Input, before, base []*pipeline.Result) ([]*pipeline.Result, error) {
	after, err := p.evaluate(in, func(*Fix) bool { return true })
	if err != nil {
		return nil, err
	}
	for i, m := range p.Minors {
		c := Check{Minor: m.Version, Before: count(before[i]), After: count(after[i])}
		p.Checks = append(p.Checks, c)
		if p.Worse == nil {
			if why := worse(Check{Minor: m.Version, Before: count(base[i]), After: c.After}); why != "" {
				p.Worse = &Regression{Minor: m.Version, Finding: newFinding(base[i], after[i]), Why: why}
			}
		}
	}
	return after, nil
}

func count(r *pipeline.Result) Count {
	c := Count{Starts: r.Starts}
	for _, f := range r.Findings {
		switch f.Severity {
		case finding.Error:
			c.Errors++
		case finding.Warning:
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
func newFinding(before, after *pipeline.Result) finding.Finding {
	seen := map[string]int{}
	for _, f := range before.Findings {
		seen[f.Rule+" "+f.Path]++
	}
	var fresh []finding.Finding
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
		return finding.Finding{}
	}
	return fresh[0]
}

// minorList prints minors as "1.32, 1.33 and 1.34".
func minorList(ms []*kubelets.Minor) string {
	vs := make([]string, len(ms))
	for i, m := range ms {
		vs[i] = m.Version
	}
	return versionList(vs)
}

// versionList prints versions as "1.32, 1.33 and 1.34".
func versionList(vs []string) string {
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
