package validate

import (
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	cliflag "k8s.io/component-base/cli/flag"
	"k8s.io/utils/cpuset"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/internal/didyoumean"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/rule"
)

// ---- runstage.go: the run stage. ValidateKubeletConfiguration is not the last
// gate: RunE then builds the dependencies (InitializeTLS), and run and
// NewMainKubelet parse more of the configuration; a failure there is as fatal as a
// validation error, in the kubelet's words "failed to run Kubelet: ...". These rules
// reproduce, in the kubelet's order, every check there that depends on the
// configuration alone (cmd/kubelet/app/server.go InitializeTLS, run,
// parseResourceList; pkg/kubelet/kubelet.go NewMainKubelet;
// pkg/kubelet/eviction/helpers.go ParseThresholdConfig; pkg/kubelet/cm
// ParseQOSReserved; pkg/kubelet/logs NewContainerLogManager; pkg/kubelet/sysctl
// NewAllowlist). Their text is the same at every minor 1.31..1.38 but where a rule
// says otherwise. The checks that need the host (the CPU topology, cgroups, the
// container manager) are not reproduced: docs/fidelity.md.
//
// The kubelet stops at the first failure; each rule reports every value that
// fails, so one run lists them all, and the findings of a later check are Behind
// the first (behindRun): the kubelet reports them once that one is fixed.

// The kubelet's wrapping of the run stage's errors.
const (
	rsDependencies = "failed to construct kubelet dependencies: " // RunE, UnsecuredDependencies
	rsRun          = "failed to run Kubelet: "                    // Run, run
	rsNewKubelet   = rsRun + "failed to create kubelet: "         // RunKubelet, NewMainKubelet

	rsServerFunc     = "cmd/kubelet/app/server.go "
	rsNewMainKubelet = "pkg/kubelet/kubelet.go NewMainKubelet"
	rsEvictionFunc   = "pkg/kubelet/eviction/helpers.go ParseThresholdConfig (run, NewMainKubelet)"
)

// rsRule completes a run-stage rule as kvRule does (error severity, which a rule
// declaring Warning keeps), in StageRun.
func rsRule(r *rule.Rule, check kvCheck) *rule.Rule {
	severity := r.Severity
	r.Stage = rule.StageRun
	r = kvRule(r, check)
	if severity == finding.Warning {
		r.Severity = finding.Warning
	}
	return r
}

// sortedKeys returns a map's keys in order, so that findings come out the same
// on every run (the kubelet's own order is Go's map order).
func sortedKeys[M ~map[string]V, V any](m M) []string {
	return slices.Sorted(maps.Keys(m))
}

// ---- UnsecuredDependencies -> InitializeTLS.

var (
	rsTLSCipherSuites = rsRule(&rule.Rule{
		ID:      "KC4501",
		Name:    "tls-cipher-suite-unknown",
		Fields:  []string{"tlsCipherSuites"},
		Summary: "tlsCipherSuites names a cipher suite the kubelet does not know; it refuses to start",
		Doc: "Validation does not check tlsCipherSuites: InitializeTLS does, while RunE builds the kubelet's " +
			"dependencies, and an unknown name stops the kubelet (\"failed to construct kubelet dependencies: " +
			"Cipher suite X not supported or doesn't exist\"). The names are Go's (crypto/tls), spelled exactly, " +
			"for example TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256. Fix: use a name from Go's list, or remove the entry.",
		Kubelet: rsServerFunc + "InitializeTLS",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		for i, name := range k.TLSCipherSuites {
			if _, err := cliflag.TLSCipherSuites([]string{name}); err != nil {
				emit(fmt.Sprintf("tlsCipherSuites[%d]", i),
					fmt.Sprintf("tlsCipherSuites: %q is not a cipher suite the kubelet knows, so it refuses to start", name),
					"use a cipher suite name of Go's crypto/tls, such as TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, or remove the entry",
					rsDependencies+err.Error())
			}
		}
	})

	rsTLSMinVersion = rsRule(&rule.Rule{
		ID:      "KC4502",
		Name:    "tls-min-version-unknown",
		Fields:  []string{"tlsMinVersion"},
		Summary: "tlsMinVersion is not VersionTLS10..VersionTLS13; the kubelet refuses to start",
		Doc: "InitializeTLS parses tlsMinVersion after validation; a value other than VersionTLS10, VersionTLS11, " +
			"VersionTLS12 or VersionTLS13 (\"1.2\", \"TLS12\") stops the kubelet. Fix: write VersionTLS12 or VersionTLS13.",
		Kubelet: rsServerFunc + "InitializeTLS",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if _, err := cliflag.TLSVersion(k.TLSMinVersion); err != nil {
			emit("tlsMinVersion",
				fmt.Sprintf("tlsMinVersion %q is not a TLS version name, so the kubelet refuses to start", k.TLSMinVersion),
				"write VersionTLS12 or VersionTLS13 (VersionTLS10 and VersionTLS11 are accepted too)",
				rsDependencies+err.Error())
		}
	})

	rsTLSCurves = rsRule(&rule.Rule{
		ID:      "KC4503",
		Name:    "tls-curve-unknown",
		Fields:  []string{"tlsCurvePreferences"},
		Since:   "1.36",
		Summary: "tlsCurvePreferences holds a curve ID out of range, twice, or unknown to Go; the kubelet refuses to start",
		Doc: "InitializeTLS parses tlsCurvePreferences after validation: each entry must be a TLS curve ID " +
			"(1-65535) that Go's crypto/tls names, and appear once; otherwise the kubelet stops. The IDs " +
			"are the IANA numbers: 23 (P-256), 24 (P-384), 25 (P-521), 29 (X25519), 4588 (X25519MLKEM768). " +
			"Whether a newer hybrid ID is known depends on the Go the kubelet was built with; kubeletcfg " +
			"answers with its own. Fix: use IDs from that list.",
		Kubelet: rsServerFunc + "InitializeTLS",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		// TLSCurvePreferences stops at the first bad entry; each is checked with
		// those before it, so a repeat is reported where it repeats.
		for i := range k.TLSCurvePreferences {
			if _, err := cliflag.TLSCurvePreferences(k.TLSCurvePreferences[:i]); err != nil {
				break
			}
			if _, err := cliflag.TLSCurvePreferences(k.TLSCurvePreferences[:i+1]); err != nil {
				emit(fmt.Sprintf("tlsCurvePreferences[%d]", i),
					fmt.Sprintf("tlsCurvePreferences: %s, so the kubelet refuses to start", err),
					"use curve IDs such as 23 (P-256), 24 (P-384), 29 (X25519) or 4588 (X25519MLKEM768), each once",
					rsDependencies+err.Error())
			}
		}
	})
)

