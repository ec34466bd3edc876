package policy

import (
	"regexp"
	"strings"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/rule"
)

// Marker starts an inline suppression comment: # kubeletcfg:ignore KC1101 reason.
const Marker = "kubeletcfg:ignore"

// Suppression is one inline suppression comment.
type Suppression struct {
	// Position is the comment's '#'.
	finding.Position

	// IDs are the rule IDs it names, upper-cased ("KC1101,KC1102" names two).
	IDs []string
	// Reason is the text after the IDs.
	Reason string
	// Target is the line it applies to besides its own: for a comment on a
	// line of its own, the next line that is not a comment (so several
	// suppressions can stack above one line); 0 for a comment after a value.
	Target int
}

// Covers reports whether the suppression applies to findings on line.
func (s *Suppression) Covers(line int) bool {
	return line > 0 && (line == s.Line || line == s.Target)
}

// blockScalar is a line whose value starts a YAML block scalar (key: |,
// - >-): the lines below it that are indented deeper are text, not comments.
var blockScalar = regexp.MustCompile(`(^|[:\-])\s*[|>][-+0-9]*$`)

// Scan finds the suppression comments of one file. It reads YAML (and JSON,
// which has no comments) line by line: a comment is a '#' at the start of a
// line or after a blank, outside quoted strings and block scalars. A plain
// scan is enough here and keeps working on files the YAML parser rejects.
func Scan(file string, data []byte) []Suppression {
	if !strings.Contains(string(data), Marker) {
		return nil // every suppression holds the marker; a 4 MiB file is 100,000 lines
	}
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	var out []Suppression
	var quote byte    // the open quote of a string that spans lines
	blockIndent := -1 // indentation of the line that opened a block scalar
	for i, line := range lines {
		indent := len(line) - len(strings.TrimLeft(line, " \t"))
		if blockIndent >= 0 {
			if strings.TrimSpace(line) == "" || indent > blockIndent {
				continue
			}
			blockIndent = -1
		}
		var col int
		col, quote = commentStart(line, quote)
		code, rest := line, ""
		if col >= 0 {
			code, rest = line[:col], line[col+1:]
		}
		if quote == 0 && blockScalar.MatchString(strings.TrimRight(code, " \t")) {
			blockIndent = indent
		}
		text := strings.TrimSpace(rest)
		if col < 0 || !strings.HasPrefix(text, Marker) {
			continue
		}
		text = text[len(Marker):]
		if text != "" && text[0] != ' ' && text[0] != '\t' {
			continue // kubeletcfg:ignored, kubeletcfg:ignore-foo: not ours
		}
		s := Suppression{Position: finding.Position{File: file, Line: i + 1, Column: col + 1}}
		s.IDs, s.Reason = parseIgnore(text)
		if strings.TrimSpace(code) == "" {
			s.Target = i + 2
			for j := i + 1; j < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[j]), "#"); j++ {
				s.Target = j + 2
			}
		}
		out = append(out, s)
	}
	return out
}

// parseIgnore splits what follows the marker into IDs and the reason. IDs are
// (or rule names) one word, or several joined by commas ("KC1101, KC1102" is accepted too).
func parseIgnore(text string) (ids []string, reason string) {
	words := strings.Fields(text)
	i := 0
	for i < len(words) {
		w := words[i]
		for _, id := range strings.Split(w, ",") {
			if id == "" {
				continue
			}
			if r, ok := rule.Lookup(id); ok {
				id = r.ID // a rule's name, as outputs print it, means its ID
			}
			ids = append(ids, strings.ToUpper(id))
		}
		i++
		next := i < len(words) && strings.HasPrefix(words[i], ",")
		if !strings.HasSuffix(w, ",") && !next {
			break
		}
	}
	return ids, strings.Join(words[i:], " ")
}

// commentStart is the byte index of the comment's '#' in line (-1 when there
// is none) and the quote still open at the end of the line. quote is the
// quote open at the start of the line (a string spanning lines).
func commentStart(line string, quote byte) (int, byte) {
	prev := byte(' ') // the byte before i; the start of a line counts as a blank
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				if i+1 < len(line) && line[i+1] == '\'' {
					i++ // '' is a quote inside a single-quoted string
				} else {
					quote = 0
				}
			}
		case quote == '"':
			if c == '\\' {
				i++
			} else if c == '"' {
				quote = 0
			}
		case c == '#' && (prev == ' ' || prev == '\t'):
			return i, 0
		case (c == '"' || c == '\'') && opensString(line[:i]):
			quote = c
		}
		prev = c
	}
	return -1, quote
}

// opensString reports whether a quote after before starts a quoted string: at
// the start of a value, not inside a plain one (don't).
func opensString(before string) bool {
	t := strings.TrimRight(before, " \t")
	if t == "" {
		return true
	}
	if len(t) == len(before) {
		// No blank before the quote: only a flow indicator (or JSON's
		// "key":"value") may precede it.
		return strings.ContainsRune(":[{,", rune(t[len(t)-1]))
	}
	return strings.ContainsRune(":-[{,?", rune(t[len(t)-1]))
}
