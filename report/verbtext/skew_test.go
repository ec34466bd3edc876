package verbtext

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
	"github.com/kubeletcfg/kubeletcfg/skew"
)

const (
	exampleConfig = "../../testdata/examples/node/config.yaml"
	exampleDir    = "../../testdata/examples/node/conf.d"
	cases         = "../../testdata/conformance/cases/"
)

// TestMatrixText checks the shape of kubeletcfg skew's table: the minors, then
// whether each starts, no trailing space.
func TestMatrixText(t *testing.T) {
	mx, err := skew.Evaluate(pipeline.Input{Config: exampleConfig, ConfigDir: exampleDir}, kubelets.Minors())
	if err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	if err := WriteMatrix(&text, mx, false); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(text.String(), "\n")
	if !strings.HasPrefix(lines[0], "kubelet ") || !strings.HasSuffix(lines[0], kubelets.Newest().Version) || !strings.HasPrefix(lines[1], "starts ") {
		t.Errorf("table header:\n%s", text.String())
	}
	for _, l := range lines {
		if strings.HasSuffix(l, " ") {
			t.Errorf("trailing space in %q", l)
		}
	}
}

// TestPreflightText: the sections of kubeletcfg preflight's text come in
// order, blockers, behaviour changes, notes, whether the move is blocked or not.
func TestPreflightText(t *testing.T) {
	oldest, _ := kubelets.Lookup(kubelets.Supported()[0])
	newest := kubelets.Default()
	for _, tt := range []struct {
		name string
		in   pipeline.Input
		from *kubelets.Minor
	}{
		{"readme example, same minor", pipeline.Input{Config: exampleConfig, ConfigDir: exampleDir}, newest},
		{"readme example, oldest to newest", pipeline.Input{Config: exampleConfig, ConfigDir: exampleDir}, oldest},
		{"main file only", pipeline.Input{Config: exampleConfig}, oldest},
		{"unknown gate", pipeline.Input{Config: cases + "181-gate-unknown-main/kubelet.yaml"}, oldest},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, err := skew.NewPreflight(tt.in, tt.from, newest)
			if err != nil {
				t.Fatal(err)
			}
			var text bytes.Buffer
			if err := WritePreflight(&text, p, PreflightOptions{}); err != nil {
				t.Fatal(err)
			}
			b, bc, n := strings.Index(text.String(), "\nBlockers"), strings.Index(text.String(), "\nBehaviour changes"), strings.Index(text.String(), "\nNotes")
			if b < 0 || bc < b || n < bc {
				t.Errorf("sections out of order:\n%s", text.String())
			}
		})
	}
}
