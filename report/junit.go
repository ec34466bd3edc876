package report

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/kubeletcfg/kubeletcfg/finding"
)

// JUnit XML as CI systems (GitLab's junit report, Jenkins, Azure) read it: one
// <testsuite> per kubelet minor, one <testcase> per file, which fails when the
// file has a finding at or above --fail-on (Options.FailOn): a finding that does
// not fail the job is no failed test case, it is listed in the case's system-out.

// configurationCase names the testcase of findings that have no file of their
// own (the configuration as a whole, the kubelet's defaults).
const configurationCase = "(configuration)"

// The XML is written by hand rather than with encoding/xml, which escapes every
// newline and quote of the failure text as &#xA; and &#34;: the report is read
// by people in CI logs too.

type junitSuite struct {
	Name       string
	Tests      int
	Failures   int
	Properties [][2]string
	Cases      []junitCase
}

type junitCase struct {
	Name      string
	Failure   *junitFailure
	SystemOut string
}

type junitFailure struct {
	Message, Type, Body string
}

type junitWriter struct{}

func (junitWriter) Write(w io.Writer, docs []Document, opt Options) error {
	suites := make([]junitSuite, 0, len(docs))
	tests, failures := 0, 0
	for _, d := range docs {
		s := junitSuiteOf(d, opt)
		tests += s.Tests
		failures += s.Failures
		suites = append(suites, s)
	}
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	fmt.Fprintf(&b, "<testsuites name=\"kubeletcfg\" tests=\"%d\" failures=\"%d\" errors=\"0\">\n", tests, failures)
	for _, s := range suites {
		fmt.Fprintf(&b, "  <testsuite name=\"%s\" tests=\"%d\" failures=\"%d\" errors=\"0\" skipped=\"0\">\n", xmlAttr(s.Name), s.Tests, s.Failures)
		b.WriteString("    <properties>\n")
		for _, p := range s.Properties {
			fmt.Fprintf(&b, "      <property name=\"%s\" value=\"%s\"/>\n", xmlAttr(p[0]), xmlAttr(p[1]))
		}
		b.WriteString("    </properties>\n")
		for _, c := range s.Cases {
			fmt.Fprintf(&b, "    <testcase name=\"%s\" classname=\"%s\"", xmlAttr(c.Name), xmlAttr(s.Name))
			if c.Failure == nil && c.SystemOut == "" {
				b.WriteString("/>\n")
				continue
			}
			b.WriteString(">\n")
			if f := c.Failure; f != nil {
				fmt.Fprintf(&b, "      <failure message=\"%s\" type=\"%s\">%s</failure>\n", xmlAttr(f.Message), xmlAttr(f.Type), xmlText(f.Body))
			}
			if c.SystemOut != "" {
				fmt.Fprintf(&b, "      <system-out>%s</system-out>\n", xmlText(c.SystemOut))
			}
			b.WriteString("    </testcase>\n")
		}
		b.WriteString("  </testsuite>\n")
	}
	b.WriteString("</testsuites>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// xmlText escapes character data. Characters XML 1.0 cannot hold at all (most
// control characters, invalid UTF-8: a hostile file can put them into a
// message that quotes a key) become U+FFFD.
func xmlText(s string) string {
	return xmlEscape(s, false)
}

// xmlAttr escapes an attribute value in double quotes; line breaks and tabs are
// written as references, as a parser would otherwise normalise them to spaces.
func xmlAttr(s string) string {
	return xmlEscape(s, true)
}

func xmlEscape(s string, attr bool) string {
	if plainXML(s) {
		return s // most messages: nothing to escape or replace
	}
	return escapeXML(s, attr)
}

func escapeXML(s string, attr bool) string {
	var b strings.Builder
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		switch {
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '"' && attr:
			b.WriteString("&quot;")
		case (r == '\n' || r == '\r' || r == '\t') && attr:
			fmt.Fprintf(&b, "&#%d;", r)
		case r == '\r':
			b.WriteString("&#13;") // a literal CR would be read as a newline
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r < 0x20, r == 0xFFFE, r == 0xFFFF, r >= 0xD800 && r <= 0xDFFF:
			b.WriteRune('\uFFFD')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// plainXML reports whether xmlEscape leaves s as it is, in text and in an
// attribute alike: printable ASCII without & < > or ".
func plainXML(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '&' || c == '<' || c == '>' || c == '"' {
			return false
		}
	}
	return true
}

func junitSuiteOf(d Document, opt Options) junitSuite {
	class := "kubelet " + d.KubeletVersion
	if d.Subject != "" {
		class = d.Subject + " (kubelet " + d.KubeletVersion + ")"
	}
	byFile := map[string][]finding.Finding{}
	for _, f := range d.Findings {
		byFile[f.File] = append(byFile[f.File], f)
	}
	// Cases in the kubelet's reading order, then files that have findings but
	// were not read (a drop-in the kubelet skips), then the configuration.
	var names []string
	listed := map[string]bool{}
	for _, f := range d.Files {
		if !listed[f] {
			listed[f] = true
			names = append(names, f)
		}
	}
	var extra []string
	for f := range byFile {
		if f != "" && !listed[f] {
			extra = append(extra, f)
		}
	}
	sort.Strings(extra)
	names = append(names, extra...)
	if len(byFile[""]) > 0 {
		names = append(names, "")
	}

	verdict := "true"
	switch {
	case d.Panics:
		verdict = "false (panics)"
	case d.Bootstrapper() != "":
		verdict = "false (" + d.Bootstrapper() + ")"
	case !d.Starts:
		verdict = "false"
	}
	s := junitSuite{Name: class, Properties: [][2]string{{"kubeletVersion", d.KubeletVersion}, {"starts", verdict}}}
	if d.Subject != "" {
		s.Properties = append([][2]string{{"subject", d.Subject}}, s.Properties...)
	}
	if d.CrashLoopBackOff != nil {
		s.Properties = append(s.Properties, [2]string{"crashLoopBackOff", d.CrashLoopBackOff.Initial.String() + "/" + d.CrashLoopBackOff.Max.String()})
	}
	for _, name := range names {
		c := junitCase{Name: name}
		if name == "" {
			c.Name = configurationCase
		}
		var all, passing strings.Builder
		var first *finding.Finding
		for i, f := range byFile[name] {
			writeFindingLines(&all, f)
			if opt.Fails(f.Severity) {
				if first == nil {
					first = &byFile[name][i]
				}
			} else {
				writeFindingLines(&passing, f)
			}
		}
		if first != nil {
			c.Failure = &junitFailure{
				Message: first.Rule + ": " + first.Message,
				Type:    first.Severity.String(),
				Body:    all.String(),
			}
			s.Failures++
		}
		c.SystemOut = passing.String()
		s.Cases = append(s.Cases, c)
	}
	s.Tests = len(s.Cases)
	return s
}

// writeFindingLines writes a finding as the text format does: the position,
// severity, message and rule, then its field, hint and kubelet message.
func writeFindingLines(b *strings.Builder, f finding.Finding) {
	fmt.Fprintf(b, "%s: %s: %s [%s]\n", f.Position, f.Severity, f.Message, f.Rule)
	if f.Path != "" {
		fmt.Fprintf(b, "    field: %s\n", f.Path)
	}
	if f.Hint != "" {
		fmt.Fprintf(b, "    hint:  %s\n", f.Hint)
	}
	if f.Kubelet != "" {
		fmt.Fprintf(b, "    kubelet: %s\n", OneLine(f.Kubelet))
	}
	if f.Behind != "" {
		fmt.Fprintf(b, "    behind: %s\n", BehindText(f))
	}
}
