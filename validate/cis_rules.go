package validate

//lint:file-ignore SA1019 the kubelet still defaults and validates its deprecated fields; this file reproduces that

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/rule"
	kubeletv1beta1 "github.com/kubeletcfg/kubeletcfg/upstream/kubelet/config/v1beta1"
)

// Profile rules (KC8xxx): security benchmarks, run only when asked for
// (kubeletcfg lint --profile cis). The kubelet starts with every configuration
// they flag, so they are warnings; they differ from lint rules in that they
// measure the node against an outside standard, not against what the files say.
//
// They are ordinary rules of Profile "cis": Run (every lint) leaves them out,
// RunProfile runs them; the rules reference, `kubeletcfg rules` and
// `kubeletcfg explain` list them as any other.
//
// The CIS checks read the *effective* configuration (merged drop-ins, defaults
// included). kube-bench reads the main --config file only
// (aquasecurity/kube-bench#1973), so it passes a node whose drop-in weakens a
// setting, and it passes an unset key whose kubelet default fails the benchmark
// (rotateCertificates, seccompDefault, podPidsLimit). 4.2.7 (--hostname-override)
// is a command-line flag with no configuration field: it is not checked.

// cisSource is where the audit and remediation of each check were read.
const cisSource = "Audit read from aquasecurity/kube-bench cfg/cis-1.12/node.yaml (CIS Kubernetes Benchmark v1.12, commit 0f317dfb)"

// cisStrongCiphers is 4.2.12's list in cfg/cis-1.12/node.yaml. Benchmark v1.10
// also listed TLS_RSA_WITH_AES_256_GCM_SHA384 and TLS_RSA_WITH_AES_128_GCM_SHA256;
// v1.12 dropped them (no forward secrecy), so they are flagged.
var cisStrongCiphers = []string{
	"TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
	"TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
	"TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305",
	"TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
	"TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305",
	"TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
}

// cisEventQPSDefault is the v1beta1 default of eventRecordQPS
// (SetDefaults_KubeletConfiguration), the floor 4.2.8 is measured against.
const cisEventQPSDefault = 50

// cisEmit reports one finding of the rule being checked at path.
type cisEmit func(path, msg, hint string)

// linuxOnly marks a cis rule of a Linux-only setting (iptables, the pids
// cgroup, seccomp, kernel sysctls): a Windows node skips it
// (profile.ChecksSkipped says so).
func linuxOnly(r *rule.Rule) *rule.Rule {
	r.OS = kubelets.Linux
	r.Doc += " Linux only: skipped on Windows nodes (--os windows)."
	return r
}

// cisRule declares a rule of the cis profile; cisID is the benchmark's
// recommendation number, name the rule's name.
func cisRule(id string, fields []string, cisID, name, summary, doc, fix string, check func(*rule.Context, *kubeletv1beta1.KubeletConfiguration, cisEmit)) *rule.Rule {
	r := &rule.Rule{ID: id, Fields: fields, Name: name, Severity: finding.Warning, Stage: rule.StageLint, Profile: "cis", Fix: fix,
		Summary: "--profile cis, CIS " + cisID + ": " + summary,
		Doc:     doc + " Runs only with --profile cis. " + cisSource + "."}
	r.Check = func(c *rule.Context) []finding.Finding {
		var out []finding.Finding
		if c.Config != nil {
			check(c, c.Config, func(path, msg, hint string) {
				out = append(out, r.At(c.At(path), path, msg, hint))
			})
		}
		return out
	}
	return r
}

// Profiles lists the profile names, sorted.
func Profiles() []string {
	var out []string
	for _, r := range Declared {
		if r.Profile != "" && !slices.Contains(out, r.Profile) {
			out = append(out, r.Profile)
		}
	}
	sort.Strings(out)
	return out
}

