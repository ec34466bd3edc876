package rulesdoc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/kubeletcfg/kubeletcfg/internal/corpus"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/rule"
)

// Generator is the command that writes docs/rules.md, named in its header.
const Generator = "go run ./internal/rulesdoc/cmd"

// MaxLines bounds an excerpt; parent keys are kept even beyond it, since
// without them the excerpt would not say where the line sits.
const MaxLines = 8

// maxQuote bounds the kubelet error text quoted under an example; longer
// errors are left to the linked golden.
const maxQuote = 300

// Pseudo files of expectations that point at no file.
const (
	CommandLine = corpus.CommandLine
	Defaults    = corpus.Defaults
)

// Expectation is one `# want` or `# want-windows` of a case (read by
// internal/corpus, as pipeline/want_test.go reads them).
type Expectation = corpus.Want

// ReadExpectations reads the expectations of one case folder: the Linux
// kubelet's, then the Windows kubelet's (Expectation.Windows).
func ReadExpectations(dir string) ([]Expectation, error) {
	exps, _, err := corpus.WantsOn(dir, false)
	if err != nil {
		return nil, err
	}
	win, _, err := corpus.WantsOn(dir, true)
	return append(exps, win...), err
}

var (
	splitLines = corpus.SplitLines
	stripWant  = corpus.StripWant
)

// isJSON says whether a file is JSON rather than YAML: the two need different
// context to stay valid.
func isJSON(name string, raw []byte) bool {
	t := bytes.TrimLeft(raw, " \t\r\n\ufeff")
	return strings.HasSuffix(name, ".json") || (len(t) > 0 && (t[0] == '{' || t[0] == '['))
}

// parses says whether raw is one or more well-formed YAML (or JSON) documents.
func parses(raw []byte) bool {
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	for {
		var n yaml.Node
		err := dec.Decode(&n)
		if err == io.EOF {
			return true
		}
		if err != nil {
			return false
		}
	}
}

// Excerpt returns the part of a file that shows its line n (1-based) and the
// language of the code block ("yaml" or "json"), without `# want` comments.
//
//   - n == 0 (an expectation for the whole file), a JSON file, or a YAML file
//     that does not parse (the error may sit on any line): the whole file when it
//     has at most MaxLines lines, else, for n > 0, the line alone, else "".
//   - otherwise: the line, its parent keys found by walking up to lines indented
//     less (a sequence entry counts as indented past its key, which YAML lets it
//     share a column with), and the lines nested under it (for a document
//     marker, the document it starts), up to MaxLines lines.
func Excerpt(name string, raw []byte, n int) (text, lang string) {
	lines := splitLines(raw)
	lang = "yaml"
	if isJSON(name, raw) {
		lang = "json"
	}
	if n > len(lines) {
		return "", lang
	}
	if n == 0 || lang == "json" || !parses(raw) {
		if len(lines) <= MaxLines {
			return joinStripped(lines), lang
		}
		if n == 0 {
			return "", lang
		}
		return stripWant(lines[n-1]), lang
	}
	t := n - 1
	keep := []int{t}
	cur := depth(lines[t])
	for i := t - 1; i >= 0 && cur > 0; i-- {
		if skippable(lines[i]) {
			continue
		}
		if d := depth(lines[i]); d < cur {
			keep = append(keep, i)
			cur = d
		}
	}
	sort.Ints(keep)
	// What a line holds is nested under it; what a document marker starts is
	// the document after it.
	own, marker := depth(lines[t]), isMarker(lines[t])
	for i := t + 1; i < len(lines) && len(keep) < MaxLines; i++ {
		if skippable(lines[i]) && !(marker && isMarker(lines[i])) {
			continue
		}
		if !marker && depth(lines[i]) <= own || marker && isMarker(lines[i]) {
			break
		}
		keep = append(keep, i)
	}
	out := make([]string, len(keep))
	for i, k := range keep {
		out[i] = lines[k]
	}
	return joinStripped(out), lang
}

func joinStripped(lines []string) string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = stripWant(l)
	}
	return strings.Join(out, "\n")
}

// skippable lines say nothing about nesting: blank, comment-only, document markers.
func skippable(s string) bool {
	t := strings.TrimSpace(s)
	return t == "" || strings.HasPrefix(t, "#") || isMarker(s)
}

