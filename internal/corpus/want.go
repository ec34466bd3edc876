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
	// wantCommentRE finds `# want KC1234 [KC5678...]` at the end of a line.
	wantCommentRE = regexp.MustCompile(`\s*#\s*want\s+((KC\d{4}\s*)+)$`)
	// wantListCommentRE finds the commented want list in case.yaml.
	wantListCommentRE = regexp.MustCompile(`^\s*#\s*(want\s*:.*)$`)
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
}

// Wants reads the expectations of one case folder. annotated is true when the
// case states its expectations, even "none" (`# want: []`).
func Wants(dir string) (wants []Want, annotated bool, err error) {
	if raw, rerr := os.ReadFile(filepath.Join(dir, "case.yaml")); rerr == nil {
		var lists [][]string
		var key struct {
			Want *[]string `json:"want"`
		}
		if err := yaml.Unmarshal(raw, &key); err != nil {
			return nil, false, fmt.Errorf("%s/case.yaml: %w", dir, err)
		}
		if key.Want != nil {
			lists = append(lists, *key.Want)
		}
		for i, line := range SplitLines(raw) {
			m := wantListCommentRE.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			var c struct {
				Want *[]string `json:"want"`
			}
			if err := yaml.Unmarshal([]byte(m[1]), &c); err != nil || c.Want == nil {
				return nil, false, fmt.Errorf("%s/case.yaml:%d: bad want list %q: %v", dir, i+1, m[1], err)
			}
			lists = append(lists, *c.Want)
		}
		for _, list := range lists {
			annotated = true
			for _, entry := range list {
				m := wantEntryRE.FindStringSubmatch(entry)
				if m == nil {
					return nil, false, fmt.Errorf("%s/case.yaml: bad want entry %q (want \"path[:line]: KCxxxx\")", dir, entry)
				}
				line, _ := strconv.Atoi(m[2])
				wants = append(wants, Want{File: filepath.ToSlash(filepath.Clean(m[1])), Line: line, Rules: ruleIDRE.FindAllString(m[3], -1), InCaseYAML: true})
			}
		}
	} else if !os.IsNotExist(rerr) {
		return nil, false, rerr
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
			if m := wantCommentRE.FindStringSubmatch(line); m != nil {
				annotated = true
				wants = append(wants, Want{File: filepath.ToSlash(rel), Line: i + 1, Rules: ruleIDRE.FindAllString(m[1], -1)})
			}
		}
		return nil
	})
	return wants, annotated, err
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

// StripWant removes a `# want` comment and trailing blanks from a line.
func StripWant(s string) string {
	return strings.TrimRight(wantCommentRE.ReplaceAllString(s, ""), " \t")
}
