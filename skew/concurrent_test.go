package skew

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/internal/corpus"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
)

// corpusInput reads a conformance case folder as the harness does.
func corpusInput(t *testing.T, dir string) pipeline.Input {
	t.Helper()
	c, err := corpus.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	return pipeline.Input{Config: c.Config, ConfigDir: c.ConfigDir, CgroupVersion: c.CgroupVersion}
}

// TestConcurrentMatchesSequential evaluates every conformance case at every
// minor from one Loaded on a goroutine per minor (what pipeline.Loaded and skew's
// caches promise to allow), and checks each result, and each column of the
// matrix (EvaluateLoaded, minor after minor), against the same minor evaluated
// alone: sharing the loaded files between goroutines changes nothing. Run it
// with -race.
func TestConcurrentMatchesSequential(t *testing.T) {
	all := kubelets.Minors()
	dirs, err := filepath.Glob(filepath.Join(cases, "*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no cases: %v", err)
	}
	for i, dir := range dirs {
		if testing.Short() && i%10 != 0 {
			continue
		}
		in := corpusInput(t, dir)
		mx, err := Evaluate(in, all)
		concurrent := make([]*pipeline.Result, len(all))
		cerrs := make([]error, len(all))
		if l, lerr := pipeline.Load(in); lerr == nil {
			var wg sync.WaitGroup
			for j, m := range all {
				wg.Go(func() { concurrent[j], cerrs[j] = l.Evaluate(m) })
			}
			wg.Wait()
		}
		for j, m := range all {
			want, werr := pipeline.Evaluate(m, in)
			if (err != nil) != (werr != nil) {
				t.Fatalf("%s at %s: matrix error %v, alone %v", dir, m.Version, err, werr)
			}
			if err != nil {
				continue
			}
			if cerrs[j] != nil || concurrent[j] == nil {
				t.Fatalf("%s at %s: concurrent evaluation: %v", dir, m.Version, cerrs[j])
			}
			compareResults(t, dir+" (concurrent)", m.Version, concurrent[j], want)
			got := mx.Columns[j].Result
			if got.Minor != m {
				t.Fatalf("%s: column %d is %s, want %s", dir, j, got.Minor.Version, m.Version)
			}
			compareResults(t, dir, m.Version, got, want)
			obj, _ := want.EffectiveObject()
			if !reflect.DeepEqual(mx.Columns[j].Effective, obj) {
				t.Errorf("%s at %s: effective object differs in the matrix", dir, m.Version)
			}
		}
	}
}

// stableFindings leaves out the verbatim kubelet message of gate findings:
// featuregate reports unknown gates and unmet dependencies in map order, which
// differs from run to run even when a minor is evaluated alone.
func stableFindings(fs []finding.Finding) []finding.Finding {
	out := make([]finding.Finding, len(fs))
	for i, f := range fs {
		if strings.HasPrefix(f.Rule, "KC3") {
			f.Kubelet = ""
		}
		out[i] = f
	}
	return out
}

// compareResults reports every way got differs from want, the same minor
// evaluated alone.
func compareResults(t *testing.T, dir, minor string, got, want *pipeline.Result) {
	t.Helper()
	for _, f := range []struct {
		name      string
		got, want any
	}{
		{"Starts", got.Starts, want.Starts},
		{"Panics", got.Panics, want.Panics},
		{"Effective", got.Effective, want.Effective},
		{"Origins", got.Origins, want.Origins},
		{"Findings", stableFindings(got.Findings), stableFindings(want.Findings)},
		{"CrashLoopBackOff", got.CrashLoopBackOff, want.CrashLoopBackOff},
		{"Lenient", got.Lenient, want.Lenient},
		{"Files", got.Files, want.Files},
		{"Dropped", got.Dropped, want.Dropped},
	} {
		if !reflect.DeepEqual(f.got, f.want) {
			g, _ := json.Marshal(f.got)
			w, _ := json.Marshal(f.want)
			t.Errorf("%s at %s: %s differs:\n got %s\nwant %s", dir, minor, f.name, g, w)
		}
	}
}
