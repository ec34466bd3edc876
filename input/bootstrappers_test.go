package input

import (
	"strings"
	"testing"

	kcfinding "github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/input/bootstrap"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
)

// fakeTool stands for a bootstrapper: its user's file (tool.yaml) sets maxPods
// and a misspelled key; the tool writes a config file of its own defaults, the
// user's values as a drop-in in a folder only on the node, and a flag.
var fakeTool = translator{
	format: "faketool",
	tool:   bootstrap.Tool{Name: "FakeTool", Release: "v1.0.0", Source: "fake.go"},
	detect: func(path string, data []byte) bool { return strings.HasPrefix(string(data), "kind: FakeTool") },
	translate: func(path string, data []byte, opt bootstrap.Options) (*bootstrap.Output, error) {
		at := func(line, col int) kcfinding.Position { return kcfinding.Position{File: path, Line: line, Column: col} }
		out := &bootstrap.Output{
			Tool:      bootstrap.Tool{Name: "FakeTool"},
			Config:    &bootstrap.File{Path: "/etc/fake/config.json", Data: []byte(`{"apiVersion":"kubelet.config.k8s.io/v1beta1","kind":"KubeletConfiguration","cgroupDriver":"systemd"}`)},
			ConfigDir: "/etc/fake/config.json.d",
			DropIns:   []bootstrap.File{{Path: "/etc/fake/config.json.d/40-user.conf", Data: []byte("{\"apiVersion\":\"kubelet.config.k8s.io/v1beta1\",\"kind\":\"KubeletConfiguration\",\n\"maxPods\":20,\n\"maxPod\":30}")}},
			Flags:     []string{"--node-labels=a=b"}, FlagPositions: []kcfinding.Position{at(5, 3)},
			Positions: map[string]kcfinding.Position{"maxPods": at(3, 5), "maxPod": at(4, 5)},
			Notes:     map[string]string{"cgroupDriver": "set by FakeTool: its default"},
			Findings:  []kcfinding.Finding{{Rule: "KC9002", Severity: kcfinding.Warning, Message: "FakeTool overrides x", Position: at(2, 1)}},
			Note:      "FakeTool file: " + opt.Minor + " " + opt.Set["maxPods"],
		}
		return out, nil
	},
}

func TestBootstrapperBridge(t *testing.T) {
	translators = append(translators, fakeTool)
	defer func() { translators = translators[:len(translators)-1] }()
	data := []byte("kind: FakeTool\nx: 1\nvalues:\n    maxPods: 20\n    maxPod: 30\n")
	if f := DetectPath("tool.yaml", data); f != "faketool" {
		t.Fatalf("DetectPath = %q, want faketool", f)
	}
	if _, err := ParseFormat("faketool"); err != nil {
		t.Fatal(err)
	}
	s, err := ConvertOptions("tool.yaml", data, Auto, Options{Minor: "1.37", Set: map[string]string{"maxPods": "58"}})
	if err != nil {
		t.Fatal(err)
	}
	if s.Note != "FakeTool file: 1.37 58" {
		t.Errorf("the translation did not get the minor and --set: note %q", s.Note)
	}
	var in pipeline.Input
	applyTo(s, &in)
	if !in.ConfigDirInMemory || in.ConfigDir != "/etc/fake/config.json.d" || len(in.Flags) != 1 {
		t.Fatalf("Apply: %+v", in)
	}
	r, err := pipeline.Evaluate(kubelets.Default(), in)
	if err != nil {
		t.Fatal(err)
	}
	if err := settleResult(s, r); err != nil {
		t.Fatal(err)
	}
	if r.Effective == nil || r.Effective.MaxPods != 20 {
		t.Fatalf("the in-memory drop-in was not merged: %+v", r.Effective)
	}
	var unknown, tool bool
	for _, f := range r.Findings {
		switch f.Rule {
		case "KC2005": // a drop-in key the kubelet does not know
			unknown = true
			if f.Position.String() != "tool.yaml:4:5" {
				t.Errorf("the drop-in's unknown key is at %s, want tool.yaml:4:5 (the user's file)", f.Position)
			}
		case "KC9002":
			tool = true
		}
	}
	if !unknown || !tool {
		t.Errorf("findings %v: want the pipeline's KC2005 and the tool's KC9002", rulesOf(r.Findings))
	}
	if got := r.Origins["maxPods"].String(); got != "tool.yaml:3:5" {
		t.Errorf("origin of maxPods %s, want tool.yaml:3:5", got)
	}
	if got := r.OriginNotes["cgroupDriver"]; got != "set by FakeTool: its default" {
		t.Errorf("origin note of cgroupDriver %q", got)
	}
	if _, ok := r.Origins["failSwapOn"]; ok {
		t.Errorf("a kubelet default (failSwapOn) is attributed to the tool: %v", r.Origins["failSwapOn"])
	}
}

