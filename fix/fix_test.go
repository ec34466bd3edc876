package fix

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/finding"
	kubeletv1beta1 "github.com/kubeletcfg/kubeletcfg/upstream/kubelet/config/v1beta1"

	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
)

const head = "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n"

// repairCase is one input (files by path under a temporary folder: config.yaml
// is the main file, conf.d/ the drop-in folder), the minors it is repaired for
// and what must come out.
type repairCase struct {
	name     string
	files    map[string]string
	versions string // as --versions; "" is the n-3 window
	// want is every changed file, byte for byte.
	want map[string]string
	// rules lists the rule of each repair, in file and position order.
	rules []string
	// skip is a part of the only skip's reason ("" when nothing is skipped).
	skip  string
	worse bool
	// left lists the rule of each error and warning left after the repairs,
	// in Remaining's order (nil: not checked).
	left []string
	// manySkips leaves the skips to the caller.
	manySkips bool
}

func TestRepairs(t *testing.T) {
	tests := []repairCase{
		// --- the KEP-4603 draft name ---
		{
			name: "draft gets the gate in the existing featureGates",
			files: map[string]string{"config.yaml": head + "featureGates:\n  GracefulNodeShutdown: true   # not locked\n" +
				"crashloopbackoff:    # draft\n  maxSeconds: 30  # cap\n"},
			versions: "1.34",
			want: map[string]string{"config.yaml": head + "featureGates:\n  GracefulNodeShutdown: true   # not locked\n  KubeletCrashLoopBackOffMax: true\n" +
				"crashLoopBackOff:    # draft\n  maxContainerRestartPeriod: 30s  # cap\n"},
			rules: []string{"KC1102", "KC6001"},
		},
		{
			name:     "draft gets a featureGates block at the end of the first document, CRLF kept",
			files:    map[string]string{"config.yaml": strings.ReplaceAll(head+"authentication:\n    anonymous:\n        enabled: false\ncrashLoopBackOff:\n    maxSeconds: 10\n# end\n---\nkind: Other\n", "\n", "\r\n")},
			versions: "1.32..1.34",
			want: map[string]string{"config.yaml": strings.ReplaceAll(head+"authentication:\n    anonymous:\n        enabled: false\ncrashLoopBackOff:\n    maxContainerRestartPeriod: 10s\n# end\n"+
				"featureGates:\n    KubeletCrashLoopBackOffMax: true\n---\nkind: Other\n", "\n", "\r\n")},
			rules: []string{"KC6001"},
		},
		{
			name:     "draft needs no gate where it is on by default",
			files:    map[string]string{"config.yaml": head + "crashLoopBackOff:\n  MaxSeconds: 300\n"},
			versions: "1.35..1.37",
			want:     map[string]string{"config.yaml": head + "crashLoopBackOff:\n  maxContainerRestartPeriod: 300s\n"},
			rules:    []string{"KC6001"},
		},
		{
			name:     "draft in a drop-in gets the gate in the drop-in",
			files:    map[string]string{"config.yaml": head + "maxPods: 50\n", "conf.d/10.conf": head + "crashLoopBackOff: {maxSeconds: 20}\nfeatureGates:\n  NodeSwap: true"},
			versions: "1.33..1.36",
			want:     map[string]string{"conf.d/10.conf": head + "crashLoopBackOff: {maxContainerRestartPeriod: \"20s\"}\nfeatureGates:\n  NodeSwap: true\n  KubeletCrashLoopBackOffMax: true\n"},
			rules:    []string{"KC6001"},
		},
		{
			name:     "draft in JSON: the gate goes first in the root object",
			files:    map[string]string{"config.yaml": "{\n  \"apiVersion\": \"kubelet.config.k8s.io/v1beta1\",\n  \"kind\": \"KubeletConfiguration\",\n  \"crashLoopBackOff\": {\"maxSeconds\": 45}\n}\n"},
			versions: "1.34",
			want: map[string]string{"config.yaml": "{\n  \"featureGates\": {\"KubeletCrashLoopBackOffMax\": true},\n  \"apiVersion\": \"kubelet.config.k8s.io/v1beta1\",\n" +
				"  \"kind\": \"KubeletConfiguration\",\n  \"crashLoopBackOff\": {\"maxContainerRestartPeriod\": \"45s\"}\n}\n"},
			rules: []string{"KC6001"},
		},
		{
			name:     "draft with an empty featureGates",
			files:    map[string]string{"config.yaml": head + "featureGates:   # none yet\ncrashLoopBackOff:\n  maxSeconds: 60\n"},
			versions: "1.34",
			want:     map[string]string{"config.yaml": head + "featureGates:   # none yet\n  KubeletCrashLoopBackOffMax: true\ncrashLoopBackOff:\n  maxContainerRestartPeriod: 60s\n"},
			rules:    []string{"KC6001"},
		},
		{
			name:     "draft out of range",
			files:    map[string]string{"config.yaml": head + "crashLoopBackOff:\n  maxSeconds: 900\n"},
			versions: "1.37",
			skip:     "900s is outside the 1s..300s",
		},
		{
			name:     "draft that is not a whole number",
			files:    map[string]string{"config.yaml": head + "crashLoopBackOff:\n  maxSeconds: 30s\n"},
			versions: "1.37",
			skip:     "not a whole number of seconds",
		},
		{
			name:     "draft for a minor without the field",
			files:    map[string]string{"config.yaml": head + "crashLoopBackOff:\n  maxSeconds: 30\n"},
			versions: "1.31..1.34",
			skip:     "kubelet 1.31 has neither crashLoopBackOff.maxContainerRestartPeriod",
		},
		{
			name:     "draft with the gate turned off in a drop-in",
			files:    map[string]string{"config.yaml": head + "crashLoopBackOff:\n  maxSeconds: 30\n", "conf.d/50.conf": head + "featureGates:\n  KubeletCrashLoopBackOffMax: false\n"},
			versions: "1.34..1.37",
			skip:     "sets KubeletCrashLoopBackOffMax: false",
		},
		{
			name:     "draft beside the real field",
			files:    map[string]string{"config.yaml": head + "crashLoopBackOff:\n  maxContainerRestartPeriod: 10s\n  maxSeconds: 30\n"},
			versions: "1.37",
			skip:     "already sets the cap",
		},
		{
			name:     "draft under an anchor",
			files:    map[string]string{"config.yaml": head + "crashLoopBackOff: &cap\n  maxSeconds: 30\n"},
			versions: "1.37",
			skip:     "YAML anchor or merge",
		},
		// --- field names that differ only in case ---
		{
			name:     "main file field, quoting kept",
			files:    map[string]string{"config.yaml": head + "\"MaxPods\": 50 # pods\nAuthentication:\n  Webhook:\n    enabled: true\n"},
			versions: "1.37",
			want:     map[string]string{"config.yaml": head + "\"maxPods\": 50 # pods\nauthentication:\n  webhook:\n    enabled: true\n"},
			rules:    []string{"KC1102", "KC1102", "KC1102"},
		},
		{
			name:     "main file field set twice",
			files:    map[string]string{"config.yaml": head + "maxPods: 50\nMaxPods: 60\n"},
			versions: "1.37",
			skip:     "renaming would make a duplicate key",
		},
		{
			name:     "drop-in field that works case-insensitively",
			files:    map[string]string{"conf.d/10.conf": head + "ProviderID: x   # id\n"},
			versions: "1.37",
			want:     map[string]string{"conf.d/10.conf": head + "providerID: x   # id\n"},
			rules:    []string{"KC2006"},
		},
		{
			name:     "drop-in field shadowed by the correct spelling",
			files:    map[string]string{"config.yaml": head, "conf.d/10.conf": head + "MaxPods: 150\n"},
			versions: "1.37",
			want:     map[string]string{"conf.d/10.conf": head + "maxPods: 150\n"},
			rules:    []string{"KC2007"},
		},
		{
			name:     "field after a non-ASCII value on the same line",
			files:    map[string]string{"config.yaml": "{\"apiVersion\": \"kubelet.config.k8s.io/v1beta1\", \"kind\": \"KubeletConfiguration\", \"providerID\": \"ñandú\", \"MaxPods\": 3}\n"},
			versions: "1.37",
			want:     map[string]string{"config.yaml": "{\"apiVersion\": \"kubelet.config.k8s.io/v1beta1\", \"kind\": \"KubeletConfiguration\", \"providerID\": \"ñandú\", \"maxPods\": 3}\n"},
			rules:    []string{"KC1102"},
		},
		// --- feature gate names ---
		{
			name:     "gate with the KEP-4603 proposal's spelling",
			files:    map[string]string{"config.yaml": head + "featureGates:\n  ReduceDefaultCrashLoopBackoffDecay: true # faster\n  nodeSwap: true\n"},
			versions: "1.34..1.37",
			want:     map[string]string{"config.yaml": head + "featureGates:\n  ReduceDefaultCrashLoopBackOffDecay: true # faster\n  NodeSwap: true\n"},
			rules:    []string{"KC3001", "KC3001"},
		},
		{
			name:     "gate spelt twice",
			files:    map[string]string{"config.yaml": head + "featureGates:\n  NodeSwap: true\n  nodeswap: false\n"},
			versions: "1.37",
			skip:     "renaming would make a duplicate key",
		},
		{
			name:     "gate the target minors do not register",
			files:    map[string]string{"config.yaml": head + "featureGates:\n  ReduceDefaultCrashLoopBackoffDecay: true\n"},
			versions: "1.31..1.32",
			skip:     "is not registered by kubelet 1.31 and 1.32 either",
		},
		// --- a missing apiVersion ---
		{
			name:     "main file without apiVersion (the Kubernetes docs' examples), comment kept above",
			files:    map[string]string{"config.yaml": "# restart delays up to 100s\nkind: KubeletConfiguration\ncrashLoopBackOff:\n  maxContainerRestartPeriod: \"100s\"\n"},
			versions: "1.35..1.37",
			want:     map[string]string{"config.yaml": "# restart delays up to 100s\napiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\ncrashLoopBackOff:\n  maxContainerRestartPeriod: \"100s\"\n"},
			rules:    []string{"KC1002"},
		},
		{
			name:     "drop-in without apiVersion, kind last, quoted, CRLF",
			files:    map[string]string{"config.yaml": head, "conf.d/10.conf": "maxPods: 50\r\n'kind': 'KubeletConfiguration'\r\n"},
			versions: "1.37",
			want:     map[string]string{"conf.d/10.conf": "maxPods: 50\r\n'apiVersion': 'kubelet.config.k8s.io/v1beta1'\r\n'kind': 'KubeletConfiguration'\r\n"},
			rules:    []string{"KC2003"},
		},
		{
			name:     "JSON without apiVersion, kind on its own line",
			files:    map[string]string{"config.yaml": "{\n  \"kind\": \"KubeletConfiguration\",\n  \"maxPods\": 50\n}\n"},
			versions: "1.37",
			want:     map[string]string{"config.yaml": "{\n  \"apiVersion\": \"kubelet.config.k8s.io/v1beta1\",\n  \"kind\": \"KubeletConfiguration\",\n  \"maxPods\": 50\n}\n"},
			rules:    []string{"KC1002"},
		},
		{
			name:     "apiVersion spelt in another case: not a missing one (the case repair respells it)",
			files:    map[string]string{"config.yaml": "ApiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n"},
			versions: "1.37",
			want:     map[string]string{"config.yaml": head},
			rules:    []string{"KC1102"},
		},
		{
			name:     "another kind: no apiVersion is right for it",
			files:    map[string]string{"config.yaml": "kind: KubeletConfig\nmaxPods: 50\n"},
			versions: "1.37",
			left:     []string{"KC1002"},
		},
		{
			name:     "apiVersion that may come from a merge key",
			files:    map[string]string{"config.yaml": "base: &b {apiVersion: kubelet.config.k8s.io/v1beta1}\n<<: *b\nkind: KubeletConfiguration\n"},
			versions: "1.37",
		},
		// --- gates set to the value they are locked to ---
		{
			name:     "GA gate locked to the value set: the line goes, comments stay",
			files:    map[string]string{"config.yaml": head + "featureGates:\n  # swap\n  NodeSwap: true   # GA\n  GracefulNodeShutdown: true\nmaxPods: 50\n"},
			versions: "1.34..1.37",
			want:     map[string]string{"config.yaml": head + "featureGates:\n  # swap\n  GracefulNodeShutdown: true\nmaxPods: 50\n"},
			rules:    []string{"KC3005"},
			left:     []string{},
		},
		{
			name:     "gates no longer registered, last locked to the value set: the emptied featureGates goes too",
			files:    map[string]string{"config.yaml": head + "featureGates:\n  CPUManager: true\n  AnyVolumeDataSource: true\nmaxPods: 50\n"},
			versions: "1.34..1.37",
			want:     map[string]string{"config.yaml": head + "maxPods: 50\n"},
			rules:    []string{"KC3001", "KC3001"},
		},
		{
			name:     "drop-in whose only gate goes: the key goes with it (a null would reset the main file's gates)",
			files:    map[string]string{"config.yaml": head + "featureGates:\n  RotateKubeletServerCertificate: false\n", "conf.d/10.conf": head + "featureGates:\n  KubeletTracing: true\nmaxPods: 20\n"},
			versions: "1.34..1.37",
			want:     map[string]string{"conf.d/10.conf": head + "maxPods: 20\n"},
			rules:    []string{"KC3005"},
		},
		{
			name:     "drop-in whose only gate sits under a key being respelt: left, a null would reset the main file's gates",
			files:    map[string]string{"config.yaml": head, "conf.d/10.conf": head + "FeatureGates:\n  NodeSwap: true\n"},
			versions: "1.37",
			want:     map[string]string{"conf.d/10.conf": head + "featureGates:\n  NodeSwap: true\n"},
			rules:    []string{"KC2006"},
			skip:     "its featureGates key cannot be removed with it",
		},
		{
			name:     "JSON: entries removed with their commas",
			files:    map[string]string{"config.yaml": "{\"apiVersion\": \"kubelet.config.k8s.io/v1beta1\", \"kind\": \"KubeletConfiguration\", \"featureGates\": {\"NodeSwap\": true, \"GracefulNodeShutdown\": true, \"KubeletTracing\": true}}\n"},
			versions: "1.37",
			want:     map[string]string{"config.yaml": "{\"apiVersion\": \"kubelet.config.k8s.io/v1beta1\", \"kind\": \"KubeletConfiguration\", \"featureGates\": {\"GracefulNodeShutdown\": true}}\n"},
			rules:    []string{"KC3005", "KC3005"},
		},
		{
			name:     "JSON: every entry removed leaves {}",
			files:    map[string]string{"config.yaml": "{\"apiVersion\": \"kubelet.config.k8s.io/v1beta1\", \"kind\": \"KubeletConfiguration\", \"featureGates\": {\"NodeSwap\": true, \"KubeletTracing\": true}}\n"},
			versions: "1.37",
			want:     map[string]string{"config.yaml": "{\"apiVersion\": \"kubelet.config.k8s.io/v1beta1\", \"kind\": \"KubeletConfiguration\", \"featureGates\": {}}\n"},
			rules:    []string{"KC3005", "KC3005"},
		},
		{
			name:     "gate set to the opposite of its lock: a decision, not a repair",
			files:    map[string]string{"config.yaml": head + "featureGates:\n  NodeSwap: false\n  CPUManager: false\n"},
			versions: "1.34..1.37",
			left:     []string{"KC3002", "KC3001"},
		},
		{
			name:     "gate locked at some target minors only",
			files:    map[string]string{"config.yaml": head + "featureGates:\n  InPlacePodVerticalScaling: true\n"},
			versions: "1.34..1.37",
			left:     []string{"KC3005"},
		},
		{
			name:     "gate no supported minor registered: its value is unknown",
			files:    map[string]string{"config.yaml": head + "featureGates:\n  DynamicKubeletConfig: false\n"},
			versions: "1.34..1.37",
			left:     []string{"KC3001"},
		},
		{
			name:     "gate with a quoted value (a string the kubelet refuses)",
			files:    map[string]string{"config.yaml": head + "featureGates:\n  NodeSwap: \"true\"\n"},
			versions: "1.37",
		},
		{
			name:     "gate set twice",
			files:    map[string]string{"config.yaml": head + "featureGates:\n  NodeSwap: true\n  NodeSwap: false\n"},
			versions: "1.37",
		},
		// --- refusals ---
		{
			name:     "a repair that would stop the kubelet",
			files:    map[string]string{"config.yaml": head + "MaxPods: -1\n"},
			versions: "1.37",
			rules:    []string{"KC1102"},
			worse:    true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { runRepair(t, tt) })
	}
}

