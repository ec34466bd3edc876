package validate

import (
	"fmt"
	"strings"

	"github.com/kubeletcfg/kubeletcfg/rule"
	"k8s.io/apimachinery/pkg/util/validation/field"
	_ "k8s.io/component-base/logs/json/register" // the kubelet registers the json log format too
	tracingapi "k8s.io/component-base/tracing/api/v1"
)

// ---- tracing: tracingapi.ValidateTracingConfiguration(kc.Tracing, gate, field.NewPath("tracing")).
// Up to 1.33 only with the KubeletTracing gate on; with it off a tracing section
// is refused instead (KC4103, whose range is where the condition exists).

const kvTracingFunc = "pkg/kubelet/apis/config/validation/validation.go ValidateKubeletConfiguration (component-base/tracing/api/v1 ValidateTracingConfiguration)"

func kvTracing(c *rule.Context, k *kvConfig) field.ErrorList {
	if kvTracingGate.In(c.Minor) && !kvEnabled(c, "KubeletTracing") {
		return nil
	}
	return tracingapi.ValidateTracingConfiguration(k.Tracing, c.Gates, field.NewPath("tracing"))
}

var kvTracingGate = kvRule(&rule.Rule{
	ID:      "KC4103",
	Fields:  []string{"tracing"},
	Name:    "tracing-needs-gate",
	Until:   "1.33",
	Summary: "tracing requires the KubeletTracing gate",
	Doc: "Up to 1.33 the kubelet validates tracing only with the KubeletTracing feature gate on (beta, on " +
		"by default) and refuses a tracing section while the gate is off; from 1.34 the gate is GA and " +
		"locked on and the check is gone. Fix: do not turn KubeletTracing off, or remove tracing.",
}, func(c *rule.Context, k *kvConfig, emit kvEmit) {
	if !kvEnabled(c, "KubeletTracing") && k.Tracing != nil {
		emit("tracing",
			"tracing is set but the KubeletTracing feature gate is off",
			"enable featureGates.KubeletTracing, or remove tracing",
			"invalid configuration: tracing should not be configured if KubeletTracing feature flag is disabled.")
	}
})

func kvTracingRule(id string, fields []string, name, summary, doc string, match func(fe *field.Error) bool, msg func(k *kvConfig, fe *field.Error) (string, string)) *rule.Rule {
	return kvFieldRule(&rule.Rule{ID: id, Fields: fields, Name: name, Summary: summary, Doc: doc, Kubelet: kvTracingFunc}, kvTracing, match, msg)
}

var (
	kvTracingRateNegative = kvTracingRule("KC4085", []string{"tracing.samplingRatePerMillion"}, "tracing-sampling-rate-non-negative",
		"tracing.samplingRatePerMillion must not be negative",
		"samplingRatePerMillion is how many spans per million are sampled; a negative rate is refused. Fix: use 0 to 1000000.",
		func(fe *field.Error) bool {
			return fe.Field == "tracing.samplingRatePerMillion" && fe.Detail == "sampling rate must be positive"
		},
		func(k *kvConfig, fe *field.Error) (string, string) {
			return fmt.Sprintf("tracing.samplingRatePerMillion is %v; it must not be negative", fe.BadValue), "use a rate from 0 to 1000000"
		})

	kvTracingRateMax = kvTracingRule("KC4086", []string{"tracing.samplingRatePerMillion"}, "tracing-sampling-rate-max",
		"tracing.samplingRatePerMillion must be at most 1000000",
		"samplingRatePerMillion is per million, so values above 1000000 are refused. Fix: use 0 to 1000000 (1000000 samples everything).",
		func(fe *field.Error) bool {
			return fe.Field == "tracing.samplingRatePerMillion" && strings.HasPrefix(fe.Detail, "sampling rate per million")
		},
		func(k *kvConfig, fe *field.Error) (string, string) {
			return fmt.Sprintf("tracing.samplingRatePerMillion is %v, more than one million", fe.BadValue), "use a rate from 0 to 1000000"
		})

	kvTracingEndpointParse = kvTracingRule("KC4087", []string{"tracing.endpoint"}, "tracing-endpoint-parse",
		"tracing.endpoint must be a valid URL",
		"tracing.endpoint is the OpenTelemetry collector address (host:port, or a dns://, unix:// or unix-abstract: URL); a value that does not parse as a URL is refused. Fix: correct the address.",
		func(fe *field.Error) bool {
			return fe.Field == "tracing.endpoint" && !strings.HasPrefix(fe.Detail, "unsupported scheme")
		},
		func(k *kvConfig, fe *field.Error) (string, string) {
			return fmt.Sprintf("tracing.endpoint %v does not parse: %s", fe.BadValue, fe.Detail), "use host:port (for example localhost:4317) or a unix:///path socket"
		})

	kvTracingEndpointScheme = kvTracingRule("KC4088", []string{"tracing.endpoint"}, "tracing-endpoint-scheme",
		"tracing.endpoint scheme must be dns, unix or unix-abstract",
		"The OpenTelemetry gRPC exporter only dials dns, unix and unix-abstract targets; an http:// or https:// URL is refused. A bare host:port is taken as dns. Fix: drop the http(s):// prefix.",
		func(fe *field.Error) bool {
			return fe.Field == "tracing.endpoint" && strings.HasPrefix(fe.Detail, "unsupported scheme")
		},
		func(k *kvConfig, fe *field.Error) (string, string) {
			return fmt.Sprintf("tracing.endpoint %v uses a scheme the gRPC exporter does not support", fe.BadValue), "use host:port (for example localhost:4317), dns:///host:port or unix:///path"
		})
)

// tracingRules are this file's rules, in the kubelet's order of checks.
var tracingRules = []*rule.Rule{
	kvTracingGate,
	kvTracingRateNegative,
	kvTracingRateMax,
	kvTracingEndpointParse,
	kvTracingEndpointScheme,
}