func TestBootstrapperForcedFormat(t *testing.T) {
	translators = append(translators, fakeTool)
	defer func() { translators = translators[:len(translators)-1] }()
	_, err := ConvertOptions("x.yaml", []byte("kind: KubeletConfiguration\n"), "faketool", Options{})
	if err == nil || !strings.Contains(err.Error(), "x.yaml: is not a file FakeTool reads (Options.Format faketool)") {
		t.Errorf("forced format on another file: %v", err)
	}
}

// --input-format takes what the tool reads, where detection must also tell it
// from other formats: k3s any YAML map, k0s any kind (k0s checks none).
func TestBootstrapperForcedFormatAccepts(t *testing.T) {
	for _, tt := range []struct {
		format, data string
		ok           bool
	}{
		{"k3s", "apiVersion: v1\nkind: X\nwrite-kubeconfig-mode: \"0644\"\n", true},
		{"k3s", "- a\n", false},
		{"k0s", "apiVersion: k0s.k0sproject.io/v1beta1\nkind: clusterconfig\nspec: {}\n", true},
		{"k0s", "apiVersion: k0sctl.k0sproject.io/v1beta1\nkind: cluster\nspec: {}\n", true},
		{"k0s", "- a\n", false},
	} {
		_, err := ConvertOptions("x.yaml", []byte(tt.data), Format(tt.format), Options{})
		if (err == nil) != tt.ok {
			t.Errorf("--input-format %s on %q: %v, want ok %v", tt.format, tt.data, err, tt.ok)
		}
	}
}

func rulesOf(fs []kcfinding.Finding) []string {
	var ids []string
	for _, f := range fs {
		ids = append(ids, f.Rule+"@"+f.Position.String())
	}
	return ids
}

// evaluateTool registers tool for the test, reads a file of it (tool.yaml)
// for minor (empty: the default minor), and evaluates and settles it there.
func evaluateTool(t *testing.T, tool translator, minor string) *pipeline.Result {
	t.Helper()
	translators = append(translators, tool)
	defer func() { translators = translators[:len(translators)-1] }()
	m := kubelets.Default()
	if minor != "" {
		var err error
		if m, err = kubelets.Lookup(minor); err != nil {
			t.Fatal(err)
		}
	}
	s, err := ConvertOptions("tool.yaml", []byte("kind: FakeTool\n"), Auto, Options{Minor: minor})
	if err != nil {
		t.Fatal(err)
	}
	var in pipeline.Input
	applyTo(s, &in)
	r, err := pipeline.Evaluate(m, in)
	if err != nil {
		t.Fatal(err)
	}
	if err := settleResult(s, r); err != nil {
		t.Fatal(err)
	}
	return r
}

