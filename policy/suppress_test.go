package policy

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
)

func TestScan(t *testing.T) {
	tests := []struct {
		name, data string
		want       []Suppression // File is "f"
	}{
		{"after a value", "maxPod: 3  # kubeletcfg:ignore KC1101 read by our tool\n",
			[]Suppression{{Position: pos(1, 12), IDs: []string{"KC1101"}, Reason: "read by our tool"}}},
		{"on its own line, for the next", "# kubeletcfg:ignore KC1101 read by our tool\nmaxPod: 3\n",
			[]Suppression{{Position: pos(1, 1), IDs: []string{"KC1101"}, Reason: "read by our tool", Target: 2}}},
		{"stacked above one line", "a:\n  # kubeletcfg:ignore KC3005 one\n  # a plain comment\n  # kubeletcfg:ignore kc1101 two\n  b: 1\n",
			[]Suppression{
				{Position: pos(2, 3), IDs: []string{"KC3005"}, Reason: "one", Target: 5},
				{Position: pos(4, 3), IDs: []string{"KC1101"}, Reason: "two", Target: 5},
			}},
		{"several IDs", "x: 1 # kubeletcfg:ignore KC1101,KC1102 both\ny: 2 # kubeletcfg:ignore KC1101, KC1102 spaced\n",
			[]Suppression{
				{Position: pos(1, 6), IDs: []string{"KC1101", "KC1102"}, Reason: "both"},
				{Position: pos(2, 6), IDs: []string{"KC1101", "KC1102"}, Reason: "spaced"},
			}},
		{"by rule name", "x: 1 # kubeletcfg:ignore unknown-field,Gate-GA both by name\n",
			[]Suppression{{Position: pos(1, 6), IDs: []string{"KC1101", "KC3005"}, Reason: "both by name"}}},
		{"no reason, no ID", "x: 1 # kubeletcfg:ignore KC1101\ny: 2 # kubeletcfg:ignore\n",
			[]Suppression{{Position: pos(1, 6), IDs: []string{"KC1101"}}, {Position: pos(2, 6)}}},
		{"inside quoted strings", "a: \"x # kubeletcfg:ignore KC1101 no\"\nb: 'it''s # kubeletcfg:ignore KC1101 no'\nc: \"two\n  lines # kubeletcfg:ignore KC1101 no\"\n",
			nil},
		{"after a quoted string", "a: \"x #\" # kubeletcfg:ignore KC1101 yes\n",
			[]Suppression{{Position: pos(1, 10), IDs: []string{"KC1101"}, Reason: "yes"}}},
		{"an apostrophe in a plain value", "a: don't # kubeletcfg:ignore KC1101 yes\n",
			[]Suppression{{Position: pos(1, 10), IDs: []string{"KC1101"}, Reason: "yes"}}},
		{"inside a block scalar", "a: |\n  # kubeletcfg:ignore KC1101 text\n  more\nb: 1 # kubeletcfg:ignore KC1101 yes\n",
			[]Suppression{{Position: pos(4, 6), IDs: []string{"KC1101"}, Reason: "yes"}}},
		{"# needs a blank before it", "a: x#kubeletcfg:ignore KC1101 no\n", nil},
		{"other markers", "# kubeletcfg:ignored KC1101 no\n# see kubeletcfg:ignore KC1101 no\n", nil},
		{"JSON", "{\"maxPod\": 3, \"x\": \"# kubeletcfg:ignore KC1101 no\"}\n", nil},
		{"CRLF", "# kubeletcfg:ignore KC1101 why\r\nmaxPod: 3\r\n",
			[]Suppression{{Position: pos(1, 1), IDs: []string{"KC1101"}, Reason: "why", Target: 2}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Scan("f", []byte(tt.data))
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Scan:\n got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func pos(line, col int) finding.Position {
	return finding.Position{File: "f", Line: line, Column: col}
}

// node writes a config file whose lines are given and returns its path.
func node(t *testing.T, lines ...string) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "config.yaml")
	write(t, file, strings.Join(lines, "\n")+"\n")
	return file
}

func newFinding(rule string, sev finding.Severity, file string, line int) finding.Finding {
	return finding.Finding{Rule: rule, Severity: sev, Message: "m", Position: finding.Position{File: file, Line: line, Column: 1}}
}

// brief renders findings as "RULE severity line" for comparison.
func brief(fs []finding.Finding) []string {
	out := []string{}
	for _, f := range fs {
		out = append(out, fmt.Sprintf("%s %s %d", f.Rule, f.Severity, f.Line))
	}
	return out
}

// Each suppression rule, with a passing and a failing case.
func TestApplySuppressions(t *testing.T) {
	W, E := finding.Warning, finding.Error
	tests := []struct {
		name     string
		lines    []string
		findings func(file string) []finding.Finding
		want     []string
	}{
		{"same line hides", []string{"maxPod: 3 # kubeletcfg:ignore KC1101 read by our tool"},
			func(f string) []finding.Finding { return []finding.Finding{newFinding("KC1101", W, f, 1)} },
			[]string{}},
		{"line above hides", []string{"# kubeletcfg:ignore KC1101 read by our tool", "maxPod: 3"},
			func(f string) []finding.Finding { return []finding.Finding{newFinding("KC1101", W, f, 2)} },
			[]string{}},
		{"another rule on the line stays", []string{"maxPod: 3 # kubeletcfg:ignore KC1101 read by our tool"},
			func(f string) []finding.Finding {
				return []finding.Finding{newFinding("KC1101", W, f, 1), newFinding("KC6001", W, f, 1)}
			},
			[]string{"KC6001 warning 1"}},
		{"two lines below is out of reach: unused (KC7001)", []string{"# kubeletcfg:ignore KC1101 read by our tool", "a: 1", "maxPod: 3"},
			func(f string) []finding.Finding { return []finding.Finding{newFinding("KC1101", W, f, 3)} },
			[]string{"KC7001 warning 1", "KC1101 warning 3"}},
		{"unknown ID: unused (KC7001)", []string{"maxPod: 3 # kubeletcfg:ignore KC1110 typo"},
			func(f string) []finding.Finding { return []finding.Finding{newFinding("KC1101", W, f, 1)} },
			[]string{"KC1101 warning 1", "KC7001 warning 1"}},
		{"no reason: hides, and KC7002", []string{"maxPod: 3 # kubeletcfg:ignore KC1101"},
			func(f string) []finding.Finding { return []finding.Finding{newFinding("KC1101", W, f, 1)} },
			[]string{"KC7002 warning 1"}},
		{"an error stays (KC7003)", []string{"featureGates:", "  NoSuchGate: true # kubeletcfg:ignore KC3001 we know"},
			func(f string) []finding.Finding { return []finding.Finding{newFinding("KC3001", E, f, 2)} },
			[]string{"KC3001 error 2", "KC7003 warning 2"}},
		{"in another file: no effect", []string{"maxPod: 3 # kubeletcfg:ignore KC1101 read by our tool"},
			func(f string) []finding.Finding {
				return []finding.Finding{newFinding("KC1101", W, filepath.Join(filepath.Dir(f), "other.yaml"), 1)}
			},
			[]string{"KC7001 warning 1", "KC1101 warning 1"}}, // config.yaml sorts before other.yaml
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := node(t, tt.lines...)
			r := &pipeline.Result{Verdict: pipeline.Verdict{Starts: true}, Files: []string{file}, Findings: tt.findings(file)}
			before := append([]finding.Finding(nil), r.Findings...)
			got := Apply(nil, []*pipeline.Result{r}, Options{})
			if b := brief(got[0]); !reflect.DeepEqual(b, tt.want) {
				t.Errorf("Apply: %q, want %q", b, tt.want)
			}
			if !reflect.DeepEqual(r.Findings, before) || !r.Starts {
				t.Error("Apply changed the result")
			}
		})
	}
}

