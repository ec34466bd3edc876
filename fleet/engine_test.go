package fleet

import (
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
		got, err := ParseFlagz(flagzPage(sep, flags...), m)
		if err != nil {
			t.Fatalf("separator %q: %v", sep, err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("separator %q: %v, want %v", sep, got, want)
		}
	}
	if got, err := ParseFlagz(flagzPage("=", "cert-dir", "/var/lib/kubelet/pki"), m); err != nil || len(got) != 0 {
		t.Errorf("all defaults: %v, %v; want no arguments", got, err)
	}
	for name, body := range map[string]string{
		"no header":      "node-ip=1\n",
		"mixed":          "\nkubelet flagz\n\nnode-ip=1\nroot-dir:/x\n",
		"not a flag row": "\nkubelet flagz\n\n=x\n",
	} {
		if _, err := ParseFlagz([]byte(body), m); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
