package kubeletcfg_test

import (
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	sigsyaml "sigs.k8s.io/yaml"

	"github.com/kubeletcfg/kubeletcfg"
	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/input"
)

// peersDir is the peer corpus: real files of each bootstrapper (its docs, its
// examples, its own test data, public infrastructure repositories), one
// folder each with the file verbatim and a manifest.yaml saying where it is
// from and what the tool does with it, each expectation with its evidence
// (testdata/peers/README.md).
const peersDir = "testdata/peers"

// peerManifest is a corpus folder's manifest.yaml.
type peerManifest struct {
	// File is the real file, verbatim, in the folder.
	File   string     `json:"file"`
	Origin peerOrigin `json:"origin"`
	// Tool is the bootstrapper the file is for, as docs/bootstrappers.md
	// names it (kubeadm, nodeadm, karpenter, cluster-api, talos, k0s, k3s,
	// rke2, aks): the corpus count per tool.
	Tool string `json:"tool"`
	// Format is --input-format (auto when empty: by content).
	Format string `json:"format"`
	// KubeletVersion is the minor checked at (--kubelet-version); empty: the
	// default (the tool's or the newest).
	KubeletVersion string `json:"kubeletVersion"`
	// Set are values only the instance knows (--set), as the tool's own test
	// mocks them.
	Set map[string]string `json:"set"`
	// Object is the object of a file of several node groups the manifest is
	// about (a Cluster API cluster template's "KubeadmConfigTemplate/name");
	// "": the first, which Lint checks among the others.
	Object string     `json:"object"`
	Expect peerExpect `json:"expect"`
	// Known, when not empty, is why kubeletcfg disagrees with the evidence
	// today; Current then holds what kubeletcfg answers instead for the
	// fields that differ, and the test holds it to that answer, so that a
	// fix fails it and the manifest is updated to the evidence.
	Known   string      `json:"known"`
	Current *peerExpect `json:"current"`
}

type peerOrigin struct {
	Repository string `json:"repository"`
	Path       string `json:"path"`
	// Commit is the commit or tag the file is taken at.
	Commit string `json:"commit"`
	URL    string `json:"url"`
	// Lines, for a file cut from a larger one (a doc's code block), are the
	// lines it spans there.
	Lines string `json:"lines"`
}

type peerExpect struct {
	// Starts is whether the node gets a running kubelet; RefusedBy who stops
	// it ("kubelet" or the tool, pipeline.Refusal.By) when it does not.
	Starts *bool `json:"starts"`
	// OS is the operating system the node is evaluated as: windows when the
	// file says so ("": linux).
	OS        string `json:"os"`
	RefusedBy string `json:"refusedBy"`
	// Errors are the rule IDs of the error findings, exactly (a node that
	// starts has none); Rules are other rule IDs that must be among the
	// findings.
	Errors []string `json:"errors"`
	Rules  []string `json:"rules"`
	// Evidence is where the verdict is stated: the tool's test, its docs.
	Evidence string `json:"evidence"`
	// InputError, in a known disagreement's current answer, is part of the
	// error kubeletcfg stops with instead of a verdict (a file it does not
	// read as the tool does).
	InputError string `json:"inputError"`
	// Values are key effective values (the configuration the kubelet runs
	// with: what `kubeletcfg effective` prints).
	Values []peerValue `json:"values"`
}

type peerValue struct {
	// Path is a field path of the effective KubeletConfiguration: dots
	// between fields, [key] for a map key or a list index
	// (evictionHard[memory.available], clusterDNS[0]).
	Path string `json:"path"`
	// Value is the expected value (YAML); Absent says the field is not set
	// at all instead.
	Value    any    `json:"value"`
	Absent   bool   `json:"absent"`
	Evidence string `json:"evidence"`
}

// peerTools are the tools docs/bootstrappers.md counts the corpus of.
var peerTools = []string{"kubeadm", "nodeadm", "karpenter", "cluster-api", "talos", "k0s", "k3s", "rke2", "aks"}

var commitRE = regexp.MustCompile(`^([0-9a-f]{40}|v[0-9][^ ]*)$`)

func readPeerManifests(t *testing.T) map[string]peerManifest {
	t.Helper()
	entries, err := os.ReadDir(peersDir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]peerManifest{}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(peersDir, e.Name(), "manifest.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		var m peerManifest
		if err := sigsyaml.UnmarshalStrict(data, &m); err != nil {
			t.Fatalf("%s/manifest.yaml: %v", e.Name(), err)
		}
		out[e.Name()] = m
	}
	return out
}

