package policy

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/internal/didyoumean"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/rule"
	"github.com/kubeletcfg/kubeletcfg/source"
)

// FileName is the policy file Find looks for.
const FileName = ".kubeletcfg.yaml"

// APIVersion is the only policy format version so far; a file must name it, so
// that a future format can change meanings without surprising old files.
const APIVersion = "kubeletcfg/v1"

// Grade is what a policy makes of a rule's findings.
type Grade struct {
	// Off hides the rule's findings.
	Off bool
	// Severity is what the findings are reported as when not Off.
	Severity finding.Severity
}

func (g Grade) String() string {
	if g.Off {
		return "off"
	}
	return g.Severity.String()
}

// Policy is a decoded .kubeletcfg.yaml. Empty strings are "not set": the
// command's own default applies.
type Policy struct {
	// Path is the file it was loaded from, as given to Load.
	Path string
	// KubeletVersion is the default of lint's --kubelet-version.
	KubeletVersion string
	// Versions is the default of skew's --versions (a range "1.34..1.37" or a
	// list "1.33,1.37").
	Versions string
	// FailOn is the default of --fail-on: error, warning, info or none.
	FailOn string
	// Rules re-grades or turns off rules, by rule ID.
	Rules map[string]Grade
	// Exclude holds globs of files, relative to the policy file's folder,
	// whose findings are not reported.
	Exclude []string

	dir string // absolute folder of Path: Exclude is relative to it
}

// Error is a mistake in a policy file: one line naming the file and line.
type Error struct {
	Path string
	Line int // 0 when the problem is the file as a whole
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.Path, e.Line, e.Msg)
	}
	return e.Path + ": " + e.Msg
}

// Find looks for FileName in startDir and then in each parent folder. It stops
// after the first folder that holds .git (the repository root, which is still
// searched) or at the filesystem root, whichever comes first, so that a policy
// outside the repository never applies to it. The path it returns is startDir
// joined with as many ".." as it climbed ("" when there is no policy), so a
// relative startDir gives a relative path for messages.
func Find(startDir string) (string, error) {
	abs, err := filepath.Abs(startDir)
	if err != nil {
		return "", err
	}
	rel := startDir
	for {
		fi, err := os.Stat(filepath.Join(abs, FileName))
		switch {
		case err == nil && fi.IsDir():
			return "", &Error{Path: filepath.Join(rel, FileName), Msg: "is a folder, not a policy file"}
		case err == nil:
			return filepath.Join(rel, FileName), nil
		case !errors.Is(err, os.ErrNotExist):
			return "", &Error{Path: filepath.Join(rel, FileName), Msg: describe(err)}
		}
		if _, err := os.Stat(filepath.Join(abs, ".git")); err == nil {
			return "", nil
		}
		parent := filepath.Dir(abs)
		if parent == abs {
			return "", nil
		}
		abs, rel = parent, filepath.Join(rel, "..")
	}
}

// Load reads and strictly decodes a policy file: unknown keys, unknown rule IDs
// and values out of range are errors naming the line, with the nearest known
// name when there is one.
func Load(file string) (*Policy, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, &Error{Path: file, Msg: describe(err)}
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		return nil, &Error{Path: file, Msg: "is a folder, not a policy file"}
	}
	data, err := io.ReadAll(io.LimitReader(f, source.MaxFileSize+1))
	if err != nil {
		return nil, &Error{Path: file, Msg: describe(err)}
	}
	if len(data) > source.MaxFileSize {
		return nil, &Error{Path: file, Msg: fmt.Sprintf("larger than %d bytes", source.MaxFileSize)}
	}
	dir, err := filepath.Abs(filepath.Dir(file))
	if err != nil {
		return nil, &Error{Path: file, Msg: err.Error()}
	}
	p, err := decode(file, data)
	if err != nil {
		return nil, err
	}
	p.dir = dir
	return p, nil
}

