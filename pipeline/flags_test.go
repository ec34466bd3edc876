package pipeline

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/finding"
	kubeletv1beta1 "github.com/kubeletcfg/kubeletcfg/upstream/kubelet/config/v1beta1"

	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/validate"
)

// TestFlagParsers: every flag each minor binds to a configuration field has a
// parser, and its parsed value can be stored at its generated field path.
func TestFlagParsers(t *testing.T) {
	for _, v := range kubelets.Supported() {
		m, _ := kubelets.Lookup(v)
		table, err := m.Flags()
		if err != nil {
			t.Fatal(err)
		}
		for i := range table.Flags {
			f := &table.Flags[i]
			if f.Path == "" {
				continue
			}
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("%s --%s: %v", v, f.Name, r)
					}
				}()
				_, ptr := newFlagValue(f)
				kc := &kubeletv1beta1.KubeletConfiguration{}
				if err := setPath(kc, f.Path, ptr.Elem()); err != nil {
					t.Errorf("%s --%s: %v", v, f.Name, err)
				}
			}()
		}
	}
}

// TestFlagsApplied checks what the conformance goldens cannot see: which field
// each finding names and that a repeated list flag appends.
func TestFlagsApplied(t *testing.T) {
	m := kubelets.Default()
	in := Input{Config: "../testdata/conformance/cases/480-flags-list-and-taints/kubelet.yaml",
		Flags: []string{"--cluster-dns=10.96.0.10", "--cluster-dns", "10.96.0.11", "--max-pods=7", "-v=4", "--eviction-hard=memory.available<1Gi"}}
	r, err := Evaluate(m, in)
	if err != nil {
		t.Fatal(err)
	}
	kc := r.Effective
	if got := kc.ClusterDNS; !reflect.DeepEqual(got, []string{"10.96.0.10", "10.96.0.11"}) {
		t.Errorf("clusterDNS = %v", got)
	}
	if kc.MaxPods != 7 || kc.Logging.Verbosity != 4 || !reflect.DeepEqual(kc.EvictionHard, map[string]string{"memory.available": "1Gi"}) {
		t.Errorf("maxPods %d, verbosity %d, evictionHard %v", kc.MaxPods, kc.Logging.Verbosity, kc.EvictionHard)
	}
	overrides := map[string]bool{}
	for _, f := range r.Findings {
		if f.Rule == "KC2504" {
			overrides[f.Path] = true
		}
	}
	if !overrides["clusterDNS"] || overrides["maxPods"] {
		t.Errorf("KC2504 on %v, want clusterDNS (set by the file) and not maxPods (a default)", overrides)
	}
	if pos := r.Origins["maxPods"]; pos.File != CommandLine {
		t.Errorf("origin of maxPods = %v", pos)
	}
}

// TestFlagChecks: ValidateKubeletFlags (--node-labels) and the --help and
// --version short-circuits, at every minor, each with a passing and a failing case.
func TestFlagChecks(t *testing.T) {
	tests := []struct {
		name   string
		flags  []string
		starts bool
		rule   string
	}{
		{"own namespace", []string{"--node-labels=node.kubernetes.io/pool=a,example.com/team=x,kubernetes.io/os=linux"}, true, ""},
		{"subdomain of an allowed namespace", []string{"--node-labels=gpu.kubelet.kubernetes.io/x=1"}, true, ""},
		{"role label", []string{"--node-labels=node-role.kubernetes.io/worker="}, false, "KC2506"},
		{"k8s.io namespace", []string{"--node-labels=foo.k8s.io/x=1"}, false, "KC2506"},
		{"invalid value", []string{"--node-labels=example.com/a=b c"}, false, "KC2506"},
		{"repeated flag replaces then adds", []string{"--node-labels=example.com/a=1", "--node-labels=topology.kubernetes.io/zone=z"}, true, ""},
		{"help", []string{"--max-pods=50", "--help"}, false, "KC2507"},
		{"short help", []string{"-h"}, false, "KC2507"},
		{"help=false", []string{"--help=false"}, true, ""},
		{"version", []string{"--version"}, false, "KC2507"},
		{"version=raw", []string{"--version=raw"}, false, "KC2507"},
		{"version=false", []string{"--version=false"}, true, ""},
		{"version=yes", []string{"--version=yes"}, false, "KC2505"},
	}
	for _, v := range kubelets.Supported() {
		m, _ := kubelets.Lookup(v)
		for _, tt := range tests {
			r, err := Evaluate(m, Input{Flags: tt.flags})
			if err != nil {
				t.Fatal(err)
			}
			var rules []string
			for _, f := range r.Findings {
				if f.Severity == finding.Error {
					rules = append(rules, f.Rule)
				}
			}
			want := []string(nil)
			if tt.rule != "" {
				want = []string{tt.rule}
			}
			if r.Starts != tt.starts || !reflect.DeepEqual(rules, want) {
				t.Errorf("%s %s %q: starts %v, errors %v; want %v, %v", v, tt.name, tt.flags, r.Starts, rules, tt.starts, want)
			}
		}
	}
}