func isMarker(s string) bool {
	t := strings.TrimSpace(stripWant(s))
	return t == "---" || strings.HasPrefix(t, "--- ") || t == "..."
}

// depth orders lines by nesting: twice the indentation, plus one for a
// sequence entry, which may share its parent key's column.
func depth(s string) int {
	t := strings.TrimLeft(s, " ")
	d := 2 * (len(s) - len(t))
	if t == "-" || strings.HasPrefix(t, "- ") {
		d++
	}
	return d
}

// Verdict is what the kubelet did with a case at one minor (its golden).
type Verdict struct {
	Minor       string `json:"-"`
	Starts      bool   `json:"starts"`
	Panic       bool   `json:"panic"`
	Stage       string `json:"stage"`
	Error       string `json:"error"`
	Lenient     bool   `json:"lenient"`
	StrictError string `json:"strictError"`
	// Warnings are what the Windows kubelet logged while validating.
	Warnings []string `json:"warnings"`
	// Windows: the verdict of the Windows kubelet (golden-windows).
	Windows bool `json:"-"`
}

// Example is the corpus example chosen for a rule.
type Example struct {
	Rule string
	Case string // case folder name
	// File is the file the expectation names (slash path relative to the case
	// folder, or CommandLine or Defaults) and Line its line (0: the whole file).
	File    string
	Line    int
	Lang    string // code block language of Excerpt
	Excerpt string
	Empty   bool // the file is empty: the example is its emptiness
	Verdict Verdict
}

// candidate ranks an example: the Linux kubelet's expectations before the
// Windows kubelet's; then the brief's order is a YAML line marked with the
// rule alone, then shared lines, then what case.yaml lists, then the command
// line; within one kind, the case with the fewest expected rules, then the
// smallest, then the first by name.
type candidate struct {
	Example
	kind, rules int
	size        int64
}

const (
	kindOwnLine = iota
	kindSharedLine
	kindListedLine
	kindListedSharedLine
	kindListedFile
	kindCommandLine
	kindDefaults
)

// Find picks an example for each rule from the corpus under root
// (testdata/conformance) with the verdicts of the newest minor's goldens: a
// `# want-windows` expectation with the Windows kubelet's (golden-windows).
func Find(root string) (map[string]Example, error) {
	minor := kubelets.Default().Version
	entries, err := os.ReadDir(filepath.Join(root, "cases"))
	if err != nil {
		return nil, err
	}
	byRule := map[string][]candidate{}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		dir := filepath.Join(root, "cases", e.Name())
		exps, err := ReadExpectations(dir)
		if err != nil {
			return nil, err
		}
		if len(exps) == 0 {
			continue
		}
		verdicts := map[bool]Verdict{}
		for _, windows := range []bool{false, true} {
			folder := "golden"
			if windows {
				folder = "golden-windows"
			}
			if !slices.ContainsFunc(exps, func(x Expectation) bool { return x.Windows == windows }) {
				continue
			}
			v, err := readVerdict(filepath.Join(root, folder, minor, e.Name()+".json"))
			if err != nil {
				return nil, err
			}
			v.Minor, v.Windows = minor, windows
			verdicts[windows] = v
		}
		size, err := dirSize(dir)
		if err != nil {
			return nil, err
		}
		distinct := map[bool]map[string]bool{false: {}, true: {}}
		for _, x := range exps {
			for _, r := range x.Rules {
				distinct[x.Windows][r] = true
			}
		}
		for _, x := range exps {
			c, ok, err := newCandidate(dir, x)
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
			c.Case, c.Verdict, c.rules, c.size = e.Name(), verdicts[x.Windows], len(distinct[x.Windows]), size
			for _, r := range x.Rules {
				c.Rule = r
				byRule[r] = append(byRule[r], c)
			}
		}
	}
	out := map[string]Example{}
	for rule, cs := range byRule {
		sort.Slice(cs, func(i, j int) bool {
			a, b := cs[i], cs[j]
			if a.Verdict.Windows != b.Verdict.Windows {
				return !a.Verdict.Windows
			}
			if a.kind != b.kind {
				return a.kind < b.kind
			}
			if a.rules != b.rules {
				return a.rules < b.rules
			}
			if a.size != b.size {
				return a.size < b.size
			}
			return a.Case < b.Case
		})
		out[rule] = cs[0].Example
	}
	return out, nil
}

