package validate

import (
	"reflect"
	"testing"
	"time"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/rule"
	kubeletv1beta1 "github.com/kubeletcfg/kubeletcfg/upstream/kubelet/config/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/component-base/featuregate"
	tracingapi "k8s.io/component-base/tracing/api/v1"

	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

func TestCompareMinors(t *testing.T) {
	tests := []struct {
		a, b string
		want int
		ok   bool
	}{
		{"1.31", "1.31", 0, true},
		{"1.9", "1.31", -1, true},
		{"1.37", "1.36", 1, true},
		{"v1.33.13", "1.33", 0, true},
		{"2.0", "1.99", 1, true},
		{"", "1.31", 0, false},
		{"1.x", "1.31", 0, false},
	}
	for _, tt := range tests {
		if got, ok := compareMinors(tt.a, tt.b); got != tt.want || ok != tt.ok {
			t.Errorf("compareMinors(%q, %q) = %d, %v; want %d, %v", tt.a, tt.b, got, ok, tt.want, tt.ok)
		}
	}
}

func TestRuleIn(t *testing.T) {
	r := &rule.Rule{Since: "1.33", Until: "1.35"}
	for minor, want := range map[string]bool{"1.32": false, "1.33": true, "1.35": true, "1.36": false, "": true, "garbage": true} {
		if got := r.In(minorOf(minor)); got != want {
			t.Errorf("[1.33, 1.35].In(%q) = %v, want %v", minor, got, want)
		}
	}
	if got := (&rule.Rule{}).Minors(); got != "1.31–1.38" {
		t.Errorf("open range = %q", got)
	}
	if got := (&rule.Rule{Since: "1.38"}).Minors(); got != "1.38" {
		t.Errorf("1.38 only = %q", got)
	}
	if got := (&rule.Rule{Until: "1.33"}).Releases(); got != "v1.31.0 to v1.33.13" {
		t.Errorf("releases up to 1.33 = %q", got)
	}
}

func TestByMinorAt(t *testing.T) {
	b := byMinor[string]{{"1.31", "old"}, {"1.35", "new"}}
	for minor, want := range map[string]string{"1.31": "old", "1.34": "old", "1.35": "new", "1.37": "new", "": "new", "1.30": "old"} {
		if got := b.atVersion(minor); got != want {
			t.Errorf("at(%q) = %q, want %q", minor, got, want)
		}
	}
}

// checkByMinor: a variant table is ordered and names minors the rules mirror.
func checkByMinor[T any](t *testing.T, name string, b byMinor[T]) {
	t.Helper()
	known := map[string]bool{}
	for _, m := range kubelets.Minors() {
		known[m.Version] = true
	}
	if len(b) < 2 {
		t.Errorf("%s: a variant table needs two entries or more", name)
	}
	for i, e := range b {
		if !known[e.Since] {
			t.Errorf("%s: entry %d: %q is not a minor the rules mirror", name, i, e.Since)
		}
		if i > 0 {
			if c, _ := compareMinors(b[i-1].Since, e.Since); c >= 0 {
				t.Errorf("%s: entries %d and %d are not in ascending minor order", name, i-1, i)
			}
		}
	}
}

func TestVariantTables(t *testing.T) {
	checkByMinor(t, "kvAllowlistImageName", kvAllowlistImageName)
	checkByMinor(t, "kvEnforcement", kvEnforcement)
	checkByMinor(t, "kvFailCgroupV1Message", kvFailCgroupV1Message)
	checkByMinor(t, "kvShowHiddenMetricsValidate", kvShowHiddenMetricsValidate)
	checkByMinor(t, "kvFieldErrorText", kvFieldErrorText)
	checkByMinor(t, "kvLogQueryGateMessage", kvLogQueryGateMessage)
	checkByMinor(t, "kvLogFlush", kvLogFlush)
}

// TestDeclaredMinors lists every rule that does not exist in every minor; all
// the others must be open. Read against validation.go and component-base of each
// release (kubelets.Minor.Patch).
func TestDeclaredMinors(t *testing.T) {
	want := map[string]string{
		"KC3004": "1.35–1.38", // feature gate dependencies (component-base v0.35)
		"KC4012": "1.37–1.38", // defaultPodSysctls
		"KC4013": "1.37–1.38",
		"KC4014": "1.37–1.38",
		"KC4015": "1.37–1.38",
		"KC4016": "1.36–1.38", // imageMinimumGCAge < 0
		"KC4035": "1.32–1.38", // runOnce
		"KC4048": "1.32–1.38", // KubeletCrashLoopBackOffMax
		"KC4049": "1.32–1.38",
		"KC4050": "1.32–1.38",
		"KC4051": "1.32–1.38", // the -compressible enforcements
		"KC4052": "1.32–1.38",
		"KC4060": "1.33–1.38", // KubeletEnsureSecretPulledImages
		"KC4061": "1.33–1.38",
		"KC4062": "1.33–1.38",
		"KC4063": "1.33–1.38",
		"KC4064": "1.33–1.38",
		"KC4070": "1.33–1.38", // userNamespaces.idsPerPod
		"KC4071": "1.33–1.38",
		"KC4072": "1.33–1.38",
		"KC4089": "1.37–1.38", // memoryThrottlingFactor without MemoryQoS
		"KC4091": "1.36–1.38", // memoryReservationPolicy
		"KC4092": "1.36–1.38",
		"KC4098": "1.33–1.38", // containerLogMaxFiles
		"KC4047": "1.31–1.37", // memorySwap without NodeSwap (1.38 removed the gate)
		"KC4103": "1.31–1.33", // tracing without KubeletTracing
		"KC4105": "1.38",      // the certificate key algorithms
		"KC4106": "1.38",
		"KC4107": "1.38",
		"KC4104": "1.31–1.36", // MemoryQoS without memoryThrottlingFactor
		"KC5002": "1.32–1.38", // singleProcessOOMKill on cgroup v1
		"KC5102": "1.32–1.38", // Windows: singleProcessOOMKill
		"KC5104": "1.33–1.38", // Windows: userNamespaces
		"KC5105": "1.37–1.38", // Windows: defaultPodSysctls
		"KC2010": "1.31",      // drop-in null keeps the main value
		"KC4503": "1.36–1.38", // tlsCurvePreferences
		"KC4544": "1.31–1.32", // containerLogMaxFiles before validation checked it
	}
	known := map[string]bool{"": true}
	for _, m := range kubelets.Minors() {
		known[m.Version] = true
	}
	for _, r := range rule.All() {
		if !known[r.Since] || !known[r.Until] {
			t.Errorf("%s: Since %q / Until %q is not a minor the rules mirror", r.ID, r.Since, r.Until)
		}
		if r.Since != "" && r.Until != "" {
			if c, _ := compareMinors(r.Since, r.Until); c > 0 {
				t.Errorf("%s: Since %s is after Until %s", r.ID, r.Since, r.Until)
			}
		}
		w, ok := want[r.ID]
		if !ok {
			w = "1.31–1.38"
		}
		if got := r.Minors(); got != w {
			t.Errorf("%s: minors %s, want %s", r.ID, got, w)
		}
	}
}

// noVersions is a FeatureGate that cannot list its gates.
type noVersions struct{ featuregate.FeatureGate }

func TestGateRegistered(t *testing.T) {
	g := kvTestGates(t, nil)
	for _, c := range []*rule.Context{{Gates: g}, {Gates: noVersions{g}}} {
		if !c.GateRegistered("MemoryQoS") || !kvEnabled(c, "MemoryQoS") {
			t.Errorf("%T: MemoryQoS is registered and on", c.Gates)
		}
		if c.GateRegistered("NoSuchGate") || kvEnabled(c, "NoSuchGate") {
			t.Errorf("%T: an unregistered gate must be off, not panic", c.Gates)
		}
	}
	if kvEnabled(&rule.Context{}, "MemoryQoS") {
		t.Error("no gates: everything is off")
	}
}

// TestRunSkipsRulesOutsideTheirMinors: Run leaves out the rules a minor does not have.
func TestRunSkipsRulesOutsideTheirMinors(t *testing.T) {
	ids := func(minor string) []string {
		k := validConfig()
		k.MemoryThrottlingFactor = new(0.9) // the test gates have MemoryQoS on
		k.ContainerLogMaxFiles = new(int32(1))
		var out []string
		for _, f := range Run(&rule.Context{Minor: minorOf(minor), Config: k, Gates: kvTestGates(t, nil), CgroupVersion: 2}) {
			out = append(out, f.Rule)
		}
		return out
	}
	// 1.32's validation does not check containerLogMaxFiles; NewMainKubelet
	// refuses it in the run stage (KC4544), which 1.33's validation never reaches.
	if got := ids("1.32"); !reflect.DeepEqual(got, []string{"KC4544"}) {
		t.Errorf("1.32: %v, want [KC4544] (containerLogMaxFiles is validated from 1.33)", got)
	}
	if got := ids("1.33"); !reflect.DeepEqual(got, []string{"KC4098"}) {
		t.Errorf("1.33: %v, want [KC4098]", got)
	}
}

// validConfigAt is validConfig with the defaults of an older minor where they
// matter to validation: before 1.35 KubeletCrashLoopBackOffMax and
// KubeletEnsureSecretPulledImages are off by default, so their fields stay
// unset, and failCgroupV1 defaults to false; before 1.37 memoryThrottlingFactor
// defaults to 0.9; before 1.36 memoryReservationPolicy does not exist.
func validConfigAt(minor string) *kubeletv1beta1.KubeletConfiguration {
	k := validConfig()
	before := func(m string) bool { c, _ := compareMinors(minor, m); return c < 0 }
	if before("1.37") {
		k.MemoryThrottlingFactor = new(0.9)
	}
	if before("1.36") {
		k.MemoryReservationPolicy = ""
	}
	if before("1.35") {
		k.CrashLoopBackOff = kubeletv1beta1.CrashLoopBackOffConfig{}
		k.ImagePullCredentialsVerificationPolicy = ""
		k.FailCgroupV1 = new(false)
	}
	return k
}

// TestKubeletRulesWithEachMinorsGates runs the kubelet rules with the gates of
// each minor as its kubelet registers them (kubelets/data/<minor>), where the gate
// defaults of the minor decide the outcome.
func TestKubeletRulesWithEachMinorsGates(t *testing.T) {
	type tc struct {
		name   string
		gates  map[string]bool
		mutate func(k *kvConfig)
		want   []string // the kubelet messages of every kubelet rule, in rule order
	}
	cases := map[string][]tc{
		"1.31": {
			{name: "compressible enforcement is unknown", mutate: func(k *kvConfig) {
				k.EnforceNodeAllocatable = []string{"pods", "system-reserved-compressible"}
				k.SystemReservedCgroup = "/system.slice"
			}, want: []string{`invalid configuration: option "system-reserved-compressible" specified for enforceNodeAllocatable (--enforce-node-allocatable). Valid options are "pods", "system-reserved", "kube-reserved", or "none"`}},
			{name: "runOnce", mutate: func(k *kvConfig) { k.RunOnce = true }},
		},
		"1.32": {
			{name: "tracing without KubeletTracing", gates: map[string]bool{"KubeletTracing": false},
				mutate: func(k *kvConfig) {
					k.Tracing = &tracingapi.TracingConfiguration{SamplingRatePerMillion: new(int32(-1))}
				},
				want: []string{"invalid configuration: tracing should not be configured if KubeletTracing feature flag is disabled."}},
			{name: "tracing with KubeletTracing (default)", mutate: func(k *kvConfig) {
				k.Tracing = &tracingapi.TracingConfiguration{SamplingRatePerMillion: new(int32(-1))}
			}, want: []string{"tracing.samplingRatePerMillion: Invalid value: -1: sampling rate must be positive"}},
			{name: "containerLogMaxFiles 1", mutate: func(k *kvConfig) { k.ContainerLogMaxFiles = new(int32(1)) }},
		},
		"1.33": {
			{name: "containerLogMaxFiles 1", mutate: func(k *kvConfig) { k.ContainerLogMaxFiles = new(int32(1)) },
				want: []string{"invalid configuration: containerLogMaxFiles must be greater than 1"}},
			{name: "pull policy with the gate off by default", mutate: func(k *kvConfig) { k.ImagePullCredentialsVerificationPolicy = "NeverVerify" },
				want: []string{"invalid configuration: `imagePullCredentialsVerificationPolicy` must not be set if KubeletEnsureSecretPulledImages feature gate is not enabled"}},
			{name: "verbosity in hex", mutate: func(k *kvConfig) { k.Logging.Verbosity = 1 << 31 },
				want: []string{"logging.verbosity: Invalid value: 0x80000000: Must be <= 2147483647"}},
		},
		"1.34": {
			{name: "crash-loop period with the gate off by default", mutate: func(k *kvConfig) {
				k.CrashLoopBackOff.MaxContainerRestartPeriod = &metav1.Duration{Duration: time.Minute}
			}, want: []string{"invalid configuration: FeatureGate KubeletCrashLoopBackOffMax not enabled, CrashLoopBackOff.MaxContainerRestartPeriod must not be set"}},
			{name: "log query with NodeLogQuery off by default", mutate: func(k *kvConfig) { k.EnableSystemLogQuery = new(true) },
				want: []string{"invalid configuration: NodeLogQuery feature gate is required for enableSystemLogHandler"}},
			{name: "negative flushFrequency panics", mutate: func(k *kvConfig) { k.Logging.FlushFrequency.Duration.Duration = -time.Second },
				want: []string{"non-positive interval for NewTicker"}},
		},
		"1.35": {
			{name: "cpuCFSQuotaPeriod with the gate off by default", mutate: func(k *kvConfig) {
				k.CPUCFSQuotaPeriod = &metav1.Duration{Duration: 200 * time.Millisecond}
			}, want: []string{"invalid configuration: cpuCFSQuotaPeriod (--cpu-cfs-quota-period) {200ms} requires feature gate CustomCPUCFSQuotaPeriod"}},
			{name: "log query with NodeLogQuery off by default", mutate: func(k *kvConfig) { k.EnableSystemLogQuery = new(true) },
				want: []string{"invalid configuration: NodeLogQuery feature gate is required for enableSystemLogQuery"}},
			{name: "negative flushFrequency", mutate: func(k *kvConfig) { k.Logging.FlushFrequency.Duration.Duration = -time.Second },
				want: []string{`logging.flushFrequency: Invalid value: "-1s": Must be greater than zero`}},
			{name: "negative imageMinimumGCAge", mutate: func(k *kvConfig) { k.ImageMinimumGCAge = metav1.Duration{Duration: -time.Second} }},
		},
		"1.36": {
			{name: "cpuCFSQuotaPeriod with the gate on by default", mutate: func(k *kvConfig) {
				k.CPUCFSQuotaPeriod = &metav1.Duration{Duration: 200 * time.Millisecond}
			}},
			{name: "negative imageMinimumGCAge", mutate: func(k *kvConfig) { k.ImageMinimumGCAge = metav1.Duration{Duration: -time.Second} },
				want: []string{"invalid configuration: imageMinimumGCAge -1s must not be negative"}},
			{name: "TieredReservation with MemoryQoS off by default", mutate: func(k *kvConfig) { k.MemoryReservationPolicy = "TieredReservation" },
				want: []string{`invalid configuration: memoryReservationPolicy "TieredReservation" requires MemoryQoS feature gate to be enabled`}},
			{name: "MemoryQoS without memoryThrottlingFactor", gates: map[string]bool{"MemoryQoS": true},
				mutate: func(k *kvConfig) { k.MemoryThrottlingFactor = nil },
				want:   []string{"invalid configuration: memoryThrottlingFactor is required when MemoryQoS feature flag is enabled"}},
			{name: "defaultPodSysctls", mutate: func(k *kvConfig) { k.DefaultPodSysctls = map[string]string{"vm.swappiness": "1"} }},
		},
		"1.37": {
			{name: "defaultPodSysctls with the gate off by default", mutate: func(k *kvConfig) { k.DefaultPodSysctls = map[string]string{"net.ipv4.ip_forward": "1"} },
				want: []string{"invalid configuration: DefaultPodSysctls feature gate is required for Kubelet configuration option defaultPodSysctls"}},
			{name: "memoryThrottlingFactor with MemoryQoS off", gates: map[string]bool{"MemoryQoS": false},
				mutate: func(k *kvConfig) { k.MemoryThrottlingFactor = new(0.8) },
				want:   []string{"invalid configuration: memoryThrottlingFactor must not be set when MemoryQoS feature gate is disabled"}},
			{name: "MemoryQoS on by default, no memoryThrottlingFactor: no longer checked"},
		},
	}
	for _, sm := range kubelets.Minors() {
		minor := sm.Version
		t.Run(minor, func(t *testing.T) {
			m, err := kubelets.Lookup(minor)
			if err != nil {
				t.Skipf("kubelets/data/%s is not generated yet: %v", minor, err)
			}
			if _, err := m.Gates(); err != nil {
				t.Skipf("kubelets/data/%s/gates.json is not there yet: %v", minor, err)
			}
			run := func(t *testing.T, c tc) []string {
				fg, err := m.NewFeatureGate()
				if err != nil {
					t.Fatal(err)
				}
				if err := fg.SetFromMap(c.gates); err != nil {
					t.Fatal(err)
				}
				k := validConfigAt(minor)
				if c.mutate != nil {
					c.mutate(k)
				}
				ctx := &rule.Context{Minor: minorOf(minor), Config: k, Gates: fg, CgroupVersion: 2}
				var got []string
				for _, r := range kvRules {
					for _, f := range runRule(r, ctx) {
						got = append(got, f.Kubelet)
					}
				}
				return got
			}
			for _, c := range append([]tc{{name: "defaults"}}, cases[minor]...) {
				t.Run(c.name, func(t *testing.T) {
					if got := run(t, c); !reflect.DeepEqual(got, c.want) {
						t.Errorf("kubelet messages\n got: %q\nwant: %q", got, c.want)
					}
				})
			}
		})
	}
}

// minorOf is skew's minor named by version, nil for none or an unknown one
// (a Context without a minor: every rule runs).
func minorOf(version string) *kubelets.Minor {
	m, err := kubelets.Lookup(version)
	if err != nil {
		return nil
	}
	return m
}

// runRule is what Run does with one rule: its Check where the minor has it.
func runRule(r *rule.Rule, ctx *rule.Context) []finding.Finding {
	if r.Check == nil || !r.In(ctx.Minor) || !r.OnOS(ctx.OS) {
		return nil
	}
	return r.Check(ctx)
}
