package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/kubeletcfg/kubeletcfg/internal/kubeletdata"
)

// Result is one golden file (see testdata/conformance/README.md), kubeletdata's
// type, shared with internal/corpus, which compares kubeletcfg with it.
type (
	Result          = kubeletdata.Golden
	CrashLoopResult = kubeletdata.CrashLoopBackOff
)

// Stages, in the order RunE reaches them.
const (
	StageLoad         = kubeletdata.StageLoad
	StageMerge        = kubeletdata.StageMerge
	StageFlags        = kubeletdata.StageFlags
	StageFeatureGates = kubeletdata.StageFeatureGates
	StageLogging      = kubeletdata.StageLogging
	StageValidate     = kubeletdata.StageValidate
	StageRun          = kubeletdata.StageRun
	StageOK           = kubeletdata.StageOK
)

// caseMeta is case.yaml. Pointers distinguish "absent" from "".
type caseMeta struct {
	Description string  `json:"description,omitempty"`
	Config      *string `json:"config,omitempty"`
	ConfigDir   *string `json:"configDir,omitempty"`
	Cgroup      string  `json:"cgroup,omitempty"`
	// Flags are more kubelet command-line arguments, after --config and --config-dir.
	Flags []string `json:"flags,omitempty"`
}

// Case is a resolved case folder.
type Case struct {
	Name      string   // folder base name
	Dir       string   // absolute folder path
	Config    string   // absolute --config path, "" for none
	ConfigDir string   // absolute --config-dir path, "" for none
	Cgroup    string   // v1 or v2
	Flags     []string // more kubelet arguments, after --config and --config-dir
}

// Args is the kubelet command line for the case (flags only, no program name).
func (c *Case) Args() []string {
	var args []string
	if c.Config != "" {
		args = append(args, "--config", c.Config)
	}
	if c.ConfigDir != "" {
		args = append(args, "--config-dir", c.ConfigDir)
	}
	return append(args, c.Flags...)
}

// loadCase reads case.yaml (if any) and applies the defaults of the README.
func loadCase(dir string) (*Case, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	st, err := os.Stat(abs)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("%s is not a folder", abs)
	}
	var meta caseMeta
	data, err := os.ReadFile(filepath.Join(abs, "case.yaml"))
	switch {
	case err == nil:
		if err := yaml.UnmarshalStrict(data, &meta); err != nil {
			return nil, fmt.Errorf("%s/case.yaml: %w", abs, err)
		}
	case os.IsNotExist(err):
	default:
		return nil, err
	}
	c := &Case{Name: filepath.Base(abs), Dir: abs, Cgroup: meta.Cgroup, Flags: meta.Flags}
	if c.Cgroup == "" {
		c.Cgroup = "v2"
	}
	if c.Cgroup != "v1" && c.Cgroup != "v2" {
		return nil, fmt.Errorf("%s/case.yaml: cgroup must be v1 or v2, not %q", abs, c.Cgroup)
	}
	c.Config = resolveCasePath(abs, meta.Config, "kubelet.yaml")
	c.ConfigDir = resolveCasePath(abs, meta.ConfigDir, "conf.d")
	return c, nil
}

// resolveCasePath: nil means "the default if it exists", "" means none, anything else
// is a path relative to the case folder (used even when it does not exist, so that
// cases can test missing files).
func resolveCasePath(dir string, set *string, def string) string {
	if set == nil {
		p := filepath.Join(dir, def)
		if _, err := os.Lstat(p); err == nil {
			return p
		}
		return ""
	}
	if *set == "" {
		return ""
	}
	if filepath.IsAbs(*set) {
		return *set
	}
	return filepath.Join(dir, *set)
}

