package validate

import (
	"fmt"
	"math"
	"path"
	"reflect"
	"strings"
	"unicode"

	"github.com/blang/semver/v4"
	"k8s.io/apimachinery/pkg/util/validation/field"
	logsapi "k8s.io/component-base/logs/api/v1"
	_ "k8s.io/component-base/logs/json/register" // the kubelet registers the json log format too
	metricsapi "k8s.io/component-base/metrics/api/v1"
	tracingapi "k8s.io/component-base/tracing/api/v1"
	kubeletv1beta1 "k8s.io/kubelet/config/v1beta1"
)

// ValidateKubeletConfiguration, continued in source order: the Linux OS checks
// (validateKubeletOSConfiguration), showHiddenMetricsForVersion, logging,
// tracing, memory QoS, the runtime endpoint, system log query, container logs and
// podLogsDir.

// ---- validation_linux.go: validateKubeletOSConfiguration returns only its FIRST
// failure, so each rule below fires only when it is that first failure. Each
// minor appended its checks after the older ones (1.32 singleProcessOOMKill, 1.33
// userNamespaces), so a check a minor lacks can only come after that minor's
// last one: kvFirstOSFailure walks them all and the rule of a failure the minor
// does not have is out of its range (Rule.Since) and never runs.

const kvUserNsUnitLength = 65536

type kvOSFailure int

const (
	kvOSNone kvOSFailure = iota
	kvOSFailCgroupV1
	kvOSSingleProcessOOMKill
	kvOSIDsTooFew
	kvOSIDsNotMultiple
	kvOSIDsTooMany
)

// kvFirstOSFailure is validateKubeletOSConfiguration (Linux) with the host's cgroup
// version taken from the context instead of the running machine.
func kvFirstOSFailure(c *Context) kvOSFailure {
	k := c.Config
	isCgroup1 := c.CgroupVersion == 1
	if kvBool(k.FailCgroupV1) && isCgroup1 {
		return kvOSFailCgroupV1
	}
	if isCgroup1 && k.SingleProcessOOMKill != nil && !*k.SingleProcessOOMKill {
		return kvOSSingleProcessOOMKill
	}
	if un := k.UserNamespaces; un != nil {
		if ids := un.IDsPerPod; ids != nil {
			if *ids < kvUserNsUnitLength {
				return kvOSIDsTooFew
			}
			if *ids%kvUserNsUnitLength != 0 {
				return kvOSIDsNotMultiple
			}
			if *ids > math.MaxUint32 {
				return kvOSIDsTooMany
			}
		}
	}
	return kvOSNone
}

// kvFailCgroupV1Message is the kubelet's error; it has no "invalid configuration:" prefix.
var kvFailCgroupV1Message = byMinor[string]{
	{"1.31", "kubelet is configured to not run on a host using cgroup v1. cgroup v1 support is in maintenance mode"},
	{"1.35", "kubelet is configured to not run on a host using cgroup v1. cgroup v1 support is unsupported and will be removed in a future release"},
}

