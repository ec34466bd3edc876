package k3s

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/input/bootstrap"
	"github.com/kubeletcfg/kubeletcfg/rule"
)

const testdata = "../../testdata/bootstrappers/k3s/"

type expectations struct {
	ReadConfigFile []struct {
		Name, File string
		Want       []string
		WantErr    bool
	}
	FindString []struct{ Name, File, Target, Want string }
	MustParse  []struct {
		Name, File, Command             string
		Want, Dropped, Refused, Kubelet []string
	}
	GetArgs []struct {
		Name      string
		ArgsMap   map[string]string
		ExtraArgs []string
		Want      []string
	}
}

func loadExpectations(t *testing.T) expectations {
	t.Helper()
	b, err := os.ReadFile(testdata + "expected.json")
	if err != nil {
		t.Fatal(err)
	}
	var e expectations
	if err := json.Unmarshal(b, &e); err != nil {
		t.Fatal(err)
	}
	return e
}

// readAll reads file as k3s's readConfigFile does.
func readAll(file string) ([]configArg, error) {
	names, err := configFiles(file)
	if err != nil {
		return nil, err
	}
	var fs []fileData
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			return nil, err
		}
		fs = append(fs, fileData{n, b})
	}
	return readConfigFiles(fs)
}

func texts(args []configArg) []string {
	var out []string
	for _, a := range args {
		prefix := "--"
		if len(a.Key) == 1 {
			prefix = "-"
		}
		out = append(out, prefix+a.Key+"="+a.Value)
	}
	return out
}

// TestPeerReadConfigFile is k3s's Test_UnitParser_Parse on its own fixtures.
func TestPeerReadConfigFile(t *testing.T) {
	for _, tt := range loadExpectations(t).ReadConfigFile {
		t.Run(tt.Name, func(t *testing.T) {
			got, err := readAll(testdata + tt.File)
			if (err != nil) != tt.WantErr {
				t.Fatalf("error %v, want error %v", err, tt.WantErr)
			}
			if !tt.WantErr && !reflect.DeepEqual(texts(got), tt.Want) {
				t.Errorf("got  %q\nwant %q", texts(got), tt.Want)
			}
		})
	}
}

// TestPeerFindString is k3s's Test_UnitParser_FindString: the value of a key
// after the merge (appended values joined by commas, as FindString does).
func TestPeerFindString(t *testing.T) {
	for _, tt := range loadExpectations(t).FindString {
		t.Run(tt.Name, func(t *testing.T) {
			got, err := readAll(testdata + tt.File)
			if err != nil {
				t.Fatal(err)
			}
			var vals []string
			for _, a := range got {
				if a.Key == tt.Target {
					vals = append(vals, a.Value)
				}
			}
			if s := strings.Join(vals, ","); s != tt.Want {
				t.Errorf("%s = %q, want %q", tt.Target, s, tt.Want)
			}
		})
	}
}

// TestPeerMustParse is k3s's Test_UnitMustParse with defaultdata.yaml: the
// server skips the key it does not know; the agent keeps all, and urfave/cli
// then stops on the keys the agent does not take.
func TestPeerMustParse(t *testing.T) {
	for _, tt := range loadExpectations(t).MustParse {
		t.Run(tt.Name, func(t *testing.T) {
			path := testdata + tt.File
			args, err := readAll(path)
			if err != nil {
				t.Fatal(err)
			}
			valid := flagSet("k3s", tt.Command)
			var kept []configArg
			for _, a := range args {
				if tt.Command == "agent" || valid[a.Key] {
					kept = append(kept, a)
				}
			}
			if !reflect.DeepEqual(texts(kept), tt.Want) {
				t.Errorf("args %q, want %q", texts(kept), tt.Want)
			}
			tr := &translation{path: path, program: "k3s", forceCommand: tt.Command}
			out, err := tr.run(args)
			if err != nil {
				t.Fatal(err)
			}
			if got := keysOf(out.Findings, bootstrap.Drops.ID); !reflect.DeepEqual(got, tt.Dropped) {
				t.Errorf("dropped %q, want %q", got, tt.Dropped)
			}
			if got := keysOf(out.Findings, bootstrap.Refuses.ID); !reflect.DeepEqual(got, tt.Refused) {
				t.Errorf("refused %q, want %q", got, tt.Refused)
			}
			for _, f := range tt.Kubelet {
				if !slices.Contains(out.Flags, f) {
					t.Errorf("kubelet flags %q lack %s", out.Flags, f)
				}
			}
		})
	}
}