// ---- run: reserved resources.

// rsReservedCPUs is getReservedCPUs without the host: the parsed
// reservedSystemCPUs, empty when unset or invalid (validation refused it then).
func rsReservedCPUs(k *kvConfig) cpuset.CPUSet {
	if k.ReservedSystemCPUs == "" {
		return cpuset.New()
	}
	set, err := cpuset.Parse(k.ReservedSystemCPUs)
	if err != nil {
		return cpuset.New()
	}
	return set
}

// rsParseReserved is parseResourceList's check of one entry.
func rsParseReserved(name, value string) error {
	switch name {
	case "cpu", "memory", "ephemeral-storage", "pid":
		q, err := resource.ParseQuantity(value)
		if err != nil {
			return fmt.Errorf("failed to parse quantity %q for %q resource: %w", value, name, err)
		}
		if q.Sign() == -1 {
			return fmt.Errorf("resource quantity for %q cannot be negative: %v", name, value)
		}
		return nil
	}
	return fmt.Errorf("cannot reserve %q resource", name)
}

const rsQuantityHint = "write a quantity such as 500Mi, 1Gi or 100m (binary suffixes Ki, Mi, Gi; decimal k, M, G; no space, no B)"

var (
	rsReserved = rsRule(&rule.Rule{
		ID:      "KC4510",
		Name:    "reserved-resource-invalid",
		Fields:  []string{"kubeReserved", "systemReserved"},
		Summary: "kubeReserved or systemReserved holds a value that is no quantity, a negative one, or a resource other than cpu, memory, ephemeral-storage and pid",
		Doc: "Validation does not parse the reserved resources: run() does (parseResourceList), after the " +
			"CPUs of reservedSystemCPUs have replaced the cpu entries, and any failure stops the kubelet " +
			"(\"failed to run Kubelet: --kube-reserved value failed to parse: ...\"). A quantity is a number " +
			"with an optional suffix (500Mi, 1Gi, 1G, 100m): 500MB, 1gb and \"500 Mi\" are refused. Only " +
			"cpu, memory, ephemeral-storage and pid can be reserved. Fix: write a quantity such as 500Mi, or " +
			"remove the entry.",
		Kubelet: rsServerFunc + "run, parseResourceList",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		masked := rsReservedCPUs(k).Size() > 0
		for _, m := range []struct {
			field, flag string
			values      map[string]string
		}{{"kubeReserved", "--kube-reserved", k.KubeReserved}, {"systemReserved", "--system-reserved", k.SystemReserved}} {
			for _, name := range sortedKeys(m.values) {
				if masked && name == "cpu" {
					continue // replaced by reservedSystemCPUs before it is parsed (KC4511)
				}
				err := rsParseReserved(name, m.values[name])
				if err == nil {
					continue
				}
				msg := fmt.Sprintf("%s[%s] is %q, which the kubelet cannot parse, so it refuses to start", m.field, name, m.values[name])
				hint := rsQuantityHint
				if !strings.HasPrefix(err.Error(), "failed to parse quantity") {
					msg = fmt.Sprintf("%s[%s]: %s, so the kubelet refuses to start", m.field, name, err)
					hint = "reserve only cpu, memory, ephemeral-storage or pid, each a quantity of zero or more"
				}
				emit(m.field+"["+name+"]", msg, hint, rsRun+m.flag+" value failed to parse: "+err.Error())
			}
		}
	})

	rsReservedCPUsReplace = rsRule(&rule.Rule{
		ID:       "KC4511",
		Name:     "reserved-cpus-replace-cpu",
		Severity: finding.Warning,
		Fields:   []string{"kubeReserved[cpu]", "systemReserved[cpu]"},
		Summary:  "reservedSystemCPUs replaces kubeReserved.cpu and systemReserved.cpu: the values written there are ignored",
		Doc: "When reservedSystemCPUs names at least one CPU, run() deletes kubeReserved.cpu and sets " +
			"systemReserved.cpu to the number of CPUs it names, before either is parsed (\"Option --reserved-cpus " +
			"is specified, it will overwrite the cpu setting in KubeReserved and SystemReserved\"): the cpu " +
			"written in either map has no effect, and is not even checked. Fix: remove the cpu entries, or " +
			"reservedSystemCPUs.",
		Kubelet: rsServerFunc + "run",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		n := rsReservedCPUs(k).Size()
		if n == 0 {
			return
		}
		for _, m := range []struct {
			field  string
			values map[string]string
		}{{"kubeReserved", k.KubeReserved}, {"systemReserved", k.SystemReserved}} {
			path := m.field + "[cpu]"
			if v, ok := m.values["cpu"]; ok && c.Set(path) {
				emit(path,
					fmt.Sprintf("%s is ignored: reservedSystemCPUs %q reserves %d CPUs as systemReserved[cpu] instead of %q", path, k.ReservedSystemCPUs, n, v),
					"remove "+path+" (reservedSystemCPUs decides the CPUs reserved), or remove reservedSystemCPUs",
					"")
			}
		}
	})
)