// TestVersionFlagRelease: --version=vX.Y.Z must name the binary's own major,
// minor and patch (component-base's validateDynamicVersion). The binary is
// Input.Release when it is of the minor evaluated, else the release the
// minor's data was recorded from.
func TestVersionFlagRelease(t *testing.T) {
	m := kubelets.Default()
	mm := m.MajorMinor()
	patch := func(p int) string { return fmt.Sprintf("v%d.%d.%d", mm.Major, mm.Minor, p) }
	older := fmt.Sprintf("v%d.%d.4", mm.Major, mm.Minor-1)
	for _, tt := range []struct {
		name, release, flag string
		starts              bool
	}{
		{"recorded release", "", "--version=" + m.Patch, true},
		{"another patch, binary unknown", "", "--version=" + patch(99), false},
		{"another patch, the binary's", patch(99), "--version=" + patch(99), true},
		{"the binary's, with a build suffix", patch(99) + "-eks-1", "--version=" + patch(99) + "-custom", true},
		{"not the binary's patch", patch(99), "--version=" + m.Patch, false},
		{"a release of another minor is not this binary", older, "--version=" + older, false},
	} {
		r, err := Evaluate(m, Input{Flags: []string{tt.flag}, Release: tt.release})
		if err != nil {
			t.Fatal(err)
		}
		if r.Starts != tt.starts {
			t.Errorf("%s: %s with release %q: starts %v, want %v (%v)", tt.name, tt.flag, tt.release, r.Starts, tt.starts, r.Findings)
		}
	}
}

// TestWindowsOnlyFlags: evaluated as Linux, a flag only the Windows kubelet
// has is refused as the Linux kubelet refuses it, an unknown flag (KC2502,
// whose hint says --os windows; conformance case 804-win-flags), and each is
// noted as a Windows node's (KC2508), in either spelling; a flag that is not
// the Windows kubelet's is refused with no such note, and one after "--" is an
// argument. As Windows, the same command line starts.
func TestWindowsOnlyFlags(t *testing.T) {
	m := kubelets.Default()
	for _, tt := range []struct {
		flags  []string
		rules  []string
		os     kubelets.OS
		starts bool
	}{
		{[]string{"--windows-priorityclass=ABOVE_NORMAL_PRIORITY_CLASS", "--max-pods=50"}, []string{validate.FlagUnknown.ID, validate.FlagWindowsOnly.ID}, "", false},
		{[]string{"--windows-priorityclass", "ABOVE_NORMAL_PRIORITY_CLASS", "--windows-service", "--max-pods=60"}, []string{validate.FlagUnknown.ID, validate.FlagWindowsOnly.ID, validate.FlagWindowsOnly.ID}, "", false},
		{[]string{"--windows-service=true"}, []string{validate.FlagUnknown.ID, validate.FlagWindowsOnly.ID}, "", false},
		{[]string{"--windows-foo=1"}, []string{validate.FlagUnknown.ID}, "", false},
		{[]string{"--", "--windows-service"}, []string{validate.FlagInvalid.ID}, "", false}, // an argument, not a flag
		{[]string{"--windows-priorityclass=ABOVE_NORMAL_PRIORITY_CLASS", "--windows-service", "--cgroups-per-qos=false", "--enforce-node-allocatable="},
			[]string{validate.FlagDeprecated.ID, validate.FlagDeprecated.ID}, kubelets.Windows, true},
	} {
		r, err := Evaluate(m, Input{Flags: tt.flags, OS: tt.os})
		if err != nil {
			t.Fatal(err)
		}
		var rules []string
		for _, f := range r.Findings {
			if f.Behind == "" {
				rules = append(rules, f.Rule)
			}
			if f.Rule == validate.FlagUnknown.ID && strings.HasPrefix(tt.flags[0], "--windows-") && tt.flags[0] != "--windows-foo=1" &&
				(!strings.Contains(f.Hint, "--os windows") || !strings.HasPrefix(f.Kubelet, "failed to parse kubelet flag: unknown flag: --windows-")) {
				t.Errorf("%v: KC2502 hint %q, kubelet %q: want --os windows and the kubelet's words", tt.flags, f.Hint, f.Kubelet)
			}
		}
		if !reflect.DeepEqual(rules, tt.rules) {
			t.Errorf("%v: findings %v, want %v\n%s", tt.flags, rules, tt.rules, Dump(r.Findings))
		}
		if r.Starts != tt.starts {
			t.Errorf("%v as %q: starts %v, want %v", tt.flags, tt.os, r.Starts, tt.starts)
		}
	}
}