var (
	kvFailCgroupV1 = kvRule(&Rule{
		ID:      "KC5001",
		Name:    "fail-cgroup-v1",
		Stage:   StageHost,
		Summary: "host check (--cgroup-version): failCgroupV1 refuses to start on a cgroup v1 host",
		Doc: "Host-dependent: decided by --cgroup-version, since kubeletcfg cannot see the node. failCgroupV1 " +
			"defaults to true from 1.35 (false before), so from 1.35 on a host using cgroup v1 the kubelet " +
			"refuses to start unless it is set to false; cgroup v1 support is unsupported and will be " +
			"removed. This is the first Linux OS check: when it fails the later ones (singleProcessOOMKill, " +
			"userNamespaces.idsPerPod) are not reported. Its message has no \"invalid configuration:\" " +
			"prefix, and up to 1.34 ends \"cgroup v1 support is in maintenance mode\". Fix: move the node " +
			"to cgroup v2 (preferred), or set failCgroupV1: false to keep running on cgroup v1.",
		Kubelet: kvValidationLinuxFunc,
	}, func(c *Context, k *kvConfig, emit kvEmit) {
		if kvFirstOSFailure(c) == kvOSFailCgroupV1 {
			msg := "failCgroupV1 is true (the default) and the host uses cgroup v1, so the kubelet refuses to start"
			if c.Set("failCgroupV1") {
				msg = "failCgroupV1 is true and the host uses cgroup v1, so the kubelet refuses to start"
			}
			emit("failCgroupV1", msg,
				"migrate the host to cgroup v2, or set failCgroupV1: false to allow cgroup v1 (unsupported)",
				kvFailCgroupV1Message.at(c.Minor))
		}
	})

	kvSingleProcessOOMKillV1 = kvRule(&Rule{
		ID:      "KC5002",
		Since:   "1.32",
		Name:    "single-process-oom-kill-cgroup-v1",
		Stage:   StageHost,
		Summary: "host check (--cgroup-version): singleProcessOOMKill must not be false on cgroup v1",
		Doc: "Host-dependent: decided by --cgroup-version. On cgroup v1 the kernel always kills single " +
			"processes on OOM (there is no memory.oom.group), so an explicit singleProcessOOMKill: false " +
			"is refused. Only reported when failCgroupV1 did not already stop the kubelet (the Linux OS " +
			"checks return the first failure). Fix: remove singleProcessOOMKill or set it to true.",
		Kubelet: kvValidationLinuxFunc,
	}, func(c *Context, k *kvConfig, emit kvEmit) {
		if kvFirstOSFailure(c) == kvOSSingleProcessOOMKill {
			emit("singleProcessOOMKill",
				"singleProcessOOMKill is false but the host uses cgroup v1, where whole-cgroup OOM kill is not available",
				"remove singleProcessOOMKill (or set it to true) on cgroup v1 hosts",
				"invalid configuration: singleProcessOOMKill must not be explicitly set to false when using cgroup v1")
		}
	})

	kvIDsPerPodMin = kvRule(&Rule{
		ID:      "KC4070",
		Since:   "1.33",
		Name:    "user-namespaces-ids-per-pod-min",
		Summary: "userNamespaces.idsPerPod must be at least 65536",
		Doc: "idsPerPod is the size of the UID/GID range given to each pod with a user namespace; it must " +
			"be at least 65536. The Linux OS checks return only their first failure, so this is not " +
			"reported when a cgroup v1 check already failed. Fix: use 65536 or a larger multiple of it.",
		Kubelet: kvValidationLinuxFunc,
	}, func(c *Context, k *kvConfig, emit kvEmit) {
		if kvFirstOSFailure(c) == kvOSIDsTooFew {
			emit("userNamespaces.idsPerPod",
				fmt.Sprintf("userNamespaces.idsPerPod is %d; it must be at least %d", *k.UserNamespaces.IDsPerPod, kvUserNsUnitLength),
				"set userNamespaces.idsPerPod to 65536 or a larger multiple of 65536",
				fmt.Sprintf("invalid configuration: userNamespaces.idsPerPod must not be less than %d", kvUserNsUnitLength))
		}
	})

	kvIDsPerPodMultiple = kvRule(&Rule{
		ID:      "KC4071",
		Since:   "1.33",
		Name:    "user-namespaces-ids-per-pod-multiple",
		Summary: "userNamespaces.idsPerPod must be a multiple of 65536",
		Doc: "Pod ID ranges are allocated in units of 65536, so idsPerPod must be a multiple of 65536. " +
			"Reported only as the first Linux OS failure. Fix: round to a multiple of 65536.",
		Kubelet: kvValidationLinuxFunc,
	}, func(c *Context, k *kvConfig, emit kvEmit) {
		if kvFirstOSFailure(c) == kvOSIDsNotMultiple {
			ids := *k.UserNamespaces.IDsPerPod
			emit("userNamespaces.idsPerPod",
				fmt.Sprintf("userNamespaces.idsPerPod is %d, not a multiple of %d", ids, kvUserNsUnitLength),
				fmt.Sprintf("use a multiple of 65536, such as %d", ids/kvUserNsUnitLength*kvUserNsUnitLength),
				fmt.Sprintf("invalid configuration: userNamespaces.idsPerPod must be a multiple of %d", kvUserNsUnitLength))
		}
	})

	kvIDsPerPodMax = kvRule(&Rule{
		ID:      "KC4072",
		Since:   "1.33",
		Name:    "user-namespaces-ids-per-pod-max",
		Summary: "userNamespaces.idsPerPod must not exceed 4294967295",
		Doc: "idsPerPod must fit in a 32-bit ID range (at most 4294967295). Reported only as the first " +
			"Linux OS failure. Fix: use a smaller multiple of 65536.",
		Kubelet: kvValidationLinuxFunc,
	}, func(c *Context, k *kvConfig, emit kvEmit) {
		if kvFirstOSFailure(c) == kvOSIDsTooMany {
			emit("userNamespaces.idsPerPod",
				fmt.Sprintf("userNamespaces.idsPerPod is %d, more than %d", *k.UserNamespaces.IDsPerPod, int64(math.MaxUint32)),
				"use a multiple of 65536 no larger than 4294901760",
				fmt.Sprintf("invalid configuration: userNamespaces.idsPerPod must not be more than %d", int64(math.MaxUint32)))
		}
	})
)

// kvCurrentVersion parses the kubelet minor ("1.37") into the semver that
// component-base/metrics derives from the binary's version; the validator
// accepts only its previous minor.
func kvCurrentVersion(minor string) (semver.Version, bool) {
	a, b, ok := parseMinor(minor)
	if !ok || b == 0 {
		return semver.Version{}, false
	}
	return semver.Version{Major: uint64(a), Minor: uint64(b)}, true
}

// kvShowHiddenMetricsValidate is the validator the kubelet calls: up to 1.35
// component-base/metrics validateShowHiddenMetricsVersion with its flag-style
// message; from 1.36 the metrics/api/v1 one with a field error.
var kvShowHiddenMetricsValidate = byMinor[func(semver.Version, string) error]{
	{"1.31", func(cur semver.Version, target string) error {
		if target == "" {
			return nil
		}
		valid := fmt.Sprintf("%d.%d", cur.Major, cur.Minor-1)
		if target != valid {
			return fmt.Errorf("--show-hidden-metrics-for-version must be omitted or have the value '%v'. Only the previous minor version is allowed", valid)
		}
		return nil
	}},
	{"1.36", metricsapi.ValidateShowHiddenMetricsVersionForKubeletBackwardCompatOnly},
}

var kvShowHiddenMetrics = kvRule(&Rule{
	ID:      "KC4073",
	Name:    "show-hidden-metrics-previous-minor",
	Summary: "showHiddenMetricsForVersion must be empty or the previous minor version",
	Doc: "showHiddenMetricsForVersion re-enables metrics hidden (deprecated) in the previous release; " +
		"only the minor just before the kubelet's own is accepted (1.36 for kubelet 1.37), as " +
		"\"<major>.<minor>\" without a patch or \"v\". Up to 1.35 the message names the flag " +
		"(\"--show-hidden-metrics-for-version must be omitted or have the value '1.34'. Only the previous minor " +
		"version is allowed\"); from 1.36 it is a field error. Fix: remove it, or set it to the previous minor.",
	Kubelet: "pkg/kubelet/apis/config/validation/validation.go ValidateKubeletConfiguration (component-base/metrics ValidateShowHiddenMetricsVersion)",
}, func(c *Context, k *kvConfig, emit kvEmit) {
	cur, ok := kvCurrentVersion(c.Minor)
	if !ok || k.ShowHiddenMetricsForVersion == "" {
		return
	}
	if err := kvShowHiddenMetricsValidate.at(c.Minor)(cur, k.ShowHiddenMetricsForVersion); err != nil {
		prev := fmt.Sprintf("%d.%d", cur.Major, cur.Minor-1)
		emit("showHiddenMetricsForVersion",
			fmt.Sprintf("showHiddenMetricsForVersion is %q; kubelet %d.%d only accepts %q", k.ShowHiddenMetricsForVersion, cur.Major, cur.Minor, prev),
			fmt.Sprintf("set showHiddenMetricsForVersion to %q or remove it", prev),
			err.Error())
	}
})

