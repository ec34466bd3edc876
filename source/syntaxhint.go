package source

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kubeletcfg/kubeletcfg/finding"
)

// SyntaxHint is the hint for a file YAML refuses: it names invalid UTF-8 when the file has it (yaml refuses the whole
// file for one byte), else mentions tabs only when the file has one (YAML
// forbids them in indentation, the usual cause).
func SyntaxHint(data []byte) string {
	if line, col, bad := InvalidUTF8(data); bad {
		return fmt.Sprintf("fix the encoding: the file is not valid UTF-8 (line %d, byte %d); save it as UTF-8", line, col)
	}
	if bytes.IndexByte(data, '\t') >= 0 {
		return "fix the syntax: the file has a tab, and YAML indents with spaces, never tabs"
	}
	return "fix the syntax"
}

// InvalidUTF8 is the line and byte column (1-based) of data's first byte
// that is not valid UTF-8; bad is false when there is none.
func InvalidUTF8(data []byte) (line, col int, bad bool) {
	// yaml reads UTF-16 with a byte order mark: not a UTF-8 file to fix.
	if utf8.Valid(data) || bytes.HasPrefix(data, []byte{0xff, 0xfe}) || bytes.HasPrefix(data, []byte{0xfe, 0xff}) {
		return 0, 0, false
	}
	line, start := 1, 0
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n <= 1 {
			return line, i - start + 1, true
		}
		if r == '\n' {
			line, start = line+1, i+1
		}
		i += n
	}
	return 0, 0, false
}

// ExcessiveAliasing reports whether err is the YAML decoder's refusal of a
// document whose aliases expand too far (an alias bomb), and where the
// finding points: at the first alias in doc, else at (its file's start).
func ExcessiveAliasing(err error, doc *yaml.Node, at finding.Position) (finding.Position, bool) {
	if err == nil || !strings.Contains(err.Error(), "excessive aliasing") {
		return at, false
	}
	var first func(n *yaml.Node) *yaml.Node
	first = func(n *yaml.Node) *yaml.Node {
		if n == nil || n.Kind == yaml.AliasNode {
			return n
		}
		for _, c := range n.Content {
			if a := first(c); a != nil {
				return a
			}
		}
		return nil
	}
	if a := first(doc); a != nil {
		at.Line, at.Column = a.Line, a.Column
	}
	return at, true
}

// AliasingMessage and AliasingHint explain ExcessiveAliasing.
const (
	AliasingMessage = "its YAML aliases expand too far (an alias bomb?): the YAML decoder refuses the file"
	AliasingHint    = "write the values out instead of nesting aliases (*name) of anchors (&name)"
)