// ---- run and NewMainKubelet: eviction thresholds.

// rsEvictionSignals are the signals validSignal accepts on Linux
// (pkg/kubelet/eviction/helpers.go signalToNodeCondition; the same at 1.31..1.38).
var rsEvictionSignals = []string{
	"allocatableMemory.available", "containerfs.available", "containerfs.inodesFree", "imagefs.available",
	"imagefs.inodesFree", "memory.available", "nodefs.available", "nodefs.inodesFree", "pid.available",
}

func rsValidSignal(s string) bool { _, ok := slices.BinarySearch(rsEvictionSignals, s); return ok }

// rsParsePercentage is the eviction package's parsePercentage.
func rsParsePercentage(input string) (float32, error) {
	value, err := strconv.ParseFloat(strings.TrimRight(input, "%"), 32)
	if err != nil {
		return 0, err
	}
	return float32(value) / 100, nil
}

// rsParseThreshold is parseThresholdStatement's error for one entry.
func rsParseThreshold(signal, val string) error {
	if !rsValidSignal(signal) {
		return fmt.Errorf("unsupported eviction signal %v", signal)
	}
	if strings.HasSuffix(val, "%") {
		if val == "0%" || val == "100%" {
			return nil // ignored
		}
		percentage, err := rsParsePercentage(val)
		if err != nil {
			return err
		}
		if percentage < 0 {
			return fmt.Errorf("eviction percentage threshold %v must be >= 0%%: %s", signal, val)
		}
		if percentage > 1 {
			return fmt.Errorf("eviction percentage threshold %v must be <= 100%%: %s", signal, val)
		}
		return nil
	}
	quantity, err := resource.ParseQuantity(val)
	if err != nil {
		return err
	}
	if quantity.Sign() < 0 || quantity.IsZero() {
		return fmt.Errorf("eviction threshold %v must be positive: %s", signal, &quantity)
	}
	return nil
}

// rsParseGracePeriod is parseGracePeriods' error for one entry.
func rsParseGracePeriod(signal, val string) error {
	if !rsValidSignal(signal) {
		return fmt.Errorf("unsupported eviction signal %v", signal)
	}
	d, err := time.ParseDuration(val)
	if err != nil {
		return err
	}
	if d < 0 {
		return fmt.Errorf("invalid eviction grace period specified: %v, must be a positive value", val)
	}
	return nil
}

// rsParseMinimumReclaim is parseMinimumReclaims' error for one entry.
func rsParseMinimumReclaim(signal, val string) error {
	if !rsValidSignal(signal) {
		return fmt.Errorf("unsupported eviction signal %v", signal)
	}
	if strings.HasSuffix(val, "%") {
		percentage, err := rsParsePercentage(val)
		if err != nil {
			return err
		}
		if percentage <= 0 {
			return fmt.Errorf("eviction percentage minimum reclaim %v must be positive: %s", signal, val)
		}
		return nil
	}
	quantity, err := resource.ParseQuantity(val)
	if err != nil {
		return err
	}
	if quantity.Sign() < 0 {
		return fmt.Errorf("negative eviction minimum reclaim specified for %v", signal)
	}
	return nil
}

// rsEvictionMap is one of ParseThresholdConfig's maps.
type rsEvictionMap struct {
	field  string
	values map[string]string
	parse  func(signal, val string) error
}

func rsEvictionMaps(k *kvConfig) []rsEvictionMap {
	return []rsEvictionMap{
		{"evictionHard", k.EvictionHard, rsParseThreshold},
		{"evictionSoft", k.EvictionSoft, rsParseThreshold},
		{"evictionSoftGracePeriod", k.EvictionSoftGracePeriod, rsParseGracePeriod},
		{"evictionMinimumReclaim", k.EvictionMinimumReclaim, rsParseMinimumReclaim},
	}
}

// rsEvictionPrefix is how the kubelet wraps a map's error: run() parses
// evictionHard first (unless --experimental-allocatable-ignore-eviction), and
// NewMainKubelet parses all four.
func rsEvictionPrefix(c *rule.Context, field string) string {
	if field == "evictionHard" && !c.IgnoreAllocatableEviction {
		return rsRun
	}
	return rsNewKubelet
}

// rsEvictionFailures calls report for every entry of the named maps that fails:
// with badSignals, the entries whose key is no signal (KC4520); without, the
// entries of a signal whose value fails.
func rsEvictionFailures(c *rule.Context, k *kvConfig, badSignals bool, fields []string, report func(field, key, value string, err error)) {
	for _, m := range rsEvictionMaps(k) {
		if !slices.Contains(fields, m.field) {
			continue
		}
		for _, key := range sortedKeys(m.values) {
			if rsValidSignal(key) == badSignals {
				continue
			}
			if err := m.parse(key, m.values[key]); err != nil {
				report(m.field, key, m.values[key], err)
			}
		}
	}
}

