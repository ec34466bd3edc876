package validate

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/kubeletcfg/kubeletcfg/rule"
	"k8s.io/apimachinery/pkg/util/validation/field"
	logsapi "k8s.io/component-base/logs/api/v1"
	_ "k8s.io/component-base/logs/json/register" // the kubelet registers the json log format too
)

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
func kvFieldRule(r *rule.Rule, validate func(c *rule.Context, k *kvConfig) field.ErrorList, match func(fe *field.Error) bool, msg func(k *kvConfig, fe *field.Error) (string, string)) *rule.Rule {
	return kvFieldRuleAt(r, validate, match, msg, "")
}

// kvFieldRuleAt is kvFieldRule for errors reported on a list item whose finding
// belongs on one of the item's fields (sub), so that it points at that line.
func kvFieldRuleAt(r *rule.Rule, validate func(c *rule.Context, k *kvConfig) field.ErrorList, match func(fe *field.Error) bool, msg func(k *kvConfig, fe *field.Error) (string, string), sub string) *rule.Rule {
	return kvRule(r, func(c *rule.Context, k *kvConfig, emit kvEmit) {
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
func kvVModuleRule(id string, fields []string, name, summary, doc, sub string, match func(fe *field.Error) bool, msg func(k *kvConfig, fe *field.Error) (string, string)) *rule.Rule {
	return kvFieldRuleAt(&rule.Rule{ID: id, Fields: fields, Name: name, Summary: summary, Doc: doc + kvLoggingStop, Kubelet: kvLoggingFunc}, kvLogging, match, msg, sub)
}

// kvLogging is logsapi.Validate, called once per Context and configuration:
// eleven rules read its errors (only read them), and each call costs more than
// the rest of the logging rules together (it parses its feature gates' versions
// every time). Gates and the configuration do not change while the rules run.
func kvLogging(c *rule.Context, k *kvConfig) field.ErrorList {
	return c.Memo(loggingOf{k}, func() any {
		return logsapi.Validate(&k.Logging, c.Gates, field.NewPath("logging"))
	}).(field.ErrorList)
}

// loggingOf keys kvLogging's errors for a configuration in Context.Memo.
type loggingOf struct{ config *kvConfig }

func kvLoggingRule(id string, fields []string, name, summary, doc string, match func(fe *field.Error) bool, msg func(k *kvConfig, fe *field.Error) (string, string)) *rule.Rule {
	return kvFieldRule(&rule.Rule{ID: id, Fields: fields, Name: name, Summary: summary, Doc: doc + kvLoggingStop, Kubelet: kvLoggingFunc}, kvLogging, match, msg)
}

// withFix sets r's Fix (for a rule a helper declares) and returns it.
func withFix(fix string, r *rule.Rule) *rule.Rule {
	r.Fix = fix
	return r
}

func kvIsVModuleItem(f string) bool { return strings.HasPrefix(f, "logging.vmodule[") }

// kvLogFlush is the flushFrequency check: component-base validates it from 1.35
// (v0.35); before, logsapi.ValidateAndApplyAsField applies a configuration whose
// other logging settings validate and klog.StartFlushDaemon's time.NewTicker
// panics on the non-positive interval.
var kvLogFlush = byMinor[kvCheck]{
	{"1.31", func(c *rule.Context, k *kvConfig, emit kvEmit) {
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
	{"1.35", func(c *rule.Context, k *kvConfig, emit kvEmit) {
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
	kvLogFlushFrequency = kvRule(&rule.Rule{
		ID:      "KC4074",
		Fields:  []string{"logging.flushFrequency"},
		Name:    "logging-flush-frequency-positive",
		Summary: "logging.flushFrequency must be greater than zero",
		Doc: "logging.flushFrequency is the interval between log flushes; defaulting turns 0 into 5s, so this " +
			"fires for a negative value. From 1.35 logging validation refuses it. Up to 1.34 nothing checks it: " +
			"when the rest of logging validates, the kubelet starts the log flush daemon with it and panics " +
			"(\"non-positive interval for NewTicker\", from klog.StartFlushDaemon in logsapi.ValidateAndApplyAsField). " +
			"Fix: use a positive duration such as 5s." + kvLoggingStop,
		Kubelet: kvLoggingFunc,
	}, func(c *rule.Context, k *kvConfig, emit kvEmit) { kvLogFlush.at(c.Minor)(c, k, emit) })

	kvLogFormatFlags = kvRule(&rule.Rule{
		ID:      "KC4075",
		Fields:  []string{"logging.format"},
		Name:    "logging-format-flags",
		Summary: "a non-text logging.format ignores klog command-line flags",
		Doc: "With a logging.format other than text, the kubelet refuses klog command-line flags that " +
			"the format does not honor when they differ from their defaults (\"Non-default format " +
			"doesn't honor flag: <flag>\"). The flags live on the kubelet command line, which kubeletcfg " +
			"does not see, so this rule is documented but never reported. Fix: drop those flags or use " +
			"logging.format: text." + kvLoggingStop,
		Kubelet: kvLoggingFunc,
	}, func(*rule.Context, *kvConfig, kvEmit) {})

	kvLogFormatUnknown = withFix("set logging.format to text or json.", kvLoggingRule("KC4076", []string{"logging.format"}, "logging-format-known",
		"logging.format must be text or json",
		"The kubelet registers two log formats, text and json (case-sensitive); any other format is refused.",
		func(fe *field.Error) bool {
			return fe.Field == "logging.format" && fe.Detail == "Unsupported log format"
		},
		func(k *kvConfig, fe *field.Error) (string, string) {
			return fmt.Sprintf("logging.format %q is not a log format the kubelet knows", k.Logging.Format),
				"use text (default) or json"
		}))

	kvLogFormatGate = kvLoggingRule("KC4077", []string{"logging.format"}, "logging-format-needs-gate",
		"logging.format json requires the LoggingBetaOptions gate",
		"The json log format is gated by LoggingBetaOptions (beta, on by default); with the gate off it is refused. Fix: enable the gate or use text.",
		func(fe *field.Error) bool {
			return fe.Field == "logging.format" && fe.Type == field.ErrorTypeForbidden
		},
		func(k *kvConfig, fe *field.Error) (string, string) {
			return fmt.Sprintf("logging.format %q is disabled because its feature gate is off", k.Logging.Format),
				"enable featureGates.LoggingBetaOptions, or use logging.format: text"
		})

	kvLogVerbosity = kvLoggingRule("KC4078", []string{"logging.verbosity"}, "logging-verbosity-max",
		"logging.verbosity must be at most 2147483647",
		"klog only accepts positive int32 verbosities, so logging.verbosity above 2147483647 is refused. Up to 1.33 the kubelet's message prints the value in hex (0x80000000). Fix: use a small verbosity such as 0 to 10.",
		func(fe *field.Error) bool { return fe.Field == "logging.verbosity" },
		func(k *kvConfig, fe *field.Error) (string, string) {
			return fmt.Sprintf("logging.verbosity is %d, above the maximum 2147483647", k.Logging.Verbosity),
				"use a verbosity from 0 to 10"
		})

	kvLogVModuleText = kvLoggingRule("KC4079", []string{"logging.vmodule"}, "logging-vmodule-text-only",
		"logging.vmodule is only supported with the text format",
		"Per-file verbosity (logging.vmodule) is implemented by the text logger only; with another format it is refused. Fix: remove vmodule or use logging.format: text.",
		func(fe *field.Error) bool { return fe.Field == "logging.vmodule" },
		func(k *kvConfig, fe *field.Error) (string, string) {
			return fmt.Sprintf("logging.vmodule is set but logging.format is %q", k.Logging.Format),
				"remove logging.vmodule, or use logging.format: text"
		})

	kvLogVModuleEmpty = kvVModuleRule("KC4080", []string{"logging.vmodule"}, "logging-vmodule-pattern-required",
		"logging.vmodule entries need a file pattern",
		"Each logging.vmodule entry must name a file pattern (filePattern). Fix: fill it in or remove the entry.", "filePattern",
		func(fe *field.Error) bool { return kvIsVModuleItem(fe.Field) && fe.Type == field.ErrorTypeRequired },
		func(k *kvConfig, fe *field.Error) (string, string) {
			return fmt.Sprintf("%s has an empty filePattern", fe.Field), "set filePattern (for example \"kubelet*\") or remove the entry"
		})

	kvLogVModuleChars = kvVModuleRule("KC4081", []string{"logging.vmodule"}, "logging-vmodule-pattern-chars",
		"logging.vmodule file patterns must not contain '=' or ','",
		"vmodule entries are serialized as pattern=N,pattern=N for klog, so a pattern containing '=' or ',' is refused. Fix: remove those characters.", "filePattern",
		func(fe *field.Error) bool {
			return kvIsVModuleItem(fe.Field) && fe.Type == field.ErrorTypeInvalid && strings.HasPrefix(fe.Detail, "File pattern")
		},
		func(k *kvConfig, fe *field.Error) (string, string) {
			return fmt.Sprintf("%s file pattern %v contains '=' or ','", fe.Field, fe.BadValue), "remove '=' and ',' from the file pattern"
		})

	kvLogVModuleVerbosity = kvVModuleRule("KC4082", []string{"logging.vmodule"}, "logging-vmodule-verbosity-max",
		"logging.vmodule verbosities must be at most 2147483647",
		"klog only accepts positive int32 verbosities, so a vmodule verbosity above 2147483647 is refused. Up to 1.33 the kubelet's message prints the value in hex (0xffffffff). Fix: use a small verbosity.", "verbosity",
		func(fe *field.Error) bool {
			return kvIsVModuleItem(fe.Field) && fe.Type == field.ErrorTypeInvalid && strings.HasPrefix(fe.Detail, "Must be <=")
		},
		func(k *kvConfig, fe *field.Error) (string, string) {
			return fmt.Sprintf("%s verbosity %v is above the maximum 2147483647", fe.Field, fe.BadValue), "use a verbosity from 0 to 10"
		})

	kvLogSplitStream = kvLoggingRule("KC4083", []string{"logging.options.json.splitStream", "logging.options.text.splitStream"}, "logging-split-stream-needs-gate",
		"logging.options.*.splitStream requires the LoggingAlphaOptions gate",
		"splitStream (info messages to stdout, errors to stderr) is alpha and needs the LoggingAlphaOptions feature gate, off by default. Fix: enable the gate or remove splitStream.",
		func(fe *field.Error) bool { return strings.HasSuffix(fe.Field, ".splitStream") },
		func(k *kvConfig, fe *field.Error) (string, string) {
			return fmt.Sprintf("%s is set but the LoggingAlphaOptions feature gate is off", fe.Field),
				"set featureGates.LoggingAlphaOptions: true (alpha), or remove " + fe.Field
		})

	kvLogInfoBufferSize = kvLoggingRule("KC4084", []string{"logging.options.json.infoBufferSize", "logging.options.text.infoBufferSize"}, "logging-info-buffer-size-needs-gate",
		"logging.options.*.infoBufferSize requires the LoggingAlphaOptions gate",
		"infoBufferSize (buffering of info messages when splitting streams) is alpha and needs the LoggingAlphaOptions feature gate, off by default. Fix: enable the gate or remove infoBufferSize (or set it to 0).",
		func(fe *field.Error) bool { return strings.HasSuffix(fe.Field, ".infoBufferSize") },
		func(k *kvConfig, fe *field.Error) (string, string) {
			return fmt.Sprintf("%s is set but the LoggingAlphaOptions feature gate is off", fe.Field),
				"set featureGates.LoggingAlphaOptions: true (alpha), or remove " + fe.Field
		})
)

// loggingRules are this file's rules, in logsapi.Validate's order of checks.
var loggingRules = []*rule.Rule{
	kvLogFlushFrequency,
	kvLogFormatFlags,
	kvLogFormatUnknown,
	kvLogFormatGate,
	kvLogVerbosity,
	kvLogVModuleText,
	kvLogVModuleEmpty,
	kvLogVModuleChars,
	kvLogVModuleVerbosity,
	kvLogSplitStream,
	kvLogInfoBufferSize,
}
