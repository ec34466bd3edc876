package skew

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
)

func spec(version string, def bool, stage string, locked bool) kubelets.GateSpec {
	return kubelets.GateSpec{Version: version, Default: def, PreRelease: stage, LockToDefault: locked}
}

func gateTable(emulation string, gates map[string][]kubelets.GateSpec) *kubelets.GateTable {
	t := &kubelets.GateTable{EmulationVersion: emulation, MinCompatibilityVersion: emulation, Gates: map[string]*kubelets.Gate{}}
	for name, specs := range gates {
		t.Gates[name] = &kubelets.Gate{Name: name, Specs: specs}
	}
	return t
}

func TestGateNotes(t *testing.T) {
	history := map[string][]kubelets.GateSpec{
		"Deprecating": {spec("1.20", true, "", false), spec("1.35", true, "DEPRECATED", false)},
		"Locking":     {spec("1.30", true, "BETA", false), spec("1.34", true, "", true)},
		"Beta":        {spec("1.30", true, "BETA", false)},
		"GAUnlocked":  {spec("1.30", true, "", false)},
		"Removed":     {spec("1.20", true, "", true)},
		"RemovedBeta": {spec("1.20", false, "BETA", false)},
	}
	src := gateTable("1.33", history)
	tgtHistory := map[string][]kubelets.GateSpec{}
	for k, v := range history {
		if !strings.HasPrefix(k, "Removed") {
			tgtHistory[k] = v
		}
	}
	tgt := gateTable("1.37", tgtHistory)
	yes, no := true, false
	at := &finding.Position{File: "conf.d/10.conf", Line: 3, Column: 3}
	tests := []struct {
		name string
		set  map[string]gateSetting
		want []GateNote
	}{
		{"nothing to say", map[string]gateSetting{"Beta": {value: &no}, "GAUnlocked": {value: &yes}, "Typo": {value: &yes}}, nil},
		{"deprecated, locked, removed", map[string]gateSetting{
			"Deprecating": {value: &no, pos: at},
			"Locking":     {value: &yes},
			"Removed":     {},
			"RemovedBeta": {value: &yes},
			"Beta":        {value: &yes},
		}, []GateNote{
			{Name: "Deprecating", Value: &no, Status: GateDeprecated, Since: "1.35", Default: &yes, AtSource: "GA", SetBy: at},
			{Name: "Locking", Value: &yes, Status: GateGALocked, Since: "1.34", Default: &yes, AtSource: "BETA"},
			// The source locks Removed to true: fix can remove an entry of that value.
			{Name: "Removed", Status: GateRemoved, AtSource: "GA", LockedAtSource: &yes},
			{Name: "RemovedBeta", Value: &yes, Status: GateRemoved, AtSource: "BETA"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := gateNotes(tt.set, src, tgt); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestFieldNotes(t *testing.T) {
	infos := []kubelets.FieldInfo{
		{Path: "maxPods", Doc: "maxPods is the number of Pods.\nDefault: 110"},
		{Path: "streamingConnectionIdleTimeout", Doc: "streamingConnectionIdleTimeout is the maximum time.\nDeprecated: no longer has any\neffect. Default: \"4h\""},
		{Path: "evictionHard", Doc: "evictionHard is a map.\nDeprecated: use evictionSoft."},
		{Path: "reservedMemory", Doc: "reservedMemory is a list."},
		{Path: "reservedMemory[].limits", Doc: "Deprecated."},
	}
	knowsTgt := func(p string) bool {
		return !strings.HasPrefix(p, "gone") && !strings.HasPrefix(p, "maxPod ") && p != "typo"
	}
	knowsSrc := func(p string) bool { return p != "typo" && p != "newOnly" }
	pos := func(line int) *finding.Position {
		return &finding.Position{File: "config.yaml", Line: line, Column: 1}
	}
	tests := []struct {
		name                   string
		set                    map[string]*finding.Position
		srcDropped, tgtDropped []string
		want                   []FieldNote
	}{
		{"nothing to say", map[string]*finding.Position{"maxPods": pos(1), "typo": pos(2), "newOnly": pos(3)}, []string{"typo", "newOnly"}, []string{"typo"}, nil},
		{"deprecated and removed", map[string]*finding.Position{
			"maxPods":                        pos(1),
			"streamingConnectionIdleTimeout": pos(2),
			"evictionHard":                   pos(3),
			"evictionHard[memory.available]": pos(4),
			"gone":                           pos(5),
			"gone.child":                     pos(6),
			"reservedMemory":                 pos(7),
			"reservedMemory[0].limits[cpu]":  pos(8),
		}, nil, []string{"goneToo"}, []FieldNote{
			{Path: "evictionHard", Status: FieldDeprecated, Doc: "Deprecated: use evictionSoft.", SetBy: pos(3)},
			{Path: "gone", Status: FieldRemoved, SetBy: pos(5)},
			{Path: "goneToo", Status: FieldRemoved},
			{Path: "reservedMemory[].limits", Status: FieldDeprecated, Doc: "Deprecated.", SetBy: pos(8)},
			{Path: "streamingConnectionIdleTimeout", Status: FieldDeprecated, Doc: "Deprecated: no longer has any effect.", SetBy: pos(2)},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := fieldNotes(tt.set, knowsSrc, knowsTgt, infos, tt.srcDropped, tt.tgtDropped)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestFieldPath(t *testing.T) {
	docs := map[string]string{"evictionHard": "", "reservedMemory[].limits": "", "logging.vmodule[].verbosity": "", "maxPods": ""}
	for path, want := range map[string]string{
		"maxPods":                          "maxPods",
		"evictionHard[memory.available]":   "evictionHard",
		"reservedMemory[0].limits[memory]": "reservedMemory[].limits",
		"logging.vmodule[2].verbosity":     "logging.vmodule[].verbosity",
		"nope":                             "",
		"broken[":                          "",
	} {
		if got := fieldPath(path, docs); got != want {
			t.Errorf("fieldPath(%q) = %q, want %q", path, got, want)
		}
	}
}

// TestPreflight runs the real pipeline: the README example is blocked at the
// newest minor, its main file alone is not.
func TestPreflight(t *testing.T) {
	oldest, _ := kubelets.Lookup(kubelets.Supported()[0])
	newest := kubelets.Default()
	tests := []struct {
		name     string
		in       pipeline.Input
		from     *kubelets.Minor
		starts   bool
		blockers []string
	}{
		{"readme example, same minor", pipeline.Input{Config: exampleConfig, ConfigDir: exampleDir}, newest, false, []string{"KC4050"}},
		{"readme example, oldest to newest", pipeline.Input{Config: exampleConfig, ConfigDir: exampleDir}, oldest, false, []string{"KC4050"}},
		{"main file only", pipeline.Input{Config: exampleConfig}, oldest, true, nil},
		{"unknown gate", pipeline.Input{Config: cases + "181-gate-unknown-main/kubelet.yaml"}, oldest, false, []string{"KC3001"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := NewPreflight(tt.in, tt.from, newest)
			if err != nil {
				t.Fatal(err)
			}
			if p.Starts() != tt.starts {
				t.Errorf("Starts = %v, want %v", p.Starts(), tt.starts)
			}
			var rules []string
			for _, f := range p.Blockers {
				rules = append(rules, f.Rule)
			}
			if !reflect.DeepEqual(rules, tt.blockers) {
				t.Errorf("blockers %v, want %v", rules, tt.blockers)
			}
			if tt.from == newest && len(p.Changes) != 0 {
				t.Errorf("changes from a minor to itself: %v", p.Changes)
			}
			var js bytes.Buffer
			if err := p.WriteJSON(&js); err != nil {
				t.Fatal(err)
			}
			var doc map[string]any
			if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
				t.Fatal(err)
			}
			if doc["starts"] != tt.starts || doc["to"] != newest.Version || doc["rollback"].(map[string]any)["kubeletVersion"] != tt.from.Version {
				t.Errorf("JSON document: %s", js.String())
			}
		})
	}
	t.Run("from newer than to", func(t *testing.T) {
		if oldest == newest {
			t.Skip("one supported minor")
		}
		if _, err := NewPreflight(pipeline.Input{Config: exampleConfig}, newest, oldest); err == nil || !strings.Contains(err.Error(), "newer than") {
			t.Errorf("error %v", err)
		}
	})
}

// TestPreflightNewFields: a field the source minor does not have is listed with
// its value at the target, as a new field; one it has is compared.
func TestPreflightNewFields(t *testing.T) {
	tests := []struct {
		from, path string
		newField   bool
	}{
		{"1.31", "imagePullCredentialsVerificationPolicy", true},
		{"1.33", "imagePullCredentialsVerificationPolicy", false},
	}
	for _, tt := range tests {
		t.Run(tt.from, func(t *testing.T) {
			from, err := kubelets.Lookup(tt.from)
			if err != nil {
				t.Skip(tt.from + " is not supported yet")
			}
			p, err := NewPreflight(pipeline.Input{Config: exampleConfig}, from, kubelets.Default())
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range p.Changes {
				if c.Path == tt.path {
					if c.NewField != tt.newField || c.From != nil || c.To == nil || c.SetBy != nil {
						t.Errorf("%+v", c)
					}
					return
				}
			}
			t.Errorf("no change of %s in %+v", tt.path, p.Changes)
		})
	}
}

// TestPreflightCgroupV1 checks the note on cgroup v1 hosts where a minor turns
// failCgroupV1 on by default.
func TestPreflightCgroupV1(t *testing.T) {
	from, err := kubelets.Lookup("1.34")
	if err != nil {
		t.Skip("1.34 is not supported yet")
	}
	p, err := NewPreflight(pipeline.Input{Config: exampleConfig}, from, kubelets.Default())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(p.CgroupV1, "--cgroup-version v1") {
		t.Errorf("cgroup v1 note %q", p.CgroupV1)
	}
	p, err = NewPreflight(pipeline.Input{Config: exampleConfig, CgroupVersion: 1}, from, kubelets.Default())
	if err != nil {
		t.Fatal(err)
	}
	if p.Starts() || !strings.Contains(p.CgroupV1, "this report checks one") {
		t.Errorf("cgroup v1 host: starts %v, note %q", p.Starts(), p.CgroupV1)
	}
	// A Windows node has no cgroups: failCgroupV1 says nothing about it.
	p, err = NewPreflight(pipeline.Input{Config: exampleConfig, OS: kubelets.Windows, CgroupVersion: 1}, from, kubelets.Default())
	if err != nil {
		t.Fatal(err)
	}
	if p.CgroupV1 != "" || p.CgroupVersion != 0 {
		t.Errorf("Windows node: cgroup v1 note %q (cgroup version %d), want none", p.CgroupV1, p.CgroupVersion)
	}
}

func TestDeprecatedSentence(t *testing.T) {
	for doc, want := range map[string]string{
		"x is y.\nDeprecated: no longer has any effect.\nDefault: 14": "Deprecated: no longer has any effect.",
		"x is y.\nDeprecated: use\nthe flag instead":                  "Deprecated: use the flag instead",
		"x is y. Default: 3": "",
	} {
		if got := deprecatedSentence(doc); got != want {
			t.Errorf("deprecatedSentence(%q) = %q, want %q", doc, got, want)
		}
	}
}
