package aks

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/input/bootstrap"
	"github.com/kubeletcfg/kubeletcfg/rule"
)

const testdata = "../../testdata/bootstrappers/aks/"

func read(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func jsonEqual(t *testing.T, got, want []byte) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("%v in %s", err, got)
	}
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestPeerAgentBaker runs AgentBaker's GetKubeletConfigFileContent tests: the
// user's kubeletConfig read as Translate reads it, over the tests' resource
// provider flags, compared as JSON with AgentBaker's expected file.
func TestPeerAgentBaker(t *testing.T) {
	var cases []struct{ Name, Kc, Custom, Expected string }
	if err := json.Unmarshal(read(t, testdata+"agentbaker/cases.json"), &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			var kc map[string]string
			if err := json.Unmarshal(read(t, testdata+"agentbaker/"+c.Kc), &kc); err != nil {
				t.Fatal(err)
			}
			p := testdata + "agentbaker/" + c.Custom
			tr, err := parse(p, read(t, p))
			if err != nil {
				t.Fatal(err)
			}
			if len(tr.out.Findings) != 0 {
				t.Errorf("findings on AgentBaker's own input: %v", tr.out.Findings)
			}
			got := getKubeletConfigFileContent(kc, &tr.kc)
			jsonEqual(t, []byte(got), read(t, testdata+"agentbaker/"+c.Expected))
		})
	}
}

// TestDocsExamples translates the AKS docs' examples.
func TestDocsExamples(t *testing.T) {
	for _, name := range []string{"linuxkubeletconfig.json", "linux-preview.json", "windowskubeletconfig.json"} {
		t.Run(name, func(t *testing.T) {
			p := testdata + "docs/" + name
			data := read(t, p)
			if !Detect(p, data) {
				t.Fatalf("not detected")
			}
			out, err := Translate(p, data, bootstrap.Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range out.Findings {
				if f.Rule != bootstrap.AtBoot.ID {
					t.Errorf("finding on the docs' example: %s %s", f.Rule, f.Message)
				}
			}
			if out.Config == nil || out.Config.Path != "/etc/default/kubeletconfig.json" {
				t.Fatalf("config %+v", out.Config)
			}
			jsonEqual(t, out.Config.Data, read(t, testdata+"docs/expected-"+name))
		})
	}
}

func TestDetect(t *testing.T) {
	tests := []struct {
		data            string
		detect, accepts bool
	}{
		{`{"podMaxPids": 100}`, true, true},
		{`{"imageGcHighThreshold": 90, "failSwapOn": false}`, true, true},
		{`{"failSwapOn": false}`, false, true},            // also a KubeletConfiguration field: --input-format aks takes it
		{`{"podMaxPid": 100, "maxPods": 9}`, false, true}, // only keys AKS drops
		{`{"apiVersion": "kubelet.config.k8s.io/v1beta1", "kind": "KubeletConfiguration", "podMaxPids": 1}`, false, false},
		{"podMaxPids: 100\n", false, false}, // az reads JSON
		{`[1]`, false, false},
	}
	for _, tt := range tests {
		if got := Detect("x.json", []byte(tt.data)); got != tt.detect {
			t.Errorf("Detect(%s) = %v, want %v", tt.data, got, tt.detect)
		}
		if got := Accepts("x.json", []byte(tt.data)); got != tt.accepts {
			t.Errorf("Accepts(%s) = %v, want %v", tt.data, got, tt.accepts)
		}
	}
}

// TestFindings has, for each finding, a file that gets it and one that does
// not, and checks the position of the value it names.
func TestFindings(t *testing.T) {
	const path = "kubeletconfig.json"
	tests := []struct {
		name, data string
		rule       *rule.Rule
		want       bool
		at, field  string
	}{
		{"KC9003 misspelled", "{\n  \"podMaxPid\": 100\n}", bootstrap.Drops, true, "2:3", ""},
		{"KC9003 spelled", "{\n  \"podMaxPids\": 100\n}", bootstrap.Drops, false, "", ""},
		{"KC9003 preview sub-key", "{\"kubeReserved\": {\"cpuMilicores\": 100}}", bootstrap.Drops, true, "1:19", ""},
		{"KC9001 policy", "{\n  \"cpuManagerPolicy\": \"Static\"\n}", bootstrap.Refuses, true, "2:23", "cpuManagerPolicy"},
		{"KC9001 policy ok", "{\n  \"cpuManagerPolicy\": \"static\"\n}", bootstrap.Refuses, false, "", ""},
		{"KC9001 low above high", "{\"imageGcHighThreshold\": 70,\n \"imageGcLowThreshold\": 80}", bootstrap.Refuses, true, "2:25", "imageGCLowThresholdPercent"},
		{"KC9001 low below high", "{\"imageGcHighThreshold\": 80,\n \"imageGcLowThreshold\": 70}", bootstrap.Refuses, false, "", ""},
		{"KC9001 quoted number", "{\"podMaxPids\": \"100\"}", bootstrap.Refuses, true, "1:16", "podPidsLimit"},
		{"KC9001 pid limit", "{\"podMaxPids\": -2}", bootstrap.Refuses, true, "1:16", "podPidsLimit"},
		{"KC9001 pid no limit", "{\"podMaxPids\": -1}", bootstrap.Refuses, false, "", ""},
		{"KC9001 log files", "{\"containerLogMaxFiles\": 1}", bootstrap.Refuses, true, "1:26", "containerLogMaxFiles"},
		{"KC9001 sysctl", "{\"allowedUnsafeSysctls\": [\"net.*\", \"vm.swappiness\"]}", bootstrap.Refuses, true, "1:36", "allowedUnsafeSysctls[1]"},
		{"KC9001 period", "{\"cpuCfsQuotaPeriod\": \"0.2s\"}", bootstrap.Refuses, true, "1:23", "cpuCFSQuotaPeriod"},
		{"KC9001 seccomp bool", "{\"seccompDefault\": true}", bootstrap.Refuses, true, "1:20", "seccompDefault"},
		{"KC9004 maxPods", "{\"podMaxPids\": 1}", bootstrap.AtBoot, true, "1:2", "clusterDNS"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := Translate(path, []byte(tt.data), bootstrap.Options{})
			if err != nil {
				t.Fatal(err)
			}
			got := out.First(tt.rule.ID)
			if (got != nil) != tt.want {
				t.Fatalf("%s: got %v, want %v (%v)", tt.rule.ID, got, tt.want, out.Findings)
			}
			if got == nil {
				return
			}
			if at := strings.TrimPrefix(got.Position.String(), path+":"); at != tt.at {
				t.Errorf("at %s, want %s", at, tt.at)
			}
			if got.Path != tt.field {
				t.Errorf("path %q, want %q", got.Path, tt.field)
			}
			if !strings.Contains(got.Message, "AKS") || got.Hint == "" {
				t.Errorf("message %q hint %q", got.Message, got.Hint)
			}
		})
	}
}

