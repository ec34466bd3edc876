package source

import (
	"regexp"
	"strconv"
)

var yamlLine = regexp.MustCompile(`line (\d+)`)

// ErrorLine extracts the line number from a YAML parser error, or 0.
func ErrorLine(err error) int {
	if err == nil {
		return 0
	}
	m := yamlLine.FindStringSubmatch(err.Error())
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}