func runRepair(t *testing.T, tt repairCase) *Plan {
	t.Helper()
	dir := t.TempDir()
	in := pipeline.Input{}
	for name, content := range tt.files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if name == "config.yaml" {
			in.Config = path
		} else {
			in.ConfigDir = filepath.Join(dir, "conf.d")
		}
	}
	minors, err := kubelets.Window(tt.versions, "")
	if err != nil {
		t.Fatal(err)
	}
	p, err := Make(in, minors)
	if err != nil {
		t.Fatal(err)
	}
	var rules []string
	for _, f := range p.Files {
		for _, fx := range f.Fixes {
			rules = append(rules, fx.Rule)
		}
		for _, s := range f.Skips {
			if !tt.manySkips && (tt.skip == "" || !strings.Contains(s.Reason, tt.skip)) {
				t.Errorf("skip %s %s: %s (want %q)", s.Rule, s.What, s.Reason, tt.skip)
			}
		}
	}
	if strings.Join(rules, ",") != strings.Join(tt.rules, ",") {
		t.Errorf("repairs %v, want %v", rules, tt.rules)
	}
	if tt.skip != "" && p.Skipped() != 1 {
		t.Errorf("%d skipped, want 1", p.Skipped())
	}
	if (p.Worse != nil) != tt.worse {
		t.Errorf("worse = %+v, want %v", p.Worse, tt.worse)
	}
	if tt.left != nil {
		var left []string
		for _, r := range p.Remaining {
			left = append(left, r.Rule)
		}
		if strings.Join(left, ",") != strings.Join(tt.left, ",") {
			t.Errorf("left %v, want %v", left, tt.left)
		}
	}
	if tt.worse {
		return p
	}
	got := map[string]string{}
	for _, f := range p.Changed() {
		rel, _ := filepath.Rel(dir, f.Path)
		got[filepath.ToSlash(rel)] = string(f.Fixed)
	}
	for name, want := range tt.want {
		if got[name] != want {
			t.Errorf("%s:\n--- got\n%s\n--- want\n%s", name, got[name], want)
		}
	}
	for name := range got {
		if _, ok := tt.want[name]; !ok {
			t.Errorf("%s changed, want it untouched:\n%s", name, got[name])
		}
	}
	if len(tt.want) > 0 {
		for _, c := range p.Checks {
			if !better(c) {
				t.Errorf("kubelet %s: %s -> %s is not better", c.Minor, c.Before, c.After)
			}
		}
	}
	return p
}