// Over several minors a suppression is unused only when no minor needed it.
func TestApplyAcrossMinors(t *testing.T) {
	file := node(t, "featureGates:", "  # kubeletcfg:ignore KC3005 GA from 1.34; removed after the upgrade", "  NodeSwap: true")
	older := &pipeline.Result{Files: []string{file}}
	newer := &pipeline.Result{Files: []string{file}, Findings: []finding.Finding{newFinding("KC3005", finding.Warning, file, 3)}}
	got := Apply(nil, []*pipeline.Result{older, newer}, Options{})
	if len(got[0]) != 0 || len(got[1]) != 0 {
		t.Errorf("used at one minor: nothing to report, got %q and %q", brief(got[0]), brief(got[1]))
	}
	got = Apply(nil, []*pipeline.Result{older, older}, Options{})
	if b := brief(got[0]); !reflect.DeepEqual(b, []string{"KC7001 warning 2"}) || len(got[1]) != 1 {
		t.Errorf("unused at every minor: KC7001 at each, got %q and %q", b, brief(got[1]))
	}
}

// The policy's rules and excludes, after the suppressions.
func TestApplyPolicy(t *testing.T) {
	W, E, I := finding.Warning, finding.Error, finding.Info
	dir := t.TempDir()
	t.Chdir(dir)
	write(t, "conf.d/90-vendor.conf", "vendorTuning: x\n")
	write(t, "config.yaml", "maxPod: 3 # kubeletcfg:ignore KC1101\n")
	p := &Policy{dir: dir, Rules: map[string]Grade{
		"KC3005": {Off: true},
		"KC1105": {Severity: W},
		"KC7002": {Off: true},
		"KC4050": {Severity: E},
	}, Exclude: []string{"conf.d/90-*.conf"}}
	r := &pipeline.Result{Verdict: pipeline.Verdict{Starts: false}, Files: []string{"config.yaml", "conf.d/90-vendor.conf"}, Findings: []finding.Finding{
		newFinding("KC1101", W, "config.yaml", 1),           // suppressed without a reason, and KC7002 is off
		newFinding("KC1105", I, "config.yaml", 2),           // raised
		newFinding("KC3005", W, "config.yaml", 3),           // off
		newFinding("KC2005", W, "conf.d/90-vendor.conf", 1), // excluded
		newFinding("KC2004", E, "conf.d/90-vendor.conf", 2), // excluded, but the kubelet refuses: stays
		newFinding("KC4050", E, "config.yaml", 4),           // an error stays an error
		newFinding("KC6001", W, "conf.d/50-local.conf", 1),  // not excluded
	}}
	got := brief(Apply(p, []*pipeline.Result{r}, Options{})[0])
	want := []string{"KC6001 warning 1", "KC2004 error 2", "KC1105 warning 2", "KC4050 error 4"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Apply: %q\nwant %q", got, want)
	}
	got = brief(Apply(p, []*pipeline.Result{r}, Options{KeepSeverity: true})[0])
	want = []string{"KC6001 warning 1", "KC2004 error 2", "KC1105 info 2", "KC4050 error 4"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Apply KeepSeverity: %q\nwant %q", got, want)
	}
	if got := Apply(nil, []*pipeline.Result{{}}, Options{}); got[0] == nil {
		t.Error("no findings: an empty list, not nil (JSON prints [])")
	}
}

