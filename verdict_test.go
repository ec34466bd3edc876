package kubeletcfg_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/kubeletcfg/kubeletcfg"
	"github.com/kubeletcfg/kubeletcfg/report"
	"github.com/kubeletcfg/kubeletcfg/validate"
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

func (fixedVerdict) CountAtLeast(threshold validate.Severity) int {
	fs := []validate.Finding{{Severity: validate.Error}, {Severity: validate.Warning}}
	return kubeletcfg.CountAtLeast(fs, threshold)
}

func TestFailOn(t *testing.T) {
	broken := errors.New("disk full")
	for _, tc := range []struct {
		name      string
		v         fixedVerdict
		threshold validate.Severity
		findings  int // the FindingsError's N; 0: no error
		err       error
	}{
		{"fail on error", fixedVerdict{}, validate.Error, 1, nil},
		{"fail on warning", fixedVerdict{}, validate.Warning, 2, nil},
		{"fail on none", fixedVerdict{}, -1, 0, nil},
		{"write error first", fixedVerdict{writeErr: broken}, validate.Error, 0, broken},
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

// LintInputs picks lint's verb as the command's arguments do.
func TestLintInputs(t *testing.T) {
	example := "testdata/examples/node/config.yaml"
	for _, tc := range []struct {
		name  string
		opt   kubeletcfg.Options
		paths []string
		nodes string
		want  string
	}{
		{"one node's files", kubeletcfg.Options{Config: example}, []string{example}, "", "*kubeletcfg.Linted"},
		{"several paths", kubeletcfg.Options{}, []string{example, "testdata/examples/node-1.38/config.yaml"}, "", "*kubeletcfg.LintedPaths"},
		{"a folder of nodes", kubeletcfg.Options{}, nil, "testdata/examples", "*kubeletcfg.LintedNodes"},
		{"a kind file whose nodes differ", kubeletcfg.Options{Config: "testdata/inputs/kind.yaml"}, []string{"testdata/inputs/kind.yaml"}, "", "*kubeletcfg.LintedPaths"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := kubeletcfg.LintInputs(tc.opt, tc.paths, tc.nodes)
			if err != nil {
				t.Fatal(err)
			}
			if got := fmt.Sprintf("%T", v); got != tc.want {
				t.Errorf("verdict %s, want %s", got, tc.want)
			}
		})
	}
}
