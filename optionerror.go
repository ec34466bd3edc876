package kubeletcfg

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// OptionError is an error about the options given: its text names Options
// fields in braces ("{KubeletVersion} takes one minor"), which Error writes as
// the library's words (Options.KubeletVersion) and Words as a front end's
// (the command's --kubelet-version, FlagWords).
type OptionError struct {
	text string
	// Err is the error the text wraps, if any.
	Err error
}

// optionErrorf is an OptionError with a formatted text; a %w verb wraps.
func optionErrorf(format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	e := &OptionError{text: err.Error()}
	if u, ok := err.(interface{ Unwrap() error }); ok {
		e.Err = u.Unwrap()
	}
	return e
}

var optionName = regexp.MustCompile(`\{([A-Z][A-Za-z.]*)\}`)

func (e *OptionError) Error() string { return e.Words(nil) }

func (e *OptionError) Unwrap() error { return e.Err }

// Words is the error's text with each option named as names says (a field
// missing from names, or names nil: Options.Field).
func (e *OptionError) Words(names map[string]string) string {
	return optionName.ReplaceAllStringFunc(e.text, func(m string) string {
		field := m[1 : len(m)-1]
		if n, ok := names[field]; ok {
			return n
		}
		return "Options." + field
	})
}

// FlagWords are the command's flags by Options field, for OptionError.Words.
var FlagWords = map[string]string{
	"Config": "--config", "ConfigDir": "--config-dir", "KubeletVersion": "--kubelet-version", "Versions": "--versions",
	"From": "--from", "To": "--to", "Nodes": "--nodes", "Discover": "--discover", "Host.PID": "--pid", "Host.Unit": "--unit",
	"KubeletFlagsFile": "--kubelet-flags-file", "KubeletFlags": "--kubelet-flags", "Format": "--input-format",
	"Set": "--set", "CgroupVersion": "--cgroup-version", "ShowOrigin": "--show-origin", "FailOn": "--fail-on",
	"Kubeconform": "--kubeconform", "Force": "--force",
}

// CommandWords is err's text as the command prints it: an OptionError within
// it names the command's flags (FlagWords) instead of Options fields.
func CommandWords(err error) string {
	var oe *OptionError
	if !errors.As(err, &oe) {
		return err.Error()
	}
	return strings.Replace(err.Error(), oe.Error(), oe.Words(FlagWords), 1)
}
