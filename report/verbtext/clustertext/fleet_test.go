package clustertext

import (
	"testing"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/report"
)

// TestWhere: a position in a configz dump (one JSON line, or its converted
// document without the running minor's defaults) prints as the field path;
// other files keep file:line:column.
func TestWhere(t *testing.T) {
	for _, tt := range []struct {
		pos  finding.Position
		path string
		want string
	}{
		{finding.Position{File: "configz", Line: 1, Column: 1953}, "maxPods", "maxPods"},
		{finding.Position{File: "configz (without 1.36 defaults)", Line: 4, Column: 5}, "evictionHard[memory.available]", "evictionHard[memory.available]"},
		{finding.Position{File: "configz", Line: 1, Column: 3}, "", "configz"},
		{finding.Position{File: "flagz", Line: 1, Column: 3}, "maxPods", "flagz:1:3"},
	} {
		if got := where(tt.pos, tt.path); got != tt.want {
			t.Errorf("where(%v, %q) = %q, want %q", tt.pos, tt.path, got, tt.want)
		}
	}
	d := report.Document{Findings: []finding.Finding{
		{Position: finding.Position{File: "configz", Line: 1, Column: 1368}},
		{Position: finding.Position{File: "flagz", Line: 2, Column: 1}},
	}}
	got := withoutConfigzLines(d)
	if p := got.Findings[0].Position; p.Line != 0 || p.Column != 0 || p.File != "configz" {
		t.Errorf("configz finding at %v", p)
	}
	if p := got.Findings[1].Position; p.Line != 2 {
		t.Errorf("flagz finding at %v", p)
	}
	if d.Findings[0].Line != 1 {
		t.Error("the group's own document was changed")
	}
}