// better is "lints strictly better": starts where it did not, or fewer errors,
// or as many errors and fewer warnings, and never worse.
func better(c Check) bool {
	if worse(c) != "" {
		return false
	}
	return (!c.Before.Starts && c.After.Starts) || c.After.Errors < c.Before.Errors ||
		(c.After.Errors == c.Before.Errors && c.After.Warnings < c.Before.Warnings)
}

// A misspelt parent that holds only an unrepairable draft key is not renamed:
// alone, the rename changes nothing.
func TestLoneParent(t *testing.T) {
	p := runRepair(t, repairCase{
		name:      "draft under a misspelt parent only: the parent is left too",
		files:     map[string]string{"config.yaml": head + "CrashLoopBackoff:\n  maxSeconds: 0\n"},
		versions:  "1.37",
		manySkips: true,
	})
	if p.Skipped() != 2 || p.Fixed() != 0 || len(p.Changed()) != 0 {
		t.Fatalf("want two skips and nothing changed, got %d fixed, %d skipped", p.Fixed(), p.Skipped())
	}
	if s := p.Files[0].Skips[0]; s.Rule != "KC1102" || !strings.Contains(s.Reason, "it only holds maxSeconds") {
		t.Errorf("parent skip: %+v", s)
	}
}

// A drop-in that is a symbolic link is never written through.
func TestSymlinkNotWritten(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real.conf")
	if err := os.WriteFile(target, []byte(head+"ProviderID: x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	confd := filepath.Join(dir, "conf.d")
	if err := os.Mkdir(confd, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(confd, "10.conf")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	m, _ := kubelets.Lookup("1.37")
	p, err := Make(pipeline.Input{ConfigDir: confd}, []*kubelets.Minor{m})
	if err != nil {
		t.Fatal(err)
	}
	if p.Fixed() != 0 || p.Skipped() != 1 || !strings.Contains(p.Files[0].Skips[0].Reason, "symbolic link") {
		t.Errorf("want one skip for the link, got %d fixed, %+v", p.Fixed(), p.Files)
	}
}

// Every input under testdata/fix that has repairs lints better once
// repaired at the minors of the default window; the one built to lint worse
// is refused.
func TestTestdataLintsBetter(t *testing.T) {
	minors, err := kubelets.Window("", "")
	if err != nil {
		t.Fatal(err)
	}
	dirs, err := filepath.Glob("../testdata/fix/*")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no testdata: %v", err)
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			in := pipeline.Input{}
			for _, name := range []string{"config.yaml", "config.json"} {
				if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
					in.Config = filepath.Join(dir, name)
				}
			}
			if fi, err := os.Stat(filepath.Join(dir, "conf.d")); err == nil && fi.IsDir() {
				in.ConfigDir = filepath.Join(dir, "conf.d")
			}
			p, err := Make(in, minors)
			if err != nil {
				t.Fatal(err)
			}
			if filepath.Base(dir) == "worse" {
				if p.Worse == nil {
					t.Error("the repairs of testdata/fix/worse must be refused")
				}
				return
			}
			if p.Worse != nil {
				t.Fatalf("worse at %s: %s", p.Worse.Minor, p.Worse.Why)
			}
			if p.Fixed() == 0 {
				return
			}
			// A repair that lets the kubelet read further may bring an error
			// to light that the original hid (the docs example at 1.34, where
			// the cap needs a gate that is off): never worse, and strictly
			// better at one minor at least.
			improved := false
			for _, c := range p.Checks {
				if worse(c) != "" {
					t.Errorf("kubelet %s: %s -> %s is worse", c.Minor, c.Before, c.After)
				}
				improved = improved || better(c)
			}
			if !improved {
				t.Errorf("not better at any minor: %+v", p.Checks)
			}
		})
	}
}

