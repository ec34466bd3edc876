package verbtext

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/backoff"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
)

// Entries that differ only in their minor share a column, titled with the
// minors as a range when they are consecutive.
func TestBackoffGroupsMinors(t *testing.T) {
	var minors []*kubelets.Minor
	for _, v := range []string{"1.32", "1.33", "1.34", "1.36"} {
		m, err := kubelets.Lookup(v)
		if err != nil {
			t.Fatal(err)
		}
		minors = append(minors, m)
	}
	es, err := backoff.Evaluate([]pipeline.Input{{Config: "../../testdata/backoff/default.yaml"}}, minors, nil)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteBackoff(&b, es); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"A  kubelet 1.32..1.34 with ", "B  kubelet 1.36 with "} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("no %q in\n%s", want, b.String())
		}
	}
}