// TestRenames checks each rename of the API's names to the kubelet's fields
// and where each value was written.
func TestRenames(t *testing.T) {
	const path = "kc.json"
	data := "{\n\"podMaxPids\": 4096,\n\"containerLogMaxSizeMB\": 50,\n\"cpuCfsQuota\": false,\n\"seccompDefault\": \"RuntimeDefault\"\n}"
	out, err := Translate(path, []byte(data), bootstrap.Options{Set: map[string]string{"maxPods": "58"}})
	if err != nil {
		t.Fatal(err)
	}
	jsonEqual(t, out.Config.Data, []byte(`{"kind":"KubeletConfiguration","apiVersion":"kubelet.config.k8s.io/v1beta1",
		"podPidsLimit":4096,"containerLogMaxSize":"50M","cpuCFSQuota":false,"seccompDefault":true,"maxPods":58}`))
	for field, want := range map[string]string{"podPidsLimit": "2:15", "containerLogMaxSize": "3:26", "cpuCFSQuota": "4:16", "seccompDefault": "5:19"} {
		if got := strings.TrimPrefix(out.Positions[field].String(), path+":"); got != want {
			t.Errorf("%s at %s, want %s", field, got, want)
		}
	}
	if _, ok := out.AtBoot["maxPods"]; ok {
		t.Errorf("maxPods given with --set is still at boot")
	}
}

func TestNotJSON(t *testing.T) {
	_, err := Translate("k.json", []byte(`["a"]`), bootstrap.Options{})
	if err == nil || !strings.HasPrefix(err.Error(), "k.json: ") {
		t.Errorf("error %v", err)
	}
}
