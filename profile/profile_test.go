package profile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
)

const typeMeta = "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n"

// hardened passes every cis check; a drop-in below weakens one setting.
const hardened = typeMeta + `authentication:
  anonymous:
    enabled: false
  x509:
    clientCAFile: /etc/kubernetes/pki/ca.crt
authorization:
  mode: Webhook
readOnlyPort: 0
streamingConnectionIdleTimeout: 5m
makeIPTablesUtilChains: true
eventRecordQPS: 50
rotateCertificates: true
serverTLSBootstrap: true
tlsCipherSuites: [TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305]
podPidsLimit: 4096
seccompDefault: true
protectKernelDefaults: true
`

// evaluate runs the pipeline and the cis profile over a main file and at most
// one drop-in (50.conf), written to a temporary folder.
func evaluate(t *testing.T, minor, main, dropin string) []finding.Finding {
	t.Helper()
	dir := t.TempDir()
	in := pipeline.Input{Config: filepath.Join(dir, "config.yaml")}
	if err := os.WriteFile(in.Config, []byte(main), 0o644); err != nil {
		t.Fatal(err)
	}
	if dropin != "" {
		in.ConfigDir = filepath.Join(dir, "conf.d")
		if err := os.Mkdir(in.ConfigDir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(in.ConfigDir, "50.conf"), []byte(typeMeta+dropin), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	m, err := kubelets.Lookup(minor)
	if err != nil {
		t.Fatal(err)
	}
	r, err := pipeline.Evaluate(m, in)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Starts {
		t.Fatalf("kubelet %s does not start: %v", minor, r.Findings)
	}
	before := len(r.Findings)
	if err := Apply("cis", r, in.Config); err != nil {
		t.Fatal(err)
	}
	if !r.Starts {
		t.Fatal("Apply changed Starts")
	}
	var out []finding.Finding
	for _, f := range r.Findings {
		if strings.HasPrefix(f.Rule, "KC8") {
			out = append(out, f)
		}
	}
	if len(r.Findings)-before != len(out) {
		t.Fatalf("Apply added %d findings, %d of them KC8xxx", len(r.Findings)-before, len(out))
	}
	return out
}

// at is where a finding points, with the file's base name: "config.yaml:3",
// "50.conf:5", "(defaults)".
func at(f finding.Finding) string {
	if f.File == "" {
		return "(defaults)"
	}
	return fmt.Sprintf("%s:%d", filepath.Base(f.File), f.Line)
}

// TestCIS checks each benchmark item passing and failing, in the main file,
// in a drop-in over a main file that passes, and from the kubelet's defaults,
// at the oldest minor (its own drop-in merge) and the newest.
func TestCIS(t *testing.T) {
	tests := []struct {
		name   string
		rule   string
		main   string // "" is hardened
		dropin string
		want   string // where the rule's finding points; "" for none
		// legacy overrides want at 1.31, whose drop-in merge does not default
		// again (dropin.Legacy); "-" for none.
		legacy string
	}{
		{"anonymous hardened", "KC8001", "", "", "", ""},
		{"anonymous default", "KC8001", typeMeta, "", "", ""},
		{"anonymous main", "KC8001", typeMeta + "authentication:\n  anonymous:\n    enabled: true\n", "", "config.yaml:5", ""},
		{"anonymous drop-in", "KC8001", "", "authentication:\n  anonymous:\n    enabled: true\n", "50.conf:5", ""},

		{"authz hardened", "KC8002", "", "", "", ""},
		{"authz default", "KC8002", typeMeta, "", "", ""},
		{"authz main", "KC8002", typeMeta + "authorization:\n  mode: AlwaysAllow\n", "", "config.yaml:4", ""},
		{"authz drop-in", "KC8002", "", "authorization:\n  mode: AlwaysAllow\n", "50.conf:4", ""},

		{"client CA hardened", "KC8003", "", "", "", ""},
		{"client CA default", "KC8003", typeMeta, "", "(defaults)", ""},
		{"client CA drop-in empties it", "KC8003", "", "authentication:\n  x509:\n    clientCAFile: \"\"\n", "50.conf:5", ""},

		{"read-only port hardened", "KC8004", "", "", "", ""},
		{"read-only port default", "KC8004", typeMeta, "", "", ""},
		{"read-only port main", "KC8004", typeMeta + "readOnlyPort: 10255\n", "", "config.yaml:3", ""},
		{"read-only port drop-in", "KC8004", "", "readOnlyPort: 10255\n", "50.conf:3", ""},

		// Defaulting turns 0 into 4h0m0s, in the main file and, from 1.32, after
		// the drop-in merge: only a 1.31 drop-in can fail 4.2.5.
		{"idle timeout hardened", "KC8005", "", "", "", ""},
		{"idle timeout 0 main is defaulted", "KC8005", typeMeta + "streamingConnectionIdleTimeout: 0s\n", "", "", ""},
		{"idle timeout 0 drop-in", "KC8005", "", "streamingConnectionIdleTimeout: 0s\n", "", "50.conf:3"},

		{"iptables chains hardened", "KC8006", "", "", "", ""},
		{"iptables chains default", "KC8006", typeMeta, "", "", ""},
		{"iptables chains main", "KC8006", typeMeta + "makeIPTablesUtilChains: false\n", "", "config.yaml:3", ""},
		{"iptables chains drop-in", "KC8006", "", "makeIPTablesUtilChains: false\n", "50.conf:3", ""},

		{"event qps hardened", "KC8008", "", "", "", ""},
		{"event qps default", "KC8008", typeMeta, "", "", ""},
		{"event qps 0 is no limit", "KC8008", typeMeta + "eventRecordQPS: 0\n", "", "", ""},
		{"event qps above default", "KC8008", typeMeta + "eventRecordQPS: 200\n", "", "", ""},
		{"event qps main", "KC8008", typeMeta + "eventRecordQPS: 5\n", "", "config.yaml:3", ""},
		{"event qps drop-in", "KC8008", "", "eventRecordQPS: 49\n", "50.conf:3", ""},

		{"tls files hardened (bootstrap)", "KC8009", "", "", "", ""},
		{"tls files default", "KC8009", typeMeta, "", "(defaults)", ""},
		{"tls files both", "KC8009", typeMeta + "tlsCertFile: /k/tls.crt\ntlsPrivateKeyFile: /k/tls.key\n", "", "", ""},
		{"tls files cert only", "KC8009", typeMeta + "tlsCertFile: /k/tls.crt\n", "", "config.yaml:3", ""},
		{"tls files key only", "KC8009", typeMeta + "tlsPrivateKeyFile: /k/tls.key\n", "", "config.yaml:3", ""},
		{"tls files drop-in turns bootstrap off", "KC8009", "", "serverTLSBootstrap: false\n", "50.conf:3", ""},

		{"rotate hardened", "KC8010", "", "", "", ""},
		{"rotate default", "KC8010", typeMeta, "", "(defaults)", ""},
		{"rotate main", "KC8010", typeMeta + "rotateCertificates: false\n", "", "config.yaml:3", ""},
		{"rotate drop-in", "KC8010", "", "rotateCertificates: false\n", "50.conf:3", ""},

		{"server rotation hardened", "KC8011", "", "", "", ""},
		{"server rotation default", "KC8011", typeMeta, "", "(defaults)", ""},
		{"server rotation own certificate", "KC8011", typeMeta + "tlsCertFile: /k/tls.crt\ntlsPrivateKeyFile: /k/tls.key\n", "", "", ""},
		{"server rotation gate on explicitly", "KC8011", hardened + "featureGates:\n  RotateKubeletServerCertificate: true\n", "", "", ""},
		{"server rotation gate off main", "KC8011", typeMeta + "featureGates:\n  RotateKubeletServerCertificate: false\n", "", "config.yaml:4", ""},
		{"server rotation gate off drop-in", "KC8011", "", "serverTLSBootstrap: false\nfeatureGates:\n  RotateKubeletServerCertificate: false\n", "50.conf:5", ""},
		{"server rotation bootstrap off drop-in", "KC8011", "", "serverTLSBootstrap: false\n", "50.conf:3", ""},

		{"ciphers hardened", "KC8012", "", "", "", ""},
		{"ciphers default", "KC8012", typeMeta, "", "(defaults)", ""},
		{"ciphers main weak", "KC8012", typeMeta + "tlsCipherSuites: [TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA]\n", "", "config.yaml:3", ""},
		{"ciphers v1.10 RSA suite", "KC8012", typeMeta + "tlsCipherSuites: [TLS_RSA_WITH_AES_256_GCM_SHA384]\n", "", "config.yaml:3", ""},
		{"ciphers drop-in weak", "KC8012", "", "tlsCipherSuites:\n  - TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256\n  - TLS_RSA_WITH_AES_128_GCM_SHA256\n", "50.conf:3", ""},

		{"pids hardened", "KC8013", "", "", "", ""},
		{"pids default", "KC8013", typeMeta, "", "(defaults)", ""},
		{"pids main unlimited", "KC8013", typeMeta + "podPidsLimit: -1\n", "", "config.yaml:3", ""},
		{"pids drop-in zero", "KC8013", "", "podPidsLimit: 0\n", "50.conf:3", ""},

		{"seccomp hardened", "KC8014", "", "", "", ""},
		{"seccomp default", "KC8014", typeMeta, "", "(defaults)", ""},
		{"seccomp main", "KC8014", typeMeta + "seccompDefault: false\n", "", "config.yaml:3", ""},
		{"seccomp drop-in", "KC8014", "", "seccompDefault: false\n", "50.conf:3", ""},

		{"kernel defaults hardened", "KC8101", "", "", "", ""},
		{"kernel defaults default", "KC8101", typeMeta, "", "(defaults)", ""},
		{"kernel defaults drop-in", "KC8101", "", "protectKernelDefaults: false\n", "50.conf:3", ""},
	}
	for _, minor := range []string{"1.31", "1.37"} {
		for _, tt := range tests {
			t.Run(minor+"/"+tt.name, func(t *testing.T) {
				main := tt.main
				if main == "" {
					main = hardened
				}
				var got []string
				for _, f := range evaluate(t, minor, main, tt.dropin) {
					if f.Rule != tt.rule {
						continue
					}
					got = append(got, at(f))
					if !strings.Contains(f.Message, "CIS 4.2.") || f.Severity != finding.Warning || f.Hint == "" || f.Path == "" {
						t.Errorf("finding lacks the CIS id, warning severity, hint or path: %+v", f)
					}
					drop := strings.Contains(f.Message, "kube-bench reads the main --config file only")
					if drop != strings.HasPrefix(at(f), "50.conf") {
						t.Errorf("drop-in note %v for a finding at %s: %s", drop, at(f), f.Message)
					}
				}
				wantAt := tt.want
				if minor == "1.31" && tt.legacy != "" {
					wantAt = strings.TrimPrefix(tt.legacy, "-")
				}
				want := []string{}
				if wantAt != "" {
					want = []string{wantAt}
				}
				if strings.Join(got, ",") != strings.Join(want, ",") {
					t.Errorf("%s at %v, want %v", tt.rule, got, want)
				}
			})
		}
	}
}

// The hardened file passes every check at every minor.
func TestHardenedPassesEverywhere(t *testing.T) {
	for _, minor := range kubelets.Supported() {
		if fs := evaluate(t, minor, hardened, ""); len(fs) > 0 {
			t.Errorf("kubelet %s: %v", minor, fs)
		}
	}
}

func TestUnknownProfile(t *testing.T) {
	m := kubelets.Default()
	r, err := pipeline.Evaluate(m, pipeline.Input{Config: "../testdata/cis/hardened/config.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	if err := Apply("nist", r, ""); err == nil || !strings.Contains(err.Error(), `unknown profile "nist"`) {
		t.Fatalf("err = %v", err)
	}
	if _, err := Findings("nist", &pipeline.Result{}, ""); err == nil {
		t.Fatal("an unknown profile passed without a configuration")
	}
}

// TestLinuxOnlyChecksSkippedOnWindows: a Windows node gets no finding of the
// CIS checks of Linux-only settings, and one note naming them; a Linux node
// gets those checks and no note.
func TestLinuxOnlyChecksSkippedOnWindows(t *testing.T) {
	dir := t.TempDir()
	in := pipeline.Input{Config: filepath.Join(dir, "config.yaml")}
	// makeIPTablesUtilChains false and no podPidsLimit: two CIS findings on Linux.
	if err := os.WriteFile(in.Config, []byte(typeMeta+"makeIPTablesUtilChains: false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	linuxOnly := map[string]bool{"KC8006": true, "KC8013": true, "KC8014": true, "KC8101": true}
	for _, nodeOS := range []kubelets.OS{kubelets.Linux, kubelets.Windows} {
		in.OS = nodeOS
		r, err := pipeline.Evaluate(kubelets.Default(), in)
		if err != nil {
			t.Fatal(err)
		}
		fs, err := Findings("cis", r, in.Config)
		if err != nil {
			t.Fatal(err)
		}
		var linux, notes int
		for _, f := range fs {
			switch {
			case linuxOnly[f.Rule]:
				linux++
			case f.Rule == ChecksSkipped.ID:
				notes++
				if !strings.Contains(f.Message, "KC8006") || !strings.Contains(f.Message, "windows nodes") {
					t.Errorf("note %q does not name the skipped checks", f.Message)
				}
			}
		}
		if nodeOS == kubelets.Linux && (linux == 0 || notes != 0) || nodeOS == kubelets.Windows && (linux != 0 || notes != 1) {
			t.Errorf("%s: %d findings of Linux-only checks, %d notes", nodeOS, linux, notes)
		}
	}
}