// A finding on a value the tool sets (it has a note, the user's file has no
// key for it) is at the anchor and says who set it.
func TestBootstrapperToolValueFinding(t *testing.T) {
	tool := fakeTool
	tool.translate = func(path string, data []byte, opt bootstrap.Options) (*bootstrap.Output, error) {
		return &bootstrap.Output{
			Tool:   bootstrap.Tool{Name: "FakeTool"},
			Config: &bootstrap.File{Data: []byte(`{"apiVersion":"kubelet.config.k8s.io/v1beta1","kind":"KubeletConfiguration","imageGCHighThresholdPercent":10,"imageGCLowThresholdPercent":20}`)},
			Notes:  map[string]string{"imageGCHighThresholdPercent": "set by FakeTool from its table", "imageGCLowThresholdPercent": "set by FakeTool from its table"},
			Anchor: kcfinding.Position{File: path, Line: 1, Column: 1},
		}, nil
	}
	r := evaluateTool(t, tool, "")
	for _, f := range r.Findings {
		if f.Rule == "KC4010" { // imageGCLowThresholdPercent not below the high one
			if f.Position.String() != "tool.yaml:1:1" || !strings.HasSuffix(f.Message, "(set by FakeTool from its table)") ||
				!strings.HasPrefix(f.Hint, "not in your file: FakeTool writes imageGCLowThresholdPercent itself") {
				t.Errorf("finding on the tool's value: %s %q (path %s)", f.Position, f.Message, f.Path)
			}
			return
		}
	}
	t.Errorf("no finding on imageGCHighThresholdPercent: %v", rulesOf(r.Findings))
}

// A gate entry the tool writes itself (nodeadm's DynamicResourceAllocation) is
// not the user's to remove: the hint says whose it is and what the user can
// do. Written in the user's file too, the user's entry and the tool's map to
// one key of the file with the same words: one finding, the user's.
func TestBootstrapperToolGateEntry(t *testing.T) {
	tests := []struct {
		name, minor string
		userWrites  bool
		rule, at    string
		hint        string
	}{
		{"the tool's entry, GA", "1.37", false, "KC3005", "tool.yaml:1:1", "not in your file: FakeTool v1 writes this gate entry itself, and a file cannot take back a gate the tool sets; nothing to change now"},
		{"the tool's entry, removed", "1.38", false, "KC3001", "tool.yaml:1:1", "not in your file: FakeTool v1 writes this gate entry itself, and a file cannot take back a gate the tool sets; the node needs a release of FakeTool that does not write it for kubelet 1.38"},
		{"the user's entry too: one finding", "1.37", true, "KC3005", "tool.yaml:3:5", "removing it from the file leaves FakeTool v1's own entry (it writes this gate too"},
		{"the user's entry too, removed", "1.38", true, "KC3001", "tool.yaml:3:5", "remove it from the file, and the node needs a release of FakeTool that does not write it for kubelet 1.38: FakeTool v1 writes this gate entry too"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tool := fakeTool
			tool.translate = func(path string, data []byte, opt bootstrap.Options) (*bootstrap.Output, error) {
				out := &bootstrap.Output{
					Tool:      bootstrap.Tool{Name: "FakeTool", Release: "v1"},
					Config:    &bootstrap.File{Data: []byte(`{"apiVersion":"kubelet.config.k8s.io/v1beta1","kind":"KubeletConfiguration","featureGates":{"DynamicResourceAllocation":true}}`)},
					Notes:     map[string]string{"featureGates[DynamicResourceAllocation]": "FakeTool v1: enabled for kubelet 1.33+"},
					Anchor:    kcfinding.Position{File: path, Line: 1, Column: 1},
					Positions: map[string]kcfinding.Position{},
				}
				if tt.userWrites {
					out.ConfigDir = "/etc/fake/config.json.d"
					out.DropIns = []bootstrap.File{{Path: "/etc/fake/config.json.d/40-user.conf", Data: []byte(`{"apiVersion":"kubelet.config.k8s.io/v1beta1","kind":"KubeletConfiguration","featureGates":{"DynamicResourceAllocation":true}}`)}}
					out.Positions["featureGates[DynamicResourceAllocation]"] = kcfinding.Position{File: path, Line: 3, Column: 5}
					out.WrittenToo = map[string]string{"featureGates[DynamicResourceAllocation]": out.Notes["featureGates[DynamicResourceAllocation]"]}
				}
				return out, nil
			}
			r := evaluateTool(t, tool, tt.minor)
			var got []kcfinding.Finding
			for _, f := range r.Findings {
				if f.Rule == tt.rule && f.Behind == "" {
					got = append(got, f)
				}
			}
			if len(got) != 1 || got[0].Position.String() != tt.at || !strings.HasPrefix(got[0].Hint, tt.hint) {
				t.Fatalf("%s findings %v, want one at %s with the hint %q", tt.rule, got, tt.at, tt.hint)
			}
			if too := strings.HasSuffix(got[0].Message, "(FakeTool writes it too: enabled for kubelet 1.33+)"); too != tt.userWrites {
				t.Errorf("message %q: says the tool writes it too: %v, want %v", got[0].Message, too, tt.userWrites)
			}
		})
	}
}

