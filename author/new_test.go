package author

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
)

const node = "../testdata/dropin/node"

func window(t *testing.T, spec string) []*kubelets.Minor {
	t.Helper()
	ms, err := kubelets.Window(spec, "")
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

func TestCheckDropInName(t *testing.T) {
	for name, ok := range map[string]bool{
		"50-crashloop.conf": true,
		"":                  false,
		"..":                false,
		"../escape.conf":    false,
		"a/b.conf":          false,
		"50-pods.yaml":      false,
		".conf":             false,
	} {
		if err := CheckDropInName(name); (err == nil) != ok {
			t.Errorf("%q: %v, want ok %v", name, err, ok)
		}
	}
}

// New refuses, at the minors where they happen, a key a later drop-in
// overrides and a gate a minor does not register; a dry run writes nothing;
// a usage error checks nothing.
func TestNew(t *testing.T) {
	crash := []string{"crashLoopBackOff.maxContainerRestartPeriod=30s"}
	gate := []string{"KubeletCrashLoopBackOffMax=true"}
	tests := []struct {
		name    string
		req     NewRequest
		refused []string
		err     string
	}{
		{name: "applies", req: NewRequest{Name: "50-crashloop.conf", Sets: crash, Gates: gate, Minors: window(t, "1.32..1.37")}, refused: []string{}},
		{name: "field unknown to 1.31", req: NewRequest{Name: "50-crashloop.conf", Sets: crash, Gates: gate, Minors: window(t, "1.31,1.37")}, refused: []string{"1.31"}},
		{name: "overridden", req: NewRequest{Name: "50-eviction.conf", Sets: []string{"evictionHard[memory.available]=200Mi"}, Minors: window(t, "1.37")}, refused: []string{"1.37"}},
		{name: "later drop-in sets the same value", req: NewRequest{Name: "50-eviction.conf", Sets: []string{"evictionHard[memory.available]=500Mi"}, Minors: window(t, "1.37")}, refused: []string{}},
		{name: "override allowed", req: NewRequest{Name: "50-eviction.conf", Sets: []string{"evictionHard[memory.available]=200Mi"}, Minors: window(t, "1.37"), AllowOverride: true}, refused: []string{}},
		{name: "unknown gate", req: NewRequest{Name: "95-gate.conf", Gates: []string{"ReduceDefaultCrashLoopBackoffDecay=true"}, Minors: window(t, "1.37")}, err: `did you mean "ReduceDefaultCrashLoopBackOffDecay"?`},
		{name: "nothing to write", req: NewRequest{Name: "95-x.conf", Minors: window(t, "1.37")}, err: "nothing to write"},
		{name: "bad name", req: NewRequest{Name: "95-x.yaml", Sets: crash, Minors: window(t, "1.37")}, err: "only files ending in .conf"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := tt.req
			req.Config, req.ConfigDir, req.DryRun, req.CgroupVersion = node+"/config.yaml", node+"/conf.d", true, 2
			rep, err := New(req)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one with %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(rep.Refused, tt.refused) || rep.Written {
				t.Errorf("refused by %v, written %v; want %v, false", rep.Refused, rep.Written, tt.refused)
			}
			if want := filepath.Join(node, "conf.d", req.Name); rep.File != want || !slices.Contains(rep.MergeOrder, want) {
				t.Errorf("file %s, merge order %v", rep.File, rep.MergeOrder)
			}
			if _, err := os.Stat(rep.File); err == nil {
				t.Errorf("a dry run wrote %s", rep.File)
			}
		})
	}
}

// DropInDiff gives no drop-in for equal sides, an exact one where the minors
// merge alike, and failures (nothing written) where an older minor does not.
func TestDropInDiff(t *testing.T) {
	const golden = "../testdata/dropin/golden.yaml"
	from := []string{node + "/config.yaml", node + "/conf.d"}
	tests := []struct {
		name     string
		from     []string
		minors   string
		content  bool
		failures bool
	}{
		{"equal", []string{golden}, "1.37", false, false},
		{"exact", from, "1.32..1.37", true, false},
		{"not exact at 1.31", from, "1.31,1.37", true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := DropInDiff(DiffRequest{From: tt.from, To: golden, Minors: window(t, tt.minors), CgroupVersion: 2})
			if err != nil {
				t.Fatal(err)
			}
			if (rep.Content != nil) != tt.content || (len(rep.Failures) > 0) != tt.failures || rep.Written {
				t.Errorf("content %v, failures %q, written %v", rep.Content != nil, rep.Failures, rep.Written)
			}
			if tt.content && (rep.Keys == 0 || !strings.Contains(string(rep.Content), "kind: KubeletConfiguration")) {
				t.Errorf("%d keys in\n%s", rep.Keys, rep.Content)
			}
		})
	}
	if _, err := DropInDiff(DiffRequest{From: from, Minors: window(t, "1.37")}); err == nil {
		t.Error("no --to: want an error")
	}
}

// A failure in the drop-in checked under its internal name says "line N of
// the drop-in", never that name; other files keep their path.
func TestFirstErrorIn(t *testing.T) {
	checked := filepath.Join("conf.d", lastName)
	for _, tc := range []struct {
		file, want string
	}{
		{checked, "line 7 of the drop-in KC5001: refused"},
		{"conf.d/10-pool.conf", "conf.d/10-pool.conf:7:3 KC5001: refused"},
	} {
		r := &pipeline.Result{Findings: []finding.Finding{{Rule: "KC5001", Severity: finding.Error, Message: "refused", Position: finding.Position{File: tc.file, Line: 7, Column: 3}}}}
		if got := firstErrorIn(r, checked); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.file, got, tc.want)
		}
	}
}