const rsSignalsHint = "memory.available, nodefs.available, nodefs.inodesFree, imagefs.available, imagefs.inodesFree, " +
	"containerfs.available, containerfs.inodesFree, allocatableMemory.available, pid.available"

var (
	rsEvictionSignal = rsRule(&rule.Rule{
		ID:      "KC4520",
		Name:    "eviction-signal-unknown",
		Fields:  []string{"evictionHard", "evictionSoft", "evictionSoftGracePeriod", "evictionMinimumReclaim"},
		Summary: "An eviction map names a signal the kubelet does not know; it refuses to start",
		Doc: "Validation does not read the eviction maps: run() parses evictionHard and NewMainKubelet all " +
			"four (ParseThresholdConfig), and a key that is not an eviction signal stops the kubelet " +
			"(\"unsupported eviction signal memory.availble\"). The signals are " + rsSignalsHint + ". " +
			"Fix: spell the signal as listed.",
		Kubelet: rsEvictionFunc,
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		rsEvictionFailures(c, k, true, []string{"evictionHard", "evictionSoft", "evictionSoftGracePeriod", "evictionMinimumReclaim"},
			func(field, key, value string, err error) {
				hint := "use one of " + rsSignalsHint
				if s, ok := rsNearestSignal(key); ok {
					hint = "did you mean " + strconv.Quote(s) + "? The signals are " + rsSignalsHint
				}
				emit(field+"["+key+"]",
					fmt.Sprintf("%s: %q is not an eviction signal, so the kubelet refuses to start", field, key),
					hint, rsEvictionPrefix(c, field)+err.Error())
			})
	})

	rsEvictionThreshold = rsRule(&rule.Rule{
		ID:      "KC4521",
		Name:    "eviction-threshold-invalid",
		Fields:  []string{"evictionHard", "evictionSoft"},
		Summary: "An evictionHard or evictionSoft value is no quantity, not positive, or a percentage outside 0%..100%; the kubelet refuses to start",
		Doc: "A threshold is a quantity greater than zero (100Mi, 1Gi, 10k for inodes and PIDs) or a " +
			"percentage (10%, 7.5%). run() parses evictionHard after validation, NewMainKubelet evictionSoft, " +
			"and a value that does not parse stops the kubelet: 500MB, 1gb and \"ten%\" do not parse, 0 is not " +
			"positive, 110% is over 100%. 0% and 100% are ignored rather than refused. Fix: write a quantity " +
			"such as 500Mi or a percentage such as 10%.",
		Kubelet: rsEvictionFunc,
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		rsEvictionFailures(c, k, false, []string{"evictionHard", "evictionSoft"}, func(field, key, value string, err error) {
			emit(field+"["+key+"]",
				fmt.Sprintf("%s[%s] is %q, which the kubelet refuses: %s", field, key, value, rsShortError(err)),
				"write a quantity greater than zero such as 500Mi or 1Gi, or a percentage such as 10%",
				rsEvictionPrefix(c, field)+err.Error())
		})
	})

	rsEvictionGrace = rsRule(&rule.Rule{
		ID:      "KC4522",
		Name:    "eviction-soft-grace-period",
		Fields:  []string{"evictionSoft", "evictionSoftGracePeriod"},
		Summary: "A soft eviction threshold has no grace period, or a grace period is no Go duration; the kubelet refuses to start",
		Doc: "NewMainKubelet (ParseThresholdConfig) needs an evictionSoftGracePeriod entry for every " +
			"evictionSoft signal (\"grace period must be specified for the soft eviction threshold " +
			"memory.available\"; 0% and 100% are no threshold and need none), and each grace period must be a Go duration of zero or more (1m30s; 90 " +
			"without a unit is refused). A grace period without a soft threshold is accepted and unused. Fix: " +
			"give each soft threshold a grace period such as 1m30s.",
		Kubelet: rsEvictionFunc,
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		rsEvictionFailures(c, k, false, []string{"evictionSoftGracePeriod"}, func(field, key, value string, err error) {
			emit(field+"["+key+"]",
				fmt.Sprintf("%s[%s] is %q, which the kubelet refuses: %s", field, key, value, rsShortError(err)),
				"write a Go duration such as 90s or 1m30s",
				rsNewKubelet+err.Error())
		})
		for _, key := range sortedKeys(k.EvictionSoft) {
			// 0% and 100% are no threshold (parseThresholdStatement returns none),
			// so they need no grace period.
			if v := k.EvictionSoft[key]; v == "0%" || v == "100%" {
				continue
			}
			if _, ok := k.EvictionSoftGracePeriod[key]; !ok && rsValidSignal(key) {
				emit("evictionSoft["+key+"]",
					fmt.Sprintf("the soft eviction threshold %s has no evictionSoftGracePeriod, so the kubelet refuses to start", key),
					fmt.Sprintf("add evictionSoftGracePeriod: {%s: 1m30s} (the time the threshold must hold before pods are evicted)", key),
					rsNewKubelet+"grace period must be specified for the soft eviction threshold "+key)
			}
		}
	})

	rsEvictionReclaim = rsRule(&rule.Rule{
		ID:      "KC4523",
		Name:    "eviction-minimum-reclaim-invalid",
		Fields:  []string{"evictionMinimumReclaim"},
		Summary: "An evictionMinimumReclaim value is no quantity, negative, or a percentage that is not positive; the kubelet refuses to start",
		Doc: "NewMainKubelet (ParseThresholdConfig) parses evictionMinimumReclaim: a quantity of zero or more " +
			"(500Mi) or a percentage above zero (5%). Fix: write a quantity such as 500Mi or a percentage such as 5%.",
		Kubelet: rsEvictionFunc,
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		rsEvictionFailures(c, k, false, []string{"evictionMinimumReclaim"}, func(field, key, value string, err error) {
			emit(field+"["+key+"]",
				fmt.Sprintf("%s[%s] is %q, which the kubelet refuses: %s", field, key, value, rsShortError(err)),
				"write a quantity such as 500Mi or a percentage above zero such as 5%",
				rsNewKubelet+err.Error())
		})
	})
)