// The kubelet's findings on a flag the tool writes itself say so (the file
// cannot remove it), and the tool's flag overriding a value only the tool
// wrote is not reported; over a value the user wrote, it is.
func TestBootstrapperOwnFlags(t *testing.T) {
	for _, tc := range []struct {
		name      string
		userWrote bool
		wantOver  bool
	}{
		{"over the tool's own zero value", false, false},
		{"over the user's value", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tool := fakeTool
			tool.translate = func(path string, data []byte, opt bootstrap.Options) (*bootstrap.Output, error) {
				out := &bootstrap.Output{
					Tool:          bootstrap.Tool{Name: "FakeTool", Release: "v1"},
					Config:        &bootstrap.File{Data: []byte(`{"apiVersion":"kubelet.config.k8s.io/v1beta1","kind":"KubeletConfiguration","logging":{"verbosity":3}}`)},
					Flags:         []string{"--containerd=/run/c.sock", "--v=1"},
					FlagPositions: []kcfinding.Position{{}, {}},
				}
				if tc.userWrote {
					out.Positions = map[string]kcfinding.Position{"logging.verbosity": {File: path, Line: 2, Column: 3}}
				}
				return out, nil
			}
			r := evaluateTool(t, tool, "1.36") // --containerd is deprecated there, gone in 1.37
			var deprecated, over bool
			for _, f := range r.Findings {
				switch f.Rule {
				case "KC2503":
					deprecated = true
					if !strings.Contains(f.Message, "(FakeTool writes --containerd itself)") || !strings.HasPrefix(f.Hint, "nothing to change in the file") {
						t.Errorf("deprecated flag the tool writes: %q, hint %q", f.Message, f.Hint)
					}
				case "KC2504":
					over = true
				}
			}
			if !deprecated {
				t.Errorf("no KC2503 for --containerd at 1.36: %v", rulesOf(r.Findings))
			}
			if over != tc.wantOver {
				t.Errorf("KC2504 reported %v, want %v: %v", over, tc.wantOver, rulesOf(r.Findings))
			}
		})
	}
}

// A KubeletConfiguration is told apart before any translator parses it; the
// translators still see everything else.
func TestKubeletConfigurationSkipsTranslators(t *testing.T) {
	for _, tc := range []struct {
		data string
		skip bool
	}{
		{"apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nmaxPods: 10\n", true},
		{"kind: \"KubeletConfiguration\" # the kubelet's\napiVersion: kubelet.config.k8s.io/v1beta1\n", true},
		{`{"apiVersion":"kubelet.config.k8s.io/v1beta1","kind":"KubeletConfiguration"}`, true},
		{"apiVersion: example.com/v1\nkind: FakeTool\nspec:\n  kubelet:\n    config:\n      kind: KubeletConfiguration\n", false},
		{"kind: FakeTool\n", false},
		{`{"kind":"FakeTool","spec":{"kind":"KubeletConfiguration"}}`, false},
	} {
		called := false
		tool := fakeTool
		tool.detect = func(path string, data []byte) bool { called = true; return false }
		translators = append(translators, tool)
		DetectPath("x.yaml", []byte(tc.data))
		translators = translators[:len(translators)-1]
		if called == tc.skip {
			t.Errorf("%q: translators ran %v, want %v", tc.data, called, !tc.skip)
		}
	}
}