// ---- logging: logsapi.Validate(&kc.Logging, gate, field.NewPath("logging")).
// The kubelet runs the same validation earlier, in logsapi.ValidateAndApplyAsField
// (cmd/kubelet/app/server.go), and stops there with "initialize logging: <errors>".

const kvLoggingFunc = "component-base/logs/api/v1 Validate (cmd/kubelet/app/server.go ValidateAndApplyAsField, then ValidateKubeletConfiguration)"

const kvLoggingStop = " The kubelet stops at start-up with \"initialize logging: <error>\" (logsapi.ValidateAndApplyAsField) before ValidateKubeletConfiguration repeats the check."

// kvFieldErrorText is field.Error's Error() as the kubelet's apimachinery renders
// it. Before apimachinery v0.34 (kubelet 1.31 to 1.33) a value that is not a
// string, bool, int32, int64, float32 or float64 is dereferenced and printed with
// String() or %#v, so a logging verbosity (a named uint32) reads 0x80000000; from
// 1.34 it is JSON, 2147483648.
var kvFieldErrorText = byMinor[func(*field.Error) string]{
	{"1.31", kvFieldErrorPre134},
	{"1.34", (*field.Error).Error},
}

// kvFieldErrorPre134 is (*field.Error).Error of apimachinery v0.31 to v0.33.
func kvFieldErrorPre134(e *field.Error) string {
	var s string
	switch {
	case e.Type == field.ErrorTypeRequired, e.Type == field.ErrorTypeForbidden,
		e.Type == field.ErrorTypeTooLong, e.Type == field.ErrorTypeInternal:
		s = e.Type.String()
	case e.BadValue == field.OmitValueType{}:
		s = e.Type.String()
	default:
		value := e.BadValue
		valueType := reflect.TypeOf(value)
		if value == nil || valueType == nil {
			value = "null"
		} else if valueType.Kind() == reflect.Pointer {
			if rv := reflect.ValueOf(value); rv.IsNil() {
				value = "null"
			} else {
				value = rv.Elem().Interface()
			}
		}
		switch t := value.(type) {
		case int64, int32, float64, float32, bool:
			s = fmt.Sprintf("%s: %v", e.Type, value)
		case string:
			s = fmt.Sprintf("%s: %q", e.Type, t)
		case fmt.Stringer:
			s = fmt.Sprintf("%s: %s", e.Type, t.String())
		default:
			s = fmt.Sprintf("%s: %#v", e.Type, value)
		}
	}
	if len(e.Detail) != 0 {
		s += fmt.Sprintf(": %s", e.Detail)
	}
	return fmt.Sprintf("%s: %s", e.Field, s)
}

// kvFieldRule builds a rule that reports the field.Errors, from a component-base
// validator, that match.
func kvFieldRule(r *Rule, validate func(c *Context, k *kvConfig) field.ErrorList, match func(fe *field.Error) bool, msg func(k *kvConfig, fe *field.Error) (string, string)) *Rule {
	return kvFieldRuleAt(r, validate, match, msg, "")
}

// kvFieldRuleAt is kvFieldRule for errors reported on a list item whose finding
// belongs on one of the item's fields (sub), so that it points at that line.
func kvFieldRuleAt(r *Rule, validate func(c *Context, k *kvConfig) field.ErrorList, match func(fe *field.Error) bool, msg func(k *kvConfig, fe *field.Error) (string, string), sub string) *Rule {
	return kvRule(r, func(c *Context, k *kvConfig, emit kvEmit) {
		for _, fe := range validate(c, k) {
			if match(fe) {
				m, h := msg(k, fe)
				path := fe.Field
				if sub != "" {
					path += "." + sub
				}
				emit(path, m, h, kvFieldErrorText.at(c.Minor)(fe))
			}
		}
	})
}

// kvVModuleRule is kvLoggingRule for errors on a logging.vmodule entry's field.
func kvVModuleRule(id, name, summary, doc, sub string, match func(fe *field.Error) bool, msg func(k *kvConfig, fe *field.Error) (string, string)) *Rule {
	return kvFieldRuleAt(&Rule{ID: id, Name: name, Summary: summary, Doc: doc + kvLoggingStop, Kubelet: kvLoggingFunc}, kvLogging, match, msg, sub)
}

func kvLogging(c *Context, k *kvConfig) field.ErrorList {
	return logsapi.Validate(&k.Logging, c.Gates, field.NewPath("logging"))
}

func kvLoggingRule(id, name, summary, doc string, match func(fe *field.Error) bool, msg func(k *kvConfig, fe *field.Error) (string, string)) *Rule {
	return kvFieldRule(&Rule{ID: id, Name: name, Summary: summary, Doc: doc + kvLoggingStop, Kubelet: kvLoggingFunc}, kvLogging, match, msg)
}

func kvIsVModuleItem(f string) bool { return strings.HasPrefix(f, "logging.vmodule[") }