// rsShortError is an eviction error without resource.ParseQuantity's regular
// expression, which says nothing to a reader of the finding (the kubelet's
// words keep it).
func rsShortError(err error) string {
	if errors.Is(err, resource.ErrFormatWrong) {
		return "it is not a quantity"
	}
	return err.Error()
}

// rsNearestSignal is the signal a misspelt key most likely meant.
func rsNearestSignal(key string) (string, bool) {
	s := didyoumean.Nearest(key, rsEvictionSignals)
	return s, s != ""
}

// ---- run: qosReserved, topology manager options, swap.

// rsParseQOSPercentage is the cm package's parsePercentage.
func rsParseQOSPercentage(v string) error {
	if !strings.HasSuffix(v, "%") {
		return fmt.Errorf("percentage expected, got '%s'", v)
	}
	percentage, err := strconv.ParseInt(strings.TrimRight(v, "%"), 10, 0)
	if err != nil {
		return fmt.Errorf("invalid number in percentage '%s'", v)
	}
	if percentage < 0 || percentage > 100 {
		return fmt.Errorf("percentage must be between 0 and 100")
	}
	return nil
}

var (
	rsQOSReserved = rsRule(&rule.Rule{
		ID:      "KC4530",
		Name:    "qos-reserved-invalid",
		Fields:  []string{"qosReserved"},
		Summary: "qosReserved reserves something other than memory, or not as a whole percentage 0%..100%; the kubelet refuses to start",
		Doc: "run() parses qosReserved (cm.ParseQOSReserved) after validation: only memory can be reserved, " +
			"as a whole percentage from 0% to 100% (50%). Fix: write qosReserved: {memory: 50%}.",
		Kubelet: "pkg/kubelet/cm/qos_container_manager_linux.go ParseQOSReserved (run)",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		for _, key := range sortedKeys(k.QOSReserved) {
			v := k.QOSReserved[key]
			var err error
			if key != "memory" {
				err = fmt.Errorf("cannot reserve %q resource", key)
			} else if perr := rsParseQOSPercentage(v); perr != nil {
				err = fmt.Errorf("failed to parse percentage %q for %q resource: %w", v, key, perr)
			}
			if err != nil {
				emit("qosReserved["+key+"]",
					fmt.Sprintf("qosReserved[%s] is %q: %s, so the kubelet refuses to start", key, v, err),
					"reserve memory only, as a whole percentage such as 50%",
					rsRun+"--qos-reserved value failed to parse: "+err.Error())
			}
		}
	})

	rsTopologyOptionsGate = rsRule(&rule.Rule{
		ID:      "KC4531",
		Name:    "topology-manager-policy-options-gate",
		Fields:  []string{"topologyManagerPolicyOptions"},
		Summary: "topologyManagerPolicyOptions is set with the TopologyManagerPolicyOptions gate off; the kubelet refuses to start",
		Doc: "run() refuses topologyManagerPolicyOptions (even an empty map) when the TopologyManagerPolicyOptions " +
			"gate is off. Up to 1.35 the gate can be turned off; from 1.36 it is locked on and turning it off " +
			"is refused before (KC3002). Fix: remove the options or turn the gate on.",
		Kubelet: rsServerFunc + "run",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		const gate = "TopologyManagerPolicyOptions"
		if k.TopologyManagerPolicyOptions == nil || !c.GateRegistered(gate) || c.Gates.Enabled(gate) {
			return
		}
		emit("topologyManagerPolicyOptions",
			"topologyManagerPolicyOptions is set but the TopologyManagerPolicyOptions gate is off, so the kubelet refuses to start",
			"remove topologyManagerPolicyOptions, or set featureGates: {TopologyManagerPolicyOptions: true}",
			rsRun+fmt.Sprintf("topology manager policy options %v require feature gates %q enabled", k.TopologyManagerPolicyOptions, gate))
	})

	rsLimitedSwapMessage = byMinor[string]{
		{"1.31", "swap feature is enabled and LimitedSwap but it is only supported with cgroupv2"},
		{"1.38", "LimitedSwap is only supported with cgroupv2"},
	}

	rsLimitedSwap = rsRule(&rule.Rule{
		ID:      "KC4532",
		Name:    "limited-swap-cgroup-v1",
		Fields:  []string{"memorySwap.swapBehavior"},
		Summary: "host check (--cgroup-version): memorySwap.swapBehavior LimitedSwap on a cgroup v1 host; the kubelet refuses to start",
		Doc: "Host-dependent: decided by --cgroup-version. run() refuses LimitedSwap where the host does not " +
			"use cgroup v2; up to 1.37 only while the NodeSwap gate is on (it is by default), from 1.38 " +
			"always. From 1.35 failCgroupV1 (true by default) already refuses a cgroup v1 host. Fix: move the " +
			"node to cgroup v2, or use NoSwap. On Windows, which has no cgroup v2, LimitedSwap is refused likewise.",
		Kubelet: rsServerFunc + "run",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		// Windows has no cgroup v2 either: IsCgroup2UnifiedMode is false there.
		if c.CgroupVersion == 2 || k.MemorySwap.SwapBehavior != "LimitedSwap" {
			return
		}
		// Up to 1.37 behind the NodeSwap gate; an unparsable minor is the newest.
		if before, ok := compareMinors(c.Version(), "1.38"); ok && before < 0 && !(c.GateRegistered("NodeSwap") && c.Gates.Enabled("NodeSwap")) {
			return
		}
		msg, hint := "memorySwap.swapBehavior is LimitedSwap but the host uses cgroup v1, so the kubelet refuses to start",
			"move the node to cgroup v2, or set memorySwap.swapBehavior: NoSwap"
		if c.OS == kubelets.Windows {
			msg, hint = "memorySwap.swapBehavior is LimitedSwap, which needs cgroup v2: the Windows kubelet refuses to start",
				"set memorySwap.swapBehavior: NoSwap (or leave it out) on Windows nodes"
		}
		emit("memorySwap.swapBehavior", msg, hint,
			rsRun+rsLimitedSwapMessage.at(c.Minor))
	})
)

