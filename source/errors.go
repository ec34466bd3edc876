package source

import (
	"bytes"
	"errors"
	"regexp"
	"strconv"
	"strings"

	sigsyaml "sigs.k8s.io/yaml"
)

var yamlLine = regexp.MustCompile(`line (\d+): (.*)`)

// parserProblems are the problems go-yaml's parser (not its scanner) reports. The
// parser prints the 0-based line of its mark ("yaml: line 1: did not find expected
// ',' or ']'" for a bracket left open on the second line); the scanner adds one
// before printing. Both YAML libraries (v3 here, v2 in the kubelet) do this.
var parserProblems = []string{
	"did not find expected <stream-start>",
	"did not find expected <document start>",
	"did not find expected node content",
	"did not find expected key",
	"did not find expected ',' or ']'",
	"did not find expected ',' or '}'",
	"did not find expected '-' indicator",
	"found duplicate %YAML directive",
	"found duplicate %TAG directive",
	"found incompatible YAML document",
	"found undefined tag handle",
}

// unclosedProblems are the parser problems of a flow collection left open: the
// parser's context mark, where the collection opens, is the mistake.
var unclosedProblems = []string{
	"did not find expected ',' or ']'",
	"did not find expected ',' or '}'",
}

// syntaxError is a YAML syntax error of a file, with the 1-based line of the
// mistake; its text names that line.
type syntaxError struct {
	err  error
	line int
}

func (e *syntaxError) Error() string {
	msg := e.err.Error()
	if m := yamlLine.FindStringSubmatchIndex(msg); m != nil {
		return msg[:m[2]] + strconv.Itoa(e.line) + msg[m[3]:]
	}
	return msg
}

func (e *syntaxError) Unwrap() error { return e.err }

// newSyntaxError places the YAML parser's error of data on the line of the
// mistake. go-yaml v3 reports the line where the enclosing collection starts when
// it knows it (the opening bracket, for a bracket left open: the mistake); for
// other parser problems the line where parsing stopped is the mistake, which
// go-yaml v2 (the kubelet's parser) reports.
func newSyntaxError(data []byte, err error) error {
	m := yamlLine.FindStringSubmatch(err.Error())
	if m == nil {
		return err // on the first line, or no line at all
	}
	line := ErrorLine(err)
	if hasPrefix(m[2], parserProblems) && !hasPrefix(m[2], unclosedProblems) {
		if _, v2err := sigsyaml.YAMLToJSON(data); v2err != nil {
			if l := ErrorLine(v2err); l > 0 {
				line = l
			}
		}
	}
	// At the end of the input the parser stands on the line after the last one.
	last := bytes.Count(data, []byte("\n"))
	if len(data) > 0 && data[len(data)-1] != '\n' {
		last++
	}
	line = max(1, min(line, last))
	return &syntaxError{err: err, line: line}
}

func hasPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// ErrorLine extracts the 1-based line number from a YAML parser error, or 0.
func ErrorLine(err error) int {
	if err == nil {
		return 0
	}
	var se *syntaxError
	if errors.As(err, &se) {
		return se.line
	}
	m := yamlLine.FindStringSubmatch(err.Error())
	if m == nil {
		return 0
	}
	n, err := strconv.Atoi(m[1])
	if err != nil {
		return 0
	}
	if hasPrefix(m[2], parserProblems) {
		return n + 1
	}
	return n
}
