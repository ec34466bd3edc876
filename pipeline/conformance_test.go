package pipeline

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	testcorpus "github.com/kubeletcfg/kubeletcfg/internal/corpus"
	"github.com/kubeletcfg/kubeletcfg/skew"
	"github.com/kubeletcfg/kubeletcfg/source"
	"github.com/kubeletcfg/kubeletcfg/validate"
)

// The conformance corpus: every case under testdata/conformance/cases has, per
// kubelet minor, a golden recorded by running the real kubelet code on it
// (conformance/harness). kubeletcfg must agree with every golden.

const corpus = "../testdata/conformance"

type golden struct {
	Case             string          `json:"case"`
	Starts           bool            `json:"starts"`
	Panic            bool            `json:"panic"`
	Stage            string          `json:"stage"`
	Error            string          `json:"error"`
	Lenient          bool            `json:"lenient"`
	Effective        json.RawMessage `json:"effective"`
	CrashLoopBackOff *struct {
		Initial string `json:"initial"`
		Max     string `json:"max"`
	} `json:"crashLoopBackOff"`
}

// caseInput reads a case folder as the harness does (internal/corpus).
func caseInput(t testing.TB, dir string) (Input, testcorpus.Case) {
	t.Helper()
	c, err := testcorpus.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	return Input{Config: c.Config, ConfigDir: c.ConfigDir, CgroupVersion: c.CgroupVersion, Flags: c.Flags}, c
}

func TestConformance(t *testing.T) {
	for _, v := range skew.Supported() {
		minor, _ := skew.Lookup(v)
		t.Run(v, func(t *testing.T) { conformance(t, minor) })
	}
}

func conformance(t *testing.T, minor *skew.Minor) {
	goldens, _ := filepath.Glob(filepath.Join(corpus, "golden", minor.Version, "*.json"))
	if len(goldens) == 0 {
		t.Fatalf("no goldens for %s", minor.Version)
	}
	agree := 0
	for _, gpath := range goldens {
		name := strings.TrimSuffix(filepath.Base(gpath), ".json")
		raw, err := os.ReadFile(gpath)
		if err != nil {
			t.Fatal(err)
		}
		var want golden
		if err := json.Unmarshal(raw, &want); err != nil {
			t.Fatalf("%s: %v", gpath, err)
		}
		dir, err := filepath.Abs(filepath.Join(corpus, "cases", name))
		if err != nil {
			t.Fatal(err)
		}
		ok := t.Run(name, func(t *testing.T) {
			in, meta := caseInput(t, dir)
			got, err := Evaluate(minor, in)
			var ie *source.InputError
			if errors.As(err, &ie) && !want.Starts && (want.Stage == "load" || want.Stage == "merge") {
				// We stop with an input error where the kubelet stops reading: both refuse.
				return
			}
			if err != nil {
				t.Fatalf("input error: %v", err)
			}
			ctx := "case: " + meta.Description + "\nkubelet: " + want.Error
			if got.Starts != want.Starts {
				t.Errorf("starts = %v, kubelet %v\n%s\nfindings:\n%s", got.Starts, want.Starts, ctx, dump(got.Findings))
			}
			if got.Panics != want.Panic {
				t.Errorf("panics = %v, kubelet %v\n%s", got.Panics, want.Panic, ctx)
			}
			if want.Lenient && !hasLenientWarning(got.Findings) {
				t.Errorf("the kubelet fell back to lenient decoding but no dropped-key warning was reported\n%s\nfindings:\n%s", ctx, dump(got.Findings))
			}
			checkGateQuotes(t, want.Error, got.Findings, ctx)
			if len(want.Effective) > 0 {
				if got.Effective == nil {
					t.Errorf("no effective config; the kubelet had one\n%s\nfindings:\n%s", ctx, dump(got.Findings))
				} else {
					compareEffective(t, dir, got, want.Effective)
				}
			}
			if want.CrashLoopBackOff != nil && want.Starts {
				if got.CrashLoopBackOff == nil {
					t.Errorf("no crash-loop backoff computed")
				} else if g := got.CrashLoopBackOff; g.Initial.String() != want.CrashLoopBackOff.Initial || g.Max.String() != want.CrashLoopBackOff.Max {
					t.Errorf("crashLoopBackOff = %s/%s, kubelet %s/%s", g.Initial, g.Max, want.CrashLoopBackOff.Initial, want.CrashLoopBackOff.Max)
				}
			}
		})
		if ok {
			agree++
		}
	}
	t.Logf("kubelet %s: %d/%d cases agree with the real kubelet", minor.Version, agree, len(goldens))
}

