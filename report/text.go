package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

type textWriter struct{}

const (
	red    = "\x1b[31m"
	yellow = "\x1b[33m"
	cyan   = "\x1b[36m"
	bold   = "\x1b[1m"
	dim    = "\x1b[2m"
	reset  = "\x1b[0m"
)

// Write prints findings grouped by file as file:line:col: severity: message [ID],
// each followed by its field path and hint, then the verdict of each minor.
func (textWriter) Write(w io.Writer, docs []Document, opt Options) error {
	paint := func(code, s string) string {
		if !opt.Color {
			return s
		}
		return code + s + reset
	}
	var b strings.Builder
	files := map[string]bool{}
	errs, warns, infos, behind := 0, 0, 0, 0
	for _, d := range docs {
		prefix := ""
		if len(docs) > 1 {
			prefix = "[" + d.Label() + "] "
		}
		for _, f := range d.Files {
			files[f] = true
		}
		lastFile := "\x00"
		for _, f := range d.Findings {
			if f.File != lastFile {
				if lastFile != "\x00" {
					b.WriteString("\n")
				}
				name := f.File
				if name == "" {
					name = "(defaults)"
				}
				b.WriteString(paint(bold, prefix+name) + "\n")
				lastFile = f.File
			}
			sev := f.Severity.String()
			switch f.Severity {
			case finding.Error:
				errs += f.Count()
				if f.Behind != "" {
					behind += f.Count()
				}
				sev = paint(red, sev)
			case finding.Warning:
				warns += f.Count()
				sev = paint(yellow, sev)
			default:
				infos += f.Count()
				sev = paint(cyan, sev)
			}
			fmt.Fprintf(&b, "%s: %s: %s [%s]\n", f.Position, sev, f.Message, f.Rule)
			if f.Path != "" {
				fmt.Fprintf(&b, "    %s %s\n", paint(dim, "field:"), f.Path)
			}
			if f.Hint != "" {
				fmt.Fprintf(&b, "    %s %s\n", paint(dim, "hint: "), f.Hint)
			}
			if f.Kubelet != "" {
				fmt.Fprintf(&b, "    %s %s\n", paint(dim, "kubelet:"), OneLine(f.Kubelet))
			}
			if f.Behind != "" {
				fmt.Fprintf(&b, "    %s %s\n", paint(dim, "behind:"), BehindText(f))
			}
		}
		if len(d.Findings) > 0 {
			b.WriteString("\n")
		}
		verdict := paint(bold, "starts")
		if !d.Starts {
			verdict = paint(red+bold, "does NOT start: "+d.Words())
		}
		if d.Subject != "" {
			fmt.Fprintf(&b, "%s: ", d.Subject)
		}
		fmt.Fprintf(&b, "kubelet %s%s: %s", d.KubeletVersion, osLabel(d.OS), verdict)
		if d.CrashLoopBackOff != nil {
			fmt.Fprintf(&b, "; crash-loop backoff %s doubling to %s", d.CrashLoopBackOff.Initial, d.CrashLoopBackOff.Max)
		}
		b.WriteString("\n")
		if note := kubelets.PreReleaseNote(d.KubeletVersion, d.PreRelease); note != "" {
			b.WriteString(paint(dim, "note: "+note) + "\n")
		}
	}
	if !opt.Quiet {
		fmt.Fprintf(&b, "%s, %d %s, %d info%s, %d kubelet %s\n",
			CountErrors(errs, behind), warns, plural(warns, "warning", "warnings"), infos,
			inFiles(len(files)), len(docs), plural(len(docs), "minor", "minors"))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// BehindText says what Behind means for one finding.
func BehindText(f finding.Finding) string {
	return f.Behind + " (the kubelet stops at that error first, and reports this one once it is fixed)"
}

// CountErrors is the error count of a summary, the errors the kubelet does not
// reach yet counted apart: "3 errors (2 behind an earlier one)".
func CountErrors(errs, behind int) string {
	s := fmt.Sprintf("%d %s", errs, plural(errs, "error", "errors"))
	if behind > 0 {
		s += fmt.Sprintf(" (%d behind an earlier one)", behind)
	}
	return s
}

// ErrorCount is CountErrors of the error findings of fs.
func ErrorCount(fs []finding.Finding) string {
	errs, behind := 0, 0
	for _, f := range fs {
		if f.Severity == finding.Error {
			errs += f.Count()
			if f.Behind != "" {
				behind += f.Count()
			}
		}
	}
	return CountErrors(errs, behind)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// inFiles is " in N files", or nothing when no file was read (the summary of a
// run that stopped before reading one).
func inFiles(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" in %d %s", n, plural(n, "file", "files"))
}

// OneLine cuts a kubelet message to its first line, marked with " …" (a YAML
// error may quote lines of the file; JSON and SARIF keep the whole message).
func OneLine(s string) string {
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		return strings.TrimRight(s[:i], " :") + " …"
	}
	return s
}

// osLabel names a node's operating system after its kubelet minor, when it is
// not Linux: "kubelet 1.37 (windows)".
func osLabel(os string) string {
	if os == "" {
		return ""
	}
	return " (" + os + ")"
}