// newCandidate builds the example an expectation gives; ok is false when it
// gives none worth showing (an excerpt that does not parse cut from a file
// that does).
func newCandidate(dir string, x Expectation) (c candidate, ok bool, err error) {
	c.File, c.Line = x.File, x.Line
	switch x.File {
	case Defaults:
		c.kind = kindDefaults
		return c, true, nil
	case CommandLine:
		cs, err := corpus.Read(dir)
		if err != nil {
			return c, false, err
		}
		c.kind, c.Lang, c.Excerpt = kindCommandLine, "sh", commandLine(dir, cs)
		return c, true, nil
	}
	raw, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(x.File)))
	if err != nil {
		return c, false, fmt.Errorf("%s: want names %s: %w", filepath.Base(dir), x.File, err)
	}
	switch {
	case x.Line == 0:
		c.kind = kindListedFile
	case x.InCaseYAML && len(x.Rules) == 1:
		c.kind = kindListedLine
	case x.InCaseYAML:
		c.kind = kindListedSharedLine
	case len(x.Rules) == 1:
		c.kind = kindOwnLine
	default:
		c.kind = kindSharedLine
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		c.Empty = true
		return c, true, nil
	}
	c.Excerpt, c.Lang = Excerpt(x.File, raw, x.Line)
	if c.Excerpt != "" && parses(raw) && !parses([]byte(c.Excerpt)) {
		return c, false, nil
	}
	return c, true, nil
}

// commandLine is the kubelet's command line in a case, as the harness runs it
// (testdata/conformance/README.md), with paths relative to the case folder.
func commandLine(dir string, c corpus.Case) string {
	args := []string{"kubelet"}
	rel := func(p string) string {
		if r, err := filepath.Rel(dir, p); err == nil {
			return filepath.ToSlash(r)
		}
		return p
	}
	if c.Config != "" {
		args = append(args, "--config", rel(c.Config))
	}
	if c.ConfigDir != "" {
		args = append(args, "--config-dir", rel(c.ConfigDir))
	}
	for _, f := range c.Flags {
		args = append(args, shellQuote(f))
	}
	return strings.Join(args, " ")
}

var shellSafe = regexp.MustCompile(`^[A-Za-z0-9_./=,:+@%-]+$`)

func shellQuote(s string) string {
	if shellSafe.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func readVerdict(file string) (Verdict, error) {
	var v Verdict
	raw, err := os.ReadFile(file)
	if err != nil {
		return v, err
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return v, fmt.Errorf("%s: %w", file, err)
	}
	return v, nil
}

func dirSize(dir string) (int64, error) {
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			fi, err := d.Info()
			if err != nil {
				return err
			}
			n += fi.Size()
		}
		return nil
	})
	return n, err
}

// Markdown renders an example for a rule section; links are relative to docs/.
func (e Example) Markdown() string {
	var b strings.Builder
	caseDir := "../testdata/conformance/cases/" + e.Case + "/"
	fmt.Fprintf(&b, "**Example** (conformance case [`%s`](%s))", e.Case, caseDir)
	switch {
	case e.File == CommandLine:
		b.WriteString(", the kubelet's command line:\n\n")
	case e.File == Defaults:
		b.WriteString(": the finding points at no file.\n\n")
	case e.Empty:
		fmt.Fprintf(&b, ", `%s`, an empty file.\n\n", e.File)
	case e.Line > 0:
		fmt.Fprintf(&b, ", `%s` line %d:\n\n", e.File, e.Line)
	default:
		fmt.Fprintf(&b, ", `%s`:\n\n", e.File)
	}
	if e.Excerpt != "" {
		fence := "```"
		for strings.Contains(e.Excerpt, fence) {
			fence += "`"
		}
		fmt.Fprintf(&b, "%s%s\n%s\n%s\n\n", fence, e.Lang, e.Excerpt, fence)
	}
	folder, kubelet := "golden", "Kubelet"
	if e.Verdict.Windows {
		folder, kubelet = "golden-windows", "The Windows kubelet"
	}
	golden := fmt.Sprintf("../testdata/conformance/%s/%s/%s.json", folder, e.Verdict.Minor, e.Case)
	fmt.Fprintf(&b, "%s %s ([golden](%s)): %s", kubelet, e.Verdict.Minor, golden, e.Verdict.describe())
	return b.String()
}

