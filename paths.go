package kubeletcfg

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/kubeletcfg/kubeletcfg/report"
	"github.com/kubeletcfg/kubeletcfg/validate"
)

// PathsReport is the JSON document of `kubeletcfg lint PATH PATH...`: one
// lint report per path, in the order given, and the paths that could not be
// read.
type PathsReport struct {
	Reports []PathReport `json:"reports"`
	Errors  []PathError  `json:"errors"`
}

// PathReport is one path's lint report.
type PathReport struct {
	Path string `json:"path"`
	LintReport
}

// PathError is a path that could not be read, and why.
type PathError struct {
	Path  string `json:"path"`
	Error string `json:"error"`
}

// LintedPaths is what LintPaths found.
type LintedPaths struct {
	Report PathsReport
	// Linted are the paths' results, in the order of Report.Reports.
	Linted []*Linted
	paths  []string
}

// LintPaths lints each path as its own node: Lint with the path as
// Options.Config and the other options as they are. A path that cannot be
// read is listed in Report.Errors (and Options.Log) and the others go on.
func LintPaths(opt Options, paths []string) (*LintedPaths, error) {
	if err := opt.checkProfile(); err != nil {
		return nil, err
	}
	out := &LintedPaths{Report: PathsReport{Reports: []PathReport{}, Errors: []PathError{}}, paths: paths}
	for _, path := range paths {
		one := opt
		one.Config = path
		l, err := Lint(one)
		if err != nil {
			if opt.Log != nil {
				fmt.Fprintf(opt.Log, "kubeletcfg: %v\n", err)
			}
			out.Report.Errors = append(out.Report.Errors, PathError{Path: path, Error: err.Error()})
			continue
		}
		out.Linted = append(out.Linted, l)
		out.Report.Reports = append(out.Report.Reports, PathReport{Path: path, LintReport: l.Report})
	}
	return out, nil
}

// CountAtLeast is the --fail-on count over every path's findings.
func (l *LintedPaths) CountAtLeast(threshold validate.Severity) int {
	n := 0
	for _, one := range l.Linted {
		n += CountAtLeast(one.Report.Findings, threshold)
	}
	return n
}

// Write prints the reports: text is each report as Lint's under a
// ==> PATH <== line (head's), then a summary line; JSON is PathsReport;
// SARIF, JUnit and GitHub get one document per path, its Subject the path.
func (l *LintedPaths) Write(out io.Writer, format string, opt report.Options) error {
	w, err := report.For(format)
	if err != nil {
		return err
	}
	switch format {
	case "json":
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(l.Report)
	case "text":
	default:
		docs := make([]report.Document, len(l.Report.Reports))
		for i, r := range l.Report.Reports {
			docs[i] = r.Document
			docs[i].Subject = r.Path
		}
		return w.Write(out, docs, opt)
	}
	var b strings.Builder
	refused := 0
	for i, r := range l.Report.Reports {
		if !r.Starts {
			refused++
		}
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "==> %s <==\n", r.Path) // as head and tail name each file
		if err := l.Linted[i].Write(&b, format, opt); err != nil {
			return err
		}
	}
	if !opt.Quiet {
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		total, read := len(l.paths), len(l.Report.Reports)
		fmt.Fprintf(&b, "%d %s: %d %s, %d would not start", total, plural(total, "file", "files"),
			read-refused, plural(read-refused, "starts", "start"), refused)
		if len(l.Report.Errors) > 0 {
			fmt.Fprintf(&b, ", %d could not be read", len(l.Report.Errors))
		}
		b.WriteString("\n")
	}
	_, err = io.WriteString(out, b.String())
	return err
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
