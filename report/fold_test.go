package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
	"github.com/kubeletcfg/kubeletcfg/source"
)

// Repeated findings of one rule in one file are folded in every format: the
// first FoldKeep in full, then one finding with the count; the counts
// a format prints still count every finding.
func TestFoldedInEveryFormat(t *testing.T) {
	const n = 40
	res := &pipeline.Result{Minor: kubelets.Default(), Files: []string{"c.yaml"}}
	res.Findings = append(res.Findings, source.ConfigDecode.At(finding.Position{File: "c.yaml", Line: 1, Column: 1}, "", "refused", ""))
	for i := range n {
		res.Findings = append(res.Findings, source.DuplicateKey.Atf(finding.Position{File: "c.yaml", Line: 10 + i, Column: 3}, "systemReserved[cpu]", "", "dup number %d", i))
	}
	doc := FromResult(res)
	if len(doc.Findings) != 1+FoldKeep+1 {
		t.Fatalf("FromResult kept %d findings, want %d", len(doc.Findings), 1+FoldKeep+1)
	}
	if len(res.Findings) != 1+n {
		t.Fatalf("FromResult changed the result's findings")
	}
	summary := fmt.Sprintf("and %d more duplicate key findings in this file, lines %d to %d", n-FoldKeep, 10+FoldKeep, 10+n-1)
	shown := fmt.Sprintf("dup number %d", FoldKeep-1)
	hidden := fmt.Sprintf("dup number %d", FoldKeep)
	for _, format := range Formats() {
		t.Run(format, func(t *testing.T) {
			w, _ := For(format)
			var out bytes.Buffer
			if err := w.Write(&out, []Document{doc}, Options{}); err != nil {
				t.Fatal(err)
			}
			got := out.String()
			if !strings.Contains(got, summary) || !strings.Contains(got, shown) {
				t.Errorf("no %q or no %q in:\n%s", summary, shown, got)
			}
			if strings.Contains(got, hidden) {
				t.Errorf("folded finding %q printed:\n%s", hidden, got)
			}
			switch format {
			case "text", "github":
				if want := fmt.Sprintf("1 error, %d warnings", n); !strings.Contains(got, want) {
					t.Errorf("no %q in:\n%s", want, got)
				}
			case "json":
				var one struct {
					Findings []struct {
						Rule     string `json:"rule"`
						Severity string `json:"severity"`
						Folded   int    `json:"folded"`
					} `json:"findings"`
				}
				if err := json.Unmarshal(out.Bytes(), &one); err != nil {
					t.Fatal(err)
				}
				last := one.Findings[len(one.Findings)-1]
				if last.Folded != n-FoldKeep || last.Rule != source.DuplicateKey.ID || last.Severity != "warning" {
					t.Errorf("summary finding %+v", last)
				}
			case "sarif":
				if c := strings.Count(got, `"ruleId": "KC1103"`); c != FoldKeep+1 {
					t.Errorf("%d KC1103 results, want %d", c, FoldKeep+1)
				}
			}
		})
	}
}
