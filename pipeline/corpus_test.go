package pipeline

import (
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/finding"
	testcorpus "github.com/kubeletcfg/kubeletcfg/internal/corpus"
)

// The conformance corpus: every case under testdata/conformance/cases has, per
// kubelet minor, a golden recorded by running the real kubelet code on it
// (conformance/harness); TestConformance (conformance_test.go) checks that
// kubeletcfg agrees with every golden, and other tests here read its cases.

const corpus = "../testdata/conformance"

// caseInput reads a case folder as the harness does (internal/corpus).
func caseInput(t testing.TB, dir string) (Input, testcorpus.Case) {
	t.Helper()
	c, err := testcorpus.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	return Input{Config: c.Config, ConfigDir: c.ConfigDir, CgroupVersion: c.CgroupVersion, Flags: c.Flags}, c
}

// dump lists findings, one a line, for a test's failure message.
func dump(fs []finding.Finding) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString("  " + f.Position.String() + " " + f.Severity.String() + " " + f.Rule + " " + f.Message + "\n")
	}
	return b.String()
}

// The conformance test (conformance_test.go) is in package pipeline_test, so
// that it compares with the one outcome of internal/fuzzcase (which imports
// pipeline); it reads the cases and dumps findings as these tests do.
var (
	CaseInput = caseInput
	Dump      = dump
)

// Corpus is the conformance corpus, relative to this folder.
const Corpus = corpus
