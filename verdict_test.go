package kubeletcfg_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg"
	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/report"
)

// fixedVerdict has one error and one warning.
type fixedVerdict struct{ writeErr error }

func (v fixedVerdict) Write(w io.Writer, format string, _ report.Options) error {
	if v.writeErr != nil {
		return v.writeErr
	}
	_, err := io.WriteString(w, format)
	return err
}

func (fixedVerdict) CountAtLeast(threshold finding.Severity) int {
	fs := []finding.Finding{{Severity: finding.Error}, {Severity: finding.Warning}}
	return kubeletcfg.CountAtLeast(fs, threshold)
}

func TestFailOn(t *testing.T) {
	broken := errors.New("disk full")
	for _, tc := range []struct {
		name      string
		v         fixedVerdict
		threshold finding.Severity
		findings  int // the FindingsError's N; 0: no error
		err       error
	}{
		{"fail on error", fixedVerdict{}, finding.Error, 1, nil},
		{"fail on warning", fixedVerdict{}, finding.Warning, 2, nil},
		{"fail on none", fixedVerdict{}, -1, 0, nil},
		{"write error first", fixedVerdict{writeErr: broken}, finding.Error, 0, broken},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			err := kubeletcfg.FailOn(&out, tc.v, "text", report.Options{}, tc.threshold)
			var fe *kubeletcfg.FindingsError
			switch {
			case tc.err != nil:
				if !errors.Is(err, tc.err) {
					t.Errorf("error %v, want %v", err, tc.err)
				}
			case tc.findings == 0 && err != nil:
				t.Errorf("error %v, want none", err)
			case tc.findings > 0 && (!errors.As(err, &fe) || fe.N != tc.findings):
				t.Errorf("error %v, want %d findings", err, tc.findings)
			}
			if tc.err == nil && out.String() != "text" {
				t.Errorf("wrote %q", out.String())
			}
		})
	}
}

// Lint lints what the command's arguments name: one node, several paths, a
// folder of nodes, each node of a kind file whose nodes differ.
func TestLintInputs(t *testing.T) {
	example := "testdata/examples/node/config.yaml"
	for _, tc := range []struct {
		name string
		opt  kubeletcfg.Options
		want string // Linted.Several's type
	}{
		{"one node's files", kubeletcfg.Options{Config: example}, "<nil>"},
		{"one path", kubeletcfg.Options{Paths: []string{example}}, "<nil>"},
		{"several paths", kubeletcfg.Options{Paths: []string{example, "testdata/examples/node-1.38/config.yaml"}}, "*kubeletcfg.LintedPaths"},
		{"a folder of nodes", kubeletcfg.Options{Nodes: "testdata/examples"}, "*kubeletcfg.LintedNodes"},
		{"a kind file whose nodes differ", kubeletcfg.Options{Paths: []string{"testdata/inputs/kind.yaml"}}, "*kubeletcfg.LintedPaths"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := kubeletcfg.Lint(tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			if got := fmt.Sprintf("%T", l.Several); got != tc.want {
				t.Errorf("Several %s, want %s", got, tc.want)
			}
			if l.Several == nil && l.Result == nil {
				t.Error("one node without a result")
			}
		})
	}
}

// The verbs without --fail-on count what makes the command exit 1 and write
// their notes to report.Options.Log.
func TestVerbVerdicts(t *testing.T) {
	node := kubeletcfg.Options{Config: "testdata/examples/node/config.yaml", KubeletVersion: "1.37"}
	refused := node
	refused.ConfigDir = "testdata/examples/node/conf.d" // KC4050: 1.37 does not start
	effective := func(opt kubeletcfg.Options) kubeletcfg.Verdict {
		e, err := kubeletcfg.Effective(opt)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	backoff := func(opt kubeletcfg.Options) kubeletcfg.Verdict {
		b, err := kubeletcfg.Backoff(opt, nil)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, tc := range []struct {
		name, format string
		v            kubeletcfg.Verdict
		fails        bool
		note         string
	}{
		{"effective starts", "yaml", effective(node), false, ""},
		{"effective refused", "yaml", effective(refused), true, "kubeletcfg: kubelet 1.37 would not start with this configuration (1 error); run kubeletcfg lint for details\n"},
		{"backoff starts", "text", backoff(node), false, ""},
		{"backoff refused", "json", backoff(refused), true, "kubeletcfg: kubelet 1.37 would not start with testdata/examples/node/config.yaml + testdata/examples/node/conf.d; run kubeletcfg lint --kubelet-version 1.37 for details\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, log bytes.Buffer
			if err := tc.v.Write(&out, tc.format, report.Options{Log: &log}); err != nil {
				t.Fatal(err)
			}
			if n := tc.v.CountAtLeast(finding.Error); (n > 0) != tc.fails {
				t.Errorf("count at error %d, want failing %v", n, tc.fails)
			}
			if n := tc.v.CountAtLeast(-1); n != 0 {
				t.Errorf("count at none %d, want 0", n)
			}
			if log.String() != tc.note {
				t.Errorf("log %q, want %q", log.String(), tc.note)
			}
		})
	}
}

// Fix refuses a converted input: it writes back what it read.
func TestFixRefusesConversions(t *testing.T) {
	_, err := kubeletcfg.Fix(kubeletcfg.Options{Config: "testdata/inputs/configz.json"})
	if err == nil || !strings.Contains(err.Error(), "fix edits KubeletConfiguration files in place; this is a configz dump") {
		t.Errorf("error %v, want fix's refusal of a configz dump", err)
	}
	f, err := kubeletcfg.Fix(kubeletcfg.Options{Config: "testdata/examples/node/config.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	if n, want := f.CountAtLeast(finding.Error), f.Plan.Failures(); n != want {
		t.Errorf("count %d, want the plan's failures %d", n, want)
	}
}

// CheckPaths refuses what is not one node's files, naming the verb.
func TestCheckPaths(t *testing.T) {
	for _, tc := range []struct {
		name  string
		opt   kubeletcfg.Options
		paths []string
		want  string // "" for no error
	}{
		{"one file", kubeletcfg.Options{}, []string{"a.yaml"}, ""},
		{"a folder", kubeletcfg.Options{}, []string{"testdata/examples/node"}, "testdata/examples/node is a folder: skew takes files"},
		{"stdin twice", kubeletcfg.Options{}, []string{"-", "-"}, "standard input) given twice"},
		{"and --config", kubeletcfg.Options{Config: "b.yaml"}, []string{"a.yaml"}, "both name the main file"},
		{"several with --versions", kubeletcfg.Options{Versions: "1.34..1.37"}, []string{"a.yaml", "b.yaml"}, "--discover and --versions check one kubelet"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.opt.CheckPaths("skew", tc.paths, "")
			if (err == nil) != (tc.want == "") || err != nil && !strings.Contains(kubeletcfg.CommandWords(err), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}
