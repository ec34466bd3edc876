package corpus

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"sigs.k8s.io/yaml"
)

// Pseudo files of expectations that point at no file.
const (
	CommandLine = "(command line)"
	Defaults    = "(defaults)"
)

// The syntax of expectations (testdata/conformance/README.md).
var (
	// wantCommentRE finds `# want KC1234 [KC5678...]` at the end of a line,
	// wantWindowsCommentRE `# want-windows KC1234 [...]`, the Windows kubelet's.
	wantCommentRE        = regexp.MustCompile(`\s*#\s*want\s+((KC\d{4}\s*)+)$`)
	wantWindowsCommentRE = regexp.MustCompile(`\s*#\s*want-windows\s+((KC\d{4}\s*)+)$`)
	// wantListCommentRE finds the commented want list in case.yaml (want:
	// or want-windows:).
	wantListCommentRE = regexp.MustCompile(`^\s*#\s*(want(-windows)?\s*:.*)$`)
	// wantEntryRE parses one want list entry: path[:line]: KCxxxx [KCyyyy...].
	wantEntryRE = regexp.MustCompile(`^\s*(.+?)(?::(\d+))?:\s*((?:KC\d{4}\s*)+)$`)
	ruleIDRE    = regexp.MustCompile(`KC\d{4}`)
)

// Want is one expectation of a case: the rules expected on a line of a file,
// anywhere in a file (Line 0), or at CommandLine or Defaults.
type Want struct {
	File  string // slash path relative to the case folder, or a pseudo file
	Line  int
	Rules []string
	// InCaseYAML: from case.yaml's want list rather than a comment on the line.
	InCaseYAML bool
	// Windows: the Windows kubelet's expectation (`# want-windows`), checked
	// with the case evaluated as a Windows node; otherwise the Linux kubelet's.
	Windows bool
}

// Wants reads the Linux kubelet's expectations of one case folder (`# want`).
// annotated is true when the case states them, even "none" (`# want: []`).
func Wants(dir string) (wants []Want, annotated bool, err error) {
	return WantsOn(dir, false)
}

// WantsOn reads the expectations of one case folder for the Windows kubelet
// (`# want-windows`, `# want-windows: [...]`) or the Linux one (`# want`).
// annotated is true when the case states them for that kubelet, even "none".
func WantsOn(dir string, windows bool) (wants []Want, annotated bool, err error) {
	all, annotatedOn, err := readWants(dir)
	if err != nil {
		return nil, false, err
	}
	for _, w := range all {
		if w.Windows == windows {
			wants = append(wants, w)
		}
	}
	return wants, annotatedOn[windows], nil
}

// readWants reads every expectation of a case folder, both kubelets', and
// whether the case states them for each (annotated[true]: Windows).
func readWants(dir string) (wants []Want, annotated map[bool]bool, err error) {
	annotated = map[bool]bool{}
	if raw, rerr := os.ReadFile(filepath.Join(dir, "case.yaml")); rerr == nil {
		type list struct {
			entries []string
			windows bool
		}
		var lists []list
		var key struct {
			Want        *[]string `json:"want"`
			WantWindows *[]string `json:"want-windows"`
		}
		if err := yaml.Unmarshal(raw, &key); err != nil {
			return nil, nil, fmt.Errorf("%s/case.yaml: %w", dir, err)
		}
		if key.Want != nil {
			lists = append(lists, list{*key.Want, false})
		}
		if key.WantWindows != nil {
			lists = append(lists, list{*key.WantWindows, true})
		}
		for i, line := range SplitLines(raw) {
			m := wantListCommentRE.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			var c struct {
				Want        *[]string `json:"want"`
				WantWindows *[]string `json:"want-windows"`
			}
			err := yaml.Unmarshal([]byte(m[1]), &c)
			switch {
			case err == nil && m[2] == "" && c.Want != nil:
				lists = append(lists, list{*c.Want, false})
			case err == nil && m[2] != "" && c.WantWindows != nil:
				lists = append(lists, list{*c.WantWindows, true})
			default:
				return nil, nil, fmt.Errorf("%s/case.yaml:%d: bad want list %q: %v", dir, i+1, m[1], err)
			}
		}
		for _, l := range lists {
			annotated[l.windows] = true
			for _, entry := range l.entries {
				m := wantEntryRE.FindStringSubmatch(entry)
				if m == nil {
					return nil, nil, fmt.Errorf("%s/case.yaml: bad want entry %q (want \"path[:line]: KCxxxx\")", dir, entry)
				}
				line, _ := strconv.Atoi(m[2])
				wants = append(wants, Want{File: filepath.ToSlash(filepath.Clean(m[1])), Line: line, Rules: ruleIDRE.FindAllString(m[3], -1), InCaseYAML: true, Windows: l.windows})
			}
		}
	} else if !os.IsNotExist(rerr) {
		return nil, nil, rerr
	}
	err = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		// Symlinks are not followed: a comment belongs to the file that holds it.
		if !d.Type().IsRegular() || p == filepath.Join(dir, "case.yaml") {
			return nil
		}
		raw, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		for i, line := range SplitLines(raw) {
			for _, c := range lineWants(line) {
				annotated[c.windows] = true
				wants = append(wants, Want{File: filepath.ToSlash(rel), Line: i + 1, Rules: c.rules, Windows: c.windows})
			}
		}
		return nil
	})
	return wants, annotated, err
}

// lineWant is one `# want` or `# want-windows` comment of a line.
type lineWant struct {
	rules   []string
	windows bool
}

// lineWants reads the comments that end a line: `# want KC1`, `# want-windows
// KC2`, or both (`# want KC1 # want-windows KC2`, in either order); rest is
// the line without them.
func lineWants(line string) (out []lineWant) {
	rest := line
	for {
		if m := wantWindowsCommentRE.FindStringSubmatch(rest); m != nil {
			out = append(out, lineWant{ruleIDRE.FindAllString(m[1], -1), true})
			rest = rest[:len(rest)-len(m[0])]
			continue
		}
		if m := wantCommentRE.FindStringSubmatch(rest); m != nil {
			out = append(out, lineWant{ruleIDRE.FindAllString(m[1], -1), false})
			rest = rest[:len(rest)-len(m[0])]
			continue
		}
		return out
	}
}

// SplitLines splits on \n and drops a trailing \r, so that line numbers are
// the ones a YAML parser reports for LF and CRLF files alike.
func SplitLines(raw []byte) []string {
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	for sc.Scan() {
		out = append(out, strings.TrimSuffix(sc.Text(), "\r"))
	}
	return out
}

// StripWant removes the `# want` and `# want-windows` comments and trailing
// blanks from a line.
func StripWant(s string) string {
	for {
		t := wantCommentRE.ReplaceAllString(wantWindowsCommentRE.ReplaceAllString(s, ""), "")
		if t == s {
			return strings.TrimRight(s, " \t")
		}
		s = t
	}
}
