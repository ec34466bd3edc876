package kubeletcfg_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// TestREADMELength: the README is read in five minutes; everything else is in
// docs/.
func TestREADMELength(t *testing.T) {
	raw, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(raw), "\n"); n > 300 {
		t.Errorf("README.md has %d lines, more than 300: move the detail into docs/", n)
	}
}

// markdownLink is an inline link or image: [text](target) or [text](target "title").
var markdownLink = regexp.MustCompile(`\]\(([^()\s]+)(?:\s+"[^"]*")?\)`)

// TestDocLinks: every relative link of the README, docs/ (the generated
// command reference included), ARCHITECTURE.md and CONTRIBUTING.md names a
// file or folder of the repository, and a #fragment names a heading of the
// Markdown file it points into.
func TestDocLinks(t *testing.T) {
	files := []string{"README.md", "ARCHITECTURE.md", "CONTRIBUTING.md"}
	for _, pattern := range []string{"docs/*.md", "docs/commands/*.md", "docs/bootstrappers/*.md"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	anchors := map[string]map[string]bool{} // by file, cleaned path
	anchorsOf := func(name string) map[string]bool {
		if a, ok := anchors[name]; ok {
			return a
		}
		raw, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		a := headingAnchors(string(raw))
		anchors[name] = a
		return a
	}
	for _, name := range files {
		raw, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range proseLines(string(raw), true) {
			for _, m := range markdownLink.FindAllStringSubmatch(line, -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				path, fragment, _ := strings.Cut(target, "#")
				resolved := name
				if path != "" {
					resolved = filepath.Join(filepath.Dir(name), filepath.FromSlash(path))
					if _, err := os.Stat(resolved); err != nil {
						t.Errorf("%s:%d: link %s: no such file", name, i+1, target)
						continue
					}
				}
				if fragment != "" && strings.HasSuffix(resolved, ".md") && !anchorsOf(resolved)[fragment] {
					t.Errorf("%s:%d: link %s: %s has no heading with the anchor #%s", name, i+1, target, resolved, fragment)
				}
			}
		}
	}
}

// proseLines are the lines of a Markdown text with fenced code blocks blanked,
// and inline code spans too when blankCode is set, so that only real links are
// read (a heading's code span is part of its anchor).
func proseLines(text string, blankCode bool) []string {
	lines := strings.Split(text, "\n")
	fence := ""
	code := regexp.MustCompile("`[^`]*`")
	for i, l := range lines {
		trimmed := strings.TrimSpace(l)
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			lines[i] = ""
			continue
		}
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			fence = trimmed[:3]
			lines[i] = ""
			continue
		}
		if blankCode {
			lines[i] = code.ReplaceAllString(l, "``")
		}
	}
	return lines
}

// headingAnchors are the anchors GitHub gives a Markdown file's headings:
// lower case, punctuation dropped, spaces as hyphens, -1, -2, ... on repeats.
func headingAnchors(text string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	for _, l := range proseLines(text, false) {
		if !strings.HasPrefix(l, "#") {
			continue
		}
		title := strings.TrimLeft(l, "#")
		if title == "" || title[0] != ' ' {
			continue
		}
		var b strings.Builder
		for _, r := range strings.ToLower(strings.TrimSpace(title)) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		slug := b.String()
		if n := seen[slug]; n > 0 {
			out[slug+"-"+strconv.Itoa(n)] = true
		} else {
			out[slug] = true
		}
		seen[slug]++
	}
	return out
}