// TestPeerCorpus lints every file of the corpus as `kubeletcfg lint -o json`
// and `kubeletcfg effective` do, and checks the verdict, the rules and the
// effective values its manifest names from the tool's own tests and docs.
func TestPeerCorpus(t *testing.T) {
	manifests := readPeerManifests(t)
	if len(manifests) < 40 {
		t.Errorf("%d files in the corpus, want at least 40", len(manifests))
	}
	for name, m := range manifests {
		t.Run(name, func(t *testing.T) {
			checkPeerManifest(t, m)
			want := m.Expect
			if m.Known != "" {
				want = m.Expect.overlay(t, *m.Current)
			}
			opt := kubeletcfg.Options{
				Config:         filepath.Join(peersDir, name, m.File),
				Format:         input.Format(m.Format),
				KubeletVersion: m.KubeletVersion,
				Read:           input.Options{Set: m.Set, Object: m.Object},
			}
			l, err := lintRecovered(opt)
			if l != nil {
				if lp, ok := l.Several.(*kubeletcfg.LintedPaths); ok && len(lp.Linted) > 0 {
					l = lp.Linted[0]
				}
			}
			switch {
			case want.InputError != "" && (err == nil || !strings.Contains(err.Error(), want.InputError)):
				t.Fatalf("error %v, want one with %q", err, want.InputError)
			case want.InputError != "":
				return
			case err != nil:
				t.Fatal(err)
			}
			doc := l.Report.Document
			if got := string(l.Result.OS.Or()); got != cmp.Or(want.OS, "linux") {
				t.Errorf("evaluated as %s, want %s", got, cmp.Or(want.OS, "linux"))
			}
			if doc.Starts != *want.Starts {
				t.Errorf("starts %v, want %v", doc.Starts, *want.Starts)
			}
			by := ""
			if doc.RefusedBy != nil {
				by = doc.RefusedBy.By
			}
			if by != want.RefusedBy {
				t.Errorf("refused by %q, want %q", by, want.RefusedBy)
			}
			var errs, rules []string
			for _, f := range doc.Findings {
				rules = append(rules, f.Rule)
				if f.Severity == finding.Error {
					errs = append(errs, f.Rule)
				}
			}
			slices.Sort(errs)
			errs = slices.Compact(errs)
			if !slices.Equal(errs, sorted(want.Errors)) {
				t.Errorf("error rules %v, want %v", errs, want.Errors)
			}
			for _, r := range want.Rules {
				if !slices.Contains(rules, r) {
					t.Errorf("no %s finding; the findings are %v", r, rules)
				}
			}
			if len(want.Values) == 0 {
				return
			}
			eff, err := l.Result.EffectiveObject()
			if err != nil {
				t.Fatal(err)
			}
			if eff == nil {
				t.Fatalf("no effective configuration")
			}
			for _, v := range want.Values {
				got, ok := lookupPath(t, normalize(t, eff), v.Path)
				switch {
				case v.Absent && ok:
					t.Errorf("%s: %v, want it unset (%s)", v.Path, got, v.Evidence)
				case v.Absent:
				case !ok && isZero(v.Value):
					// The kubelet's JSON omits a zero value (readOnlyPort: 0).
				case !ok:
					t.Errorf("%s: unset, want %v (%s)", v.Path, v.Value, v.Evidence)
				case !reflect.DeepEqual(got, normalize(t, v.Value)):
					t.Errorf("%s: %v, want %v (%s)", v.Path, got, v.Value, v.Evidence)
				}
			}
		})
	}
}

// lintRecovered is kubeletcfg.Lint, with a panic turned into the error
// "panic: ...", so that one file cannot stop the corpus (a known panic is
// held to in the manifest like any other known answer).
func lintRecovered(opt kubeletcfg.Options) (l *kubeletcfg.Linted, err error) {
	defer func() {
		if r := recover(); r != nil {
			l, err = nil, fmt.Errorf("panic: %v", r)
		}
	}()
	return kubeletcfg.Lint(opt)
}

