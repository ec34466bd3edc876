package jsonscan

// Space returns the index of the first byte at or after i that is not JSON
// white space.
func Space(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// StringEnd returns the index just past the closing quote of the valid JSON
// string whose opening quote is data[i].
func StringEnd(data []byte, i int) int {
	for i++; i < len(data); i++ {
		switch data[i] {
		case '\\':
			i++ // the escaped byte
		case '"':
			return i + 1
		}
	}
	return i
}

// End returns the end of the valid JSON value that starts at data[i].
func End(data []byte, i int) int {
	depth := 0
	for ; i < len(data); i++ {
		switch data[i] {
		case '"':
			end := StringEnd(data, i)
			if depth == 0 {
				return end
			}
			i = end - 1
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return i // the end of a scalar that closes its container
			}
			if depth--; depth == 0 {
				return i + 1
			}
		case ',', ' ', '\t', '\n', '\r', ':':
			if depth == 0 {
				return i // the end of a number, true, false or null
			}
		}
	}
	return i
}
