package nodeadm

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"sync"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer/json"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/utils/lru"

	"github.com/kubeletcfg/kubeletcfg/input/nodeadm/internal/v1alpha1"
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

// The kinds, in nodeadm's own names (package v1alpha1): a decoding error
// names nodeadm's types, as nodeadm's does.
type (
	nodeConfig     = v1alpha1.NodeConfig
	nodeConfigList = v1alpha1.NodeConfigList
)

// The feature gates of nodeadm/internal/api/types.go.
const (
	featureInstanceIDNodeName v1alpha1.Feature = "InstanceIdNodeName"
	featureFastImagePull      v1alpha1.Feature = "FastImagePull"
)

// isFeatureEnabled is api/featuregates.go IsFeatureEnabled: both of
// nodeadm's gates are DefaultFalse, an unknown gate is off.
func isFeatureEnabled(feature v1alpha1.Feature, gates map[v1alpha1.Feature]bool) bool {
	switch feature {
	case featureInstanceIDNodeName, featureFastImagePull:
		enabled, set := gates[feature]
		return set && enabled
	}
	return false
}

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
//
// The decodings of the last few documents are kept and each caller gets a
// copy (the merge changes the first): a NodeConfig is decoded once per
// kubelet minor it is translated for, the same bytes each time.
func decodeNodeConfig(data []byte) (cfg *nodeConfig, strict []error, err error) {
	key := sha256.Sum256(data)
	if v, ok := decoded.Get(key); ok {
		d := v.(decoding)
		if d.cfg != nil {
			cfg = d.cfg.DeepCopy()
		}
		return cfg, d.strict, d.err
	}
	cfg, strict, err = decodeNodeConfigOnce(data)
	d := decoding{strict: strict, err: err}
	if cfg != nil {
		d.cfg = cfg.DeepCopy()
	}
	decoded.Add(key, d)
	return cfg, strict, err
}

// decoded holds the last decodeNodeConfig answers, by the document's hash.
var decoded = lru.New(16)

type decoding struct {
	cfg    *nodeConfig // never handed out: callers get copies
	strict []error
	err    error
}

func decodeNodeConfigOnce(data []byte) (cfg *nodeConfig, strict []error, err error) {
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