// ProfileRules are the rules of the named profile, ordered by ID; ok is false
// for an unknown profile.
func ProfileRules(name string) (rules []*rule.Rule, ok bool) {
	for _, r := range Declared {
		if r.Profile == name {
			rules = append(rules, r)
		}
	}
	return rules, len(rules) > 0
}

// RunProfile evaluates the rules of the named profile that exist at c.Minor
// over c, findings sorted by position. c.Origin should return a zero Position
// for a value that comes from the defaults, so that the finding says
// "(defaults)" instead of pointing at a file that does not set it.
func RunProfile(name string, c *rule.Context) ([]finding.Finding, error) {
	if !slices.Contains(Profiles(), name) {
		return nil, fmt.Errorf("unknown profile %q (want one of %s)", name, strings.Join(Profiles(), ", "))
	}
	if c == nil || c.Config == nil {
		return nil, nil
	}
	return rule.RunProfile(c, Declared, name), nil
}

// cisDefault is " (kubelet default)" when no file sets path: the value the
// message quotes is the kubelet's own.
func cisDefault(c *rule.Context, path string) string {
	if c.Set(path) {
		return ""
	}
	return " (kubelet default)"
}

var (
	CISAnonymousAuth = cisRule("KC8001", []string{"authentication.anonymous.enabled"}, "4.2.1", "cis-4.2.1-anonymous-auth",
		"authentication.anonymous.enabled must be false.",
		"With anonymous authentication on, a request without credentials reaches the kubelet API (pods, exec, logs, metrics) as system:anonymous, and only the authorizer stands between it and the node. "+
			"The v1beta1 default is false, so a finding means a file turned it on. kube-bench: {.authentication.anonymous.enabled} eq false.",
		"set `authentication.anonymous.enabled: false`.",
		func(c *rule.Context, kc *kubeletv1beta1.KubeletConfiguration, emit cisEmit) {
			if e := kc.Authentication.Anonymous.Enabled; e != nil && *e {
				const p = "authentication.anonymous.enabled"
				emit(p, "CIS 4.2.1: "+p+" is true: requests without credentials reach the kubelet API as system:anonymous",
					"set "+p+": false")
			}
		})

	CISAuthorizationMode = cisRule("KC8002", []string{"authorization.mode"}, "4.2.2", "cis-4.2.2-authorization-mode",
		"authorization.mode must not be AlwaysAllow.",
		"AlwaysAllow lets every request that authenticates (and every anonymous one, if anonymous authentication is on) do anything on the kubelet API. "+
			"The v1beta1 default is Webhook (SubjectAccessReview against the API server). kube-bench: {.authorization.mode} nothave AlwaysAllow.",
		"set `authorization.mode: Webhook`.",
		func(c *rule.Context, kc *kubeletv1beta1.KubeletConfiguration, emit cisEmit) {
			if kc.Authorization.Mode == kubeletv1beta1.KubeletAuthorizationModeAlwaysAllow {
				const p = "authorization.mode"
				emit(p, "CIS 4.2.2: "+p+" is AlwaysAllow: every request that reaches the kubelet API is allowed",
					"set "+p+": Webhook")
			}
		})

	CISClientCAFile = cisRule("KC8003", []string{"authentication.x509.clientCAFile"}, "4.2.3", "cis-4.2.3-client-ca-file",
		"authentication.x509.clientCAFile must be set.",
		"Without a client CA bundle the kubelet cannot authenticate client certificates, including the API server's when it calls the kubelet for logs, exec and port-forward. "+
			"There is no default. kube-bench: {.authentication.x509.clientCAFile} is set.",
		"set `authentication.x509.clientCAFile` to the cluster CA bundle.",
		func(c *rule.Context, kc *kubeletv1beta1.KubeletConfiguration, emit cisEmit) {
			if kc.Authentication.X509.ClientCAFile == "" {
				const p = "authentication.x509.clientCAFile"
				emit(p, "CIS 4.2.3: "+p+" is not set: the kubelet cannot authenticate client certificates",
					"set "+p+" to the cluster CA bundle (kubeadm: /etc/kubernetes/pki/ca.crt)")
			}
		})

	CISReadOnlyPort = cisRule("KC8004", []string{"readOnlyPort"}, "4.2.4", "cis-4.2.4-read-only-port",
		"readOnlyPort must be 0.",
		"The read-only port serves pod and node information (/pods, /stats, /metrics) with neither authentication nor authorization. "+
			"The v1beta1 default is 0 (disabled). kube-bench: {.readOnlyPort} eq 0, or unset.",
		"set `readOnlyPort: 0`, or remove it.",
		func(c *rule.Context, kc *kubeletv1beta1.KubeletConfiguration, emit cisEmit) {
			if kc.ReadOnlyPort != 0 {
				emit("readOnlyPort", fmt.Sprintf("CIS 4.2.4: readOnlyPort is %d: the kubelet serves an unauthenticated read-only API on it", kc.ReadOnlyPort),
					"set readOnlyPort: 0")
			}
		})

	CISStreamingIdleTimeout = cisRule("KC8005", []string{"streamingConnectionIdleTimeout"}, "4.2.5", "cis-4.2.5-streaming-idle-timeout",
		"streamingConnectionIdleTimeout must not be 0.",
		"A timeout of 0 lets idle exec, attach and port-forward streams stay open forever, holding kubelet resources and an authenticated channel into the node. "+
			"kube-bench: {.streamingConnectionIdleTimeout} noteq 0, or unset. The v1beta1 defaulting replaces 0 with 4h0m0s in the main file and, from 1.32, again after the drop-in merge: kube-bench flags the 0s kubeadm writes, while the kubelet runs with 4h0m0s and this check passes. "+
			"Kubelet 1.31 does not default after merging drop-ins, so there a drop-in that sets 0s is what the kubelet runs with, and is flagged.",
		"set `streamingConnectionIdleTimeout` to a non-zero duration (for example 4h0m0s), or remove it.",
		func(c *rule.Context, kc *kubeletv1beta1.KubeletConfiguration, emit cisEmit) {
			if kc.StreamingConnectionIdleTimeout.Duration == 0 {
				const p = "streamingConnectionIdleTimeout"
				emit(p, "CIS 4.2.5: "+p+" is 0"+cisDefault(c, p)+": idle exec, attach and port-forward streams never time out",
					"set "+p+" to a duration such as 5m (the kubelet default is 4h0m0s)")
			}
		})

	CISMakeIPTablesUtilChains = linuxOnly(cisRule("KC8006", []string{"makeIPTablesUtilChains"}, "4.2.6", "cis-4.2.6-make-iptables-util-chains",
		"makeIPTablesUtilChains must be true.",
		"With it on, the kubelet creates and keeps its iptables utility chains; with it off, the node's iptables rules are left to whatever else manages them and can drift from what pod networking expects. "+
			"The v1beta1 default is true. kube-bench: {.makeIPTablesUtilChains} eq true, or unset.",
		"set `makeIPTablesUtilChains: true`, or remove it.",
		func(c *rule.Context, kc *kubeletv1beta1.KubeletConfiguration, emit cisEmit) {
			if m := kc.MakeIPTablesUtilChains; m != nil && !*m {
				const p = "makeIPTablesUtilChains"
				emit(p, "CIS 4.2.6: "+p+" is false: the kubelet does not manage its iptables utility chains",
					"set "+p+": true")
			}
		}))

	CISEventRecordQPS = cisRule("KC8008", []string{"eventRecordQPS"}, "4.2.8", "cis-4.2.8-event-record-qps",
		"eventRecordQPS must ensure appropriate event capture: 0 (no limit) or at least the kubelet default 50.",
		"The benchmark asks for \"a level which ensures appropriate event capture\" and names 0 (no limit) as a way to capture every event. "+
			"kube-bench checks only {.eventRecordQPS} gte 0 (or unset), which every configuration the kubelet accepts passes (the kubelet refuses a negative value itself: KC4004). "+
			"kubeletcfg makes the level concrete: a positive eventRecordQPS below the kubelet's own default of 50 captures fewer events than an unconfigured kubelet and is flagged; 0 and 50 or more pass.",
		"set `eventRecordQPS` to 0 or to 50 or more, or remove it.",
		func(c *rule.Context, kc *kubeletv1beta1.KubeletConfiguration, emit cisEmit) {
			if q := kc.EventRecordQPS; q != nil && *q > 0 && *q < cisEventQPSDefault {
				emit("eventRecordQPS", fmt.Sprintf("CIS 4.2.8: eventRecordQPS is %d, below the kubelet default %d: events beyond %d per second (after eventBurst) are dropped", *q, cisEventQPSDefault, *q),
					fmt.Sprintf("set eventRecordQPS to %d or more, or to 0 for no limit", cisEventQPSDefault))
			}
		})

	CISTLSCertFile = cisRule("KC8009", []string{"tlsCertFile", "tlsPrivateKeyFile", "serverTLSBootstrap"}, "4.2.9", "cis-4.2.9-tls-cert-file",
		"tlsCertFile and tlsPrivateKeyFile must be set (or serverTLSBootstrap true).",
		"Without a serving certificate the kubelet generates a self-signed one, which clients (the API server among them) cannot verify. "+
			"kube-bench requires {.tlsCertFile} and {.tlsPrivateKeyFile} to be set; kubeletcfg also accepts serverTLSBootstrap: true, where the kubelet requests a serving certificate signed by the cluster CA (see KC8011), which meets the benchmark's intent. "+
			"Setting only one of the two files is flagged too: the kubelet needs both.",
		"set both `tlsCertFile` and `tlsPrivateKeyFile`, or `serverTLSBootstrap: true`.",
		func(c *rule.Context, kc *kubeletv1beta1.KubeletConfiguration, emit cisEmit) {
			cert, key := kc.TLSCertFile != "", kc.TLSPrivateKeyFile != ""
			switch {
			// Half a pair is reported where the half that is set was written.
			case cert && !key:
				emit("tlsCertFile", "CIS 4.2.9: tlsCertFile is set but tlsPrivateKeyFile is not: the kubelet needs both",
					"set tlsPrivateKeyFile to the key of "+kc.TLSCertFile)
			case key && !cert:
				emit("tlsPrivateKeyFile", "CIS 4.2.9: tlsPrivateKeyFile is set but tlsCertFile is not: the kubelet needs both",
					"set tlsCertFile to the certificate of "+kc.TLSPrivateKeyFile)
			case !cert && !kc.ServerTLSBootstrap:
				// Point at serverTLSBootstrap when a file turned it off (a drop-in
				// undoing the main file's true); else nothing set either.
				at := "tlsCertFile"
				if c.Set("serverTLSBootstrap") {
					at = "serverTLSBootstrap"
				}
				emit(at, "CIS 4.2.9: tlsCertFile and tlsPrivateKeyFile are not set and serverTLSBootstrap is false: the kubelet serves its API with a self-signed certificate",
					"set tlsCertFile and tlsPrivateKeyFile, or serverTLSBootstrap: true to get a certificate signed by the cluster")
			}
		})

	CISRotateCertificates = cisRule("KC8010", []string{"rotateCertificates"}, "4.2.10", "cis-4.2.10-rotate-certificates",
		"rotateCertificates must be true.",
		"Without client certificate rotation the kubelet's certificate for talking to the API server expires and the node goes NotReady, or a long-lived certificate is used instead. "+
			"The v1beta1 default is false: kube-bench passes an unset key ({.rotateCertificates} eq true, or unset), but the kubelet then does not rotate; kubeletcfg flags the effective value.",
		"set `rotateCertificates: true`.",
		func(c *rule.Context, kc *kubeletv1beta1.KubeletConfiguration, emit cisEmit) {
			if !kc.RotateCertificates {
				const p = "rotateCertificates"
				emit(p, "CIS 4.2.10: "+p+" is false"+cisDefault(c, p)+": the kubelet does not renew its client certificate",
					"set "+p+": true")
			}
		})

	CISRotateServerCertificate = cisRule("KC8011", []string{"serverTLSBootstrap", "tlsCertFile", "featureGates[RotateKubeletServerCertificate]"}, "4.2.11", "cis-4.2.11-rotate-server-certificate",
		"The RotateKubeletServerCertificate gate must be on, with serverTLSBootstrap unless tlsCertFile is provided.",
		"The kubelet requests and renews its serving certificate only when the RotateKubeletServerCertificate gate is on (beta, on by default in every supported minor) and serverTLSBootstrap is true. "+
			"kube-bench checks only that {.featureGates.RotateKubeletServerCertificate} is not false. kubeletcfg checks the gate's effective value at the minor, and, with the gate on, flags serverTLSBootstrap: false when no tlsCertFile is provided either "+
			"(the kubelet then serves a self-signed certificate it never rotates); a tlsCertFile from an outside authority is the operator's to rotate, as the benchmark notes.",
		"keep the RotateKubeletServerCertificate gate on and set `serverTLSBootstrap: true`, or provide a `tlsCertFile`.",
		func(c *rule.Context, kc *kubeletv1beta1.KubeletConfiguration, emit cisEmit) {
			const gate = "RotateKubeletServerCertificate"
			switch {
			case c.Gates != nil && !gateEnabled(c.Gates, gate):
				emit("featureGates["+gate+"]", "CIS 4.2.11: the "+gate+" feature gate is off: the kubelet never requests or renews its serving certificate",
					"remove featureGates."+gate+" (on by default) or set it to true")
			case !kc.ServerTLSBootstrap && kc.TLSCertFile == "":
				const p = "serverTLSBootstrap"
				emit(p, "CIS 4.2.11: "+p+" is false"+cisDefault(c, p)+" and no tlsCertFile is provided: the kubelet's self-signed serving certificate is never rotated",
					"set "+p+": true (and approve the kubelet-serving CSRs), or provide tlsCertFile/tlsPrivateKeyFile and rotate them yourself")
			}
		})

	CISStrongCiphers = cisRule("KC8012", []string{"tlsCipherSuites"}, "4.2.12", "cis-4.2.12-strong-ciphers",
		"tlsCipherSuites must be set, to strong cipher suites only.",
		"Unset, the kubelet's server accepts Go's default TLS 1.2 cipher suites, which the benchmark does not limit to its strong list. "+
			"kube-bench: every element of {.tlsCipherSuites} is one of "+strings.Join(cisStrongCiphers, ", ")+". "+
			"Benchmark v1.10 also allowed TLS_RSA_WITH_AES_256_GCM_SHA384 and TLS_RSA_WITH_AES_128_GCM_SHA256 (no forward secrecy); v1.12 does not, and neither does kubeletcfg. TLS 1.3 suites are not configurable and not checked.",
		"set `tlsCipherSuites` to suites from the benchmark's list only.",
		func(c *rule.Context, kc *kubeletv1beta1.KubeletConfiguration, emit cisEmit) {
			const p = "tlsCipherSuites"
			hint := "set " + p + " to a subset of: " + strings.Join(cisStrongCiphers, ", ")
			if len(kc.TLSCipherSuites) == 0 {
				emit(p, "CIS 4.2.12: "+p+" is not set"+cisDefault(c, p)+": the kubelet accepts Go's default TLS 1.2 cipher suites, not only strong ones", hint)
				return
			}
			var weak []string
			for _, s := range kc.TLSCipherSuites {
				if !slices.Contains(cisStrongCiphers, s) {
					weak = append(weak, s)
				}
			}
			if len(weak) > 0 {
				emit(p, "CIS 4.2.12: "+p+" allows "+strings.Join(weak, ", ")+", not in the benchmark's strong cipher list", hint)
			}
		})

	CISPodPidsLimit = linuxOnly(cisRule("KC8013", []string{"podPidsLimit"}, "4.2.13", "cis-4.2.13-pod-pids-limit",
		"podPidsLimit must be set to a positive limit.",
		"Without a per-pod PID limit one pod can fork until the node runs out of PIDs and starves the kubelet and every other pod. "+
			"The v1beta1 default is -1 (no limit); 0 is no limit too. kube-bench checks only that {.podPidsLimit} is set; kubeletcfg flags an effective value of 0 or less.",
		"set `podPidsLimit` to a positive limit.",
		func(c *rule.Context, kc *kubeletv1beta1.KubeletConfiguration, emit cisEmit) {
			if l := kc.PodPidsLimit; l == nil || *l <= 0 {
				const p = "podPidsLimit"
				v := int64(-1)
				if l != nil {
					v = *l
				}
				emit(p, fmt.Sprintf("CIS 4.2.13: %s is %d%s: a pod can start processes until the node runs out of PIDs", p, v, cisDefault(c, p)),
					"set "+p+" to a positive limit sized for the node's workloads (for example 4096)")
			}
		}))

	CISSeccompDefault = linuxOnly(cisRule("KC8014", []string{"seccompDefault"}, "4.2.14", "cis-4.2.14-seccomp-default",
		"seccompDefault must be true.",
		"With seccompDefault on, a container that asks for no seccomp profile runs with the container runtime's RuntimeDefault profile instead of Unconfined. "+
			"The v1beta1 default is false. kube-bench checks only that {.seccompDefault} is set; the benchmark's title asks for true, which kubeletcfg checks.",
		"set `seccompDefault: true`.",
		func(c *rule.Context, kc *kubeletv1beta1.KubeletConfiguration, emit cisEmit) {
			if s := kc.SeccompDefault; s == nil || !*s {
				const p = "seccompDefault"
				emit(p, "CIS 4.2.14: "+p+" is false"+cisDefault(c, p)+": containers without a seccompProfile run Unconfined",
					"set "+p+": true (test workloads first: RuntimeDefault blocks some syscalls)")
			}
		}))

	CISProtectKernelDefaults = linuxOnly(cisRule("KC8101", []string{"protectKernelDefaults"}, "4.2.6 (benchmark v1.24)", "cis-1.24-4.2.6-protect-kernel-defaults",
		"protectKernelDefaults must be true (benchmark v1.24 and older).",
		"Older benchmarks (v1.24 and before, 4.2.6; aquasecurity/kube-bench cfg/cis-1.24/node.yaml, commit 1d41c7c3) require the kubelet to fail when kernel tunables differ from its expectations instead of changing them. "+
			"Later benchmarks dropped the check; it is kept for nodes still audited against them. The v1beta1 default is false. kube-bench: {.protectKernelDefaults} eq true. "+
			"Set the sysctls the kubelet expects (vm.overcommit_memory=1, vm.panic_on_oom=0, kernel.panic=10, kernel.panic_on_oops=1, ...) on the node first, or the kubelet refuses to start.",
		"set `protectKernelDefaults: true`, once the node's sysctls are what the kubelet expects.",
		func(c *rule.Context, kc *kubeletv1beta1.KubeletConfiguration, emit cisEmit) {
			if !kc.ProtectKernelDefaults {
				const p = "protectKernelDefaults"
				emit(p, "CIS 4.2.6 (benchmark v1.24 and older): "+p+" is false"+cisDefault(c, p)+": the kubelet changes kernel tunables that differ from its expectations",
					"set "+p+": true once the node's sysctls match what the kubelet expects")
			}
		}))
)
