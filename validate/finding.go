package validate

import (
	"strings"

	"github.com/kubeletcfg/kubeletcfg/finding"
)

// The finding types live in the leaf package finding (readers report positions
// without importing the rules); the rules and their callers name them here too.
type (
	Finding      = finding.Finding
	Severity     = finding.Severity
	Position     = finding.Position
	Text         = finding.Text
	SuggestedFix = finding.SuggestedFix
	TextEdit     = finding.TextEdit
	Key          = finding.Key
)

// Severities.
const (
	Info    = finding.Info
	Warning = finding.Warning
	Error   = finding.Error
)

var (
	NewText       = finding.NewText
	ParseSeverity = finding.ParseSeverity
	SortFindings  = finding.SortFindings
	Less          = finding.Less
	Dedup         = finding.Dedup
	RenameKey     = finding.RenameKey
	ApplyEdits    = finding.ApplyEdits
	QuoteLike     = finding.QuoteLike
)

// GateOfPath is the gate a finding's featureGates[Name] path names; ok is false
// for any other path.
func GateOfPath(path string) (name string, ok bool) {
	name, ok = strings.CutPrefix(path, "featureGates[")
	if !ok || !strings.HasSuffix(name, "]") {
		return "", false
	}
	return strings.TrimSuffix(name, "]"), true
}
