package fleet

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

func TestMinorOf(t *testing.T) {
	for in, want := range map[string]string{
		"v1.34.4-eks-4a3c1b2": "1.34", "v1.37.0": "1.37", "1.31.2+k3s1": "1.31", "v1.30": "1.30",
		"": "", "vX": "", "v1": "", "v1.3x.0": "",
	} {
		if got := MinorOf(in); got != want {
			t.Errorf("MinorOf(%q) = %q, want %q", in, got, want)
		}
	}
}

func flagzPage(sep string, flags ...string) []byte {
	var b strings.Builder
	b.WriteString("\nkubelet flagz\nWarning: This endpoint is not meant to be machine parseable, has no formatting compatibility guarantees and is for debugging purposes only.\n\n")
	for i := 0; i+1 < len(flags); i += 2 {
		b.WriteString(flags[i] + sep + flags[i+1] + "\n")
	}
	return []byte(b.String())
}

func TestParseFlagz(t *testing.T) {
	m := kubelets.Default()
	// Every flag listed, most at their defaults, as the kubelet serves it.
	flags := []string{
		"cert-dir", "/var/lib/kubelet/pki", // default
		"cloud-provider", "external", // set
		"config", "/var/lib/kubelet/config.yaml", // a file kubeletcfg does not read
		"exit-on-lock-contention", "false", // default bool
		"hostname-override", "", // default string
		"max-pods", "250", // a configuration flag: in configz already
		"maximum-dead-containers", "-1", // default
		"node-ip", "10.0.0.7", // set
		"node-labels", "pool=gpu,zone=a", // set
		"root-dir", "/data/kubelet", // set
		"seccomp-default", "true", // set
		"bootstrap-kubeconfig", "CLASSIFIED",
		"not-a-kubelet-flag", "x", // unknown to this minor
	}
	want := []string{"--cloud-provider=external", "--node-ip=10.0.0.7", "--node-labels=pool=gpu,zone=a", "--root-dir=/data/kubelet", "--seccomp-default=true"}
	for _, sep := range []string{":", ": ", "=", " "} {
		got, err := ParseFlagz(flagzPage(sep, flags...), m, kubelets.Linux)
		if err != nil {
			t.Fatalf("separator %q: %v", sep, err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("separator %q: %v, want %v", sep, got, want)
		}
	}
	if got, err := ParseFlagz(flagzPage("=", "cert-dir", "/var/lib/kubelet/pki"), m, kubelets.Linux); err != nil || len(got) != 0 {
		t.Errorf("all defaults: %v, %v; want no arguments", got, err)
	}
	for name, body := range map[string]string{
		"no header":      "node-ip=1\n",
		"mixed":          "\nkubelet flagz\n\nnode-ip=1\nroot-dir:/x\n",
		"not a flag row": "\nkubelet flagz\n\n=x\n",
	} {
		if _, err := ParseFlagz([]byte(body), m, kubelets.Linux); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestParseFlagzWindows: a Windows node's flagz is read with the Windows
// kubelet's flag table: --windows-service is one of its flags, 1.37's Linux
// global --housekeeping-interval is not; at a minor whose Windows flags are
// not recorded, the Linux table is read and the Windows-only flags set are
// kept (the pipeline leaves them out with a note).
func TestParseFlagzWindows(t *testing.T) {
	page := flagzPage("=", "housekeeping-interval", "20s", "node-ip", "10.0.0.7", "windows-priorityclass", "", "windows-service", "true")
	m, err := kubelets.Lookup("1.37")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		os   kubelets.OS
		want []string
	}{
		{kubelets.Windows, []string{"--node-ip=10.0.0.7", "--windows-service=true"}},
		{kubelets.Linux, []string{"--housekeeping-interval=20s", "--node-ip=10.0.0.7"}},
	} {
		got, err := ParseFlagz(page, m, tt.os)
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("1.37 %s: %v, %v; want %v", tt.os, got, err, tt.want)
		}
	}
	var unrecorded *kubelets.Minor
	for _, v := range kubelets.Supported() {
		m, _ := kubelets.Lookup(v)
		var e *kubelets.NoWindowsFlagsError
		if _, err := m.FlagsOn(kubelets.Windows); errors.As(err, &e) {
			unrecorded = m
		}
	}
	if unrecorded == nil {
		t.Skip("every minor's Windows flags are recorded")
	}
	got, err := ParseFlagz(page, unrecorded, kubelets.Windows)
	if want := []string{"--housekeeping-interval=20s", "--node-ip=10.0.0.7", "--windows-service=true"}; err != nil || !slices.Equal(got, want) {
		t.Errorf("%s (Windows flags not recorded): %v, %v; want %v", unrecorded.Version, got, err, want)
	}
}