// ---- NewMainKubelet.

// rsSysctlPatternRegexp is policy validation's SysctlContainSlashPatternFmt.
const rsSysctlPatternFmt = "(" + kvSysctlSegmentFmt + "[\\./])*" + "([a-z0-9][-_a-z0-9]*)?[a-z0-9*]"

var rsSysctlPatternRegexp = regexp.MustCompile("^" + rsSysctlPatternFmt + "$")

// rsSysctlAllowlistError is sysctl.NewAllowlist's error for one pattern.
func rsSysctlAllowlistError(s string) error {
	if len(s) > kvSysctlMaxLength || !rsSysctlPatternRegexp.MatchString(s) {
		return fmt.Errorf("sysctl %q must have at most %d characters and match regex %s", s, kvSysctlMaxLength, rsSysctlPatternFmt)
	}
	if kvSysctlNamespace(s) == "" {
		name := kvNormalizeSysctlName(s)
		if i := strings.IndexByte(name, '*'); i >= 0 {
			name = name[:i]
		}
		return fmt.Errorf("the sysctls %q are not known to be namespaced", name)
	}
	return nil
}

var (
	rsSyncFrequency = rsRule(&rule.Rule{
		ID:      "KC4540",
		Name:    "sync-frequency-not-positive",
		Fields:  []string{"syncFrequency"},
		Summary: "syncFrequency is negative; NewMainKubelet refuses to start",
		Doc: "Validation does not check syncFrequency; defaulting replaces 0 with 1m, and NewMainKubelet " +
			"refuses what is left below zero (\"invalid sync frequency -1000000000\"). Fix: a positive " +
			"duration such as 1m, or remove the field.",
		Kubelet: rsNewMainKubelet,
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if d := k.SyncFrequency.Duration; d <= 0 {
			emit("syncFrequency", fmt.Sprintf("syncFrequency is %s; it must be positive, so the kubelet refuses to start", d),
				"use a positive duration such as 1m (the default), or remove syncFrequency",
				rsNewKubelet+fmt.Sprintf("invalid sync frequency %d", d))
		}
	})

	rsChangeDetection = rsRule(&rule.Rule{
		ID:      "KC4541",
		Name:    "configmap-secret-strategy-unknown",
		Fields:  []string{"configMapAndSecretChangeDetectionStrategy"},
		Summary: "configMapAndSecretChangeDetectionStrategy is not Watch, Cache or Get; the kubelet refuses to start",
		Doc: "Validation does not check configMapAndSecretChangeDetectionStrategy; NewMainKubelet refuses any " +
			"value but Watch, Cache and Get, spelled so (watch is refused). It checks only with an API " +
			"server: a standalone kubelet (no --kubeconfig) never reads the field, and kubeletcfg assumes a " +
			"node that joins a cluster. Fix: write Watch (the default), Cache or Get.",
		Kubelet: rsNewMainKubelet,
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		switch s := string(k.ConfigMapAndSecretChangeDetectionStrategy); s {
		case "Watch", "Cache", "Get":
		default:
			hint := "write Watch (the default), Cache or Get"
			for _, want := range []string{"Watch", "Cache", "Get"} {
				if strings.EqualFold(s, want) {
					hint = "spell it " + want + " (the values are case-sensitive)"
				}
			}
			emit("configMapAndSecretChangeDetectionStrategy",
				fmt.Sprintf("configMapAndSecretChangeDetectionStrategy %q is not Watch, Cache or Get, so the kubelet refuses to start", s),
				hint, rsNewKubelet+"unknown configmap and secret manager mode: "+s)
		}
	})

	rsContainerLogMaxFiles = rsRule(&rule.Rule{
		ID:      "KC4544",
		Name:    "container-log-max-files-run",
		Fields:  []string{"containerLogMaxFiles"},
		Until:   "1.32", // from 1.33 validation refuses the same values first (KC4098)
		Summary: "containerLogMaxFiles is 1 or less; NewMainKubelet refuses to start (1.31 and 1.32, where validation does not check it)",
		Doc: "NewContainerLogManager refuses fewer than two log files (\"invalid MaxFiles 1, must be > 1\"). " +
			"From 1.33 validation refuses the same value first (KC4098), so only 1.31 and 1.32 reach this " +
			"check. Fix: set containerLogMaxFiles to 2 or more (the default is 5).",
		Kubelet: "pkg/kubelet/logs/container_log_manager.go NewContainerLogManager (NewMainKubelet)",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		if n := k.ContainerLogMaxFiles; n != nil && *n <= 1 {
			emit("containerLogMaxFiles",
				fmt.Sprintf("containerLogMaxFiles is %d; the kubelet keeps at least 2 log files per container, so it refuses to start", *n),
				"set containerLogMaxFiles to 2 or more (the default is 5)",
				rsNewKubelet+fmt.Sprintf("failed to initialize container log manager: invalid MaxFiles %d, must be > 1", *n))
		}
	})

	rsContainerLogMaxSize = rsRule(&rule.Rule{
		ID:      "KC4542",
		Name:    "container-log-max-size-invalid",
		Fields:  []string{"containerLogMaxSize"},
		Summary: "containerLogMaxSize is no quantity that fits in 64 bits; the kubelet refuses to start",
		Doc: "Validation does not parse containerLogMaxSize: NewMainKubelet does (NewContainerLogManager), " +
			"and 10MB, \"10 Mi\" or 1e100 stop the kubelet. A negative size turns log rotation off. Fix: write " +
			"a quantity such as 10Mi.",
		Kubelet: "pkg/kubelet/logs/container_log_manager.go NewContainerLogManager (NewMainKubelet)",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		var err error
		q, perr := resource.ParseQuantity(k.ContainerLogMaxSize)
		if perr != nil {
			err = perr
		} else if _, ok := q.AsInt64(); !ok {
			err = errors.New("invalid max log size")
		}
		if err != nil {
			emit("containerLogMaxSize",
				fmt.Sprintf("containerLogMaxSize %q is not a size the kubelet can parse: %s, so it refuses to start", k.ContainerLogMaxSize, rsShortError(err)),
				"write a quantity such as 10Mi or 50Mi (binary suffixes Ki, Mi, Gi; no space, no B)",
				rsNewKubelet+fmt.Sprintf("failed to initialize container log manager: failed to parse container log max size %q: %v", k.ContainerLogMaxSize, err))
		}
	})

	rsUnsafeSysctls = rsRule(&rule.Rule{
		ID:      "KC4543",
		Name:    "allowed-unsafe-sysctl-invalid",
		Fields:  []string{"allowedUnsafeSysctls"},
		Summary: "allowedUnsafeSysctls holds a pattern that is not a sysctl name or prefix, or a sysctl that is not namespaced; the kubelet refuses to start",
		Doc: "Validation does not check allowedUnsafeSysctls: NewMainKubelet builds its allowlist from it " +
			"(sysctl.NewAllowlist), and an entry that is not a sysctl name (net.core.somaxconn) or prefix " +
			"ending in * (net.ipv4.*), or a sysctl the kernel does not namespace (vm.*, kernel.panic), stops " +
			"the kubelet. Fix: keep namespaced sysctls only (net.*, kernel.shm*, kernel.msg*, kernel.sem, " +
			"fs.mqueue.*, user.*); set node-wide sysctls on the host.",
		Kubelet: "pkg/kubelet/sysctl/allowlist.go NewAllowlist (NewMainKubelet)",
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
		for i, s := range k.AllowedUnsafeSysctls {
			if err := rsSysctlAllowlistError(s); err != nil {
				msg := fmt.Sprintf("allowedUnsafeSysctls: %q is not a sysctl name or a prefix ending in *, so the kubelet refuses to start", s)
				if strings.HasPrefix(err.Error(), "the sysctls") {
					msg = fmt.Sprintf("allowedUnsafeSysctls: %q is not namespaced by the kernel, so pods cannot set it and the kubelet refuses to start", s)
				}
				emit(fmt.Sprintf("allowedUnsafeSysctls[%d]", i), msg,
					"allow namespaced sysctls only (net.*, kernel.shm*, kernel.msg*, kernel.sem, fs.mqueue.*, user.*); set node-wide sysctls on the host",
					rsNewKubelet+err.Error())
			}
		}
	})
)