// TestWindowsKubeletFlags: with OS windows the Windows kubelet's own flag
// table applies (recorded under Wine): its flags are flags, and one only the
// Linux kubelet has is refused; at a minor whose Windows flags are not
// recorded (none now: a minor added before make generate-windows), the
// Windows-only flags are left out with a note saying so.
func TestWindowsKubeletFlags(t *testing.T) {
	m137, _ := kubelets.Lookup("1.37")
	m135, _ := kubelets.Lookup("1.35")
	m136, _ := kubelets.Lookup("1.36")
	for _, tt := range []struct {
		minor *kubelets.Minor
		flags []string
		rules []string
		hint  string // of the KC2502 finding, when set
	}{
		{m137, []string{"--windows-priorityclass=ABOVE_NORMAL_PRIORITY_CLASS", "--windows-service", "--max-pods=50"}, []string{validate.FlagDeprecated.ID}, ""},
		{m137, []string{"--housekeeping-interval=10s"}, []string{validate.FlagUnknown.ID}, "only the Linux kubelet 1.37 has --housekeeping-interval"},
		// cAdvisor's global flags: deprecated on the Linux kubelet 1.36, never the Windows kubelet's.
		{m136, []string{"--containerd=/run/containerd/containerd.sock"}, []string{validate.FlagUnknown.ID}, "only the Linux kubelet 1.36 has --containerd"},
		{m137, []string{"--containerd=/run/containerd/containerd.sock"}, []string{validate.FlagUnknown.ID}, "remove the flag"},
		{m135, []string{"--windows-service", "--max-pods=50"}, []string{validate.FlagDeprecated.ID}, ""},
	} {
		r, err := Evaluate(tt.minor, Input{Flags: tt.flags, OS: kubelets.Windows})
		if err != nil {
			t.Fatal(err)
		}
		var rules []string
		for _, f := range r.Findings {
			if strings.HasPrefix(f.Rule, "KC25") { // the command line's; the Windows warnings aside
				rules = append(rules, f.Rule)
			}
			if f.Rule == validate.FlagUnknown.ID && !strings.Contains(f.Hint, tt.hint) {
				t.Errorf("%s %v: hint %q, want %q", tt.minor.Version, tt.flags, f.Hint, tt.hint)
			}
		}
		if !reflect.DeepEqual(rules, tt.rules) {
			t.Errorf("%s %v: findings %v, want %v\n%s", tt.minor.Version, tt.flags, rules, tt.rules, Dump(r.Findings))
		}
	}
	// Not recorded: the Windows-only flags are left out, each with a note.
	in := &Input{Flags: []string{"--windows-service", "--windows-priorityclass", "ABOVE_NORMAL_PRIORITY_CLASS", "--max-pods=50"}, OS: kubelets.Windows}
	r := &Result{}
	r.windowsFlags(in, &kubelets.NoWindowsFlagsError{Minor: "1.39"})
	if !reflect.DeepEqual(in.Flags, []string{"--max-pods=50"}) || len(r.Findings) != 2 ||
		r.Findings[0].Rule != validate.FlagWindowsOnly.ID || !strings.Contains(r.Findings[0].Message, "not recorded yet") {
		t.Errorf("unrecorded Windows flags: left %v\n%s", in.Flags, Dump(r.Findings))
	}
}

