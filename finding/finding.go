package finding

import (
	"fmt"
	"sort"
)

// Severity says what the kubelet does with the finding.
type Severity int

const (
	// Info is worth knowing; the kubelet behaves as the files say.
	Info Severity = iota
	// Warning: the kubelet starts but does not do what the files say.
	Warning
	// Error: this kubelet refuses to start or crashes.
	Error
)

func (s Severity) String() string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	default:
		return "info"
	}
}

// ParseSeverity parses "error", "warning" or "info".
func ParseSeverity(s string) (Severity, error) {
	switch s {
	case "error":
		return Error, nil
	case "warning":
		return Warning, nil
	case "info":
		return Info, nil
	}
	return Info, fmt.Errorf("unknown severity %q (want error, warning or info)", s)
}

// MarshalText makes severities print as words in JSON.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Position is a place in an input file. Line and Column are 1-based; 0 means unknown
// (for example a value that comes from the kubelet's defaults).
type Position struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
}

func (p Position) String() string {
	switch {
	case p.File == "":
		return "(defaults)"
	case p.Line == 0:
		return p.File
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Column)
}

// Finding is one problem found in one place.
type Finding struct {
	Rule     string   `json:"rule"`
	Severity Severity `json:"severity"`
	Message  string   `json:"message"`
	Position
	// Path is the field path in the KubeletConfiguration, dotted, with map keys in
	// brackets: evictionHard[memory.available], featureGates[NodeSwap].
	Path string `json:"path"`
	Hint string `json:"hint,omitempty"`
	// Kubelet is the kubelet's own message, verbatim, when the kubelet reports this.
	Kubelet string `json:"kubelet,omitempty"`
	// Panics is set when the kubelet does not refuse cleanly but panics at startup.
	Panics bool `json:"panics,omitempty"`
	// Behind is set on a finding the kubelet does not reach yet: it stops at an
	// earlier fatal error first, the one of the rule named here, and reports this
	// one once that is fixed. kubeletcfg evaluates on past the kubelet's first
	// fatal error, so that one run lists every mistake; the verdict is still the
	// kubelet's, decided by the findings without Behind.
	Behind string `json:"behind,omitempty"`
	// By names the tool that reports the finding when it is not the kubelet
	// but a bootstrapper that reads the user's file first (kubeadm, EKS nodeadm,
	// Talos, ...): set on the bootstrapper rules' findings, nil otherwise. Not
	// part of the finding's JSON: a refusal's tool is the document's refusedBy.
	By *Tool `json:"-"`
	// Folded is set on the one finding that stands for many of one rule in one
	// file (see Fold): how many it stands for, all not shown.
	Folded int `json:"folded,omitempty"`
	// Fixes are the repairs that need no guess, set where the mistake is
	// detected; kubeletcfg fix applies them. They are not part of the output.
	Fixes []SuggestedFix `json:"-"`
	// NoFix says why a mistake that fix repairs elsewhere has no repair here
	// (an anchor, a twin key, a value out of range): kubeletcfg fix reports it
	// as skipped, with these words. Set with Fixes empty; not part of the output.
	NoFix string `json:"-"`
}

// Tool is a program that turns the user's file into the kubelet's before the
// kubelet runs (a bootstrapper), at the release kubeletcfg ports.
type Tool struct {
	// Name as users know it: "kubeadm", "EKS nodeadm", "Talos".
	Name string
	// Release ported: "v1.13.9", "v20260724"; kubeadm's is its minor, "1.37".
	Release string
}

// String is the name and release: "Talos v1.13.9".
func (t Tool) String() string {
	if t.Release == "" {
		return t.Name
	}
	return t.Name + " " + t.Release
}

// SortFindings orders findings by file, line, column, then rule.
func SortFindings(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool { return Less(&fs[i], &fs[j]) })
}

// Less is the order of SortFindings: file, line, column, then rule.
func Less(a, b *Finding) bool {
	if a.File != b.File {
		return a.File < b.File
	}
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	if a.Column != b.Column {
		return a.Column < b.Column
	}
	return a.Rule < b.Rule
}

// Key is what a reader sees of a finding: its rule, where, what it says.
// Findings with one key are one finding (the minors' copies the CI formats
// merge, a converted file's two entries mapped to one line of the file the
// user keeps).
type Key struct {
	Rule, File, Path, Message, Hint, Kubelet, Behind string
	Line, Column                                     int
}

// Key is f's Key.
func (f *Finding) Key() Key {
	return Key{f.Rule, f.File, f.Path, f.Message, f.Hint, f.Kubelet, f.Behind, f.Line, f.Column}
}

// Dedup keeps the first finding of each Key, in order.
func Dedup(fs []Finding) []Finding {
	seen := make(map[Key]bool, len(fs))
	kept := fs[:0]
	for _, f := range fs {
		if k := f.Key(); !seen[k] {
			seen[k] = true
			kept = append(kept, f)
		}
	}
	return kept
}

// Count is how many findings f stands for: Folded for a summary, else 1.
func (f *Finding) Count() int {
	if f.Folded > 0 {
		return f.Folded
	}
	return 1
}

// CountAtLeast counts the findings at or above threshold (negative: none), a
// folded summary as every finding it stands for: the --fail-on count.
func CountAtLeast(fs []Finding, threshold Severity) int {
	if threshold < 0 {
		return 0
	}
	n := 0
	for i := range fs {
		if fs[i].Severity >= threshold {
			n += fs[i].Count()
		}
	}
	return n
}
