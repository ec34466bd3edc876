package report

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
)

// parsed JUnit, with the attributes CI systems read.
type junitIn struct {
	Tests    int `xml:"tests,attr"`
	Failures int `xml:"failures,attr"`
	Suites   []struct {
		Name       string `xml:"name,attr"`
		Tests      int    `xml:"tests,attr"`
		Failures   int    `xml:"failures,attr"`
		Properties []struct {
			Name  string `xml:"name,attr"`
			Value string `xml:"value,attr"`
		} `xml:"properties>property"`
		Cases []struct {
			Name      string `xml:"name,attr"`
			Classname string `xml:"classname,attr"`
			Failure   *struct {
				Message string `xml:"message,attr"`
				Type    string `xml:"type,attr"`
				Body    string `xml:",chardata"`
			} `xml:"failure"`
			SystemOut string `xml:"system-out"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

func writeJUnit(t *testing.T, docs []Document, opt Options) junitIn {
	t.Helper()
	var out bytes.Buffer
	if err := (junitWriter{}).Write(&out, docs, opt); err != nil {
		t.Fatal(err)
	}
	var j junitIn
	if err := xml.Unmarshal(out.Bytes(), &j); err != nil {
		t.Fatalf("not XML: %v\n%s", err, out.String())
	}
	return j
}

func TestJUnit(t *testing.T) {
	hostile := "a \"quoted\" <key> & \x01bell\r\nnext\tline \xff"
	docs := []Document{
		{KubeletVersion: "1.36", Verdict: pipeline.Verdict{Starts: true}, Files: []string{"c.yaml", "d/10.conf"}},
		{KubeletVersion: "1.37", Files: []string{"c.yaml", "d/10.conf"}, Findings: []finding.Finding{
			{Rule: "KC5001", Severity: finding.Error, Message: "no file"},
			{Rule: "KC2001", Severity: finding.Info, Message: "not merged", Position: finding.Position{File: "d/README"}},
			{Rule: "KC1105", Severity: finding.Info, Message: "resolved", Position: finding.Position{File: "c.yaml", Line: 2, Column: 1}},
			{Rule: "KC1101", Severity: finding.Warning, Message: hostile, Hint: "h", Path: "p", Position: finding.Position{File: "c.yaml", Line: 5, Column: 1}},
		}},
	}
	warning := finding.Warning
	j := writeJUnit(t, docs, Options{FailOn: &warning})
	if len(j.Suites) != 2 || j.Tests != 6 || j.Failures != 2 {
		t.Fatalf("suites %d, tests %d, failures %d", len(j.Suites), j.Tests, j.Failures)
	}
	clean := j.Suites[0]
	if clean.Name != "kubelet 1.36" || clean.Tests != 2 || clean.Failures != 0 || clean.Cases[0].Failure != nil {
		t.Errorf("clean minor: %+v", clean)
	}
	s := j.Suites[1]
	var names []string
	for _, c := range s.Cases {
		names = append(names, c.Name)
		if c.Classname != "kubelet 1.37" {
			t.Errorf("%s: classname %q", c.Name, c.Classname)
		}
	}
	if got := strings.Join(names, ","); got != "c.yaml,d/10.conf,d/README,(configuration)" {
		t.Errorf("cases %s", got)
	}
	main := s.Cases[0]
	if main.Failure == nil || main.Failure.Type != "warning" || !strings.HasPrefix(main.Failure.Message, "KC1101: a \"quoted\" <key> & \uFFFDbell\r\nnext\tline \uFFFD") {
		t.Fatalf("c.yaml: %+v", main.Failure)
	}
	// The body has every finding of the file, info included; info also goes
	// to system-out.
	if !strings.Contains(main.Failure.Body, "c.yaml:2:1: info: resolved [KC1105]") || !strings.Contains(main.Failure.Body, "    hint:  h\n") ||
		!strings.Contains(main.SystemOut, "resolved [KC1105]") {
		t.Errorf("c.yaml body %q, system-out %q", main.Failure.Body, main.SystemOut)
	}
	if c := s.Cases[1]; c.Failure != nil || c.SystemOut != "" {
		t.Errorf("a file without findings passes: %+v", c)
	}
	if c := s.Cases[2]; c.Failure != nil || !strings.Contains(c.SystemOut, "not merged [KC2001]") {
		t.Errorf("info only passes with system-out: %+v", c)
	}
	if c := s.Cases[3]; c.Failure == nil || c.Failure.Type != "error" || c.Failure.Message != "KC5001: no file" {
		t.Errorf("(configuration): %+v", c.Failure)
	}
	if s.Properties[1].Name != "starts" || s.Properties[1].Value != "false" {
		t.Errorf("properties %+v", s.Properties)
	}
}

// JUnit follows --fail-on: a finding that does not fail the job is no failed
// test case; it is listed in the case's system-out.
func TestJUnitFollowsFailOn(t *testing.T) {
	docs := []Document{{KubeletVersion: "1.37", Verdict: pipeline.Verdict{Starts: true}, Files: []string{"c.yaml"}, Findings: []finding.Finding{
		{Rule: "KC1101", Severity: finding.Warning, Message: "dropped", Position: finding.Position{File: "c.yaml", Line: 5, Column: 1}},
	}}}
	none := finding.Severity(-1)
	warning, info := finding.Warning, finding.Info
	for _, tt := range []struct {
		name     string
		failOn   *finding.Severity
		failures int
	}{
		{"default (error)", nil, 0},
		{"none", &none, 0},
		{"warning", &warning, 1},
		{"info", &info, 1},
	} {
		j := writeJUnit(t, docs, Options{FailOn: tt.failOn})
		c := j.Suites[0].Cases[0]
		if j.Failures != tt.failures || (c.Failure != nil) != (tt.failures > 0) {
			t.Errorf("--fail-on %s: %d failures, case failure %+v; want %d", tt.name, j.Failures, c.Failure, tt.failures)
		}
		if tt.failures == 0 && !strings.Contains(c.SystemOut, "dropped [KC1101]") {
			t.Errorf("--fail-on %s: the passing warning is not in system-out: %q", tt.name, c.SystemOut)
		}
	}
}

func TestXMLEscape(t *testing.T) {
	for _, tt := range []struct{ in, text, attr string }{
		{`a<b>&"c"`, `a&lt;b&gt;&amp;"c"`, `a&lt;b&gt;&amp;&quot;c&quot;`},
		{"l1\nl2\tx\r", "l1\nl2\tx&#13;", "l1&#10;l2&#9;x&#13;"},
		{"bell\x07 \xfe \uFFFE", "bell\uFFFD \uFFFD \uFFFD", "bell\uFFFD \uFFFD \uFFFD"},
		{"ünïcödé ✓", "ünïcödé ✓", "ünïcödé ✓"},
	} {
		if got := xmlText(tt.in); got != tt.text {
			t.Errorf("xmlText(%q) = %q, want %q", tt.in, got, tt.text)
		}
		if got := xmlAttr(tt.in); got != tt.attr {
			t.Errorf("xmlAttr(%q) = %q, want %q", tt.in, got, tt.attr)
		}
	}
}

// A quoted kubelet message is one line in line-oriented output (a YAML error
// can quote the file); JSON keeps it whole.
func TestKubeletQuoteOneLine(t *testing.T) {
	docs := []Document{{KubeletVersion: "1.37", Files: []string{"c.yaml"}, Findings: []finding.Finding{
		{Rule: "KC1001", Severity: finding.Error, Message: "m", Position: finding.Position{File: "c.yaml", Line: 1, Column: 1},
			Kubelet: "yaml: line 3: found character that cannot start any token:\n  evictionHard:\n\tmemory.available: 1Gi"},
	}}}
	for _, name := range []string{"text", "junit", "github"} {
		w, _ := For(name)
		var out bytes.Buffer
		if err := w.Write(&out, docs, Options{}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), "cannot start any token …") || strings.Contains(out.String(), "memory.available: 1Gi") {
			t.Errorf("%s: the kubelet quote is not cut to its first line:\n%s", name, out.String())
		}
	}
	var out bytes.Buffer
	if err := (jsonWriter{}).Write(&out, docs, Options{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `memory.available: 1Gi`) {
		t.Errorf("json: the kubelet quote lost its lines:\n%s", out.String())
	}
}

// TestPlainXML: what plainXML lets through unchanged is what the escaping
// loop (escapeXML) gives back unchanged, for every byte value alone and in
// text.
func TestPlainXML(t *testing.T) {
	for c := range 256 {
		for _, s := range []string{string(rune(c)), string([]byte{byte(c)}), "ab" + string([]byte{byte(c)}) + "cd"} {
			if !plainXML(s) {
				continue
			}
			for _, attr := range []bool{false, true} {
				if slow := escapeXML(s, attr); slow != s {
					t.Errorf("plainXML(%q) but the escaping gives %q (attr %v)", s, slow, attr)
				}
			}
		}
	}
	if !plainXML("featureGates[KubeletCrashLoopBackOffMax] is unknown: did you mean X?") || plainXML("a & b") || plainXML("é") || plainXML("a\nb") {
		t.Error("plainXML misjudges a message")
	}
}