// checkPeerManifest holds a manifest to the corpus's rules: an origin that
// names its commit, a verdict and every value with its evidence, and a known
// disagreement that says what differs.
func checkPeerManifest(t *testing.T, m peerManifest) {
	t.Helper()
	o := m.Origin
	if o.Repository == "" || o.Path == "" || o.URL == "" || !commitRE.MatchString(o.Commit) {
		t.Errorf("origin needs repository, path, url and a commit (40 hex digits) or tag: %+v", o)
	}
	if !slices.Contains(peerTools, m.Tool) {
		t.Errorf("tool %q is not one of %v", m.Tool, peerTools)
	}
	e := m.Expect
	if e.Starts == nil || e.Evidence == "" {
		t.Errorf("expect needs starts and the evidence of the verdict")
	}
	if e.Starts != nil && *e.Starts != (e.RefusedBy == "") {
		t.Errorf("refusedBy %q goes with a node that does not start", e.RefusedBy)
	}
	for _, v := range e.Values {
		if v.Evidence == "" {
			t.Errorf("%s: no evidence", v.Path)
		}
	}
	if (m.Known == "") != (m.Current == nil) {
		t.Errorf("known and current go together")
	}
}

// overlay is e with what c sets: the answer kubeletcfg gives today for a
// known disagreement. Each field c sets must differ from e's, or the
// disagreement is not one.
func (e peerExpect) overlay(t *testing.T, c peerExpect) peerExpect {
	t.Helper()
	out := e
	out.InputError = c.InputError
	if c.Starts != nil {
		if *c.Starts == *e.Starts && c.RefusedBy == e.RefusedBy {
			t.Errorf("current verdict is the expected one")
		}
		out.Starts, out.RefusedBy = c.Starts, c.RefusedBy
	}
	if c.Errors != nil {
		if slices.Equal(sorted(c.Errors), sorted(e.Errors)) {
			t.Errorf("current errors are the expected ones")
		}
		out.Errors = c.Errors
	}
	out.Rules = append(slices.Clone(e.Rules), c.Rules...)
	out.Values = slices.Clone(e.Values)
	for _, cv := range c.Values {
		i := slices.IndexFunc(out.Values, func(v peerValue) bool { return v.Path == cv.Path })
		if i < 0 {
			out.Values = append(out.Values, cv)
			continue
		}
		if cv.Absent == out.Values[i].Absent && reflect.DeepEqual(cv.Value, out.Values[i].Value) {
			t.Errorf("%s: current value is the expected one", cv.Path)
		}
		cv.Evidence = out.Values[i].Evidence
		out.Values[i] = cv
	}
	return out
}

// isZero says whether v is a value the configuration's JSON leaves out.
func isZero(v any) bool {
	switch v := v.(type) {
	case float64:
		return v == 0
	case string:
		return v == ""
	}
	return false
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return slices.Compact(s)
}

// normalize is v as JSON decodes it, so that a manifest's 30 and the
// configuration's int32 compare.
func normalize(t *testing.T, v any) any {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// lookupPath walks path (a.b[key][0].c) in v.
func lookupPath(t *testing.T, v any, path string) (any, bool) {
	t.Helper()
	for _, seg := range splitPath(t, path) {
		switch n := v.(type) {
		case map[string]any:
			next, ok := n[seg]
			if !ok {
				return nil, false
			}
			v = next
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(n) {
				return nil, false
			}
			v = n[i]
		default:
			return nil, false
		}
	}
	return v, true
}

func splitPath(t *testing.T, path string) []string {
	t.Helper()
	var out []string
	for path != "" {
		switch {
		case path[0] == '[':
			end := strings.IndexByte(path, ']')
			if end < 0 {
				t.Fatalf("path %q: no ]", path)
			}
			out = append(out, path[1:end])
			path = strings.TrimPrefix(path[end+1:], ".")
		default:
			end := strings.IndexAny(path, ".[")
			if end < 0 {
				end = len(path)
			}
			out = append(out, path[:end])
			path = strings.TrimPrefix(path[end:], ".")
		}
	}
	return out
}

// TestPeerCorpusCounts keeps docs/bootstrappers.md's count of the corpus
// per tool true.
func TestPeerCorpusCounts(t *testing.T) {
	counts := map[string]int{}
	for _, m := range readPeerManifests(t) {
		counts[m.Tool]++
	}
	doc, err := os.ReadFile("docs/bootstrappers.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range peerTools {
		row := fmt.Sprintf("| %s | %d |", tool, counts[tool])
		if !strings.Contains(string(doc), row) {
			t.Errorf("docs/bootstrappers.md has no row %q (the corpus's count)", row)
		}
	}
}
