package report

// indentJSON appends src, the compact JSON json.Marshal writes (no white
// space outside strings), to dst indented as json.Indent(dst, src, "", "  ")
// indents it: a newline and two spaces per level after an opening bracket or a
// comma, ": " after a key, empty objects and arrays left as {} and []. It does
// not validate src, which json.Marshal has done; a JSON document of tens of
// megabytes (the findings of tens of thousands of drop-ins) is indented in a
// third of json.Indent's time (BenchmarkIndentJSON), whose per-byte scanner
// was a fifth of such a run.
// TestIndentJSON compares the two on every golden and on generated values.
func indentJSON(dst, src []byte) []byte {
	depth := 0
	newline := func() {
		dst = append(dst, '\n')
		for range depth {
			dst = append(dst, ' ', ' ')
		}
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch c {
		case '"':
			// Copy the string whole: brackets, commas and colons in it are text.
			j := i + 1
			for j < len(src) && src[j] != '"' {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			dst = append(dst, src[i:min(j+1, len(src))]...)
			i = j
		case '{', '[':
			if i+1 < len(src) && (src[i+1] == '}' || src[i+1] == ']') {
				dst = append(dst, c, src[i+1])
				i++
				continue
			}
			dst = append(dst, c)
			depth++
			newline()
		case '}', ']':
			depth--
			newline()
			dst = append(dst, c)
		case ',':
			dst = append(dst, c)
			newline()
		case ':':
			dst = append(dst, ':', ' ')
		default:
			dst = append(dst, c)
		}
	}
	return dst
}