// kvLogFlush is the flushFrequency check: component-base validates it from 1.35
// (v0.35); before, logsapi.ValidateAndApplyAsField applies a configuration whose
// other logging settings validate and klog.StartFlushDaemon's time.NewTicker
// panics on the non-positive interval.
var kvLogFlush = byMinor[kvCheck]{
	{"1.31", func(c *Context, k *kvConfig, emit kvEmit) {
		d := k.Logging.FlushFrequency.Duration.Duration
		if d > 0 {
			return
		}
		for _, fe := range kvLogging(c, k) {
			if fe.Field != "logging.flushFrequency" {
				return // logging validation fails first: nothing is applied
			}
		}
		emit("logging.flushFrequency",
			fmt.Sprintf("logging.flushFrequency is %v; this kubelet does not check it and panics when it starts flushing logs", d),
			"set logging.flushFrequency to a positive duration such as 5s",
			kvPanicPrefix+"non-positive interval for NewTicker")
	}},
	{"1.35", func(c *Context, k *kvConfig, emit kvEmit) {
		for _, fe := range kvLogging(c, k) {
			if fe.Field == "logging.flushFrequency" {
				emit(fe.Field,
					fmt.Sprintf("logging.flushFrequency is %v; it must be greater than zero", k.Logging.FlushFrequency.Duration.Duration),
					"set logging.flushFrequency to a positive duration such as 5s",
					kvFieldErrorText.at(c.Minor)(fe))
			}
		}
	}},
}

var (
	kvLogFlushFrequency = kvRule(&Rule{
		ID:      "KC4074",
		Name:    "logging-flush-frequency-positive",
		Summary: "logging.flushFrequency must be greater than zero",
		Doc: "logging.flushFrequency is the interval between log flushes; defaulting turns 0 into 5s, so this " +
			"fires for a negative value. From 1.35 logging validation refuses it. Up to 1.34 nothing checks it: " +
			"when the rest of logging validates, the kubelet starts the log flush daemon with it and panics " +
			"(\"non-positive interval for NewTicker\", from klog.StartFlushDaemon in logsapi.ValidateAndApplyAsField). " +
			"Fix: use a positive duration such as 5s." + kvLoggingStop,
		Kubelet: kvLoggingFunc,
	}, func(c *Context, k *kvConfig, emit kvEmit) { kvLogFlush.at(c.Minor)(c, k, emit) })

	kvLogFormatFlags = kvRule(&Rule{
		ID:      "KC4075",
		Name:    "logging-format-flags",
		Summary: "a non-text logging.format ignores klog command-line flags",
		Doc: "With a logging.format other than text, the kubelet refuses klog command-line flags that " +
			"the format does not honor when they differ from their defaults (\"Non-default format " +
			"doesn't honor flag: <flag>\"). The flags live on the kubelet command line, which kubeletcfg " +
			"does not see, so this rule is documented but never reported. Fix: drop those flags or use " +
			"logging.format: text." + kvLoggingStop,
		Kubelet: kvLoggingFunc,
	}, func(*Context, *kvConfig, kvEmit) {})

	kvLogFormatUnknown = kvLoggingRule("KC4076", "logging-format-known",
		"logging.format must be text or json",
		"The kubelet registers two log formats, text and json (case-sensitive); any other format is refused.",
		func(fe *field.Error) bool {
			return fe.Field == "logging.format" && fe.Detail == "Unsupported log format"
		},
		func(k *kvConfig, fe *field.Error) (string, string) {
			return fmt.Sprintf("logging.format %q is not a log format the kubelet knows", k.Logging.Format),
				"use text (default) or json"
		})

	kvLogFormatGate = kvLoggingRule("KC4077", "logging-format-needs-gate",
		"logging.format json requires the LoggingBetaOptions gate",
		"The json log format is gated by LoggingBetaOptions (beta, on by default); with the gate off it is refused. Fix: enable the gate or use text.",
		func(fe *field.Error) bool {
			return fe.Field == "logging.format" && fe.Type == field.ErrorTypeForbidden
		},
		func(k *kvConfig, fe *field.Error) (string, string) {
			return fmt.Sprintf("logging.format %q is disabled because its feature gate is off", k.Logging.Format),
				"enable featureGates.LoggingBetaOptions, or use logging.format: text"
		})

	kvLogVerbosity = kvLoggingRule("KC4078", "logging-verbosity-max",
		"logging.verbosity must be at most 2147483647",
		"klog only accepts positive int32 verbosities, so logging.verbosity above 2147483647 is refused. Up to 1.33 the kubelet's message prints the value in hex (0x80000000). Fix: use a small verbosity such as 0 to 10.",
		func(fe *field.Error) bool { return fe.Field == "logging.verbosity" },
		func(k *kvConfig, fe *field.Error) (string, string) {
			return fmt.Sprintf("logging.verbosity is %d, above the maximum 2147483647", k.Logging.Verbosity),
				"use a verbosity from 0 to 10"
		})

	kvLogVModuleText = kvLoggingRule("KC4079", "logging-vmodule-text-only",
		"logging.vmodule is only supported with the text format",
		"Per-file verbosity (logging.vmodule) is implemented by the text logger only; with another format it is refused. Fix: remove vmodule or use logging.format: text.",
		func(fe *field.Error) bool { return fe.Field == "logging.vmodule" },
		func(k *kvConfig, fe *field.Error) (string, string) {
			return fmt.Sprintf("logging.vmodule is set but logging.format is %q", k.Logging.Format),
				"remove logging.vmodule, or use logging.format: text"
		})

	kvLogVModuleEmpty = kvVModuleRule("KC4080", "logging-vmodule-pattern-required",
		"logging.vmodule entries need a file pattern",
		"Each logging.vmodule entry must name a file pattern (filePattern). Fix: fill it in or remove the entry.", "filePattern",
		func(fe *field.Error) bool { return kvIsVModuleItem(fe.Field) && fe.Type == field.ErrorTypeRequired },
		func(k *kvConfig, fe *field.Error) (string, string) {
			return fmt.Sprintf("%s has an empty filePattern", fe.Field), "set filePattern (for example \"kubelet*\") or remove the entry"
		})

	kvLogVModuleChars = kvVModuleRule("KC4081", "logging-vmodule-pattern-chars",
		"logging.vmodule file patterns must not contain '=' or ','",
		"vmodule entries are serialized as pattern=N,pattern=N for klog, so a pattern containing '=' or ',' is refused. Fix: remove those characters.", "filePattern",
		func(fe *field.Error) bool {
			return kvIsVModuleItem(fe.Field) && fe.Type == field.ErrorTypeInvalid && strings.HasPrefix(fe.Detail, "File pattern")
		},
		func(k *kvConfig, fe *field.Error) (string, string) {
			return fmt.Sprintf("%s file pattern %v contains '=' or ','", fe.Field, fe.BadValue), "remove '=' and ',' from the file pattern"
		})

	kvLogVModuleVerbosity = kvVModuleRule("KC4082", "logging-vmodule-verbosity-max",
		"logging.vmodule verbosities must be at most 2147483647",
		"klog only accepts positive int32 verbosities, so a vmodule verbosity above 2147483647 is refused. Up to 1.33 the kubelet's message prints the value in hex (0xffffffff). Fix: use a small verbosity.", "verbosity",
		func(fe *field.Error) bool {
			return kvIsVModuleItem(fe.Field) && fe.Type == field.ErrorTypeInvalid && strings.HasPrefix(fe.Detail, "Must be <=")
		},
		func(k *kvConfig, fe *field.Error) (string, string) {
			return fmt.Sprintf("%s verbosity %v is above the maximum 2147483647", fe.Field, fe.BadValue), "use a verbosity from 0 to 10"
		})

	kvLogSplitStream = kvLoggingRule("KC4083", "logging-split-stream-needs-gate",
		"logging.options.*.splitStream requires the LoggingAlphaOptions gate",
		"splitStream (info messages to stdout, errors to stderr) is alpha and needs the LoggingAlphaOptions feature gate, off by default. Fix: enable the gate or remove splitStream.",
		func(fe *field.Error) bool { return strings.HasSuffix(fe.Field, ".splitStream") },
		func(k *kvConfig, fe *field.Error) (string, string) {
			return fmt.Sprintf("%s is set but the LoggingAlphaOptions feature gate is off", fe.Field),
				"set featureGates.LoggingAlphaOptions: true (alpha), or remove " + fe.Field
		})

	kvLogInfoBufferSize = kvLoggingRule("KC4084", "logging-info-buffer-size-needs-gate",
		"logging.options.*.infoBufferSize requires the LoggingAlphaOptions gate",
		"infoBufferSize (buffering of info messages when splitting streams) is alpha and needs the LoggingAlphaOptions feature gate, off by default. Fix: enable the gate or remove infoBufferSize (or set it to 0).",
		func(fe *field.Error) bool { return strings.HasSuffix(fe.Field, ".infoBufferSize") },
		func(k *kvConfig, fe *field.Error) (string, string) {
			return fmt.Sprintf("%s is set but the LoggingAlphaOptions feature gate is off", fe.Field),
				"set featureGates.LoggingAlphaOptions: true (alpha), or remove " + fe.Field
		})
)