// describe says what the kubelet did, quoting its error when it is short, and
// the warnings it logged (the Windows kubelet's).
func (v Verdict) describe() string {
	s := v.outcome()
	var logged []string
	for _, w := range v.Warnings {
		if q := quote(w); q != "" {
			logged = append(logged, q)
		}
	}
	if len(logged) > 0 {
		s += " It logs " + strings.Join(logged, " and ") + "."
	}
	return s
}

// outcome says whether the kubelet started, quoting its error when it is short.
func (v Verdict) outcome() string {
	switch {
	case v.Starts && v.Lenient:
		s := "starts, after strict decoding failed and lenient decoding dropped what it could not read"
		if q := quote(v.StrictError); q != "" {
			s += " (strict error: " + q + ")"
		}
		return s + "."
	case v.Starts:
		return "starts."
	}
	what := "refuses to start"
	if v.Panic {
		what = "panics"
	}
	s := fmt.Sprintf("%s (stage `%s`)", what, v.Stage)
	if q := quote(v.Error); q != "" {
		s += ": " + q
	}
	return s + "."
}

// quote is s as a code span, or "" when s is empty or too long to quote.
func quote(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if s == "" || len(s) > maxQuote {
		return ""
	}
	if strings.Contains(s, "`") {
		return "`` " + s + " ``"
	}
	return "`" + s + "`"
}

// NoExample says why a rule has no corpus example, where the reason is known.
func NoExample(r *rule.Rule) string {
	newest := kubelets.Default().Version
	switch {
	case !r.InVersion(newest):
		return fmt.Sprintf("No example in the conformance corpus: its expectations are checked at kubelet %s, which does not have this rule.", newest)
	case strings.HasPrefix(r.ID, "KC8"):
		return "No example in the conformance corpus: profile rules run only with `--profile`, and the corpus runs without one."
	case strings.HasPrefix(r.ID, "KC7"):
		return "No example in the conformance corpus: policy rules are about kubeletcfg's own `# kubeletcfg:ignore` comments and `.kubeletcfg.yaml`, which no kubelet reads."
	}
	return "No example in the conformance corpus."
}

// Preamble explains the examples, at the top of docs/rules.md.
func Preamble() string {
	return fmt.Sprintf(`Each rule's **example** comes from the conformance corpus (`+"`testdata/conformance/cases`"+`): a line
(or a file, or the command line) that a case marks with `+"`# want KCxxxx`"+`, where kubeletcfg is tested to
report the rule at kubelet %s; for a rule only the Windows kubelet has, `+"`# want-windows KCxxxx`"+`, where
the case is evaluated as a Windows node. A line is shown with its parent keys and at most %d lines of the file,
the `+"`# want`"+` comments removed. Below it is what the real kubelet %s (the Windows one, built for Windows and
run under Wine, for a `+"`# want-windows`"+`) did with the whole case, from its recorded golden. Cases can hold
more files than the excerpt shows; the link opens the case.`, kubelets.Default().Version, MaxLines, kubelets.Default().Version)
}

// Write writes docs/rules.md from the registry and the corpus under root
// (testdata/conformance) and returns the rules that have no corpus example.
func Write(w io.Writer, root string) (missing []string, err error) {
	examples, err := Find(root)
	if err != nil {
		return nil, err
	}
	for _, r := range rule.All() {
		if _, ok := examples[r.ID]; !ok {
			missing = append(missing, r.ID)
		}
	}
	err = rule.WriteMarkdownOptions(w, rule.MarkdownOptions{
		Generator:    Generator,
		Preamble:     Preamble(),
		Declarations: true,
		Example: func(r *rule.Rule) string {
			if e, ok := examples[r.ID]; ok {
				return e.Markdown()
			}
			return NoExample(r)
		},
	})
	return missing, err
}
