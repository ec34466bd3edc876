package kubeletdata

import "encoding/json"

// FieldTable is kubelets/data/<minor>/fields.json: every JSON field path of the
// minor's v1beta1 KubeletConfiguration, read from the k8s.io/kubelet source.
type FieldTable struct {
	Generated string      `json:"_generated"`
	Module    string      `json:"module"` // k8s.io/kubelet@version
	Source    string      `json:"source"` // package path and type
	Count     int         `json:"count"`
	Fields    []FieldInfo `json:"fields"`
}

// FieldInfo is one JSON field path of KubeletConfiguration, in source order.
type FieldInfo struct {
	// Path is dotted; list items of structs are name[], map values of structs name[*].
	Path string `json:"path"`
	// JSON is the field's own JSON name.
	JSON string `json:"json"`
	// GoName is the Go field name.
	GoName string `json:"goName"`
	// GoType is the type as written in the source (package-qualified as there).
	GoType string `json:"goType"`
	// Kind: scalar (including Duration, Quantity, Time and other types that decode
	// themselves), object, list or map.
	Kind string `json:"kind"`
	// FeatureGates are the values of +featureGate= markers.
	FeatureGates []string `json:"featureGates,omitempty"`
	// Markers are all +marker lines of the doc comment.
	Markers   []string `json:"markers,omitempty"`
	OmitEmpty bool     `json:"omitempty"`
	Pointer   bool     `json:"pointer"`
	// Doc is the doc comment without marker lines.
	Doc string `json:"doc"`
}

// FlagTable is kubelets/data/<minor>/flags.json: every flag of the kubelet's command
// line (NewKubeletCommand's cleanFlagSet, cmd/kubelet/app/server.go) and, for the
// flags AddKubeletConfigFlags binds to the KubeletConfiguration, the v1beta1 field
// each one sets.
type FlagTable struct {
	Generated string `json:"_generated"`
	Kubelet   string `json:"kubelet"`
	Count     int    `json:"count"`
	Flags     []Flag `json:"flags"`
}

// Flag is one flag of the kubelet's command line.
type Flag struct {
	Name      string `json:"name"`
	Shorthand string `json:"shorthand,omitempty"`
	// Type is pflag's Value.Type(), as --help prints it.
	Type string `json:"type"`
	// Value names the parser: a pflag built-in type (bool, int32, duration,
	// stringSlice, ...) or the kubelet's Value (langleSeparatedMapStringString,
	// reservedMemory, taints, ip, verbosity, vmodule, quantity, ...).
	Value string `json:"value"`
	// NoOptDefVal is the value of the flag written without "=value" (bool flags).
	NoOptDefVal string `json:"noOptDefVal,omitempty"`
	// Deprecated is pflag's deprecation message ("" when not deprecated).
	Deprecated string `json:"deprecated,omitempty"`
	Hidden     bool   `json:"hidden,omitempty"`
	// Path is the v1beta1 KubeletConfiguration field the flag sets ("" for the
	// flags that are not configuration fields: --kubeconfig, --node-ip, ...).
	Path string `json:"path,omitempty"`
	// Special says how the value meets the files' value: featureGates (the flag's
	// map replaces the files', then the files' gates the flag does not name come
	// back), map (replaces the whole map), list (replaces the whole list).
	Special string `json:"special,omitempty"`
}

// RoundTrip is kubelets/data/<minor>/roundtrip.json: what the kubelet's conversion of
// an empty v1beta1 KubeletConfiguration to its internal type and back fills in.
// Many v1beta1 pointers are plain values internally, so every round trip turns nil
// into a pointer to the zero value; kubeletcfg replays that from this table.
type RoundTrip struct {
	Generated string          `json:"_generated"`
	Doc       string          `json:"_doc"`
	Zero      json.RawMessage `json:"zero"`
}

// InternalNames is kubelets/data/<minor>/internalnames.json: for every v1beta1
// KubeletConfiguration field path (fields.json's notation), the key path under which
// encoding/json marshals the same field (same Go field name) of the kubelet's internal
// type k8s.io/kubernetes/pkg/kubelet/apis/config.KubeletConfiguration. The internal
// type mostly has no json tags, so its keys are mostly Go field names. 1.31's drop-in
// merge patches that JSON (json.Marshal of the internal struct).
type InternalNames struct {
	Generated string            `json:"_generated"`
	Fields    map[string]string `json:"fields"`
}

// Lean is the field as a run reads it (skew's generated tables): path, Go type,
// kind and gates, without the doc comment and the details only the harness's own
// checks use (JSON, GoName, Markers, OmitEmpty, Pointer).
func (f FieldInfo) Lean() FieldInfo {
	return FieldInfo{Path: f.Path, GoType: f.GoType, Kind: f.Kind, FeatureGates: f.FeatureGates}
}

// Release is kubelets/data/<minor>/release.json: the facts about the kubelet release a
// minor's data was generated from that change what kubeletcfg reproduces, recorded
// by the harness linked against that release.
type Release struct {
	Generated string `json:"_generated"`
	// Kubernetes is the k8s.io/kubernetes release ("v1.38.0-beta.0"); a pre-release
	// suffix marks a minor that is not a default until its GA release is recorded.
	Kubernetes string `json:"kubernetes"`
	// Go is the Go release the harness was built with, as the release's own
	// go.mod requires it (the kubelet's release binaries are built alike).
	Go string `json:"go"`
	// SchemeName is what runtime.NewScheme names a scheme in the release's
	// k8s.io/apimachinery, which its decoding errors quote.
	SchemeName string `json:"schemeName"`
	// JSONv2 is set when that Go's encoding/json runs on encoding/json/v2
	// (Go 1.27's default), whose error texts differ.
	JSONv2 bool `json:"jsonv2"`
}
