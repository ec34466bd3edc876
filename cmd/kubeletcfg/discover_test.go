package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/kubeletcfg/kubeletcfg/input/kubeletcmd"
	"github.com/kubeletcfg/kubeletcfg/internal/testonly/testkubelet"
)

// TestDiscoverCLI: a stand-in kubelet stamped v1.34.2 runs with the flags of
// EKS AL2023's unit; discover and the --discover commands read it through /proc
// and its files under a host root laid out as nodeadm lays it out.
func TestDiscoverCLI(t *testing.T) {
	const host = "../../testdata/hosts/eks-al2023"
	u, err := kubeletcmd.LoadUnit(host, "kubelet.service")
	if err != nil {
		t.Fatal(err)
	}
	bin := testkubelet.Build(t, "-ldflags=-X k8s.io/component-base/version.gitVersion=v1.34.2")
	pid, exited := testkubelet.Start(t, bin, kubeletcmd.Texts(u.Args))
	at := []string{"--pid", strconv.Itoa(pid), "--host-root", host, "--proc-root", "/proc", "--unit", "kubelet.service"}

	var stdout, stderr bytes.Buffer
	if code := run(append([]string{"discover", "-o", "json"}, at...), &stdout, &stderr); code != exitClean {
		t.Fatalf("discover: exit %d: %s%s", code, stderr.String(), exited())
	}
	var doc struct {
		PID       int    `json:"pid"`
		Minor     string `json:"minor"`
		ArgsFrom  string `json:"argsFrom"`
		Cgroup    int    `json:"cgroup"`
		ConfigDir struct {
			Path    string   `json:"path"`
			DropIns []string `json:"dropIns"`
		} `json:"configDir"`
		Flags []struct{ Arg, From string } `json:"flags"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		t.Fatalf("%v\n%s", err, stdout.String())
	}
	if doc.PID != pid || doc.Minor != "1.34" || doc.ArgsFrom != "unit" || doc.ConfigDir.Path != "/etc/kubernetes/kubelet/config.json.d" ||
		len(doc.Flags) != 9 || doc.Flags[0].From != "/etc/eks/kubelet/environment:1:1" {
		t.Errorf("discover -o json:\n%s", stdout.String())
	}
	stdout.Reset()
	if code := run(append([]string{"discover"}, at...), &stdout, &stderr); code != exitClean || !strings.Contains(stdout.String(), "v1.34.2, minor 1.34") {
		t.Errorf("discover: exit %d\n%s", code, stdout.String())
	}

	// lint --discover: the discovered minor, config.json and its drop-in.
	stdout.Reset()
	stderr.Reset()
	code := run(append([]string{"lint", "--discover", "-o", "json"}, at...), &stdout, &stderr)
	var lint struct {
		Minor  string `json:"kubeletVersion"`
		Starts bool   `json:"starts"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &lint); err != nil {
		t.Fatalf("lint --discover: exit %d, %v\n%s%s", code, err, stdout.String(), stderr.String())
	}
	if !strings.Contains(stdout.String(), `"1.34"`) || !strings.Contains(stderr.String(), "discovered kubelet pid "+strconv.Itoa(pid)+" (v1.34.2") {
		t.Errorf("lint --discover: exit %d\n%s\n%s", code, stdout.String(), stderr.String())
	}
	if !lint.Starts || !strings.Contains(stdout.String(), "eks-al2023/etc/kubernetes/kubelet/config.json\"") || !strings.Contains(stdout.String(), "config.json.d/00-nodeadm.conf") {
		t.Errorf("lint --discover did not read config.json and its drop-in:\n%s", stdout.String())
	}

	// -c beside a discovered --config: a usage error naming both.
	stderr.Reset()
	if code := run(append([]string{"lint", "--discover", "-c", "x.yaml"}, at...), &stdout, &stderr); code != exitUsage ||
		!strings.Contains(stderr.String(), "--config x.yaml and the kubelet's own --config=/etc/kubernetes/kubelet/config.json (/etc/eks/kubelet/environment:1:1)") {
		t.Errorf("lint --discover -c: exit %d: %s", code, stderr.String())
	}

	// preflight --discover: --from is the running minor.
	stdout.Reset()
	stderr.Reset()
	code = run(append([]string{"preflight", "--discover", "--to", "1.35"}, at...), &stdout, &stderr)
	if code == exitUsage || !strings.Contains(stdout.String(), "1.34") {
		t.Errorf("preflight --discover: exit %d\n%s\n%s", code, stdout.String(), stderr.String())
	}
}