// ---- tracing: tracingapi.ValidateTracingConfiguration(kc.Tracing, gate, field.NewPath("tracing")).
// Up to 1.33 only with the KubeletTracing gate on; with it off a tracing section
// is refused instead (KC4103, whose range is where the condition exists).

const kvTracingFunc = "pkg/kubelet/apis/config/validation/validation.go ValidateKubeletConfiguration (component-base/tracing/api/v1 ValidateTracingConfiguration)"

func kvTracing(c *Context, k *kvConfig) field.ErrorList {
	if kvTracingGate.In(c.Minor) && !kvEnabled(c, "KubeletTracing") {
		return nil
	}
	return tracingapi.ValidateTracingConfiguration(k.Tracing, c.Gates, field.NewPath("tracing"))
}

var kvTracingGate = kvRule(&Rule{
	ID:      "KC4103",
	Name:    "tracing-needs-gate",
	Until:   "1.33",
	Summary: "tracing requires the KubeletTracing gate",
	Doc: "Up to 1.33 the kubelet validates tracing only with the KubeletTracing feature gate on (beta, on " +
		"by default) and refuses a tracing section while the gate is off; from 1.34 the gate is GA and " +
		"locked on and the check is gone. Fix: do not turn KubeletTracing off, or remove tracing.",
}, func(c *Context, k *kvConfig, emit kvEmit) {
	if !kvEnabled(c, "KubeletTracing") && k.Tracing != nil {
		emit("tracing",
			"tracing is set but the KubeletTracing feature gate is off",
			"enable featureGates.KubeletTracing, or remove tracing",
			"invalid configuration: tracing should not be configured if KubeletTracing feature flag is disabled.")
	}
})

func kvTracingRule(id, name, summary, doc string, match func(fe *field.Error) bool, msg func(k *kvConfig, fe *field.Error) (string, string)) *Rule {
	return kvFieldRule(&Rule{ID: id, Name: name, Summary: summary, Doc: doc, Kubelet: kvTracingFunc}, kvTracing, match, msg)
}

