package main

import (
	"reflect"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/input/kubeletcmd"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
)

func TestKubeletFlagsFile(t *testing.T) {
	const dir = "testdata/kubeletflags/"
	// The unit: Environment= words, the env file next to it (EnvironmentFile=-
	// relative), an optional missing file, continuation lines, the reset ExecStart=.
	args, err := kubeletcmd.ReadFile("", dir+"10-kubeadm.conf")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	lines := map[string]string{}
	for _, a := range args {
		got = append(got, a.Text)
		lines[a.Text] = a.Pos.String()
	}
	want := []string{"--bootstrap-kubeconfig=/etc/kubernetes/bootstrap-kubelet.conf", "--kubeconfig=/etc/kubernetes/kubelet.conf",
		"--config=/var/lib/kubelet/config.yaml", "--container-runtime-endpoint=unix:///run/containerd/containerd.sock",
		"--pod-infra-container-image=registry.k8s.io/pause:3.10", "--max-pods=50", "--feature-gates=NoSuchGate=true"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("unit flags = %q\nwant %q", got, want)
	}
	if p := lines["--max-pods=50"]; p != dir+"kubeadm-flags.env:2:1" {
		t.Errorf("--max-pods=50 at %s, want the env file's line", p)
	}
	if p := lines["--feature-gates=NoSuchGate=true"]; p != dir+"10-kubeadm.conf:8:1" {
		t.Errorf("--feature-gates at %s, want the ExecStart line", p)
	}
	env, err := kubeletcmd.ReadFile("", dir+"kubeadm-flags.env")
	if err != nil || len(env) != 3 || env[2].Text != "--max-pods=50" || env[2].Pos.Line != 2 {
		t.Errorf("env file flags = %v, %v", env, err)
	}
	if _, err := kubeletcmd.ReadFile("", dir+"required-env.service"); err == nil {
		t.Error("an unreadable required EnvironmentFile= was accepted")
	}
}

func TestKubeletFlagsInput(t *testing.T) {
	f := inputFlags{kubeletFlagsFile: "testdata/kubeletflags/kubeadm-flags.env", kubeletFlags: "/usr/bin/kubelet --max-pods=60", cgroupVersion: "v2"}
	p, err := f.options().Prepare()
	if err != nil {
		t.Fatal(err)
	}
	in := p.Input
	if len(in.Flags) != 4 || in.Flags[3] != "--max-pods=60" || in.FlagPositions[3].File != pipeline.CommandLine {
		t.Errorf("flags %q at %v: --kubelet-flags comes last, from the command line, without the binary", in.Flags, in.FlagPositions)
	}
	if in.Config != "" {
		t.Errorf("config %q from a command line without --config", in.Config)
	}
}

func TestKubeletFlagsCLI(t *testing.T) {
	const kf = "testdata/kubeletflags/"
	const cfg = "../../testdata/conformance/cases/470-flags-max-pods/kubelet.yaml"
	const hosts = "../../testdata/hosts/"
	tests := []struct {
		name string
		args []string
		exit int
	}{
		{"kubeletflags-lint-env", []string{"lint", "-c", cfg, "--kubelet-flags-file", kf + "kubeadm-flags.env", "--kubelet-version", "1.34"}, exitClean},
		{"kubeletflags-lint-unit", []string{"lint", "-c", cfg, "--kubelet-flags-file", kf + "10-kubeadm.conf"}, exitUsage},
		{"kubeletflags-unit-host-root", []string{"lint", "--kubelet-flags-file", hosts + "kubeadm-deb/usr/lib/systemd/system/kubelet.service", "--host-root", hosts + "kubeadm-deb", "--kubelet-version", "1.34", "-q"}, exitClean},
		{"kubeletflags-ps-line", []string{"lint", "--kubelet-flags", "/usr/bin/kubelet --config=" + cfg + " --max-pods=50 --node-labels=node-role.kubernetes.io/worker="}, exitFindings},
		{"kubeletflags-flags-alone", []string{"effective", "--kubelet-flags", "kubelet --max-pods=42 --v=2", "-o", "json"}, exitClean},
		{"kubeletflags-help", []string{"lint", "--kubelet-flags", "/usr/bin/kubelet --config=" + cfg + " --help"}, exitFindings},
		{"kubeletflags-both-config", []string{"lint", "-d", "conf.d", "--kubelet-flags", "--config-dir=/etc/kubernetes/kubelet.conf.d"}, exitUsage},
		{"kubeletflags-proc-cmdline", []string{"lint", "--kubelet-flags-file", kf + "cmdline", "--kubelet-version", "1.33"}, exitClean},
		{"kubeletflags-rpm-unit", []string{"effective", "--kubelet-flags-file", hosts + "kubeadm-rpm/usr/lib/systemd/system/kubelet.service", "--host-root", hosts + "kubeadm-rpm", "--show-origin", "--kubelet-version", "1.34"}, exitClean},
		{"kubeletflags-effective-origin", []string{"effective", "-c", cfg, "--kubelet-flags", "--max-pods=60 --eviction-hard=memory.available<1Gi --feature-gates=LoggingBetaOptions=true", "--show-origin"}, exitClean},
		{"kubeletflags-skew", []string{"skew", "-c", cfg, "--kubelet-flags-file", kf + "kubeadm-flags.env", "--versions", "1.34..1.35"}, exitFindings},
		// A saved ps listing (header, the kubelet, a grep) and microk8s's
		// args/kubelet (one flag a line, comments, ${SNAP_DATA} left as written).
		{"kubeletflags-ps-listing", []string{"lint", "--kubelet-flags-file", kf + "ps-f.txt", "--kubelet-version", "1.36"}, exitClean},
		{"kubeletflags-ps-two-kubelets", []string{"lint", "--kubelet-flags-file", kf + "ps-two.txt"}, exitUsage},
		{"kubeletflags-microk8s-args", []string{"lint", "--kubelet-flags-file", kf + "microk8s-args", "-q"}, exitFindings},
		// --kubelet-version as kubectl get nodes prints it: the minor is 1.37
		// and the binary's --version=vX.Y.Z must match its major, minor and patch.
		{"kubeletflags-vendor-release", []string{"lint", "-c", cfg, "--kubelet-version", "v1.37.2-eks-abc", "--kubelet-flags", "--version=v1.37.2", "-q"}, exitClean},
		{"kubeletflags-vendor-release-itself", []string{"lint", "-c", cfg, "--kubelet-version", "v1.37.2-eks-abc", "--kubelet-flags", "--version=v1.37.2-eks-abc", "-q"}, exitClean},
		{"kubeletflags-vendor-release-other-patch", []string{"lint", "-c", cfg, "--kubelet-version", "v1.37.2-eks-abc", "--kubelet-flags", "--version=v1.37.3", "-q"}, exitFindings},
		{"kubeletflags-required-env", []string{"lint", "-c", cfg, "--kubelet-flags-file", kf + "required-env.service"}, exitUsage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { runGolden(t, tt.name, tt.args, tt.exit) })
	}
}