// TestApplyReadsWhatWasEvaluated: suppressions are read from the bytes the
// pipeline evaluated, not from the disk again (a file rewritten since does not
// change the verdict); a file held in memory (a converted input, standing in
// for the file the user wrote) is read from the disk, as written.
func TestApplyReadsWhatWasEvaluated(t *testing.T) {
	const head = "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n"
	withComment := head + "maxPod: 3 # kubeletcfg:ignore KC1101 read by our tool\n"
	without := head + "maxPod: 3\n"
	for _, tc := range []struct {
		name           string
		evaluated      string // the bytes the pipeline reads
		inMemory       bool   // given as Input.Virtual
		onDisk         string // the file on disk when Apply runs
		wantSuppressed bool
	}{
		{"evaluated with the comment, rewritten without", withComment, false, without, true},
		{"evaluated without, rewritten with", without, false, withComment, false},
		{"in memory without, on disk with", without, true, withComment, true},
		{"in memory with, on disk without", withComment, true, without, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "config.yaml")
			in := pipeline.Input{Config: file}
			if tc.inMemory {
				in.Virtual = map[string][]byte{file: []byte(tc.evaluated)}
				write(t, file, tc.onDisk)
			} else {
				write(t, file, tc.evaluated)
			}
			r, err := pipeline.Evaluate(kubelets.Default(), in)
			if err != nil {
				t.Fatal(err)
			}
			write(t, file, tc.onDisk)
			got := brief(Apply(nil, []*pipeline.Result{r}, Options{})[0])
			suppressed := !strings.Contains(strings.Join(got, " "), "KC1101")
			if suppressed != tc.wantSuppressed {
				t.Errorf("KC1101 suppressed %v, want %v (%q)", suppressed, tc.wantSuppressed, got)
			}
		})
	}
}
