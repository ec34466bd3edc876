package finding

import (
	"bytes"
	"strings"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v3"
)

// Text is one file's bytes with the offset of each line start, built once, so
// that turning the YAML parser's 1-based line and column (counted in
// characters) into a byte offset costs the column, not the file: findings that
// carry edits are made per key, and a file may have hundreds of thousands.
type Text struct {
	Data  []byte
	lines []int // byte offset of the start of each line
}

// NewText indexes data's lines.
func NewText(data []byte) *Text {
	t := &Text{Data: data, lines: []int{0}}
	for off := 0; ; {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			break
		}
		off += i + 1
		t.lines = append(t.lines, off)
	}
	return t
}

// Lines is the number of lines (a last line without a newline counts).
func (t *Text) Lines() int { return len(t.lines) }

// LineStart is the offset of line's first byte (1-based).
func (t *Text) LineStart(line int) int { return t.lines[line-1] }

// Offset is the byte offset of the parser's 1-based line and column (a leading
// byte order mark not counted), or -1.
func (t *Text) Offset(line, col int) int {
	if line < 1 || line > len(t.lines) || col < 1 {
		return -1
	}
	off := t.lines[line-1]
	if line == 1 && bytes.HasPrefix(t.Data, []byte("\ufeff")) {
		off += len("\ufeff") // the parser does not count a byte order mark
	}
	for i := 1; i < col; i++ {
		if off >= len(t.Data) || t.Data[off] == '\n' {
			return -1
		}
		_, n := utf8.DecodeRune(t.Data[off:])
		off += n
	}
	return off
}

// LineEnd is the offset just past the newline ending line (len(Data) for a
// last line without one).
func (t *Text) LineEnd(line int) int {
	if line < len(t.lines) {
		return t.lines[line]
	}
	return len(t.Data)
}

// Newline is the file's line ending: "\r\n" when its first line ends so.
func (t *Text) Newline() string {
	if len(t.lines) > 1 && t.lines[1] >= 2 && t.Data[t.lines[1]-2] == '\r' {
		return "\r\n"
	}
	return "\n"
}

// ScalarSpan finds the bytes of a one-line scalar node as written: plain, or
// quoted without escapes; ok is false for any other form (an escape, a line
// break, a tag, an anchor), which a repair leaves alone.
func (t *Text) ScalarSpan(n *yaml.Node) (start, end int, ok bool) {
	if n == nil || n.Kind != yaml.ScalarNode || n.Anchor != "" || strings.ContainsAny(n.Value, "\n\r\\") {
		return 0, 0, false
	}
	start = t.Offset(n.Line, n.Column)
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
	if end > len(t.Data) || string(t.Data[start:end]) != written {
		return 0, 0, false
	}
	return start, end, true
}

// QuoteLike writes s in the quoting of a plain or quoted scalar's style
// (plain for any other).
func QuoteLike(style yaml.Style, s string) string {
	switch style {
	case yaml.DoubleQuotedStyle:
		return `"` + s + `"`
	case yaml.SingleQuotedStyle:
		return "'" + s + "'"
	}
	return s
}