// describe is an os error without the operation and path, which the message
// already names.
func describe(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// keys of a policy file, in the order the documentation lists them.
var keys = []string{"apiVersion", "kubeletVersion", "versions", "failOn", "rules", "exclude"}

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): `)

func decode(file string, data []byte) (*Policy, error) {
	p := &Policy{Path: file, Rules: map[string]Grade{}}
	fail := func(n *yaml.Node, format string, args ...any) error {
		line := 0
		if n != nil {
			line = n.Line
		}
		return &Error{Path: file, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fail(nil, "empty policy: write at least apiVersion: %s", APIVersion)
		}
		return nil, &Error{Path: file, Line: source.ErrorLine(err), Msg: yamlLine.ReplaceAllString(err.Error(), "")}
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return nil, fail(&extra, "a second YAML document: a policy is one document")
	}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	if root.Kind != yaml.MappingNode {
		return nil, fail(root, "a policy is a mapping (apiVersion: %s, rules: ..., exclude: ...)", APIVersion)
	}
	seen := map[string]*yaml.Node{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if prev, dup := seen[k.Value]; dup {
			return nil, fail(k, "%q is repeated (first at line %d)", k.Value, prev.Line)
		}
		seen[k.Value] = k
		var err error
		switch k.Value {
		case "apiVersion":
			var s string
			if s, err = scalar(file, k, v); err == nil && s != APIVersion {
				err = fail(v, "apiVersion %q is not supported (want %s)", s, APIVersion)
			}
		case "kubeletVersion":
			if p.KubeletVersion, err = scalar(file, k, v); err == nil {
				if _, lerr := kubelets.Lookup(p.KubeletVersion); lerr != nil {
					err = fail(v, "kubeletVersion: %v", lerr)
				}
			}
		case "versions":
			if p.Versions, err = scalar(file, k, v); err == nil {
				err = checkVersions(file, v, p.Versions)
			}
		case "failOn":
			if p.FailOn, err = scalar(file, k, v); err == nil {
				switch p.FailOn {
				case "error", "warning", "info", "none":
				default:
					err = fail(v, "failOn %q: want error, warning, info or none", p.FailOn)
				}
			}
		case "rules":
			err = p.decodeRules(file, v)
		case "exclude":
			err = p.decodeExclude(file, v)
		default:
			msg := fmt.Sprintf("unknown key %q", k.Value)
			if s := didyoumean.Nearest(k.Value, keys); s != "" {
				msg += fmt.Sprintf("; did you mean %q?", s)
			} else {
				msg += " (known: " + strings.Join(keys, ", ") + ")"
			}
			err = fail(k, "%s", msg)
		}
		if err != nil {
			return nil, err
		}
	}
	if seen["apiVersion"] == nil {
		return nil, fail(root, "apiVersion missing: write apiVersion: %s", APIVersion)
	}
	return p, nil
}

// scalar is the string value of key k; anything else is an error.
func scalar(file string, k, v *yaml.Node) (string, error) {
	if v.Kind != yaml.ScalarNode || v.Tag == "!!null" || v.Value == "" {
		return "", &Error{Path: file, Line: v.Line, Msg: fmt.Sprintf("%s must be a non-empty string", k.Value)}
	}
	return v.Value, nil
}

// checkVersions checks the window syntax of skew's --versions: a range A..B
// (older first) or a comma list, every minor supported.
func checkVersions(file string, v *yaml.Node, s string) error {
	fail := func(format string, args ...any) error {
		return &Error{Path: file, Line: v.Line, Msg: "versions: " + fmt.Sprintf(format, args...)}
	}
	if lo, hi, ok := strings.Cut(s, ".."); ok {
		a, err := kubelets.Lookup(lo)
		if err != nil {
			return fail("%v", err)
		}
		b, err := kubelets.Lookup(hi)
		if err != nil {
			return fail("%v", err)
		}
		if b.Older(a) {
			return fail("%s is newer than %s (write the older minor first)", a.Version, b.Version)
		}
		return nil
	}
	for _, name := range strings.Split(s, ",") {
		if _, err := kubelets.Lookup(name); err != nil {
			return fail("%v", err)
		}
	}
	return nil
}

var grades = map[string]Grade{
	"off":     {Off: true},
	"info":    {Severity: finding.Info},
	"warning": {Severity: finding.Warning},
	"error":   {Severity: finding.Error},
}

func (p *Policy) decodeRules(file string, v *yaml.Node) error {
	if v.Kind != yaml.MappingNode {
		return &Error{Path: file, Line: v.Line, Msg: "rules must be a mapping of rule IDs to off, info, warning or error"}
	}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, g := v.Content[i], v.Content[i+1]
		r, ok := rule.Lookup(k.Value)
		if !ok {
			return &Error{Path: file, Line: k.Line, Msg: unknownRule(k.Value)}
		}
		if _, dup := p.Rules[r.ID]; dup {
			return &Error{Path: file, Line: k.Line, Msg: fmt.Sprintf("rule %s is repeated", r.ID)}
		}
		grade, ok := grades[g.Value]
		if g.Kind != yaml.ScalarNode || !ok {
			return &Error{Path: file, Line: g.Line, Msg: fmt.Sprintf("%s: want off, info, warning or error, not %q", r.ID, g.Value)}
		}
		// Severity error means this kubelet refuses to start or panics: a
		// policy that hid it would make a broken node look clean.
		if r.Severity == finding.Error && (grade.Off || grade.Severity < finding.Error) {
			return &Error{Path: file, Line: g.Line, Msg: fmt.Sprintf("%s (%s) means the kubelet will not start: a policy cannot turn it off or lower it", r.ID, r.Name)}
		}
		p.Rules[r.ID] = grade
	}
	return nil
}

// unknownRule is the message for an ID no rule has, naming the nearest ID (or
// the ID of the rule whose name was written).
func unknownRule(id string) string {
	msg := fmt.Sprintf("no rule %q", id)
	if s := nearestRule(id); s != nil {
		return msg + fmt.Sprintf("; did you mean %s (%s)?", s.ID, s.Name)
	}
	return msg + " (kubeletcfg rules lists them)"
}

func nearestRule(id string) *rule.Rule {
	var names []string
	byName := map[string]*rule.Rule{}
	for _, r := range rule.All() {
		names = append(names, r.ID, r.Name)
		byName[r.ID], byName[r.Name] = r, r
	}
	if s := didyoumean.Nearest(id, names); s != "" {
		return byName[s]
	}
	return nil
}

func (p *Policy) decodeExclude(file string, v *yaml.Node) error {
	if v.Kind != yaml.SequenceNode {
		return &Error{Path: file, Line: v.Line, Msg: "exclude must be a list of globs (legacy/**, conf.d/*.bak)"}
	}
	for _, g := range v.Content {
		if g.Kind != yaml.ScalarNode || g.Value == "" {
			return &Error{Path: file, Line: g.Line, Msg: "exclude: each entry is a non-empty glob"}
		}
		pat := strings.TrimPrefix(filepath.ToSlash(g.Value), "./")
		if path.IsAbs(pat) || filepath.IsAbs(g.Value) {
			return &Error{Path: file, Line: g.Line, Msg: fmt.Sprintf("exclude %q: globs are relative to the policy file's folder", g.Value)}
		}
		for _, seg := range strings.Split(pat, "/") {
			if _, err := path.Match(seg, ""); err != nil {
				return &Error{Path: file, Line: g.Line, Msg: fmt.Sprintf("exclude %q: malformed glob", g.Value)}
			}
		}
		p.Exclude = append(p.Exclude, pat)
	}
	return nil
}

// Excluded reports whether findings in file (as the finding names it: relative
// to the working folder, or absolute) are excluded. Patterns are matched
// against the path relative to the policy file's folder, with / separators: *
// and ? stay within a folder name, ** matches any number of folders, and a
// pattern that matches a folder excludes everything below it. Files outside
// the policy's folder are never excluded.
func (p *Policy) Excluded(file string) bool {
	if p == nil || len(p.Exclude) == 0 || file == "" {
		return false
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(p.dir, abs)
	if err != nil {
		return false
	}
	rel = filepath.ToSlash(rel)
	if rel == ".." || strings.HasPrefix(rel, "../") {
		return false
	}
	segs := strings.Split(rel, "/")
	for _, pat := range p.Exclude {
		ps := strings.Split(pat, "/")
		for n := 1; n <= len(segs); n++ {
			if match(ps, segs[:n]) {
				return true
			}
		}
	}
	return false
}

// match matches path segments against pattern segments; "**" matches zero or
// more segments.
func match(pat, segs []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for i := 0; i <= len(segs); i++ {
				if match(pat[1:], segs[i:]) {
					return true
				}
			}
			return false
		}
		if len(segs) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], segs[0]); !ok {
			return false
		}
		pat, segs = pat[1:], segs[1:]
	}
	return len(segs) == 0
}