// windowsPriorityClasses are the names init_windows.go getPriorityValue maps
// (the same at 1.31..1.38).
var windowsPriorityClasses = []string{"IDLE_PRIORITY_CLASS", "BELOW_NORMAL_PRIORITY_CLASS", "NORMAL_PRIORITY_CLASS",
	"ABOVE_NORMAL_PRIORITY_CLASS", "HIGH_PRIORITY_CLASS", "REALTIME_PRIORITY_CLASS"}

// ---- Run -> initForOS (Windows).

var rsWindowsPriorityClass = func() *rule.Rule {
	r := &rule.Rule{
		ID:      "KC4545",
		Name:    "windows-priorityclass-unknown",
		OS:      kubelets.Windows,
		Summary: "--windows-priorityclass names no Windows priority class; the Windows kubelet refuses to start",
		Doc: "The Windows kubelet's Run calls initForOS before run(): getPriorityValue maps --windows-priorityclass " +
			"(default NORMAL_PRIORITY_CLASS) to a Windows priority class, and a name it does not map (a typo, a " +
			"lower-case name, an empty value) stops the kubelet (\"failed OS init: unknown priority class X\"). " +
			"The names are IDLE_PRIORITY_CLASS, BELOW_NORMAL_PRIORITY_CLASS, NORMAL_PRIORITY_CLASS, " +
			"ABOVE_NORMAL_PRIORITY_CLASS, HIGH_PRIORITY_CLASS and REALTIME_PRIORITY_CLASS. Fix: write one of them.",
		Kubelet: "cmd/kubelet/app/init_windows.go initForOS, getPriorityValue (server.go Run)",
		Stage:   rule.StageRun,
	}
	r.Severity = finding.Error
	r.Check = func(c *rule.Context) []finding.Finding {
		if c == nil || c.OS != kubelets.Windows || c.WindowsPriorityClassAt.File == "" && c.WindowsPriorityClass == "" {
			return nil
		}
		if slices.Contains(windowsPriorityClasses, c.WindowsPriorityClass) {
			return nil
		}
		hint := "write one of " + strings.Join(windowsPriorityClasses, ", ")
		if near := didyoumean.Nearest(strings.ToUpper(c.WindowsPriorityClass), windowsPriorityClasses); near != "" {
			hint = fmt.Sprintf("did you mean %s?", near)
		}
		f := r.At(c.WindowsPriorityClassAt, "", fmt.Sprintf("--windows-priorityclass=%s names no Windows priority class, so the Windows kubelet refuses to start", c.WindowsPriorityClass), hint)
		f.Kubelet = fmt.Sprintf("failed OS init: unknown priority class %s, valid ones are available at https://docs.microsoft.com/en-us/windows/win32/procthread/scheduling-priorities", c.WindowsPriorityClass)
		return []finding.Finding{f}
	}
	return r
}()

