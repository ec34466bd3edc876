package kubeletcmd

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/finding"
)

const hosts = "../../testdata/hosts/"

func TestSplit(t *testing.T) {
	for in, want := range map[string][]string{
		`--max-pods=50 --feature-gates=A=true`: {"--max-pods=50", "--feature-gates=A=true"},
		`--node-labels="a=b c" '--x=$y' z\ w`:  {"--node-labels=a=b c", "--x=$y", "z w"},
		"  --a\t--b  ":                         {"--a", "--b"},
		`--q="say \"hi\""`:                     {`--q=say "hi"`},
	} {
		got, err := Split(in)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("Split(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := Split(`--a="open`); err == nil {
		t.Error("unterminated quote accepted")
	}
}

// A line copied from ps keeps its flags and loses the binary; a line of flags
// keeps them all; a stray word that is not the kubelet stays (the pipeline
// reports it).
func TestFromLine(t *testing.T) {
	for in, want := range map[string][]string{
		"/usr/bin/kubelet --max-pods=50 --v=2": {"--max-pods=50", "--v=2"},
		"kubelet --max-pods=50":                {"--max-pods=50"},
		"--max-pods=50":                        {"--max-pods=50"},
		"/opt/bin/kubelet-1.34 --v=2":          {"--v=2"},
		"sudo --max-pods=50":                   {"sudo", "--max-pods=50"},
	} {
		args, err := FromLine(in, finding.Position{File: "x"})
		if err != nil || !reflect.DeepEqual(Texts(args), want) {
			t.Errorf("FromLine(%q) = %q, %v; want %q", in, Texts(args), err, want)
		}
	}
}

func TestFromProcCmdline(t *testing.T) {
	args := FromProcCmdline("/proc/42/cmdline", []byte("/usr/bin/kubelet\x00--max-pods=50\x00--node-labels=a=b c\x00"))
	if got := Texts(args); !reflect.DeepEqual(got, []string{"--max-pods=50", "--node-labels=a=b c"}) {
		t.Errorf("args %q", got)
	}
	if args[1].Pos.Column != len("/usr/bin/kubelet\x00--max-pods=50\x00")+1 {
		t.Errorf("column %d", args[1].Pos.Column)
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "cmdline")
	if err := os.WriteFile(p, []byte("kubelet\x00--v=3\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadFile("", p); err != nil || !reflect.DeepEqual(Texts(got), []string{"--v=3"}) {
		t.Errorf("ReadFile(cmdline) = %q, %v", Texts(got), err)
	}
}

// TestReadFileListings: a saved ps listing (header, then processes) gives the
// kubelet's line; flags one a line with comments (microk8s's args/kubelet)
// are read in order; what is neither is refused with the file's name.
func TestReadFileListings(t *testing.T) {
	const psHeader = "UID          PID    PPID  C STIME TTY          TIME CMD\n"
	tests := []struct {
		name, data string
		want       []string
		line, col  int    // of the first argument
		err        string // refused: the error has it
	}{
		{name: "ps -f", data: psHeader +
			"root         912       1  3 Jun02 ?        02:11:45 /usr/bin/kubelet --max-pods=50 --node-labels=a=b\n" +
			"ubuntu     40211   40180  0 10:04 pts/0    00:00:00 grep --color=auto kubelet\n",
			want: []string{"--max-pods=50", "--node-labels=a=b"}, line: 2, col: 53},
		{name: "ps aux", data: "USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND\n" +
			"root           1  0.0  0.1 167820 11520 ?        Ss   Jun02   0:09 /sbin/init\n" +
			"root         912  3.1  1.9 2046372 80212 ?       Ssl  Jun02 131:45 /usr/local/bin/kubelet --v=2\n",
			want: []string{"--v=2"}, line: 3, col: 68},
		{name: "ps -o pid,args", data: "    PID COMMAND\n    912 kubelet --max-pods=7\n", want: []string{"--max-pods=7"}, line: 2, col: 9},
		{name: "ps without a kubelet", data: psHeader + "root 1 0 0 Jun02 ? 00:00:09 /sbin/init\n", err: "a ps listing without a kubelet process"},
		{name: "ps with two kubelets", data: psHeader + "root 9 1 0 Jun02 ? 00:00:09 kubelet --v=1\nroot 10 1 0 Jun02 ? 00:00:09 kubelet --v=2\n", err: "2 kubelet processes (lines 2, 3)"},
		{name: "one flag a line", data: "# microk8s\n--kubeconfig=${SNAP_DATA}/credentials/kubelet.config\n\n--node-labels=\"a=b,c=d\"\n# operator\n--max-pods 200\n",
			want: []string{"--kubeconfig=${SNAP_DATA}/credentials/kubelet.config", "--node-labels=a=b,c=d", "--max-pods", "200"}, line: 2, col: 1},
		{name: "binary, then one flag a line", data: "/usr/bin/kubelet --v=2\n--max-pods=9\n", want: []string{"--v=2", "--max-pods=9"}, line: 1, col: 1},
		{name: "one command line", data: "kubelet --max-pods=50\n", want: []string{"--max-pods=50"}, line: 1, col: 1},
		{name: "a stray line among flags", data: "--max-pods=9\nmax-pods: 9\n", err: "neither an ExecStart= line"},
		{name: "YAML", data: "kind: KubeletConfiguration\nmaxPods: 9\n", err: "neither an ExecStart= line"},
	}
	dir := t.TempDir()
	for i, tt := range tests {
		p := filepath.Join(dir, strconv.Itoa(i))
		if err := os.WriteFile(p, []byte(tt.data), 0o644); err != nil {
			t.Fatal(err)
		}
		args, err := ReadFile("", p)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) || !strings.HasPrefix(err.Error(), p+":") {
				t.Errorf("%s: err = %v, want %q naming the file", tt.name, err, tt.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(Texts(args), tt.want) {
			t.Errorf("%s: %q, %v; want %q", tt.name, Texts(args), err, tt.want)
			continue
		}
		if pos := args[0].Pos; pos.File != p || pos.Line != tt.line || pos.Column != tt.col {
			t.Errorf("%s: first argument at %d:%d, want %d:%d", tt.name, pos.Line, pos.Column, tt.line, tt.col)
		}
	}
}

func TestConfigFlags(t *testing.T) {
	tests := []struct {
		args      []string
		cfg, dir  string
		hasConfig bool
	}{
		{[]string{"--config=/a", "--config-dir", "/d"}, "/a", "/d", true},
		{[]string{"--config", "/a", "--config=/b"}, "/b", "", true},
		{[]string{"--max-pods=5", "--", "--config=/a"}, "", "", false},
		{[]string{"--config_dir=/d"}, "", "/d", false},
	}
	for _, tt := range tests {
		var args []Arg
		for _, a := range tt.args {
			args = append(args, Arg{Text: a})
		}
		c, d := ConfigFlags(args)
		if (c != nil) != tt.hasConfig || c != nil && c.Text != tt.cfg || (d != nil) != (tt.dir != "") || d != nil && d.Text != tt.dir {
			t.Errorf("%q: config %v, dir %v", tt.args, c, d)
		}
	}
}

// unit writes files under a temporary root and loads kubelet.service.
func unit(t *testing.T, files map[string]string) (*Unit, error) {
	t.Helper()
	root := t.TempDir()
	for p, body := range files {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return LoadUnit(root, "kubelet.service")
}

// TestUnitSemantics: systemd's rules, one row each, with the arguments they give.
func TestUnitSemantics(t *testing.T) {
	const lib = "usr/lib/systemd/system/kubelet.service"
	const etc = "etc/systemd/system/kubelet.service"
	tests := []struct {
		name  string
		files map[string]string
		want  []string
		err   string
	}{
		{"plain", map[string]string{lib: "[Service]\nExecStart=/usr/bin/kubelet --v=2\n"}, []string{"--v=2"}, ""},
		{"/etc wins over /usr/lib", map[string]string{lib: "[Service]\nExecStart=/usr/bin/kubelet --v=2\n", etc: "[Service]\nExecStart=/usr/bin/kubelet --v=3\n"}, []string{"--v=3"}, ""},
		{"drop-in resets ExecStart", map[string]string{lib: "[Service]\nExecStart=/usr/bin/kubelet --v=2\n", lib + ".d/10-a.conf": "[Service]\nExecStart=\nExecStart=/usr/bin/kubelet --v=4\n"}, []string{"--v=4"}, ""},
		{"drop-in adds a second ExecStart", map[string]string{lib: "[Service]\nExecStart=/usr/bin/kubelet --v=2\n", lib + ".d/10-a.conf": "[Service]\nExecStart=/usr/bin/kubelet --v=4\n"}, nil, "more than one ExecStart="},
		{"reset and never set", map[string]string{lib: "[Service]\nExecStart=/usr/bin/kubelet\nExecStart=\n"}, nil, "no ExecStart="},
		{"drop-ins by file name across folders", map[string]string{
			lib:                        "[Service]\nExecStart=/usr/bin/kubelet $A\n",
			lib + ".d/20-b.conf":       "[Service]\nEnvironment=A=--v=20\n",
			etc + ".d/10-a.conf":       "[Service]\nEnvironment=A=--v=10\n",
			"etc/systemd/system/x.txt": "ignored",
		}, []string{"--v=20"}, ""},
		{"same name in /etc hides /usr/lib", map[string]string{
			lib:                  "[Service]\nExecStart=/usr/bin/kubelet $A\n",
			lib + ".d/10-a.conf": "[Service]\nEnvironment=A=--v=1\n",
			etc + ".d/10-a.conf": "[Service]\nEnvironment=A=--v=2\n",
		}, []string{"--v=2"}, ""},
		{"service.d drop-ins apply too", map[string]string{lib: "[Service]\nExecStart=/usr/bin/kubelet $A\n", "etc/systemd/system/service.d/5-all.conf": "[Service]\nEnvironment=A=--v=5\n"}, []string{"--v=5"}, ""},
		{"$VAR splits, ${VAR} is one word", map[string]string{lib: "[Service]\nEnvironment=\"A=--v=2 --max-pods=5\"\nExecStart=/usr/bin/kubelet $A ${A}\n"}, []string{"--v=2", "--max-pods=5", "--v=2 --max-pods=5"}, ""},
		{"${VAR} inside a word", map[string]string{lib: "[Service]\nEnvironment=N=7\nExecStart=/usr/bin/kubelet --max-pods=${N} --x=$N\n"}, []string{"--max-pods=7", "--x=$N"}, ""},
		{"unset $VAR disappears, unset ${VAR} is an empty word", map[string]string{lib: "[Service]\nExecStart=/usr/bin/kubelet $NOPE --v=1 ${NOPE}\n"}, []string{"--v=1", ""}, ""},
		{"defaults", map[string]string{lib: "[Service]\nEnvironment=S=1\nExecStart=/usr/bin/kubelet --a=${U:-d} --b=${S:+alt} --c=${U:+alt}\n"}, []string{"--a=d", "--b=alt", "--c="}, ""},
		{"$$ is a dollar", map[string]string{lib: "[Service]\nExecStart=/usr/bin/kubelet --x=$${A}\n"}, []string{"--x=${A}"}, ""},
		{"later Environment= wins", map[string]string{lib: "[Service]\nEnvironment=A=--v=1\nEnvironment=A=--v=2\nExecStart=/usr/bin/kubelet $A\n"}, []string{"--v=2"}, ""},
		{"empty Environment= resets", map[string]string{lib: "[Service]\nEnvironment=A=--v=1\nEnvironment=\nExecStart=/usr/bin/kubelet $A\n"}, nil, ""},
		{"quoted Environment= words", map[string]string{lib: "[Service]\nEnvironment=\"A=--node-labels=a=b\" 'B=--v=2'\nExecStart=/usr/bin/kubelet $A $B\n"}, []string{"--node-labels=a=b", "--v=2"}, ""},
		{"environment file overrides Environment= whatever the order", map[string]string{
			lib:               "[Service]\nEnvironmentFile=/etc/kubelet.env\nEnvironment=A=--v=1\nExecStart=/usr/bin/kubelet $A\n",
			"etc/kubelet.env": "A=--v=9\n",
		}, []string{"--v=9"}, ""},
		{"later environment file wins", map[string]string{
			lib:  "[Service]\nEnvironmentFile=/e1\nEnvironmentFile=/e2\nExecStart=/usr/bin/kubelet $A\n",
			"e1": "A=--v=1\n", "e2": "A=--v=2\n",
		}, []string{"--v=2"}, ""},
		{"environment file wildcard, matches in order", map[string]string{
			lib:                   "[Service]\nEnvironmentFile=/etc/kubelet.d/*.env\nExecStart=/usr/bin/kubelet $A $B\n",
			"etc/kubelet.d/2.env": "A=--v=2\n", "etc/kubelet.d/1.env": "A=--v=1\nB=--max-pods=3\n",
		}, []string{"--v=2", "--max-pods=3"}, ""},
		{"environment file wildcard without a match", map[string]string{lib: "[Service]\nEnvironmentFile=/etc/kubelet.d/*.env\nExecStart=/usr/bin/kubelet\n"}, nil, "systemd would not start the unit"},
		{"optional missing environment file", map[string]string{lib: "[Service]\nEnvironmentFile=-/nope\nExecStart=/usr/bin/kubelet --v=1 $A\n"}, []string{"--v=1"}, ""},
		{"required missing environment file", map[string]string{lib: "[Service]\nEnvironmentFile=/nope\nExecStart=/usr/bin/kubelet --v=1\n"}, nil, "systemd would not start the unit"},
		{"environment file quoting and continuation", map[string]string{
			lib: "[Service]\nEnvironmentFile=/e\nExecStart=/usr/bin/kubelet $A ${B} $C\n",
			"e": "# comment\nA=\"--v=1 --max-pods=5\"\nB='--x=$y z'\nC=--a \\\n --b\n",
		}, []string{"--v=1", "--max-pods=5", "--x=$y z", "--a", "--b"}, ""},
		{"continuation lines", map[string]string{lib: "[Service]\nExecStart=/usr/bin/kubelet --v=1 \\\n# a comment inside\n  --max-pods=5\n"}, []string{"--v=1", "--max-pods=5"}, ""},
		{"prefixes: - and @", map[string]string{lib: "[Service]\nExecStart=-@/usr/bin/kubelet kubelet-argv0 --v=1\n"}, []string{"--v=1"}, ""},
		{"prefix : does not expand", map[string]string{lib: "[Service]\nEnvironment=A=x\nExecStart=:/usr/bin/kubelet --x=${A}\n"}, []string{"--x=${A}"}, ""},
		{"other sections ignored", map[string]string{lib: "[Unit]\nExecStart=/bin/false\n[Service]\nExecStart=/usr/bin/kubelet --v=1\n[Install]\nWantedBy=multi-user.target\n"}, []string{"--v=1"}, ""},
		{"no unit", map[string]string{}, nil, "no kubelet.service under"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u, err := unit(t, tt.files)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := Texts(u.Args); !reflect.DeepEqual(got, tt.want) && !(len(got) == 0 && len(tt.want) == 0) {
				t.Errorf("args %q, want %q", got, tt.want)
			}
		})
	}
}

// TestPublishedUnits: the real units of kubeadm's packages, EKS AL2023 and kind.
func TestPublishedUnits(t *testing.T) {
	tests := []struct {
		host  string
		files []string
		want  []string
		at    map[string]string
	}{
		{"kubeadm-deb",
			[]string{"/usr/lib/systemd/system/kubelet.service", "/usr/lib/systemd/system/kubelet.service.d/10-kubeadm.conf", "/etc/systemd/system/kubelet.service.d/20-max-pods.conf"},
			[]string{"--bootstrap-kubeconfig=/etc/kubernetes/bootstrap-kubelet.conf", "--kubeconfig=/etc/kubernetes/kubelet.conf", "--config=/var/lib/kubelet/config.yaml",
				"--container-runtime-endpoint=unix:///var/run/containerd/containerd.sock", "--node-ip=10.0.0.11", "--pod-infra-container-image=registry.k8s.io/pause:3.10"},
			map[string]string{"--node-ip=10.0.0.11": "/var/lib/kubelet/kubeadm-flags.env:1:1", "--config=/var/lib/kubelet/config.yaml": "/usr/lib/systemd/system/kubelet.service.d/10-kubeadm.conf:6:1"}},
		{"kubeadm-rpm",
			[]string{"/usr/lib/systemd/system/kubelet.service", "/usr/lib/systemd/system/kubelet.service.d/10-kubeadm.conf"},
			[]string{"--bootstrap-kubeconfig=/etc/kubernetes/bootstrap-kubelet.conf", "--kubeconfig=/etc/kubernetes/kubelet.conf", "--config=/var/lib/kubelet/config.yaml",
				"--container-runtime-endpoint=unix:///var/run/containerd/containerd.sock", "--node-ip=10.0.0.11", "--pod-infra-container-image=registry.k8s.io/pause:3.10",
				"--node-labels=node.kubernetes.io/pool=batch", "--max-pods=80"},
			map[string]string{"--max-pods=80": "/etc/sysconfig/kubelet:3:1"}},
		{"eks-al2023",
			[]string{"/etc/systemd/system/kubelet.service"},
			[]string{"--node-ip=192.168.31.10", "--cloud-provider=external", "--hostname-override=ip-192-168-31-10.us-west-2.compute.internal",
				"--config=/etc/kubernetes/kubelet/config.json", "--config-dir=/etc/kubernetes/kubelet/config.json.d", "--kubeconfig=/var/lib/kubelet/kubeconfig",
				"--image-credential-provider-bin-dir=/etc/eks/image-credential-provider", "--image-credential-provider-config=/etc/eks/image-credential-provider/config.json",
				"--node-labels=eks.amazonaws.com/nodegroup-image=ami-0123456789abcdef0,eks.amazonaws.com/capacityType=ON_DEMAND,eks.amazonaws.com/nodegroup=general"},
			map[string]string{"--cloud-provider=external": "/etc/eks/kubelet/environment:1:1"}},
		{"kind",
			[]string{"/etc/systemd/system/kubelet.service", "/etc/systemd/system/kubelet.service.d/10-kubeadm.conf", "/etc/systemd/system/kubelet.service.d/11-kind.conf"},
			[]string{"--bootstrap-kubeconfig=/etc/kubernetes/bootstrap-kubelet.conf", "--kubeconfig=/etc/kubernetes/kubelet.conf", "--config=/var/lib/kubelet/config.yaml",
				"--container-runtime-endpoint=unix:///run/containerd/containerd.sock", "--node-ip=172.18.0.2", "--node-labels=", "--pod-infra-container-image=registry.k8s.io/pause:3.10",
				"--provider-id=kind://docker/kind/kind-control-plane"},
			nil},
	}
	for _, tt := range tests {
		u, err := LoadUnit(hosts+tt.host, "kubelet.service")
		if err != nil {
			t.Errorf("%s: %v", tt.host, err)
			continue
		}
		if !reflect.DeepEqual(u.Files, tt.files) {
			t.Errorf("%s: files %q, want %q", tt.host, u.Files, tt.files)
		}
		if got := Texts(u.Args); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: args\n%q\nwant\n%q", tt.host, got, tt.want)
		}
		for _, a := range u.Args {
			if want, ok := tt.at[a.Text]; ok && a.Pos.String() != want {
				t.Errorf("%s: %s at %s, want %s", tt.host, a.Text, a.Pos, want)
			}
		}
		if u.Binary != "/usr/bin/kubelet" {
			t.Errorf("%s: binary %q", tt.host, u.Binary)
		}
	}
}
