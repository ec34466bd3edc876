package nodeadm

import (
	"errors"
	"fmt"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer/json"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// The NodeConfig API, ported from nodeadm/api/v1alpha1/nodeconfig_types.go
// (v20260724): the same fields and JSON names, decoded by the same
// k8s.io/apimachinery serializer, so that what nodeadm keeps, drops and
// refuses is what this package keeps, drops and refuses.

const (
	groupName      = "node.eks.aws"
	kindNodeConfig = "NodeConfig"
	// nodeConfigMediaType is configprovider/userdata.go's nodeConfigMediaType.
	nodeConfigMediaType = "application/" + groupName
)

var groupVersion = schema.GroupVersion{Group: groupName, Version: "v1alpha1"}

type nodeConfig struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              nodeConfigSpec `json:"spec,omitempty"`
}

type nodeConfigList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []nodeConfig `json:"items"`
}

type nodeConfigSpec struct {
	Cluster      clusterDetails    `json:"cluster,omitempty"`
	Containerd   containerdOptions `json:"containerd,omitempty"`
	Instance     instanceOptions   `json:"instance,omitempty"`
	Kubelet      kubeletOptions    `json:"kubelet,omitempty"`
	FeatureGates map[string]bool   `json:"featureGates,omitempty"`
}

type clusterDetails struct {
	Name                 string `json:"name,omitempty"`
	APIServerEndpoint    string `json:"apiServerEndpoint,omitempty"`
	CertificateAuthority []byte `json:"certificateAuthority,omitempty"`
	CIDR                 string `json:"cidr,omitempty"`
	EnableOutpost        *bool  `json:"enableOutpost,omitempty"`
	ID                   string `json:"id,omitempty"`
}

type kubeletOptions struct {
	Config            map[string]runtime.RawExtension `json:"config,omitempty"`
	Flags             []string                        `json:"flags,omitempty"`
	MaxPodsExpression string                          `json:"maxPodsExpression,omitempty"`
}

type containerdOptions struct {
	Config          string                          `json:"config,omitempty"`
	BaseRuntimeSpec map[string]runtime.RawExtension `json:"baseRuntimeSpec,omitempty"`
}

type instanceOptions struct {
	LocalStorage localStorageOptions          `json:"localStorage,omitempty"`
	Environment  map[string]map[string]string `json:"environment,omitempty"`
	Network      networkOptions               `json:"network,omitempty"`
}

type networkOptions struct {
	Nameservers []string `json:"nameservers,omitempty"`
	Domains     []string `json:"domains,omitempty"`
}

type localStorageOptions struct {
	Strategy       string   `json:"strategy,omitempty"`
	MountPath      string   `json:"mountPath,omitempty"`
	DisabledMounts []string `json:"disabledMounts,omitempty"`
}

// The feature gates of nodeadm/internal/api/types.go.
const (
	featureInstanceIDNodeName = "InstanceIdNodeName"
	featureFastImagePull      = "FastImagePull"
)

// isFeatureEnabled is api/featuregates.go IsFeatureEnabled: both of
// nodeadm's gates are DefaultFalse, an unknown gate is off.
func isFeatureEnabled(feature string, gates map[string]bool) bool {
	switch feature {
	case featureInstanceIDNodeName, featureFastImagePull:
		enabled, set := gates[feature]
		return set && enabled
	}
	return false
}

// DeepCopyObject makes the types runtime.Objects for the scheme; decoding
// never copies, so a shallow copy is enough.
func (n *nodeConfig) DeepCopyObject() runtime.Object     { c := *n; return &c }
func (n *nodeConfigList) DeepCopyObject() runtime.Object { c := *n; return &c }

// scheme is api/bridge/scheme.go's: the v1alpha1 kinds, built on first use
// (not at start-up, for runs that read no NodeConfig).
var scheme = sync.OnceValue(func() *runtime.Scheme {
	s := runtime.NewScheme()
	s.AddKnownTypeWithName(groupVersion.WithKind(kindNodeConfig), &nodeConfig{})
	s.AddKnownTypeWithName(groupVersion.WithKind("NodeConfigList"), &nodeConfigList{})
	return s
})

// errDecoding is api/bridge/decode.go's ErrNodeConfigDecodingFailure.
var errDecoding = errors.New("failed to decode node config")

// decodeNodeConfig is api/bridge/decode.go DecodeNodeConfig: the codec
// factory's universal decoder picks the JSON serializer for data that starts
// with '{' and the YAML one otherwise (its recognizer), both non-strict: keys
// the types do not have are dropped, keys are matched case-sensitively, and
// of a YAML stream only the first document is read (sigs.k8s.io/yaml
// YAMLToJSON). strict are what the same serializer in strict mode reports on
// top (unknown and duplicate fields): what nodeadm drops without a word.
func decodeNodeConfig(data []byte) (cfg *nodeConfig, strict []error, err error) {
	isJSON := utilyaml.IsJSONBuffer(data)
	lenient := json.NewSerializerWithOptions(json.DefaultMetaFactory, scheme(), scheme(), json.SerializerOptions{Yaml: !isJSON})
	obj, gvk, err := lenient.Decode(data, nil, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("%w, %w", errDecoding, err)
	}
	if gvk.Kind != kindNodeConfig {
		return nil, nil, fmt.Errorf("failed to decode %q (wrong Kind)", gvk.Kind)
	}
	if gvk.Group != groupName {
		return nil, nil, fmt.Errorf("failed to decode %q, unexpected group: %s", gvk.Kind, gvk.Group)
	}
	c, ok := obj.(*nodeConfig)
	if !ok {
		return nil, nil, fmt.Errorf("unable to convert %T to internal NodeConfig", obj)
	}
	strictSerializer := json.NewSerializerWithOptions(json.DefaultMetaFactory, scheme(), scheme(), json.SerializerOptions{Yaml: !isJSON, Strict: true})
	if _, _, err := strictSerializer.Decode(data, nil, nil); err != nil {
		if se, ok := runtime.AsStrictDecodingError(err); ok {
			strict = se.Errors()
		}
	}
	return c, strict, nil
}