// TestFlagOverrideWords: KC2504 shows the file's value as a file writes it
// (a duration, a quantity, a number, a string), never Go's printing of the
// kubelet's type (&Duration{Duration:4h0m0s,}).
func TestFlagOverrideWords(t *testing.T) {
	tests := []struct {
		name, file, flag, want string
	}{
		{"duration", "streamingConnectionIdleTimeout: 4h", "--streaming-connection-idle-timeout=1h", "overrides streamingConnectionIdleTimeout: 4h0m0s from"},
		{"number", "maxPods: 20", "--max-pods=30", "overrides maxPods: 20 from"},
		{"string", "cgroupDriver: systemd", "--cgroup-driver=cgroupfs", "overrides cgroupDriver: systemd from"},
		{"boolean", "failSwapOn: false", "--fail-swap-on=true", "overrides failSwapOn: false from"},
		{"map: the field's name", "evictionHard: {memory.available: 100Mi}", "--eviction-hard=memory.available<1Gi", "overrides evictionHard from"},
		{"a value the file does not set: no finding", "maxPods: 20", "--streaming-connection-idle-timeout=1h", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			const path = "kubelet.yaml"
			data := "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n" + tt.file + "\n"
			r, err := Evaluate(kubelets.Default(), Input{Config: path, Virtual: map[string][]byte{path: []byte(data)}, Flags: []string{tt.flag}})
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			for _, f := range r.Findings {
				if f.Rule == validate.FlagOverridesFile.ID {
					got = f.Message
				}
			}
			if tt.want == "" && got != "" || !strings.Contains(got, tt.want) || strings.Contains(got, "{") {
				t.Errorf("KC2504 %q, want %q", got, tt.want)
			}
		})
	}
}

// TestWindowsPriorityClass: the Windows kubelet's Run refuses a
// --windows-priorityclass getPriorityValue does not map (initForOS), after
// InitializeTLS and before run(); the Linux kubelet has no such flag.
func TestWindowsPriorityClass(t *testing.T) {
	m137, _ := kubelets.Lookup("1.37")
	for _, tt := range []struct {
		name   string
		flags  []string
		os     kubelets.OS
		starts bool
		first  string // the rule of the first refusal
	}{
		{"a class", []string{"--windows-priorityclass=ABOVE_NORMAL_PRIORITY_CLASS"}, kubelets.Windows, true, ""},
		{"not given: NORMAL_PRIORITY_CLASS", nil, kubelets.Windows, true, ""},
		{"lower case", []string{"--windows-priorityclass=above_normal_priority_class"}, kubelets.Windows, false, "KC4545"},
		{"empty", []string{"--windows-priorityclass="}, kubelets.Windows, false, "KC4545"},
		{"after InitializeTLS", []string{"--windows-priorityclass=HIGH", "--tls-min-version=TLS12"}, kubelets.Windows, false, "KC4502"},
		{"before run()", []string{"--windows-priorityclass=HIGH", "--kube-reserved=cpu=x"}, kubelets.Windows, false, "KC4545"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Evaluate(m137, Input{Flags: tt.flags, OS: tt.os})
			if err != nil {
				t.Fatal(err)
			}
			first := ""
			if f := r.FirstError(); f != nil {
				first = f.Rule
			}
			if r.Starts != tt.starts || first != tt.first {
				t.Errorf("starts %v, first refusal %q; want %v, %q\n%s", r.Starts, first, tt.starts, tt.first, Dump(r.Findings))
			}
		})
	}
}