var (
	kvTracingRateNegative = kvTracingRule("KC4085", "tracing-sampling-rate-non-negative",
		"tracing.samplingRatePerMillion must not be negative",
		"samplingRatePerMillion is how many spans per million are sampled; a negative rate is refused. Fix: use 0 to 1000000.",
		func(fe *field.Error) bool {
			return fe.Field == "tracing.samplingRatePerMillion" && fe.Detail == "sampling rate must be positive"
		},
		func(k *kvConfig, fe *field.Error) (string, string) {
			return fmt.Sprintf("tracing.samplingRatePerMillion is %v; it must not be negative", fe.BadValue), "use a rate from 0 to 1000000"
		})

	kvTracingRateMax = kvTracingRule("KC4086", "tracing-sampling-rate-max",
		"tracing.samplingRatePerMillion must be at most 1000000",
		"samplingRatePerMillion is per million, so values above 1000000 are refused. Fix: use 0 to 1000000 (1000000 samples everything).",
		func(fe *field.Error) bool {
			return fe.Field == "tracing.samplingRatePerMillion" && strings.HasPrefix(fe.Detail, "sampling rate per million")
		},
		func(k *kvConfig, fe *field.Error) (string, string) {
			return fmt.Sprintf("tracing.samplingRatePerMillion is %v, more than one million", fe.BadValue), "use a rate from 0 to 1000000"
		})

	kvTracingEndpointParse = kvTracingRule("KC4087", "tracing-endpoint-parse",
		"tracing.endpoint must be a valid URL",
		"tracing.endpoint is the OpenTelemetry collector address (host:port, or a dns://, unix:// or unix-abstract: URL); a value that does not parse as a URL is refused. Fix: correct the address.",
		func(fe *field.Error) bool {
			return fe.Field == "tracing.endpoint" && !strings.HasPrefix(fe.Detail, "unsupported scheme")
		},
		func(k *kvConfig, fe *field.Error) (string, string) {
			return fmt.Sprintf("tracing.endpoint %v does not parse: %s", fe.BadValue, fe.Detail), "use host:port (for example localhost:4317) or a unix:///path socket"
		})

	kvTracingEndpointScheme = kvTracingRule("KC4088", "tracing-endpoint-scheme",
		"tracing.endpoint scheme must be dns, unix or unix-abstract",
		"The OpenTelemetry gRPC exporter only dials dns, unix and unix-abstract targets; an http:// or https:// URL is refused. A bare host:port is taken as dns. Fix: drop the http(s):// prefix.",
		func(fe *field.Error) bool {
			return fe.Field == "tracing.endpoint" && strings.HasPrefix(fe.Detail, "unsupported scheme")
		},
		func(k *kvConfig, fe *field.Error) (string, string) {
			return fmt.Sprintf("tracing.endpoint %v uses a scheme the gRPC exporter does not support", fe.BadValue), "use host:port (for example localhost:4317), dns:///host:port or unix:///path"
		})
)

// ---- the rest of ValidateKubeletConfiguration.

// kvLogQueryGateMessage: up to 1.34 the message names the wrong field.
var kvLogQueryGateMessage = byMinor[string]{
	{"1.31", "invalid configuration: NodeLogQuery feature gate is required for enableSystemLogHandler"},
	{"1.35", "invalid configuration: NodeLogQuery feature gate is required for enableSystemLogQuery"},
}

// kvPreviousDefaultMemoryThrottlingFactor lets configs with the former default
// pass when MemoryQoS is off.
const kvPreviousDefaultMemoryThrottlingFactor = 0.9