// runStageRules are this file's rules, in the order the kubelet reaches their checks.
var runStageRules = []*rule.Rule{
	rsTLSCipherSuites, rsTLSMinVersion, rsTLSCurves, rsWindowsPriorityClass,
	rsReserved, rsReservedCPUsReplace,
	rsEvictionSignal, rsEvictionThreshold, rsEvictionGrace, rsEvictionReclaim,
	rsQOSReserved, rsTopologyOptionsGate, rsLimitedSwap,
	rsSyncFrequency, rsChangeDetection, rsContainerLogMaxFiles, rsContainerLogMaxSize, rsUnsafeSysctls,
}

// runStep is where the kubelet meets a run-stage error, in the order of its
// checks: InitializeTLS, run, NewMainKubelet, and inside NewMainKubelet
// ParseThresholdConfig's order (hard, soft, grace periods, minimum reclaims, then
// the soft thresholds without a grace period). Errors at one step are met in Go's
// map order, so no one of them is behind another.
func runStep(f finding.Finding, ignoreAllocatableEviction bool) int {
	field, _, _ := strings.Cut(f.Path, "[")
	switch f.Rule {
	case rsTLSCipherSuites.ID:
		return 0
	case rsTLSMinVersion.ID:
		return 1
	case rsTLSCurves.ID:
		return 2
	case rsWindowsPriorityClass.ID:
		return 3 // Run's initForOS, before run()
	case rsReserved.ID:
		if field == "kubeReserved" {
			return 4
		}
		return 5
	case rsEvictionSignal.ID, rsEvictionThreshold.ID, rsEvictionGrace.ID, rsEvictionReclaim.ID:
		switch {
		case field == "evictionHard" && !ignoreAllocatableEviction:
			return 6 // run() parses evictionHard first
		case field == "evictionHard":
			return 11
		case field == "evictionSoft" && f.Rule == rsEvictionGrace.ID:
			return 15 // every map parsed, a soft threshold has no grace period
		case field == "evictionSoft":
			return 12
		case field == "evictionSoftGracePeriod":
			return 13
		}
		return 14
	case rsQOSReserved.ID:
		return 7
	case rsTopologyOptionsGate.ID:
		return 8
	case rsLimitedSwap.ID:
		return 9
	case rsSyncFrequency.ID:
		return 10
	case rsChangeDetection.ID:
		return 16
	case rsContainerLogMaxFiles.ID:
		return 17
	case rsContainerLogMaxSize.ID:
		return 18
	}
	return 19 // rsUnsafeSysctls
}

// behindRun marks the run stage's errors the kubelet does not reach yet: all of
// them when validation refused (validation is the first error's rule), else those
// met after the first step that fails (that step's first finding's rule).
func behindRun(prior, run []finding.Finding, ignoreAllocatableEviction bool) []finding.Finding {
	var front *finding.Finding
	for i := range prior {
		if f := &prior[i]; f.Severity == finding.Error && f.Behind == "" && (front == nil || finding.Less(f, front)) {
			front = f
		}
	}
	behind, first := "", -1
	if front != nil {
		behind = front.Rule
	} else {
		for _, f := range run {
			if s := runStep(f, ignoreAllocatableEviction); f.Severity == finding.Error && (first < 0 || s < first) {
				first, behind = s, f.Rule
			}
		}
	}
	for i := range run {
		if f := &run[i]; f.Severity == finding.Error && (front != nil || runStep(*f, ignoreAllocatableEviction) > first) {
			f.Behind = behind
		}
	}
	return run
}