// --pid of a process that is not a kubelet: exit 2, one line saying so.
func TestDiscoverPIDNotKubelet(t *testing.T) {
	proc := t.TempDir()
	dir := filepath.Join(proc, "1")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{"comm": "systemd\n", "cmdline": "/sbin/init\x00"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var stdout, stderr bytes.Buffer
	code := run([]string{"discover", "--proc-root", proc, "--pid", "1"}, &stdout, &stderr)
	want := "kubeletcfg: discover: process 1 (systemd) is not a kubelet"
	if code != exitUsage || !strings.HasPrefix(stderr.String(), want) || !strings.Contains(stderr.String(), "leave out --pid") || strings.Count(stderr.String(), "\n") != 1 || stdout.Len() > 0 {
		t.Errorf("exit %d, stderr %q, want %q...", code, stderr.String(), want)
	}
}

// Bad input: exit 2 and one line naming what was looked for and where.
func TestDiscoverCLIErrors(t *testing.T) {
	empty := t.TempDir()
	for _, args := range [][]string{
		{"discover", "--proc-root", empty},
		{"lint", "--discover", "--proc-root", empty},
		{"discover", "--proc-root", empty, "--pid", "7"},
		{"lint", "--pid", "7", "-c", "x.yaml"},
		{"preflight", "-c", "x.yaml"},
		{"discover", "--host-root", "../../testdata/hosts/kind"}, // its /proc is <host-root>/proc
	} {
		var stdout, stderr bytes.Buffer
		code := run(args, &stdout, &stderr)
		if code != exitUsage || strings.Count(stderr.String(), "\n") != 1 || args[1] == "--host-root" && !strings.Contains(stderr.String(), "testdata/hosts/kind/proc:") {
			t.Errorf("%q: exit %d, stderr %q", args, code, stderr.String())
		}
	}
}

// TestDeployManifests: the Job and DaemonSet in deploy/ run a kubeletcfg command
// line that exists, read the host through --host-root at its read-only mount,
// share the host's PID namespace and write nothing.
func TestDeployManifests(t *testing.T) {
	for _, name := range []string{"deploy/job.yaml", "deploy/daemonset.yaml"} {
		var m struct {
			Spec struct {
				Template struct {
					Spec podSpec `json:"spec"`
				} `json:"template"`
			} `json:"spec"`
		}
		if err := yaml.Unmarshal(readRepoFile(t, name), &m); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		pod := m.Spec.Template.Spec
		if !pod.HostPID || len(pod.Volumes) != 1 || pod.Volumes[0].HostPath.Path != "/" {
			t.Errorf("%s: hostPID %v, volumes %+v", name, pod.HostPID, pod.Volumes)
		}
		runs := 0
		for _, c := range append(pod.InitContainers, pod.Containers...) {
			sc := c.SecurityContext
			if !sc.ReadOnlyRootFilesystem || sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation || strings.Join(sc.Capabilities.Drop, ",") != "ALL" || len(sc.Capabilities.Add) > 0 {
				t.Errorf("%s: container %s is not least privilege: %+v", name, c.Name, sc)
			}
			for _, v := range c.VolumeMounts {
				if !v.ReadOnly {
					t.Errorf("%s: %s mounts %s writable", name, c.Name, v.MountPath)
				}
			}
			if c.Name != "kubeletcfg" {
				continue
			}
			runs++
			line := strings.Join(c.Args, " ")
			checkCommandLine(t, name, line)
			if !strings.Contains(line, "--discover --host-root /host") || !strings.Contains(line, "-o json") || len(c.VolumeMounts) != 1 || c.VolumeMounts[0].MountPath != "/host" {
				t.Errorf("%s: %q with mounts %+v", name, line, c.VolumeMounts)
			}
		}
		if runs != 1 {
			t.Errorf("%s: %d kubeletcfg containers", name, runs)
		}
	}
}

type podSpec struct {
	HostPID        bool        `json:"hostPID"`
	InitContainers []container `json:"initContainers"`
	Containers     []container `json:"containers"`
	Volumes        []struct {
		HostPath struct {
			Path string `json:"path"`
		} `json:"hostPath"`
	} `json:"volumes"`
}

type container struct {
	Name            string   `json:"name"`
	Args            []string `json:"args"`
	SecurityContext struct {
		ReadOnlyRootFilesystem   bool  `json:"readOnlyRootFilesystem"`
		AllowPrivilegeEscalation *bool `json:"allowPrivilegeEscalation"`
		Capabilities             struct {
			Drop []string `json:"drop"`
			Add  []string `json:"add"`
		} `json:"capabilities"`
	} `json:"securityContext"`
	VolumeMounts []struct {
		MountPath string `json:"mountPath"`
		ReadOnly  bool   `json:"readOnly"`
	} `json:"volumeMounts"`
}
