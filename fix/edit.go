package fix

import (
	"strings"
	"unicode/utf8"

	"github.com/kubeletcfg/kubeletcfg/validate"
	yaml "go.yaml.in/yaml/v3"
)

// An edit replaces the bytes [Pos, End) of the original file with NewText;
// an insertion has Pos == End. Edits are computed from node positions (or
// carried by the findings, validate.SuggestedFix) and applied to the original
// bytes, so every byte they do not cover (comments, quoting, indentation, key
// order) stays as it was.
type edit = validate.TextEdit

// text is one file's bytes with its line starts, to turn the parser's 1-based
// line and column (counted in characters) into byte offsets.
type text struct {
	data  []byte
	lines []int // byte offset of the start of each line
}

func newText(data []byte) *text {
	t := &text{data: data, lines: []int{0}}
	for i, c := range data {
		if c == '\n' {
			t.lines = append(t.lines, i+1)
		}
	}
	return t
}

// offset is the byte offset of a node's first character, or -1.
func (t *text) offset(line, col int) int {
	if line < 1 || line > len(t.lines) || col < 1 {
		return -1
	}
	off := t.lines[line-1]
	if line == 1 && strings.HasPrefix(string(t.data), "\ufeff") {
		off += len("\ufeff") // the parser does not count a byte order mark
	}
	for i := 1; i < col; i++ {
		if off >= len(t.data) || t.data[off] == '\n' {
			return -1
		}
		_, n := utf8.DecodeRune(t.data[off:])
		off += n
	}
	return off
}

// lineEnd is the offset just past the newline ending line (len(data) for a last
// line without one).
func (t *text) lineEnd(line int) int {
	if line < len(t.lines) {
		return t.lines[line]
	}
	return len(t.data)
}

// newline is the file's line ending: "\r\n" when its first line ends so.
func (t *text) newline() string {
	if len(t.lines) > 1 && t.lines[1] >= 2 && t.data[t.lines[1]-2] == '\r' {
		return "\r\n"
	}
	return "\n"
}

// scalarSpan finds the bytes of a one-line scalar node as written: plain, or
// quoted without escapes. ok is false when the written form is anything else
// (an escape, a line break, a tag, an anchor), which the fixer leaves alone.
func (t *text) scalarSpan(n *yaml.Node) (start, end int, ok bool) {
	if n == nil || n.Kind != yaml.ScalarNode || n.Anchor != "" || strings.ContainsAny(n.Value, "\n\r\\") {
		return 0, 0, false
	}
	start = t.offset(n.Line, n.Column)
	if start < 0 {
		return 0, 0, false
	}
	var written string
	switch n.Style {
	case 0:
		written = n.Value
	case yaml.DoubleQuotedStyle:
		written = `"` + n.Value + `"`
	case yaml.SingleQuotedStyle:
		if strings.Contains(n.Value, "'") {
			return 0, 0, false
		}
		written = "'" + n.Value + "'"
	default:
		return 0, 0, false
	}
	end = start + len(written)
	if end > len(t.data) || string(t.data[start:end]) != written {
		return 0, 0, false
	}
	return start, end, true
}

// rename is the edit that respells a key (a one-line scalar) as name, in the
// key's own quoting style.
func (t *text) rename(k *yaml.Node, name string) (edit, bool) {
	start, end, ok := t.scalarSpan(k)
	if !ok {
		return edit{}, false
	}
	return edit{Pos: start, End: end, NewText: quote(k.Style, name)}, true
}

func quote(style yaml.Style, s string) string {
	switch style {
	case yaml.DoubleQuotedStyle:
		return `"` + s + `"`
	case yaml.SingleQuotedStyle:
		return "'" + s + "'"
	}
	return s
}

// apply applies edits to data (validate.ApplyEdits).
func apply(data []byte, edits []edit) ([]byte, error) { return validate.ApplyEdits(data, edits) }
