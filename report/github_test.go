package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
)

func TestGitHubEscaping(t *testing.T) {
	for _, tt := range []struct{ in, data, prop string }{
		{"plain", "plain", "plain"},
		{"50% off", "50%25 off", "50%25 off"},
		{"%0A is not a newline", "%250A is not a newline", "%250A is not a newline"},
		{"a\nb\r\nc", "a%0Ab%0D%0Ac", "a%0Ab%0D%0Ac"},
		{"file=a,line=3", "file=a,line=3", "file=a%2Cline=3"},
		{"::error::x", "::error::x", "%3A%3Aerror%3A%3Ax"},
		{"C:\\nodes\\config.yaml", "C:\\nodes\\config.yaml", "C%3A\\nodes\\config.yaml"},
	} {
		if got := githubData(tt.in); got != tt.data {
			t.Errorf("githubData(%q) = %q, want %q", tt.in, got, tt.data)
		}
		if got := githubProperty(tt.in); got != tt.prop {
			t.Errorf("githubProperty(%q) = %q, want %q", tt.in, got, tt.prop)
		}
	}
}

// unescape is what the Actions runner does with a command's data and
// properties; escaping must round-trip through it.
func unescape(s string) string {
	return strings.NewReplacer("%0D", "\r", "%0A", "\n", "%3A", ":", "%2C", ",", "%25", "%").Replace(s)
}

func TestGitHubCommands(t *testing.T) {
	hostile := "a,b:c%d\ne"
	docs := []Document{
		{KubeletVersion: "1.36", Files: []string{"c.yaml"}, Findings: []finding.Finding{
			{Rule: "KC1101", Severity: finding.Warning, Message: "dropped", Path: "maxPod", Hint: "did you mean \"maxPods\"?", Position: finding.Position{File: "c.yaml", Line: 19, Column: 1}},
		}},
		{KubeletVersion: "1.37", Files: []string{"c.yaml"}, Verdict: pipeline.Verdict{Starts: true}, Findings: []finding.Finding{
			{Rule: "KC1101", Severity: finding.Warning, Message: "dropped", Path: "maxPod", Hint: "did you mean \"maxPods\"?", Position: finding.Position{File: "c.yaml", Line: 19, Column: 1}},
			{Rule: "KC5001", Severity: finding.Error, Message: "no file"},
			{Rule: "KC2001", Severity: finding.Info, Message: hostile, Position: finding.Position{File: hostile}},
		}},
	}
	var out bytes.Buffer
	if err := (githubWriter{}).Write(&out, docs, Options{}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 4 {
		t.Fatalf("want 3 commands and a summary, got:\n%s", out.String())
	}
	want := []string{
		"::error title=KC5001 ",
		"::notice file=a%2Cb%3Ac%25d%0Ae,title=KC2001 ",
		"::warning file=c.yaml,line=19,col=1,title=KC1101 unknown-field (kubelet 1.36%2C 1.37)::dropped%0Afield: maxPod%0Ahint: did you mean \"maxPods\"?",
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d: %s\nwant prefix %s", i, lines[i], w)
		}
	}
	cmd, data, ok := strings.Cut(strings.TrimPrefix(lines[1], "::"), "::")
	if !ok || unescape(data) != hostile {
		t.Errorf("data of %q does not round-trip", lines[1])
	}
	props := strings.SplitN(strings.TrimPrefix(cmd, "notice "), ",", 2)
	if file := unescape(strings.TrimPrefix(props[0], "file=")); file != hostile {
		t.Errorf("file property %q does not round-trip", props[0])
	}
	if strings.HasPrefix(lines[3], "::") || !strings.Contains(lines[3], "kubelet 1.36 does NOT start, kubelet 1.37 starts; 1 error, 1 warning, 1 info") {
		t.Errorf("summary: %s", lines[3])
	}
}

// TestGitHubSummaryPerGroup: documents of groups (lint --nodes) get one
// verdict line per group, naming its inputs, then the totals; documents
// without groups keep the one summary line.
func TestGitHubSummaryPerGroup(t *testing.T) {
	node := func(name, group string, starts bool) Document {
		return Document{KubeletVersion: "1.37", Subject: name, Group: group, Verdict: pipeline.Verdict{Starts: starts}, Files: []string{name + "/config.yaml"}}
	}
	for _, tt := range []struct {
		name string
		docs []Document
		want string
	}{
		{"groups", []Document{node("a-1", "A", true), node("b-1", "B", false), node("a-2", "A", true)},
			"kubeletcfg: a-1, a-2: kubelet 1.37 starts\nkubeletcfg: b-1: kubelet 1.37 does NOT start\nkubeletcfg: 0 errors, 0 warnings, 0 info in 3 files\n"},
		{"one group", []Document{node("a-1", "A", true), node("a-2", "A", true)},
			"kubeletcfg: a-1, a-2: kubelet 1.37 starts\nkubeletcfg: 0 errors, 0 warnings, 0 info in 2 files\n"},
		{"paths, no groups", []Document{node("a.yaml", "", true), node("b.yaml", "", false)},
			"kubeletcfg: a.yaml: kubelet 1.37 starts, b.yaml: kubelet 1.37 does NOT start; 0 errors, 0 warnings, 0 info in 2 files\n"},
	} {
		var out bytes.Buffer
		if err := (githubWriter{}).Write(&out, tt.docs, Options{}); err != nil {
			t.Fatal(err)
		}
		if out.String() != tt.want {
			t.Errorf("%s:\n%s\nwant:\n%s", tt.name, out.String(), tt.want)
		}
	}
}