// keysOf returns the quoted key each finding of rule names.
func keysOf(fs []finding.Finding, rule string) []string {
	var out []string
	for _, f := range fs {
		if f.Rule != rule {
			continue
		}
		if _, rest, ok := strings.Cut(f.Message, `"`); ok {
			k, _, _ := strings.Cut(rest, `"`)
			out = append(out, k)
		}
	}
	return out
}

// TestPeerGetArgs is k3s's Test_UnitGetArgs.
func TestPeerGetArgs(t *testing.T) {
	for _, tt := range loadExpectations(t).GetArgs {
		t.Run(tt.Name, func(t *testing.T) {
			initial := map[string]defaultArg{}
			for k, v := range tt.ArgsMap {
				initial[k] = defaultArg{value: v}
			}
			var extra []kubeletArg
			for _, a := range tt.ExtraArgs {
				extra = append(extra, kubeletArg{Text: a})
			}
			var got []string
			for _, f := range getArgs(initial, extra) {
				got = append(got, f.Text)
			}
			if !reflect.DeepEqual(got, tt.Want) {
				t.Errorf("got  %q\nwant %q", got, tt.Want)
			}
		})
	}
}

func translate(t *testing.T, path, data string) *bootstrap.Output {
	t.Helper()
	out, err := Translate(path, []byte(data), bootstrap.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestServerDefaults checks the kubelet flags and 00-k3s-defaults.conf of a
// server with an empty configuration against kubeletArgsAndConfig and
// defaultKubeletConfig (k3s 2a1e2e8cf41b), compared as JSON.
func TestServerDefaults(t *testing.T) {
	out := translate(t, "/etc/rancher/k3s/config.yaml", "write-kubeconfig-mode: \"0644\"\n")
	wantFlags := []string{
		"--cloud-provider=external",
		"--kubeconfig=/var/lib/rancher/k3s/agent/kubelet.kubeconfig",
		"--node-labels=",
		"--read-only-port=0",
	}
	if !reflect.DeepEqual(out.Flags, wantFlags) {
		t.Errorf("flags %q\nwant  %q", out.Flags, wantFlags)
	}
	if out.ConfigDir != "/var/lib/rancher/k3s/agent/etc/kubelet.conf.d" || out.Config != nil {
		t.Errorf("config dir %q, config %v", out.ConfigDir, out.Config)
	}
	if len(out.DropIns) != 1 || out.DropIns[0].Path != "/var/lib/rancher/k3s/agent/etc/kubelet.conf.d/00-k3s-defaults.conf" {
		t.Fatalf("drop-ins %+v", out.DropIns)
	}
	want, err := os.ReadFile(testdata + "expected-00-k3s-defaults.yaml")
	if err != nil {
		t.Fatal(err)
	}
	jsonEqual(t, out.DropIns[0].Data, want)
	for _, p := range []string{"address", "resolverConfig", "cgroupDriver", "kubeletCgroups", "cpuCFSQuota", "healthzBindAddress"} {
		if _, ok := out.AtBoot[p]; !ok {
			t.Errorf("%s is not marked as known only at boot", p)
		}
	}
}

func jsonEqual(t *testing.T, got, want []byte) {
	t.Helper()
	var g, w any
	if err := yaml.Unmarshal(got, &g); err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(want, &w); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(g, w) {
		gb, _ := json.MarshalIndent(g, "", " ")
		wb, _ := json.MarshalIndent(w, "", " ")
		t.Errorf("got %s\nwant %s", gb, wb)
	}
}

// TestDropInsMerge: config.yaml then config.yaml.d in name order; kubelet-arg+
// appends to the earlier files' list, kubelet-arg replaces it.
func TestDropInsMerge(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "rancher", "k3s")
	must(t, os.MkdirAll(filepath.Join(dir, "config.yaml.d"), 0o755))
	base := filepath.Join(dir, "config.yaml")
	must(t, os.WriteFile(base, []byte("kubelet-arg:\n  - max-pods=110\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "config.yaml.d", "20-b.yaml"), []byte("kubelet-arg+:\n  - image-gc-high-threshold=90\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "config.yaml.d", "10-a.yml"), []byte("kubelet-arg+: eviction-hard=memory.available<5%\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "config.yaml.d", "30-c.txt"), []byte("kubelet-arg: ignored=1\n"), 0o644))
	data, _ := os.ReadFile(base)
	out := translate(t, base, string(data))
	var user []string
	for i, f := range out.Flags {
		if out.FlagPositions[i].File != "" && !strings.HasPrefix(f, "--node-labels") {
			user = append(user, f+"@"+filepath.Base(out.FlagPositions[i].File))
		}
	}
	want := []string{"--eviction-hard=memory.available<5%@10-a.yml", "--image-gc-high-threshold=90@20-b.yaml", "--max-pods=110@config.yaml"}
	if !reflect.DeepEqual(user, want) {
		t.Errorf("user flags %q, want %q", user, want)
	}
	// Translating a drop-in reads the same set of files.
	d := filepath.Join(dir, "config.yaml.d", "20-b.yaml")
	data, _ = os.ReadFile(d)
	out2 := translate(t, d, string(data))
	if !reflect.DeepEqual(out.Flags, out2.Flags) {
		t.Errorf("from the drop-in: %q, from the base: %q", out2.Flags, out.Flags)
	}
	// A later file's kubelet-arg (no +) replaces the list.
	must(t, os.WriteFile(filepath.Join(dir, "config.yaml.d", "40-d.yaml"), []byte("kubelet-arg: [max-pods=50]\n"), 0o644))
	out3 := translate(t, base, string(mustRead(t, base)))
	if !slices.Contains(out3.Flags, "--max-pods=50") || slices.Contains(out3.Flags, "--max-pods=110") || slices.ContainsFunc(out3.Flags, func(s string) bool { return strings.HasPrefix(s, "--eviction-hard") }) {
		t.Errorf("a later kubelet-arg did not replace the list: %q", out3.Flags)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	must(t, err)
	return b
}

// TestFindings has, for each finding k3s's translation emits, a file that
// gets it and one that does not.
func TestFindings(t *testing.T) {
	const agent = "/etc/rancher/k3s/config.yaml"
	tests := []struct {
		name, path, data string
		rule             *rule.Rule
		want             bool
		at               string
	}{
		{"KC9001 agent unknown key", agent, "server: https://s:6443\nnode-nmae: a\n", bootstrap.Refuses, true, "2:1"},
		{"KC9001 agent known keys", agent, "server: https://s:6443\nnode-name: a\n", bootstrap.Refuses, false, ""},
		{"KC9001 bad taint", agent, "node-taint:\n  - gpu:NoScheduel\n", bootstrap.Refuses, true, "2:5"},
		{"KC9001 good taint", agent, "node-taint:\n  - gpu=true:NoSchedule\n", bootstrap.Refuses, false, ""},
		{"KC9001 config= empty", agent, "kubelet-arg:\n  - config=\n", bootstrap.Refuses, true, "2:5"},
		{"KC9001 bool", agent, "protect-kernel-defaults: yes please\n", bootstrap.Refuses, true, "1:26"},
		{"KC9001 cluster-dns", agent, "cluster-dns: 10.43.0.300\n", bootstrap.Refuses, true, "1:14"},
		{"KC9001 node-ip", agent, "node-ip: 10.0.0.1,10.0.0\n", bootstrap.Refuses, true, "1:10"},
		{"KC9001 node-ip ok", agent, "node-ip: 10.0.0.1,fd00::1\n", bootstrap.Refuses, false, ""},
		{"KC9002 config= copied", agent, "kubelet-arg:\n  - config=/etc/kubelet.yaml\n", bootstrap.Overrides, true, "2:5"},
		{"KC9002 prepend", agent, "kubelet-arg:\n  - read-only-port-=10255\n", bootstrap.Overrides, true, "2:5"},
		{"KC9002 replace", agent, "kubelet-arg:\n  - read-only-port=10255\n", bootstrap.Overrides, false, ""},
		{"KC9003 server unknown key", agent, "cluster-init: true\nnode-nmae: a\n", bootstrap.Drops, true, "2:1"},
		{"KC9003 server known key", agent, "cluster-init: true\nnode-name: a\n", bootstrap.Drops, false, ""},
		{"KC9001 rke2 cloud config alone", "/etc/rancher/rke2/config.yaml", "cloud-provider-config: /etc/c.conf\n", bootstrap.Refuses, true, "1:1"},
		{"KC9001 rke2 cloud config named", "/etc/rancher/rke2/config.yaml", "cloud-provider-name: vsphere\ncloud-provider-config: /etc/c.conf\n", bootstrap.Refuses, false, ""},
		{"KC9003 rke2 agent unknown key", "/etc/rancher/rke2/config.yaml", "server: https://s:9345\nnode-nmae: a\n", bootstrap.Drops, true, "2:1"},
		{"KC9003 swallowed", agent, "kubelet-arg:\n  - --v\n  - max-pods=50\n", bootstrap.Drops, true, "3:5"},
		{"KC9003 not swallowed", agent, "kubelet-arg:\n  - v=2\n  - max-pods=50\n", bootstrap.Drops, false, ""},
		{"KC9003 vmodule", agent, "vmodule: server\n", bootstrap.Drops, true, "1:10"},
		{"KC9003 vmodule ok", agent, "vmodule: server=4\n", bootstrap.Drops, false, ""},
		{"KC9004 agent clusterDNS", agent, "# worker\nserver: https://s:6443\n", bootstrap.AtBoot, true, "2:1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := translate(t, tt.path, tt.data)
			got := out.First(tt.rule.ID)
			if (got != nil) != tt.want {
				t.Fatalf("%s: got %v, want %v; findings %v", tt.rule.ID, got, tt.want, out.Findings)
			}
			if got == nil {
				return
			}
			if at := strings.TrimPrefix(got.Position.String(), tt.path+":"); at != tt.at {
				t.Errorf("%s at %s, want %s", tt.rule.ID, at, tt.at)
			}
			if !strings.Contains(got.Message, "k3s") && !strings.Contains(got.Message, "RKE2") {
				t.Errorf("message names no tool: %s", got.Message)
			}
			if got.Hint == "" {
				t.Errorf("no hint: %s", got.Message)
			}
		})
	}
}

// TestPositions: values and flags point at the line:column of the value in
// the user's file.
func TestPositions(t *testing.T) {
	const path = "/etc/rancher/k3s/config.yaml"
	data := "cluster-init: true\nresolv-conf: /run/resolv.conf\nnode-taint:\n  - a=b:NoSchedule\nkubelet-arg:\n  - max-pods=58\n  -   \"kube-reserved=cpu=1\"\n"
	out := translate(t, path, data)
	for p, want := range map[string]string{"resolverConfig": "2:14", "registerWithTaints[0]": "4:5"} {
		if got := strings.TrimPrefix(out.Positions[p].String(), path+":"); got != want {
			t.Errorf("%s at %s, want %s", p, got, want)
		}
	}
	for flag, want := range map[string]string{"--max-pods=58": "6:5", "--kube-reserved=cpu=1": "7:7"} {
		i := slices.Index(out.Flags, flag)
		if i < 0 {
			t.Fatalf("no %s in %q", flag, out.Flags)
		}
		if got := strings.TrimPrefix(out.FlagPositions[i].String(), path+":"); got != want {
			t.Errorf("%s at %s, want %s", flag, got, want)
		}
	}
}

// TestRKE2: RKE2's static pod executor puts its flags first and keeps the
// klog flags (its own five and the user's) for its log writer; its cloud
// providers set --cloud-provider.
func TestRKE2(t *testing.T) {
	out := translate(t, "/etc/rancher/rke2/config.yaml", "kubelet-arg:\n  - log-file=/tmp/kubelet.log\n  - max-pods=50\n")
	if out.Tool.Name != "RKE2" || out.DropIns[0].Path != "/var/lib/rancher/rke2/agent/etc/kubelet.conf.d/00-rke2-defaults.conf" {
		t.Errorf("tool %s, drop-in %s", out.Tool.Name, out.DropIns[0].Path)
	}
	want := []string{
		"--volume-plugin-dir=/var/lib/kubelet/volumeplugins", "--file-check-frequency=5s", "--sync-frequency=30s",
		"--cloud-provider=external", "--kubeconfig=/var/lib/rancher/rke2/agent/kubelet.kubeconfig",
		"--max-pods=50", "--node-labels=", "--read-only-port=0",
	}
	if !reflect.DeepEqual(out.Flags, want) {
		t.Errorf("flags %q\nwant  %q", out.Flags, want)
	}
	for _, tt := range []struct{ data, flag string }{
		{"cloud-provider-name: harvester\n", "--cloud-provider=external"},
		{"cloud-provider-name: aws\n", ""},
		{"cloud-provider-name: azure\n", "--cloud-provider=azure"},
	} {
		out := translate(t, "/etc/rancher/rke2/config.yaml", tt.data)
		got := ""
		for _, f := range out.Flags[3:] {
			if strings.HasPrefix(f, "--cloud-provider=") && out.FlagNotes[slices.Index(out.Flags, f)] != "" && strings.Contains(out.FlagNotes[slices.Index(out.Flags, f)], "static pod") {
				got = f
			}
		}
		if got != tt.flag {
			t.Errorf("%s: RKE2's --cloud-provider %q, want %q (%q)", tt.data, got, tt.flag, out.Flags)
		}
	}
	// a server with a bundled CPI: k3s's embedded cloud controller is off, so
	// k3s passes no --cloud-provider of its own
	out = translate(t, "/etc/rancher/rke2/config.yaml", "cni: calico\ncloud-provider-name: rancher-vsphere\n")
	if n := len(slices.DeleteFunc(slices.Clone(out.Flags), func(f string) bool { return !strings.HasPrefix(f, "--cloud-provider=") })); n != 1 {
		t.Errorf("flags %q: want RKE2's --cloud-provider only", out.Flags)
	}
}

func TestDetect(t *testing.T) {
	tests := []struct {
		path, data string
		want       bool
	}{
		{"/etc/rancher/k3s/config.yaml", "token: x\nserver: https://s:6443\n", true},
		{"deploy/etc/rancher/rke2/config.yaml", "cni: calico\ntls-san: [a]\n", true},
		{"nodes/config.yaml.d/10-kubelet.yaml", "kubelet-arg+: [max-pods=50]\n", true},
		{"anywhere/k3s.yaml", "kubelet-arg:\n  - max-pods=50\nnode-label: [a=b]\n", true},
		{"anywhere/config.yaml", "token: x\n", false},
		{"/etc/rancher/k3s/config.yaml", "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n", false},
		{"/etc/rancher/k3s/config.yaml", "maxPods: 20\n", false},
		{"anywhere/x.yaml", "kubelet-arg: [a=b]\nmaxPods: 3\n", false},
		{"clusters/worker.yaml", "server: https://s:6443\ntoken-file: /t\nnode-label: [a=b]\n", true},
		{"clusters/worker.yaml", "server: https://s:6443\ntoken: x\nnode-lable: [a=b]\n", true},
		{"values.yaml", "server: https://s:6443\ntoken: x\nreplicaCount: 2\nimage-tag: a\n", false},
		// Every key a flag k3s or RKE2 reads, dashed: read whatever the name
		// (the k3s docs' write-kubeconfig example, RKE2's cloud provider one).
		{"docs/config.yaml", "write-kubeconfig-mode: \"0644\"\nwrite-kubeconfig-group: admins\n", true},
		{"rke2-aws.yaml", "cloud-provider-name: aws\n", true},
		{"kubelet.yaml", "address: 0.0.0.0\n", false}, // a KubeletConfiguration field, no flag
		{"talos.yaml", "version: v1alpha1\ndebug: false\nmachine: {}\n", false},
		{"x.yaml", "cloud-provider-nme: aws\n", false}, // misspelt alone: nothing says k3s
	}
	for _, tt := range tests {
		if got := Detect(tt.path, []byte(tt.data)); got != tt.want {
			t.Errorf("Detect(%s, %q) = %v, want %v", tt.path, tt.data, got, tt.want)
		}
	}
}

// TestAccepts: --input-format k3s reads any YAML map, as k3s does (it strips the
// keys that are no flags), and names RKE2 by a key only RKE2 reads.
func TestAccepts(t *testing.T) {
	for data, want := range map[string]bool{
		"apiVersion: v1\nkind: X\nfoo: bar\n": true,
		"cloud-provider-nme: aws\n":           true,
		"- a\n- b\n":                          false,
		"just a string\n":                     false,
	} {
		if got := Accepts("x.yaml", []byte(data)); got != want {
			t.Errorf("Accepts(%q) = %v, want %v", data, got, want)
		}
	}
	for data, want := range map[string]string{
		"cloud-provider-name: aws\n":        "rke2",
		"write-kubeconfig-mode: \"0644\"\n": "k3s",
		"node-label: [a=b]\nprofile: cis\n": "rke2",
	} {
		if got := program("x.yaml", []fileData{{"x.yaml", []byte(data)}}); got != want {
			t.Errorf("program(%q) = %s, want %s", data, got, want)
		}
	}
}

// TestSet: values only the node knows are left out and reported (KC9004)
// unless --set gives them; then they are written where k3s writes them.
func TestSet(t *testing.T) {
	const path = "/etc/rancher/k3s/config.yaml"
	data := []byte("cluster-init: true\nbind-address: 10.0.0.5\nresolv-conf: /etc/resolv.conf\nnode-ip: 10.0.0.5\n")
	out, err := Translate(path, data, bootstrap.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var boot []string
	for _, f := range out.Findings {
		if f.Rule == bootstrap.AtBoot.ID {
			boot = append(boot, f.Path)
		}
	}
	if want := []string{"cgroupDriver", "cpuCFSQuota", "kubeletCgroups"}; !reflect.DeepEqual(boot, want) {
		t.Errorf("KC9004 on %q, want %q", boot, want)
	}
	out, err = Translate(path, data, bootstrap.Options{Set: map[string]string{"cgroupDriver": "systemd", "cpuCFSQuota": "true", "kubeletCgroups": "/k3s"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range out.Findings {
		if f.Rule == bootstrap.AtBoot.ID {
			t.Errorf("KC9004 with --set: %s", f.Message)
		}
	}
	var m map[string]any
	must(t, yaml.Unmarshal(out.DropIns[0].Data, &m))
	if m["cgroupDriver"] != "systemd" || m["cpuCFSQuota"] != true || m["kubeletCgroups"] != "/k3s" || m["healthzBindAddress"] != "127.0.0.1" || m["address"] != "10.0.0.5" {
		t.Errorf("drop-in %v", m)
	}
}