// The apiVersion repair gives the files of the conformance cases where the
// real kubelet refuses a missing apiVersion (007 main file, 131 drop-in)
// exactly the bytes of cases where it starts with maxPods 50 (169's main
// file, 101's drop-in): the goldens of every minor record both verdicts.
func TestTypeMetaMatchesKubelet(t *testing.T) {
	const cases = "../testdata/conformance/"
	read := func(path string) string {
		t.Helper()
		data, err := os.ReadFile(cases + path)
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	started := func(c string, minors ...string) {
		t.Helper()
		if minors == nil {
			minors = kubelets.Supported()
		}
		for _, v := range minors {
			if g := read("golden/" + v + "/" + c + ".json"); !strings.Contains(g, `"starts": true`) || !strings.Contains(g, `"maxPods": 50,`) {
				t.Fatalf("golden %s/%s: the kubelet does not start with maxPods 50", v, c)
			}
		}
	}
	refused := func(c string, minors ...string) {
		t.Helper()
		if minors == nil {
			minors = kubelets.Supported()
		}
		for _, v := range minors {
			if g := read("golden/" + v + "/" + c + ".json"); !strings.Contains(g, `"starts": false`) {
				t.Fatalf("golden %s/%s: the kubelet starts", v, c)
			}
		}
	}
	refused("007-missing-apiversion")
	started("169-dropin-dir-no-conf-files")
	p := runRepair(t, repairCase{
		files:    map[string]string{"config.yaml": read("cases/007-missing-apiversion/kubelet.yaml")},
		versions: "1.31..1.37",
		want:     map[string]string{"config.yaml": read("cases/169-dropin-dir-no-conf-files/kubelet.yaml")},
		rules:    []string{"KC1002"},
		left:     []string{},
	})
	for _, c := range p.Checks {
		if c.Before.Starts || !c.After.Starts {
			t.Errorf("kubelet %s: %s -> %s", c.Minor, c.Before, c.After)
		}
	}
	// Kubelet 1.31 does not check a drop-in's apiVersion: the repair changes
	// nothing there.
	refused("131-dropin-missing-apiversion", kubelets.Supported()[1:]...)
	started("131-dropin-missing-apiversion", "1.31")
	started("101-dropin-override-scalar")
	runRepair(t, repairCase{
		files: map[string]string{"config.yaml": read("cases/131-dropin-missing-apiversion/kubelet.yaml"),
			"conf.d/10-noapi.conf": read("cases/131-dropin-missing-apiversion/conf.d/10-noapi.conf")},
		versions: "1.32..1.37",
		want:     map[string]string{"conf.d/10-noapi.conf": read("cases/101-dropin-override-scalar/conf.d/10-maxpods.conf")},
		rules:    []string{"KC2003"},
		left:     []string{},
	})
}

// A gate removal is proven by the verdict and the effective configuration:
// equal apart from the removed entries where the kubelet started before.
func TestGateChange(t *testing.T) {
	cfg := func(maxPods int32, gates map[string]bool) *kubeletv1beta1.KubeletConfiguration {
		return &kubeletv1beta1.KubeletConfiguration{MaxPods: maxPods, FeatureGates: gates}
	}
	res := func(starts bool, c *kubeletv1beta1.KubeletConfiguration, fs ...finding.Finding) *pipeline.Result {
		return &pipeline.Result{Verdict: pipeline.Verdict{Starts: starts}, Effective: c, Findings: fs}
	}
	removed := map[string]bool{"NodeSwap": true}
	warn := finding.Finding{Rule: "KC3005", Severity: finding.Warning}
	tests := []struct {
		name          string
		before, after *pipeline.Result
		changed       bool
	}{
		{"only the removed entry differs", res(true, cfg(50, map[string]bool{"NodeSwap": true, "A": false}), warn), res(true, cfg(50, map[string]bool{"A": false})), false},
		{"the map emptied", res(true, cfg(50, map[string]bool{"NodeSwap": true})), res(true, cfg(50, nil)), false},
		{"the kubelet did not start before", res(false, nil), res(false, nil), false},
		{"another gate differs", res(true, cfg(50, map[string]bool{"NodeSwap": true, "A": false})), res(true, cfg(50, map[string]bool{"A": true})), true},
		{"a field differs", res(true, cfg(50, nil)), res(true, cfg(60, nil)), true},
		{"no longer starts", res(true, cfg(50, nil)), res(false, nil), true},
		{"a new warning", res(true, cfg(50, nil)), res(true, cfg(50, nil), warn), true},
	}
	for _, tt := range tests {
		if got := gateChange(tt.before, tt.after, removed); (got != "") != tt.changed {
			t.Errorf("%s: gateChange = %q, want changed %v", tt.name, got, tt.changed)
		}
	}
}

// The gate removals give the files of conformance cases 184 (SidecarContainers:
// true, locked on until 1.36, gone at 1.37) and 185 (NodeSwap: true, locked on)
// the bytes of case 001, which sets no gate. The real kubelet's goldens say
// this changes nothing it does: at each minor where the case starts, its
// effective configuration apart from featureGates and its backoff are 001's;
// where it does not (184 at 1.37 panics), 001 starts.
func TestGateRemovalsMatchKubelet(t *testing.T) {
	const dir = "../testdata/conformance/"
	read := func(path string) []byte {
		t.Helper()
		data, err := os.ReadFile(dir + path)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	type golden struct {
		Starts           bool                   `json:"starts"`
		Effective        map[string]interface{} `json:"effective"`
		CrashLoopBackOff interface{}            `json:"crashLoopBackOff"`
	}
	load := func(minor, c string) golden {
		t.Helper()
		var g golden
		if err := json.Unmarshal(read("golden/"+minor+"/"+c+".json"), &g); err != nil {
			t.Fatal(err)
		}
		delete(g.Effective, "featureGates")
		return g
	}
	minimal := string(read("cases/001-minimal-valid/kubelet.yaml"))
	for _, c := range []string{"184-gate-removed-sidecarcontainers", "185-gate-locked-ga-default"} {
		t.Run(c, func(t *testing.T) {
			runRepair(t, repairCase{
				files:    map[string]string{"config.yaml": string(read("cases/" + c + "/kubelet.yaml"))},
				versions: "1.34..1.37",
				want:     map[string]string{"config.yaml": minimal},
				rules:    []string{map[bool]string{true: "KC3001", false: "KC3005"}[strings.HasPrefix(c, "184")]},
				left:     []string{},
			})
			for _, v := range []string{"1.34", "1.35", "1.36", "1.37"} {
				got, want := load(v, c), load(v, "001-minimal-valid")
				if !want.Starts {
					t.Fatalf("golden %s/001: the kubelet does not start", v)
				}
				if got.Starts && (!reflect.DeepEqual(got.Effective, want.Effective) || !reflect.DeepEqual(got.CrashLoopBackOff, want.CrashLoopBackOff)) {
					t.Errorf("kubelet %s: %s and 001 differ beyond featureGates", v, c)
				}
			}
			if load("1.37", c).Starts == strings.HasPrefix(c, "184") {
				t.Errorf("golden 1.37/%s: want it to start only for 185", c)
			}
		})
	}
}
