package fuzzcase

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/kubeletcfg/kubeletcfg/internal/corpus"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
	"github.com/kubeletcfg/kubeletcfg/source"
)

// Report is the outcome of comparing kubeletcfg with the kubelet's goldens on a
// folder of cases.
type Report struct {
	Minor string
	// Cases is the number of cases compared; Disagreeing how many disagree in
	// at least one way.
	Cases, Disagreeing int
	Classes            []*Class
}

// Class is one class of disagreement: how many cases show it and the first one.
type Class struct {
	Name    string
	Cases   []string
	Example string // the first case's detail
}

// Compare evaluates every case folder under casesDir with kubeletcfg at the
// minor and compares it with the golden of the same name in goldenDir
// (corpus.Compare, as pipeline's conformance test does).
func Compare(m *kubelets.Minor, nodeOS kubelets.OS, casesDir, goldenDir string) (*Report, error) {
	entries, err := os.ReadDir(casesDir)
	if err != nil {
		return nil, err
	}
	rep := &Report{Minor: m.Version}
	byName := map[string]*Class{}
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		name := e.Name()
		rep.Cases++
		var ds []corpus.Disagreement
		if want, err := corpus.ReadGolden(filepath.Join(goldenDir, name+".json")); err != nil {
			// The harness could not run the case (it says why on its stderr).
			ds = []corpus.Disagreement{{Class: "no golden: the harness recorded nothing", Detail: err.Error()}}
		} else {
			ds = CompareCase(m, nodeOS, filepath.Join(casesDir, name), want)
		}
		if len(ds) > 0 {
			rep.Disagreeing++
		}
		for _, d := range ds {
			c := byName[d.Class]
			if c == nil {
				c = &Class{Name: d.Class, Example: d.Detail}
				byName[d.Class] = c
				rep.Classes = append(rep.Classes, c)
			}
			if len(c.Cases) == 0 || c.Cases[len(c.Cases)-1] != name {
				c.Cases = append(c.Cases, name)
			}
		}
	}
	sort.SliceStable(rep.Classes, func(i, j int) bool {
		if a, b := len(rep.Classes[i].Cases), len(rep.Classes[j].Cases); a != b {
			return a > b
		}
		return rep.Classes[i].Name < rep.Classes[j].Name
	})
	return rep, nil
}

// CompareCase runs kubeletcfg on one case folder, for a node of nodeOS ("":
// Linux; the Windows harness's goldens are a Windows kubelet's), and compares
// it with the kubelet's golden. A panic of kubeletcfg itself is a disagreement too.
func CompareCase(m *kubelets.Minor, nodeOS kubelets.OS, dir string, want corpus.Golden) (ds []corpus.Disagreement) {
	defer func() {
		if p := recover(); p != nil {
			ds = []corpus.Disagreement{{Class: "kubeletcfg crashed", Detail: fmt.Sprint(p)}}
		}
	}()
	c, err := corpus.Read(dir)
	if err != nil {
		return []corpus.Disagreement{{Class: "unreadable case", Detail: err.Error()}}
	}
	in := pipeline.Input{Config: c.Config, ConfigDir: c.ConfigDir, CgroupVersion: c.CgroupVersion, Flags: c.Flags, OS: nodeOS}
	var o corpus.Outcome
	res, err := pipeline.Evaluate(m, in)
	if err != nil {
		var ie *source.InputError
		if !errors.As(err, &ie) {
			return []corpus.Disagreement{{Class: "kubeletcfg failed", Detail: err.Error()}}
		}
		o.InputError = err
	} else if o, err = Outcome(res, dir); err != nil {
		return []corpus.Disagreement{{Class: "kubeletcfg failed", Detail: err.Error()}}
	}
	return corpus.Compare(want, o)
}

// Write prints the report: a summary line, then each class with its count, its
// cases (the first few) and the first case's detail.
func (r *Report) Write(w io.Writer) {
	fmt.Fprintf(w, "kubelet %s: %d cases, %d agree, %d disagree", r.Minor, r.Cases, r.Cases-r.Disagreeing, r.Disagreeing)
	if len(r.Classes) == 0 {
		fmt.Fprintln(w)
		return
	}
	fmt.Fprintf(w, " (%d classes)\n", len(r.Classes))
	for _, c := range r.Classes {
		shown := c.Cases
		more := ""
		if len(shown) > 5 {
			more = fmt.Sprintf(" and %d more", len(shown)-5)
			shown = shown[:5]
		}
		fmt.Fprintf(w, "\n%d × %s\n  cases: %s%s\n  e.g. %s: %s\n", len(c.Cases), c.Name, strings.Join(shown, " "), more, c.Cases[0], c.Example)
	}
}

// Outcome is res as corpus.Compare compares it with a golden (caseDir: the
// case's folder); pipeline's conformance test compares with it too.
func Outcome(res *pipeline.Result, caseDir string) (corpus.Outcome, error) {
	obj, err := res.EffectiveObject()
	if err != nil {
		return corpus.Outcome{}, err
	}
	var initial, max *time.Duration
	if b := res.CrashLoopBackOff; b != nil {
		initial, max = &b.Initial, &b.Max
	}
	return corpus.OutcomeOf(res.Starts, res.Panics, res.Findings, obj, initial, max, caseDir)
}
