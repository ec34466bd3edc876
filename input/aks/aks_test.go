package aks

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/input/bootstrap"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
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
			tr, err := parse(p, read(t, p), bootstrap.Options{})
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

// TestWindowsNodePool: a Windows node pool's kubelet gets the four keys
// AgentBaker passes as flags (sorted by flag, containerLogMaxSizeMB in Mi),
// no config file, and every other key is dropped; an agent pool says its OS
// and kubelet version itself, a kubeletConfig file needs the OS given.
func TestWindowsNodePool(t *testing.T) {
	kubeletConfig := `{"containerLogMaxFiles": 6, "containerLogMaxSizeMB": 20, "imageGcHighThreshold": 90, "imageGcLowThreshold": 70, "podMaxPids": 4096}`
	tests := []struct {
		name, file string
		opt        bootstrap.Options
		wantOS     kubelets.OS
		wantFlags  []string
		wantDrop   bool
		version    string
	}{
		{"kubeletConfig, --os windows", kubeletConfig, bootstrap.Options{OS: kubelets.Windows}, "",
			[]string{"--cgroups-per-qos=false", "--enforce-node-allocatable=", "--container-log-max-files=6", "--container-log-max-size=20Mi", "--image-gc-high-threshold=90", "--image-gc-low-threshold=70"}, true, ""},
		{"kubeletConfig, Linux", kubeletConfig, bootstrap.Options{}, "", nil, false, ""},
		{"windows agent pool", string(read(t, testdata+"nodepool-windows.json")), bootstrap.Options{}, kubelets.Windows,
			[]string{"--cgroups-per-qos=false", "--enforce-node-allocatable=", "--container-log-max-files=6", "--container-log-max-size=20Mi", "--image-gc-high-threshold=90", "--image-gc-low-threshold=70", "--max-pods=30"}, true, "1.35.4"},
		{"linux agent pool", `{"osType": "Linux", "orchestratorVersion": "1.34", "maxPods": 50, "kubeletConfig": ` + kubeletConfig + `}`, bootstrap.Options{}, "", nil, false, "1.34"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !Detect("pool.json", []byte(tt.file)) {
				t.Fatal("Detect = false")
			}
			out, err := Translate("pool.json", []byte(tt.file), tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			if out.OS != tt.wantOS || out.KubeletVersion != tt.version {
				t.Errorf("OS %q, kubelet %q; want %q, %q", out.OS, out.KubeletVersion, tt.wantOS, tt.version)
			}
			windows := tt.opt.OS == kubelets.Windows || tt.wantOS == kubelets.Windows
			if windows != (out.Config == nil) {
				t.Errorf("config file %v on a windows node: %v", out.Config != nil, windows)
			}
			if windows && !reflect.DeepEqual(out.Flags, tt.wantFlags) {
				t.Errorf("flags %q, want %q", out.Flags, tt.wantFlags)
			}
			dropped := false
			for _, f := range out.Findings {
				dropped = dropped || f.Rule == bootstrap.Drops.ID && strings.Contains(f.Message, "podMaxPids on a Windows node")
			}
			if dropped != tt.wantDrop {
				t.Errorf("podMaxPids dropped on Windows: %v, want %v", dropped, tt.wantDrop)
			}
			if tt.name == "linux agent pool" && !strings.Contains(string(out.Config.Data), `"maxPods": 50`) {
				t.Errorf("the pool's maxPods is not in the config:\n%s", out.Config.Data)
			}
		})
	}
}