// normalizeString writes the case folder as $CASE. On Windows it also does so for
// the folder quoted by %q (each backslash doubled) and writes the separators of the
// path after $CASE as /, so that the goldens of both kubelets say
// $CASE/conf.d/10.conf (casePathSlashes).
func normalizeString(s, caseDir string) string {
	if caseDir == "" {
		return s
	}
	if pathSeparator == '\\' {
		// The kubelet quotes some paths with %q, which doubles each backslash.
		s = strings.ReplaceAll(s, strings.ReplaceAll(caseDir, `\`, `\\`), "$CASE")
		s = casePathSlashes(s, true)
	}
	return casePathSlashes(strings.ReplaceAll(s, caseDir, "$CASE"), false)
}

// pathSeparator is filepath.Separator; a variable so that the tests check the Windows
// normalisation on any OS.
var pathSeparator = filepath.Separator

// A Windows path below the case folder, after $CASE: backslash-separated names
// (no character Windows forbids in a name, no space, comma or semicolon), in a
// plain string and in a JSON or %q-quoted string, where each backslash is escaped.
var (
	casePathRe     = regexp.MustCompile(`\$CASE((?:\\[^\\\s"'<>:|?*,;]*)+)`)
	casePathJSONRe = regexp.MustCompile(`\$CASE((?:\\\\[^\\\s"'<>:|?*,;]*)+)`)
)

// casePathSlashes writes the separators of each path below $CASE as /, on Windows
// only: the Windows kubelet joins the case folder (Z:\...\case) and a file name
// with \, the Linux kubelet with /. Elsewhere s is returned unchanged.
func casePathSlashes(s string, jsonEscaped bool) string {
	if pathSeparator != '\\' {
		return s
	}
	re, sep := casePathRe, `\`
	if jsonEscaped {
		re, sep = casePathJSONRe, `\\`
	}
	return re.ReplaceAllStringFunc(s, func(m string) string {
		return strings.ReplaceAll(m, sep, "/")
	})
}

// normalizeJSON writes the case folder as $CASE inside the strings of a JSON document.
// The folder is matched in its JSON-escaped forms (with and without HTML escaping), so
// that the document stays valid.
func normalizeJSON(doc []byte, caseDir string) []byte {
	if caseDir == "" || len(doc) == 0 {
		return doc
	}
	for _, html := range []bool{false, true} {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(html)
		_ = enc.Encode(caseDir)
		quoted := bytes.TrimSpace(buf.Bytes())
		doc = bytes.ReplaceAll(doc, quoted[1:len(quoted)-1], []byte("$CASE"))
	}
	return []byte(casePathSlashes(string(doc), true))
}

// encodeResult is the golden file form: 2-space indent, struct key order, no HTML
// escaping, trailing newline.
func encodeResult(r *Result) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Error items the kubelet emits in Go map iteration order, so in a different order on
// every run: feature-gate errors (SetFromMap ranges over the gate map and the dependency
// map) and the per-key defaultPodSysctls and reservedMemory.limits checks.
var unorderedItem = `(?:` + strings.Join([]string{
	`[A-Za-z0-9]+ is enabled, but depends on features that are disabled: \[[A-Za-z0-9 ]*\]`,
	`cannot set feature gate [A-Za-z0-9]+ to (?:true|false), feature is locked to (?:true|false)`,
	`cannot set feature gate [A-Za-z0-9]+ to (?:true|false), feature is PreAlpha at emulated version [0-9.]+, min compatibility version [0-9.]+`,
	`unrecognized feature gate: [A-Za-z0-9]+`,
	`invalid configuration: "[^"]*" is not a valid sysctl name for defaultPodSysctls`,
	`invalid configuration: "[^"]*" is not known to be namespaced for defaultPodSysctls`,
	`invalid configuration: duplicate sysctl "[^"]*" found in defaultPodSysctls`,
	`invalid configuration: the limit type "[^"]*" for NUMA node [0-9]+ is not supported, only \[[^\]]*\] is accepted`,
	`invalid configuration: reserved memory may not be zero for NUMA node [0-9]+ and resource "[^"]*"`,
	`invalid configuration: the reserved memory has a duplicate value for NUMA node [0-9]+ and resource "[^"]*"`,
}, "|") + `)`

var (
	unorderedItemRe = regexp.MustCompile(unorderedItem)
	unorderedRunRe  = regexp.MustCompile(unorderedItem + `(?:, ` + unorderedItem + `)+`)
)

// canonicalError sorts each run of adjacent map-ordered error items (joined by ", " as
// in an errors.Aggregate), so that goldens do not change from run to run. The items
// themselves are the kubelet's text.
func canonicalError(s string) string {
	return unorderedRunRe.ReplaceAllStringFunc(s, func(run string) string {
		items := unorderedItemRe.FindAllString(run, -1)
		sort.Strings(items)
		return strings.Join(items, ", ")
	})
}

// When the gate map holds an unrecognized gate, SetFromMap's error is one random
// draw: it walks the map in Go's order, collects an error for each locked or
// PreAlpha gate it meets, and stops at the first unrecognized gate, so both the
// gate it names and the items before it change from run to run (a case with five
// unknown gates names each about one run in five). gateDrawRe matches such a draw
// after canonicalError.
var (
	gateSetItem = `cannot set feature gate [A-Za-z0-9]+ to (?:true|false), feature is (?:locked to (?:true|false)|PreAlpha at emulated version [0-9.]+, min compatibility version [0-9.]+)`
	gateDrawRe  = regexp.MustCompile(`\[(?:` + gateSetItem + `, )+unrecognized feature gate: ([^\s,\]"]+)\]|unrecognized feature gate: ([^\s,\]"]+)`)
)

// gateDraw returns s with its random feature-gate draw replaced by a marker, and
// the gate the draw named; ok is false when s holds no such draw.
func gateDraw(s string) (norm, gate string, ok bool) {
	m := gateDrawRe.FindStringSubmatchIndex(s)
	if m == nil {
		return s, "", false
	}
	if m[2] >= 0 {
		gate = s[m[2]:m[3]]
	} else {
		gate = s[m[4]:m[5]]
	}
	return s[:m[0]] + "unrecognized feature gate: <one of the case's unrecognized gates>" + s[m[1]:], gate, true
}

// sameDraw reports whether got differs from the golden want only in the kubelet's
// random feature-gate draw, and the gate got names is written in one of the case's
// files (so it is another draw from the same map, not a new kubelet behaviour).
func sameDraw(want, got []byte, caseDir string) bool {
	var w, g Result
	if json.Unmarshal(want, &w) != nil || json.Unmarshal(got, &g) != nil || w.Error == g.Error {
		return false
	}
	wn, _, wok := gateDraw(w.Error)
	gn, gate, gok := gateDraw(g.Error)
	if !wok || !gok || wn != gn || !writtenInCase(caseDir, gate) {
		return false
	}
	g.Error = w.Error
	again, err := encodeResult(&g)
	return err == nil && bytes.Equal(again, want)
}

// writtenInCase reports whether name appears in a file of the case folder.
func writtenInCase(dir, name string) bool {
	found := false
	_ = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || found || d.IsDir() {
			return nil
		}
		if data, err := os.ReadFile(path); err == nil && bytes.Contains(data, []byte(name)) {
			found = true
		}
		return nil
	})
	return found
}
