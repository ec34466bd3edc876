package report

import "io"

// indenter writes the compact JSON json.Encoder writes (no white space outside
// strings, a newline after the value) to w indented as Encoder.SetIndent("",
// "  ") indents it: a newline and two spaces per level after an opening
// bracket or a comma, ": " after a key, empty objects and arrays left as {}
// and []. It does not validate what it is given, which the encoder has done,
// and it keeps its state between writes. A JSON document of tens of megabytes
// (the findings of tens of thousands of drop-ins) is indented in a third of
// json.Indent's time (BenchmarkIndentJSON), whose per-byte scanner was a fifth
// of such a run, and without holding the indented copy: it goes out in chunks.
// TestIndentJSON compares the two on every golden and on generated values.
type indenter struct {
	w     io.Writer
	buf   []byte
	depth int
	// open is the bracket just written, whose newline waits for the next
	// byte: none if the container is empty.
	open             byte
	inString, escape bool
	err              error
}

const indentChunk = 64 << 10

func (x *indenter) Write(p []byte) (int, error) {
	for i := 0; i < len(p) && x.err == nil; i++ {
		c := p[i]
		if x.inString {
			// Copy the rest of the string at once: brackets, commas and colons
			// in it are text.
			j := i
			for ; j < len(p); j++ {
				if x.escape {
					x.escape = false
				} else if p[j] == '\\' {
					x.escape = true
				} else if p[j] == '"' {
					x.inString = false
					break
				}
			}
			x.buf = append(x.buf, p[i:min(j+1, len(p))]...)
			i = j
			x.flush(false)
			continue
		}
		if x.open != 0 {
			open := x.open
			x.open = 0
			if c == '}' && open == '{' || c == ']' && open == '[' {
				x.buf = append(x.buf, c)
				continue
			}
			x.depth++
			x.newline()
		}
		switch c {
		case '"':
			x.inString = true
			x.buf = append(x.buf, c)
		case '{', '[':
			x.buf = append(x.buf, c)
			x.open = c
		case '}', ']':
			x.depth--
			x.newline()
			x.buf = append(x.buf, c)
		case ',':
			x.buf = append(x.buf, c)
			x.newline()
		case ':':
			x.buf = append(x.buf, ':', ' ')
		default:
			x.buf = append(x.buf, c)
		}
		x.flush(false)
	}
	return len(p), x.err
}

func (x *indenter) newline() {
	x.buf = append(x.buf, '\n')
	for range x.depth {
		x.buf = append(x.buf, ' ', ' ')
	}
}

// flush writes out what is buffered: all of it when final, else only once it
// is a chunk.
func (x *indenter) flush(final bool) error {
	if x.err == nil && len(x.buf) > 0 && (final || len(x.buf) >= indentChunk) {
		_, x.err = x.w.Write(x.buf)
		x.buf = x.buf[:0]
	}
	return x.err
}