// gateItemRE matches one item of featuregate's SetFromMap error (as in the
// harness's golden.go).
var gateItemRE = regexp.MustCompile(`[A-Za-z0-9]+ is enabled, but depends on features that are disabled: \[[A-Za-z0-9 ]*\]|` +
	`cannot set feature gate [A-Za-z0-9]+ to (?:true|false), feature is (?:locked to (?:true|false)|PreAlpha at emulated version [0-9.]+, min compatibility version [0-9.]+)|` +
	`unrecognized feature gate: [^\s,\]]+`)

// checkGateQuotes: every feature-gate item of the kubelet's error is quoted, with
// the kubelet's own prefix, by exactly the finding for that gate, so no finding
// quotes another gate's error (the kubelet names gates in map order).
func checkGateQuotes(t *testing.T, kubelet string, fs []validate.Finding, ctx string) {
	t.Helper()
	locs := gateItemRE.FindAllStringIndex(kubelet, -1)
	if len(locs) == 0 {
		return
	}
	prefix := strings.TrimSuffix(kubelet[:locs[0][0]], "[")
	for _, loc := range locs {
		item := kubelet[loc[0]:loc[1]]
		found := false
		for _, f := range fs {
			if f.Kubelet == prefix+item {
				found = true
			}
		}
		if !found {
			t.Errorf("no finding quotes the kubelet's %q\n%s\nfindings:\n%s", prefix+item, ctx, dumpQuotes(fs))
		}
	}
	for _, f := range fs {
		if strings.HasPrefix(f.Path, "featureGates[") && f.Kubelet != "" && !strings.Contains(f.Kubelet, strings.TrimSuffix(strings.TrimPrefix(f.Path, "featureGates["), "]")) &&
			f.Rule != validate.GateDependency.ID {
			t.Errorf("the finding for %s quotes another gate: %s", f.Path, f.Kubelet)
		}
	}
}

func dumpQuotes(fs []validate.Finding) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString("  " + f.Rule + " " + f.Path + ": " + f.Kubelet + "\n")
	}
	return b.String()
}

func hasLenientWarning(fs []validate.Finding) bool {
	for _, f := range fs {
		switch f.Rule {
		case validate.UnknownField.ID, validate.CaseMismatch.ID, validate.DuplicateKey.ID:
			return true
		}
	}
	return false
}

func compareEffective(t *testing.T, dir string, got *Result, want json.RawMessage) {
	t.Helper()
	obj, err := got.EffectiveObject()
	if err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	raw = bytes.ReplaceAll(raw, []byte(dir), []byte("$CASE"))
	var g, w map[string]any
	_ = json.Unmarshal(raw, &g)
	_ = json.Unmarshal(want, &w)
	if reflect.DeepEqual(g, w) {
		return
	}
	var diffs []string
	keys := map[string]bool{}
	for k := range g {
		keys[k] = true
	}
	for k := range w {
		keys[k] = true
	}
	for k := range keys {
		if !reflect.DeepEqual(g[k], w[k]) {
			gj, _ := json.Marshal(g[k])
			wj, _ := json.Marshal(w[k])
			diffs = append(diffs, k+": kubeletcfg "+string(gj)+", kubelet "+string(wj))
		}
	}
	sort.Strings(diffs)
	t.Errorf("effective config differs from the kubelet's:\n  %s", strings.Join(diffs, "\n  "))
}

func dump(fs []validate.Finding) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString("  " + f.Position.String() + " " + f.Severity.String() + " " + f.Rule + " " + f.Message + "\n")
	}
	return b.String()
}