var (
	kvMemoryThrottlingRequired = kvRule(&Rule{
		ID:      "KC4104",
		Name:    "memory-throttling-factor-required",
		Until:   "1.36",
		Summary: "memoryThrottlingFactor must be set when the MemoryQoS gate is on",
		Doc: "Up to 1.36, with the MemoryQoS gate on (alpha, off by default) the kubelet needs " +
			"memoryThrottlingFactor, the fraction of the memory limit used for memory.high. Defaulting sets " +
			"0.9, so this fires only when the value is lost after defaulting. In 1.37 the check is replaced " +
			"by KC4089. Fix: set memoryThrottlingFactor (for example 0.9) or turn MemoryQoS off.",
	}, func(c *Context, k *kvConfig, emit kvEmit) {
		if kvEnabled(c, "MemoryQoS") && k.MemoryThrottlingFactor == nil {
			emit("memoryThrottlingFactor",
				"the MemoryQoS feature gate is on but memoryThrottlingFactor is not set",
				"set memoryThrottlingFactor to a value in (0, 1], such as 0.9",
				"invalid configuration: memoryThrottlingFactor is required when MemoryQoS feature flag is enabled")
		}
	})

	kvMemoryThrottlingGate = kvRule(&Rule{
		ID:      "KC4089",
		Name:    "memory-throttling-factor-needs-gate",
		Since:   "1.37",
		Summary: "memoryThrottlingFactor requires the MemoryQoS gate (unless it is 0.9)",
		Doc: "memoryThrottlingFactor is used by memory QoS (cgroup v2 memory.high). From 1.37, with the " +
			"MemoryQoS gate off (it is beta and on by default in 1.37) the field must be unset or the former " +
			"default 0.9 (before 1.37 the opposite check applies, KC4104). Fix: enable MemoryQoS or remove " +
			"memoryThrottlingFactor.",
	}, func(c *Context, k *kvConfig, emit kvEmit) {
		if !kvEnabled(c, "MemoryQoS") && k.MemoryThrottlingFactor != nil && *k.MemoryThrottlingFactor != kvPreviousDefaultMemoryThrottlingFactor {
			emit("memoryThrottlingFactor",
				fmt.Sprintf("memoryThrottlingFactor is %v but the MemoryQoS feature gate is off", *k.MemoryThrottlingFactor),
				"enable featureGates.MemoryQoS, or remove memoryThrottlingFactor",
				"invalid configuration: memoryThrottlingFactor must not be set when MemoryQoS feature gate is disabled")
		}
	})

	kvMemoryThrottlingRange = kvRule(&Rule{
		ID:      "KC4090",
		Name:    "memory-throttling-factor-range",
		Summary: "memoryThrottlingFactor must be in (0, 1]",
		Doc: "memoryThrottlingFactor multiplies the memory limit to set memory.high; it must be greater " +
			"than 0 and at most 1.0. Fix: use a value such as 0.9.",
	}, func(c *Context, k *kvConfig, emit kvEmit) {
		if f := k.MemoryThrottlingFactor; f != nil && (*f <= 0 || *f > 1.0) {
			emit("memoryThrottlingFactor",
				fmt.Sprintf("memoryThrottlingFactor is %v; it must be greater than 0 and at most 1.0", *f),
				"use a value in (0, 1], such as 0.9",
				fmt.Sprintf("invalid configuration: memoryThrottlingFactor %v must be greater than 0 and less than or equal to 1.0", *f))
		}
	})

	kvMemoryReservationGate = kvRule(&Rule{
		ID:      "KC4091",
		Since:   "1.36",
		Name:    "memory-reservation-policy-needs-gate",
		Summary: "memoryReservationPolicy TieredReservation requires the MemoryQoS gate",
		Doc: "The TieredReservation policy (memory.min/memory.low protection by QoS class) is part of " +
			"memory QoS and needs the MemoryQoS gate (alpha and off by default in 1.36, beta and on by default " +
			"from 1.37). Fix: enable MemoryQoS or use memoryReservationPolicy: None.",
	}, func(c *Context, k *kvConfig, emit kvEmit) {
		if !kvEnabled(c, "MemoryQoS") && k.MemoryReservationPolicy == kubeletv1beta1.TieredReservationMemoryReservationPolicy {
			emit("memoryReservationPolicy",
				"memoryReservationPolicy is TieredReservation but the MemoryQoS feature gate is off",
				"enable featureGates.MemoryQoS, or set memoryReservationPolicy: None",
				fmt.Sprintf("invalid configuration: memoryReservationPolicy %q requires MemoryQoS feature gate to be enabled", k.MemoryReservationPolicy))
		}
	})

	kvMemoryReservationValid = kvRule(&Rule{
		ID:      "KC4092",
		Since:   "1.36",
		Name:    "memory-reservation-policy-valid",
		Summary: "memoryReservationPolicy must be None or TieredReservation",
		Doc: "memoryReservationPolicy accepts None (the default) and TieredReservation, case-sensitive. " +
			"Fix: use one of them.",
	}, func(c *Context, k *kvConfig, emit kvEmit) {
		switch k.MemoryReservationPolicy {
		case kubeletv1beta1.NoneMemoryReservationPolicy, kubeletv1beta1.TieredReservationMemoryReservationPolicy:
			return
		}
		emit("memoryReservationPolicy",
			fmt.Sprintf("memoryReservationPolicy %q is not a known policy", k.MemoryReservationPolicy),
			"use None or TieredReservation",
			fmt.Sprintf("invalid configuration: option %q specified for memoryReservationPolicy. Valid options are %q or %q", k.MemoryReservationPolicy, kubeletv1beta1.NoneMemoryReservationPolicy, kubeletv1beta1.TieredReservationMemoryReservationPolicy))
	})

	kvRuntimeEndpoint = kvRule(&Rule{
		ID:      "KC4093",
		Name:    "container-runtime-endpoint-required",
		Summary: "containerRuntimeEndpoint must not be empty",
		Doc: "The kubelet needs the CRI socket of the container runtime. Defaulting fills in " +
			"unix:///run/containerd/containerd.sock, so this fires only when the value is emptied after " +
			"defaulting (for example by an empty --container-runtime-endpoint flag). Fix: set it to the " +
			"runtime's socket.",
	}, func(c *Context, k *kvConfig, emit kvEmit) {
		if k.ContainerRuntimeEndpoint == "" {
			emit("containerRuntimeEndpoint",
				"containerRuntimeEndpoint is empty",
				"set containerRuntimeEndpoint to the CRI socket, for example unix:///run/containerd/containerd.sock",
				"invalid configuration: the containerRuntimeEndpoint was not specified or empty")
		}
	})

	kvLogQueryGate = kvRule(&Rule{
		ID:      "KC4094",
		Name:    "system-log-query-needs-gate",
		Summary: "enableSystemLogQuery requires the NodeLogQuery gate",
		Doc: "Node log query (/logs/?query=) needs the NodeLogQuery feature gate. The gate is beta but off " +
			"by default up to 1.35, so enableSystemLogQuery: true alone is refused there; from 1.36 it is " +
			"GA and locked on, so this cannot fire. Up to 1.34 the kubelet's message says \"required for " +
			"enableSystemLogHandler\". Fix: enable NodeLogQuery or remove enableSystemLogQuery.",
	}, func(c *Context, k *kvConfig, emit kvEmit) {
		if kvBool(k.EnableSystemLogQuery) && !kvEnabled(c, "NodeLogQuery") {
			emit("enableSystemLogQuery",
				"enableSystemLogQuery is true but the NodeLogQuery feature gate is off",
				"enable featureGates.NodeLogQuery or remove enableSystemLogQuery",
				kvLogQueryGateMessage.at(c.Minor))
		}
	})

	kvLogQueryHandler = kvRule(&Rule{
		ID:      "KC4095",
		Name:    "system-log-query-needs-handler",
		Summary: "enableSystemLogQuery requires enableSystemLogHandler",
		Doc: "Log query is served by the system log handler (/logs), so enableSystemLogQuery: true needs " +
			"enableSystemLogHandler: true (the default). Fix: do not disable the handler, or turn log query off.",
	}, func(c *Context, k *kvConfig, emit kvEmit) {
		if kvBool(k.EnableSystemLogQuery) && !kvBool(k.EnableSystemLogHandler) {
			emit(kvPick(c, "enableSystemLogQuery", "enableSystemLogHandler"),
				"enableSystemLogQuery is true but enableSystemLogHandler is false",
				"set enableSystemLogHandler: true, or enableSystemLogQuery: false",
				"invalid configuration: enableSystemLogHandler is required for enableSystemLogQuery")
		}
	})

	kvLogMaxWorkers = kvRule(&Rule{
		ID:      "KC4096",
		Name:    "container-log-max-workers-min",
		Summary: "containerLogMaxWorkers must be at least 1",
		Doc: "containerLogMaxWorkers is the number of workers rotating container logs; at least one is " +
			"needed. Fix: use 1 (the default) or more.",
	}, func(c *Context, k *kvConfig, emit kvEmit) {
		if v := kvI32(k.ContainerLogMaxWorkers); v < 1 {
			emit("containerLogMaxWorkers",
				fmt.Sprintf("containerLogMaxWorkers is %d; at least 1 is needed", v),
				"set containerLogMaxWorkers to 1 or more",
				"invalid configuration: containerLogMaxWorkers must be greater than or equal to 1")
		}
	})

	kvLogMonitorInterval = kvRule(&Rule{
		ID:      "KC4097",
		Name:    "container-log-monitor-interval-min",
		Summary: "containerLogMonitorInterval must be at least 3s",
		Doc: "containerLogMonitorInterval is how often container logs are checked for rotation; it must " +
			"be at least 3s. Fix: use 3s or more (default 10s).",
	}, func(c *Context, k *kvConfig, emit kvEmit) {
		if d := kvDur(k.ContainerLogMonitorInterval); d.Duration.Seconds() < 3 {
			emit("containerLogMonitorInterval",
				fmt.Sprintf("containerLogMonitorInterval is %v; it must be at least 3s", d.Duration),
				"set containerLogMonitorInterval to 3s or more (default 10s)",
				"invalid configuration: containerLogMonitorInterval must be a positive time duration greater than or equal to 3s")
		}
	})

	kvLogMaxFiles = kvRule(&Rule{
		ID:      "KC4098",
		Since:   "1.33",
		Name:    "container-log-max-files-min",
		Summary: "containerLogMaxFiles must be greater than 1",
		Doc: "containerLogMaxFiles counts the current log file plus rotated ones, so at least 2 are " +
			"needed for rotation. Fix: use 2 or more (default 5).",
	}, func(c *Context, k *kvConfig, emit kvEmit) {
		if v := kvI32(k.ContainerLogMaxFiles); v <= 1 {
			emit("containerLogMaxFiles",
				fmt.Sprintf("containerLogMaxFiles is %d; it must be at least 2", v),
				"set containerLogMaxFiles to 2 or more (default 5)",
				"invalid configuration: containerLogMaxFiles must be greater than 1")
		}
	})

	kvPodLogsDirRequired = kvRule(&Rule{
		ID:      "KC4099",
		Name:    "pod-logs-dir-required",
		Summary: "podLogsDir must not be empty",
		Doc: "podLogsDir is where the kubelet keeps pod logs. Defaulting sets /var/log/pods, so this fires " +
			"only when the value is emptied after defaulting. An empty value also fails the absolute and " +
			"normalized checks. Fix: set an absolute path.",
	}, func(c *Context, k *kvConfig, emit kvEmit) {
		if k.PodLogsDir == "" {
			emit("podLogsDir", "podLogsDir is empty", "set podLogsDir to an absolute path such as /var/log/pods",
				"invalid configuration: podLogsDir was not specified")
		}
	})

	kvPodLogsDirAbs = kvRule(&Rule{
		ID:      "KC4100",
		Name:    "pod-logs-dir-absolute",
		Summary: "podLogsDir must be an absolute path",
		Doc:     "podLogsDir must start with '/'. Fix: use an absolute path such as /var/log/pods.",
	}, func(c *Context, k *kvConfig, emit kvEmit) {
		if !path.IsAbs(k.PodLogsDir) { // filepath.IsAbs on Linux
			emit("podLogsDir",
				fmt.Sprintf("podLogsDir %q is not an absolute path", k.PodLogsDir),
				"use an absolute path such as /var/log/pods",
				fmt.Sprintf("invalid configuration: pod logs path %q must be absolute path", k.PodLogsDir))
		}
	})

	kvPodLogsDirClean = kvRule(&Rule{
		ID:      "KC4101",
		Name:    "pod-logs-dir-normalized",
		Summary: "podLogsDir must be a normalized path",
		Doc: "podLogsDir must equal its cleaned form: no trailing slash, no double slashes, no . or .. " +
			"elements. Fix: write the cleaned path.",
	}, func(c *Context, k *kvConfig, emit kvEmit) {
		if clean := path.Clean(k.PodLogsDir); clean != k.PodLogsDir { // filepath.Clean on Linux
			emit("podLogsDir",
				fmt.Sprintf("podLogsDir %q is not normalized (its clean form is %q)", k.PodLogsDir, clean),
				fmt.Sprintf("write podLogsDir as %q", clean),
				fmt.Sprintf("invalid configuration: pod logs path %q must be normalized", k.PodLogsDir))
		}
	})

	kvPodLogsDirASCII = kvRule(&Rule{
		ID:      "KC4102",
		Name:    "pod-logs-dir-ascii",
		Summary: "podLogsDir must contain only ASCII characters",
		Doc: "The pod logs path appears in metrics labels, so it must be ASCII only (the kubelet's message " +
			"says \"mut contains\", verbatim). Fix: use an ASCII path.",
	}, func(c *Context, k *kvConfig, emit kvEmit) {
		for _, r := range k.PodLogsDir {
			if r > unicode.MaxASCII {
				emit("podLogsDir",
					fmt.Sprintf("podLogsDir %q contains the non-ASCII character %q", k.PodLogsDir, r),
					"use a path made of ASCII characters only",
					fmt.Sprintf("invalid configuration: pod logs path %q mut contains ASCII characters only", k.PodLogsDir))
				return
			}
		}
	})
)
