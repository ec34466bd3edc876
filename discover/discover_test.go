package discover

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/input/kubeletcmd"
	"github.com/kubeletcfg/kubeletcfg/internal/optionerr"
	"github.com/kubeletcfg/kubeletcfg/internal/testonly/testkubelet"
)

const hosts = "../testdata/hosts/"

// fakeProc lays out a proc file system: pid -> comm, cmdline.
func fakeProc(t *testing.T, procs map[int][2]string) string {
	t.Helper()
	root := t.TempDir()
	for pid, p := range procs {
		dir := filepath.Join(root, strconv.Itoa(pid))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "comm"), []byte(p[0]+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if p[1] == "<dir>" {
			if err := os.Mkdir(filepath.Join(dir, "cmdline"), 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, "cmdline"), []byte(p[1]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// TestBadInput: each failure is one *Error line naming what was looked for and where.
func TestBadInput(t *testing.T) {
	tests := []struct {
		name  string
		procs map[int][2]string
		pid   int
		root  string
		want  string
	}{
		{"no kubelet", map[int][2]string{1: {"systemd", "/sbin/init\x00"}, 7: {"containerd", "containerd\x00"}}, 0, "", "no kubelet process in "},
		{"two kubelets", map[int][2]string{10: {"kubelet", "kubelet\x00"}, 20: {"kubelet", "kubelet\x00"}}, 0, "", "2 kubelet processes in "},
		{"no such pid", map[int][2]string{10: {"kubelet", "kubelet\x00"}}, 11, "", "/11/cmdline: no such file or directory"},
		{"--pid of another process", map[int][2]string{1: {"systemd", "/sbin/init\x00splash\x00"}, 10: {"kubelet", "kubelet\x00"}}, 1, "", "process 1 (systemd) is not a kubelet"},
		{"unreadable command line", map[int][2]string{10: {"kubelet", "<dir>"}}, 0, "", "cannot read its command line"},
		{"config vanished", map[int][2]string{10: {"kubelet", "/usr/bin/kubelet\x00--config=/var/lib/kubelet/gone.yaml\x00"}}, 0, hosts + "kubeadm-deb", "kubeadm-deb/var/lib/kubelet/gone.yaml (its --config, "},
		{"config-dir not a folder", map[int][2]string{10: {"kubelet", "/usr/bin/kubelet\x00--config-dir=/var/lib/kubelet/config.yaml\x00"}}, 0, hosts + "kubeadm-deb", "is not a folder"},
	}
	for _, tt := range tests {
		proc := fakeProc(t, tt.procs)
		_, err := Discover(Options{ProcRoot: proc, PID: tt.pid, HostRoot: tt.root, Unit: "none.service"})
		var de *Error
		if !errors.As(err, &de) || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: err = %v, want one line with %q", tt.name, err, tt.want)
		}
		if tt.name == "two kubelets" || tt.name == "--pid of another process" {
			// The options name the way out: the library's field, the command's flag.
			var oe *optionerr.Error
			if !errors.As(err, &oe) || !strings.Contains(err.Error(), "discover.Options.PID") || !strings.Contains(oe.Words(map[string]string{"PID": "--pid"}), "--pid") {
				t.Errorf("%s: %v does not name Options.PID, or the command's --pid", tt.name, err)
			}
		}
	}
	// Found by comm among other processes, PIDs in order.
	proc := fakeProc(t, map[int][2]string{1: {"systemd", "x\x00"}, 300: {"kubelet", "kubelet\x00"}, 42: {"kubelet", "kubelet\x00"}})
	ps, err := Find(proc)
	if err != nil || len(ps) != 2 || ps[0].PID != 42 || ps[1].PID != 300 {
		t.Errorf("Find = %v, %v", ps, err)
	}
}

// TestIsKubelet: a process is a kubelet by its comm, its executable's or its
// argv[0]'s base name, as Find and --pid recognise it.
func TestIsKubelet(t *testing.T) {
	for _, tt := range []struct {
		comm, exe, argv0 string
		want             bool
	}{
		{"kubelet", "", "", true},
		{"", "/usr/bin/kubelet", "", true},
		{"", "", "/usr/local/bin/kubelet", true},
		{"systemd", "/usr/lib/systemd/systemd", "/sbin/init", false},
		{"kubelet-wrapper", "/opt/kubelet-wrapper", "kubelet-wrapper", false},
		{"containerd", "/usr/bin/containerd", "containerd", false},
		{"", "", "", false},
	} {
		if got := isKubelet(tt.comm, tt.exe, tt.argv0); got != tt.want {
			t.Errorf("isKubelet(%q, %q, %q) = %v, want %v", tt.comm, tt.exe, tt.argv0, got, tt.want)
		}
	}
}

// startKubelet runs bin with the arguments the host's unit gives.
func startKubelet(t *testing.T, bin, host string) (int, []string) {
	t.Helper()
	u, err := kubeletcmd.LoadUnit(host, "kubelet.service")
	if err != nil {
		t.Fatal(err)
	}
	args := kubeletcmd.Texts(u.Args)
	pid, exited := testkubelet.Start(t, bin, args)
	t.Cleanup(func() {
		if t.Failed() {
			t.Log(exited())
		}
	})
	return pid, args
}

// TestDiscoverRunningKubelet: a real process named kubelet, started with the
// flags of kubeadm's deb unit, found through /proc and read under a host root
// laid out as that package lays it out.
func TestDiscoverRunningKubelet(t *testing.T) {
	bin := testkubelet.Build(t, "-ldflags=-X k8s.io/component-base/version.gitVersion=v1.34.2 -X main.gitVersion=v1.34.2")
	host := hosts + "kubeadm-deb"
	pid, args := startKubelet(t, bin, host)

	ps, err := Find("/proc")
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, p := range ps {
		found = found || p.PID == pid && p.Exe == bin
	}
	if !found {
		t.Errorf("Find(/proc) = %v, want pid %d (%s) among them", ps, pid, bin)
	}

	k, err := Discover(Options{HostRoot: host, ProcRoot: "/proc", PID: pid, Unit: "kubelet.service"})
	if err != nil {
		t.Fatal(err)
	}
	if k.Version != "v1.34.2" || k.Minor != "1.34" || !strings.Contains(k.VersionFrom, "build information") {
		t.Errorf("version %q minor %q from %q", k.Version, k.Minor, k.VersionFrom)
	}
	if k.Exe != bin || strings.Join(k.Cmdline, " ") != strings.Join(args, " ") {
		t.Errorf("exe %q cmdline %q", k.Exe, k.Cmdline)
	}
	if k.ArgsFrom != "unit" || k.Unit == nil || len(k.Unit.Files) != 3 {
		t.Fatalf("args from %q, unit %+v, note %q", k.ArgsFrom, k.Unit, k.UnitNote)
	}
	if got := k.Flags[3]; got.Arg != "--container-runtime-endpoint=unix:///var/run/containerd/containerd.sock" || got.From != "/var/lib/kubelet/kubeadm-flags.env:1:1" {
		t.Errorf("flag 3 = %+v", got)
	}
	if k.Config == nil || k.Config.Path != "/var/lib/kubelet/config.yaml" || k.Config.Read != filepath.Join(host, "var/lib/kubelet/config.yaml") || k.ConfigDir != nil {
		t.Errorf("config %+v dir %+v", k.Config, k.ConfigDir)
	}
	if k.Cgroup != 1 && k.Cgroup != 2 || !strings.Contains(k.CgroupFrom, "/sys/fs/cgroup") {
		t.Errorf("cgroup %d from %q", k.Cgroup, k.CgroupFrom)
	}

	// A unit that gives other flags than the process runs with: the process wins.
	k, err = Discover(Options{HostRoot: hosts + "kind", ProcRoot: "/proc", PID: pid, Unit: "kubelet.service"})
	if err != nil {
		t.Fatal(err)
	}
	if k.ArgsFrom != "cmdline" || !strings.Contains(k.UnitNote, "differs") || k.Flags[0].From != "/proc/"+strconv.Itoa(pid)+"/cmdline:1:"+strconv.Itoa(len(bin)+2) {
		t.Errorf("args from %q, note %q, first flag %+v", k.ArgsFrom, k.UnitNote, k.Flags[0])
	}
}

// TestDiscoverVersionFlag: no release stamp in the build information (-trimpath
// drops -ldflags from it): the version comes from `kubelet --version`.
func TestDiscoverVersionFlag(t *testing.T) {
	bin := testkubelet.Build(t, "-trimpath", "-ldflags=-X main.gitVersion=v1.33.5")
	pid, _ := startKubelet(t, bin, hosts+"eks-al2023")
	k, err := Discover(Options{HostRoot: hosts + "eks-al2023", ProcRoot: "/proc", PID: pid, Unit: "kubelet.service"})
	if err != nil {
		t.Fatal(err)
	}
	if k.Version != "v1.33.5" || k.Minor != "1.33" || !strings.Contains(k.VersionFrom, "--version") {
		t.Errorf("version %q minor %q from %q", k.Version, k.Minor, k.VersionFrom)
	}
	if k.ConfigDir == nil || strings.Join(k.ConfigDir.DropIns, ",") != "00-nodeadm.conf" || k.Config.Path != "/etc/kubernetes/kubelet/config.json" {
		t.Errorf("config %+v dir %+v", k.Config, k.ConfigDir)
	}
	if k.Unit == nil || k.Unit.EnvFiles[0].Path != "/etc/eks/kubelet/environment" {
		t.Errorf("unit %+v", k.Unit)
	}
}
