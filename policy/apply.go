package policy

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
	"github.com/kubeletcfg/kubeletcfg/rule"
	"github.com/kubeletcfg/kubeletcfg/source"
)

// Options tune Apply.
type Options struct {
	// KeepSeverity ignores the policy's re-grades (off still hides): the skew
	// matrix reads an error finding as "this minor does not start", and has no
	// --fail-on for a grade to matter.
	KeepSeverity bool
}

// Apply decides what is reported of one or more evaluations of the same files
// (one for lint, one per kubelet minor for skew): the findings of each, in the
// same order as results. p may be nil (no policy file): the inline suppressions
// still apply.
//
// In order: inline suppressions hide the findings they name on their line
// (KC7001 when one hides nothing at any minor, KC7002 when it gives no
// reason, KC7003 when it names an error); then the policy's rules turn
// findings off or re-grade them; then findings in excluded files are dropped.
// A finding the pipeline emitted as an error (the kubelet will not start) is
// never hidden or lowered. The results themselves are not changed.
func Apply(p *Policy, results []*pipeline.Result, opt Options) [][]finding.Finding {
	sups := scanFiles(results)
	// used[i][id]: suppression i matched a finding of rule id at some minor.
	used := make([]map[string]bool, len(sups))
	for i := range used {
		used[i] = map[string]bool{}
	}
	byLine := map[lineKey][]int{}
	for i, s := range sups {
		for _, id := range s.IDs {
			for _, line := range []int{s.Line, s.Target} {
				if line > 0 {
					k := lineKey{filepath.Clean(s.File), line, id}
					byLine[k] = append(byLine[k], i)
				}
			}
		}
	}

	out := make([][]finding.Finding, len(results))
	for ri, r := range results {
		var fs []finding.Finding
		refused := map[string]bool{} // KC7003 once per suppression and rule
		for _, f := range r.Findings {
			hidden := false
			for _, i := range byLine[lineKey{filepath.Clean(f.File), f.Line, f.Rule}] {
				used[i][f.Rule] = true
				if f.Severity != finding.Error {
					hidden = true
					continue
				}
				if k := fmt.Sprint(i, f.Rule); !refused[k] {
					refused[k] = true
					fs = append(fs, notAllowed(&sups[i], f))
				}
			}
			if !hidden {
				fs = append(fs, f)
			}
		}
		out[ri] = fs
	}

	// Unused and reasonless suppressions are facts about the files: reported
	// with every evaluation that read the file.
	for i := range sups {
		s := &sups[i]
		var extra []finding.Finding
		if len(s.IDs) == 0 {
			extra = append(extra, SuppressionUnused.At(s.Position, "",
				Marker+" names no rule: it suppresses nothing", "write # "+Marker+" KCxxxx <why this is fine>"))
		}
		for _, id := range s.IDs {
			if !used[i][id] {
				extra = append(extra, unused(s, id))
			}
		}
		if len(s.IDs) > 0 && s.Reason == "" {
			extra = append(extra, SuppressionNoReason.At(s.Position, "",
				fmt.Sprintf("%s %s gives no reason", Marker, strings.Join(s.IDs, ",")),
				fmt.Sprintf("say why after the ID: # %s %s <why this is fine>", Marker, strings.Join(s.IDs, ","))))
		}
		for ri, r := range results {
			if read(r, s.File) {
				out[ri] = append(out[ri], extra...)
			}
		}
	}

	for ri := range out {
		fs := out[ri][:0]
		for _, f := range out[ri] {
			blocking := f.Severity == finding.Error
			if g, ok := p.grade(f.Rule); ok && !blocking {
				if g.Off {
					continue
				}
				if !opt.KeepSeverity {
					f.Severity = g.Severity
				}
			}
			if !blocking && p.Excluded(f.File) {
				continue
			}
			fs = append(fs, f)
		}
		finding.SortFindings(fs)
		if fs == nil {
			fs = []finding.Finding{}
		}
		out[ri] = fs
	}
	return out
}

type lineKey struct {
	file string
	line int
	rule string
}

func (p *Policy) grade(rule string) (Grade, bool) {
	if p == nil {
		return Grade{}, false
	}
	g, ok := p.Rules[rule]
	return g, ok
}

func notAllowed(s *Suppression, f finding.Finding) finding.Finding {
	return SuppressionNotAllowed.At(s.Position, f.Path,
		fmt.Sprintf("%s %s cannot hide the error at line %d: it means the kubelet will not start, so it stays", Marker, f.Rule, f.Line),
		"fix the configuration; errors cannot be suppressed, turned off or excluded")
}

func unused(s *Suppression, id string) finding.Finding {
	where := "on this line"
	if s.Target > 0 {
		where = fmt.Sprintf("on line %d", s.Target)
	}
	msg := fmt.Sprintf("%s %s suppresses nothing: no %s finding %s", Marker, id, id, where)
	hint := "remove the comment, so that it cannot hide a future finding"
	if _, ok := rule.Lookup(id); !ok {
		hint = unknownRule(id)
	}
	return SuppressionUnused.At(s.Position, "", msg, hint)
}

// read reports whether the evaluation read file.
func read(r *pipeline.Result, file string) bool {
	for _, f := range r.Files {
		if filepath.Clean(f) == filepath.Clean(file) {
			return true
		}
	}
	return false
}

// scanFiles finds the suppressions in every file the evaluations read, each
// file once. The files are read again: they are small, and a file that cannot
// be read now has nothing to suppress.
func scanFiles(results []*pipeline.Result) []Suppression {
	seen := map[string]bool{}
	var out []Suppression
	for _, r := range results {
		for _, file := range r.Files {
			if seen[filepath.Clean(file)] {
				continue
			}
			seen[filepath.Clean(file)] = true
			// The bytes the pipeline read, rather than reading every file again;
			// a converted input's file as written is read here.
			data, ok := r.FileData(file)
			if !ok {
				data, ok = readSmall(file)
			}
			if ok {
				out = append(out, Scan(file, data)...)
			}
		}
	}
	return out
}

func readSmall(file string) ([]byte, bool) {
	f, err := os.Open(file)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, false
	}
	data, err := io.ReadAll(io.LimitReader(f, source.MaxFileSize))
	return data, err == nil
}
