package report

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/rule"
)

// GitHub Actions workflow commands: each finding becomes an annotation on the
// file and line of the pull request diff
// (::error file=F,line=L,col=C,title=T::message), then one plain summary line.
// Findings the minors of a skew window share are one annotation whose title
// names the minors.

type githubWriter struct{}

// merged is a finding with the minors that report it.
type merged struct {
	finding.Finding

	minors []string
	// subjects are the inputs that report it, when the documents are of
	// several inputs (Document.Subject).
	subjects []string
}

func (m *merged) add(d Document) {
	if !slices.Contains(m.minors, d.KubeletVersion) {
		m.minors = append(m.minors, d.KubeletVersion)
	}
	if d.Subject != "" {
		m.subjects = append(m.subjects, d.Subject)
	}
}

// mergeFindings merges findings that several documents (minors) report alike
// into one, ordered by position then rule.
func mergeFindings(docs []Document) []*merged {
	var list []*merged
	at := map[finding.Key]*merged{}
	for _, d := range docs {
		for _, f := range d.Findings {
			k := f.Key()
			if f.File == "" && d.Subject != "" {
				k.File = "\x00" + d.Subject // about one input's configuration: its own
			}
			if m, ok := at[k]; ok {
				m.add(d)
				continue
			}
			m := &merged{Finding: f}
			m.add(d)
			at[k] = m
			list = append(list, m)
		}
	}
	sort.SliceStable(list, func(i, j int) bool { return finding.Less(&list[i].Finding, &list[j].Finding) })
	return list
}

func (githubWriter) Write(w io.Writer, docs []Document, _ Options) error {
	list := mergeFindings(docs)
	files := map[string]bool{}
	for _, d := range docs {
		for _, f := range d.Files {
			files[f] = true
		}
	}
	errs, warns, infos, behind := 0, 0, 0, 0
	for _, m := range list {
		switch m.Severity {
		case finding.Error:
			errs += m.Count()
			if m.Behind != "" {
				behind += m.Count()
			}
		case finding.Warning:
			warns += m.Count()
		default:
			infos += m.Count()
		}
	}

	var b strings.Builder
	for _, a := range list {
		f := a.Finding
		var props []string
		if f.File != "" {
			props = append(props, "file="+githubProperty(filepath.ToSlash(f.File)))
			if f.Line > 0 {
				props = append(props, "line="+strconv.Itoa(f.Line))
				if f.Column > 0 {
					props = append(props, "col="+strconv.Itoa(f.Column))
				}
			}
		}
		title := f.Rule
		if r, ok := rule.Lookup(f.Rule); ok {
			title += " " + r.Name
		}
		if len(docs) > 1 && docs[0].Subject == "" {
			title += " (kubelet " + strings.Join(a.minors, ", ") + ")"
		}
		props = append(props, "title="+githubProperty(title))
		msg := f.Message
		if f.Path != "" {
			msg += "\nfield: " + f.Path
		}
		if f.Hint != "" {
			msg += "\nhint: " + f.Hint
		}
		if f.Kubelet != "" {
			msg += "\nkubelet: " + OneLine(f.Kubelet)
		}
		if f.Behind != "" {
			msg += "\nbehind: " + BehindText(f)
		}
		fmt.Fprintf(&b, "::%s %s::%s\n", githubCommand(f.Severity), strings.Join(props, ","), githubData(msg))
	}

	totals := fmt.Sprintf("%s, %d %s, %d info%s", CountErrors(errs, behind), warns, plural(warns, "warning", "warnings"), infos, inFiles(len(files)))
	if grouped(docs) {
		// A pool: one line per group of identical nodes, which a log keeps
		// readable where one line of every node's verdict is not.
		var order []string
		subjects := map[string][]string{}
		verdict := map[string]string{}
		for _, d := range docs {
			k := d.Group + "\x00" + d.KubeletVersion
			if _, ok := subjects[k]; !ok {
				order = append(order, k)
				verdict[k] = githubVerdict(d, "kubelet "+d.KubeletVersion)
			}
			subjects[k] = append(subjects[k], d.Subject)
		}
		for _, k := range order {
			fmt.Fprintf(&b, "kubeletcfg: %s: %s\n", strings.Join(subjects[k], ", "), verdict[k])
		}
		fmt.Fprintf(&b, "kubeletcfg: %s\n", totals)
		_, err := io.WriteString(w, b.String())
		return err
	}
	var verdicts []string
	for _, d := range docs {
		who := "kubelet " + d.KubeletVersion
		if d.Subject != "" {
			who = d.Subject + ": " + who
		}
		verdicts = append(verdicts, githubVerdict(d, who))
	}
	fmt.Fprintf(&b, "kubeletcfg: %s; %s\n", strings.Join(verdicts, ", "), totals)
	_, err := io.WriteString(w, b.String())
	return err
}

// githubVerdict is who (the kubelet, or an input's) with d's verdict.
func githubVerdict(d Document, who string) string {
	switch {
	case d.Panics:
		return who + " does NOT start (panics)"
	case d.Bootstrapper() != "":
		return who + " does NOT start (" + d.Bootstrapper() + ")"
	case !d.Starts:
		return who + " does NOT start"
	}
	return who + " starts"
}

// grouped reports whether every document belongs to a group (Document.Group).
func grouped(docs []Document) bool {
	for _, d := range docs {
		if d.Group == "" {
			return false
		}
	}
	return len(docs) > 0
}

func githubCommand(s finding.Severity) string {
	switch s {
	case finding.Error:
		return "error"
	case finding.Warning:
		return "warning"
	}
	return "notice"
}

// githubData escapes a command's message as the Actions runner unescapes it
// (actions/toolkit escapeData): %, CR and LF.
func githubData(s string) string { return githubDataEscapes.Replace(s) }

// The replacers are built once: building one costs more than using it.
var (
	githubDataEscapes     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	githubPropertyEscapes = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

// githubProperty escapes a property value (actions/toolkit escapeProperty):
// the data escapes plus ':' and ',', which separate properties.
func githubProperty(s string) string { return githubPropertyEscapes.Replace(s) }
