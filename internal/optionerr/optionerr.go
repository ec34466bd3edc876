// Package optionerr is the error about the options a verb was given, for the
// library and the packages below it: its text names Options fields in braces
// ("{Versions}: ..."), which the library writes as its own words
// (Options.Versions) and the command as its flags (kubeletcfg.FlagWords), so
// that no package below the command names a flag.
package optionerr

import (
	"fmt"
	"regexp"
)

// Error is an error about the options given (kubeletcfg.OptionError).
type Error struct {
	text string
	// in is the type whose fields the text names (Options, NewRequest).
	in string
	// Err is the error the text wraps, if any.
	Err error
}

// In is the type whose fields an Error names: "Options" (Errorf), or a
// verb's own request type ("NewRequest").
type In string

// Errorf is an Error about Options fields with a formatted text; a %w verb
// wraps.
func Errorf(format string, args ...any) error { return In("Options").Errorf(format, args...) }

// Errorf is an Error about in's fields with a formatted text; a %w verb wraps.
// Only the format names fields: an argument that reads like one (a path with
// "{Versions}" in it) is kept as it is.
func (in In) Errorf(format string, args ...any) error {
	err := fmt.Errorf(optionName.ReplaceAllString(format, mark+"$1"+mark), args...)
	e := &Error{text: err.Error(), in: string(in)}
	if u, ok := err.(interface{ Unwrap() error }); ok {
		e.Err = u.Unwrap()
	}
	return e
}

var optionName = regexp.MustCompile(`\{([A-Z][A-Za-z.]*)\}`)

// mark sets the format's field names apart in the text: no path or value an
// argument carries holds a NUL byte.
const mark = "\x00"

var marked = regexp.MustCompile(mark + `([A-Z][A-Za-z.]*)` + mark)

func (e *Error) Error() string { return e.Words(nil) }

func (e *Error) Unwrap() error { return e.Err }

// Words is the error's text with each option named as names says (a field
// missing from names, or names nil: the type's, Options.Field).
func (e *Error) Words(names map[string]string) string {
	return marked.ReplaceAllStringFunc(e.text, func(m string) string {
		field := m[1 : len(m)-1]
		if n, ok := names[field]; ok {
			return n
		}
		return e.in + "." + field
	})
}
