package source

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	kubeletv1beta1 "github.com/kubeletcfg/kubeletcfg/upstream/kubelet/config/v1beta1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	kjson "k8s.io/apimachinery/pkg/runtime/serializer/json"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"

	yamlv3 "go.yaml.in/yaml/v3"
)

// The kubelet decodes with apimachinery's serializers over a scheme holding its
// config types (pkg/kubelet/kubeletconfig/util/codec). We use the same serializers
// over the published v1beta1 types, so strictness, YAML-to-JSON conversion and
// type errors are the kubelet's own.
var codecs = sync.OnceValues(func() (strict, lenient serializer.CodecFactory) {
	scheme := runtime.NewScheme()
	if err := kubeletv1beta1.AddToScheme(scheme); err != nil {
		panic(err) // static registration; cannot fail
	}
	return serializer.NewCodecFactory(scheme, serializer.EnableStrict),
		serializer.NewCodecFactory(scheme, serializer.DisableStrict)
})

// MainDecode is the outcome of decoding the main --config file.
type MainDecode struct {
	// Config is the decoded, not yet defaulted, configuration; nil when the
	// kubelet refuses the file.
	Config *kubeletv1beta1.KubeletConfiguration
	// StrictErr is set when strict decoding failed only for strictness and the
	// kubelet fell back to lenient decoding (it starts, logging one info line).
	StrictErr error
	// Err is set when the kubelet refuses the file; it reads like the kubelet's error.
	Err error
}

// DecodeMain reproduces DecodeKubeletConfiguration: strict first, then lenient
// when the strict failure was only about strictness.
func DecodeMain(data []byte) MainDecode {
	strict, lenient := codecs()
	obj, gvk, err := strict.UniversalDeserializer().Decode(data, nil, nil)
	var res MainDecode
	if err != nil {
		if !runtime.IsStrictDecodingError(err) {
			res.Err = fmt.Errorf("failed to decode: %w", err)
			return res
		}
		res.StrictErr = err
		var lerr error
		obj, gvk, lerr = lenient.UniversalDeserializer().Decode(data, nil, nil)
		if lerr != nil {
			res.Err = fmt.Errorf("failed lenient decoding: %v", err)
			return res
		}
	}
	return res.cast(obj, gvk)
}

// cast is DecodeKubeletConfiguration's last step: the decoded object must be a
// KubeletConfiguration.
func (res MainDecode) cast(obj runtime.Object, gvk *schema.GroupVersionKind) MainDecode {
	kc, ok := obj.(*kubeletv1beta1.KubeletConfiguration)
	if !ok {
		res.Err = fmt.Errorf("failed to cast object to KubeletConfiguration, unexpected type: %v", gvk)
		return res
	}
	res.Config = kc
	return res
}

// jsonSerializers are the JSON serializers of the kubelet's codec factories:
// its YAML serializer is one of them behind yaml.YAMLToJSON.
var jsonSerializers = sync.OnceValues(func() (strict, lenient runtime.Decoder) {
	scheme := runtime.NewScheme()
	if err := kubeletv1beta1.AddToScheme(scheme); err != nil {
		panic(err) // static registration; cannot fail
	}
	mk := func(strict bool) runtime.Decoder {
		return kjson.NewSerializerWithOptions(kjson.DefaultMetaFactory, scheme, scheme, kjson.SerializerOptions{Strict: strict})
	}
	return mk(true), mk(false)
})

// protobufMagic starts the data the universal deserializer hands to protobuf.
var protobufMagic = []byte{0x6b, 0x38, 0x73, 0x00}

// decodeMainConverted is DecodeMain with the YAML-to-JSON conversion supplied
// by the caller, so that one conversion of a large file serves the strict and
// the lenient decoding and the schema check (each a full parse otherwise). It
// does what the universal deserializer's YAML serializer does, step for step:
// for YAML (not JSON, not protobuf) input that serializer is the only one that
// decodes, and it is the JSON serializer run on yaml.YAMLToJSON(data), plus
// yaml.YAMLToJSONStrict(data) as the first strict error. Errors quoting the
// original data (missing kind or version) take the kubelet's own path.
//
// doc is data's first YAML document as Parse reads it (nil when unknown):
// where it proves whether yaml.YAMLToJSONStrict reports a duplicate key
// (duplicateKeys), that second full parse is skipped, or deferred until its
// message is read.
func decodeMainConverted(data []byte, doc *yamlv3.Node, convert func() ([]byte, error)) MainDecode {
	if utilyaml.IsJSONBuffer(data) || bytes.HasPrefix(data, protobufMagic) {
		return DecodeMain(data)
	}
	var res MainDecode
	js, err := convert()
	if err != nil {
		res.Err = fmt.Errorf("failed to decode: %w", err)
		return res
	}
	strict, lenient := jsonSerializers()
	obj, gvk, err := strict.Decode(js, nil, nil)
	var strictErrs []error
	if err != nil {
		se, ok := runtime.AsStrictDecodingError(err)
		if !ok {
			if runtime.IsMissingKind(err) || runtime.IsMissingVersion(err) {
				return DecodeMain(data)
			}
			res.Err = fmt.Errorf("failed to decode: %w", err)
			return res
		}
		strictErrs = se.Errors()
	}
	switch duplicateKeys(doc) {
	case dupNone:
		// The node tree proves the strict conversion finds no duplicate.
	case dupSome:
		strictErrs = append([]error{&yamlStrictError{data: data}}, strictErrs...)
	default:
		if _, yerr := yaml.YAMLToJSONStrict(data); yerr != nil {
			strictErrs = append([]error{yerr}, strictErrs...)
		}
	}
	if len(strictErrs) > 0 {
		err = runtime.NewStrictDecodingError(strictErrs)
		res.StrictErr = err
		if obj != nil {
			// sigs.k8s.io/json's strict decoding decodes the whole object and
			// returns the unknown and duplicate fields beside it: the lenient
			// decoding of the same JSON into a fresh object (case-sensitive,
			// integers kept) gives the same object, so the second full decode
			// of a large file is skipped (TestDecodeMainConverted compares the
			// configs on every testdata input).
			return res.cast(obj, gvk)
		}
		var lerr error
		obj, gvk, lerr = lenient.Decode(js, nil, nil)
		if lerr != nil {
			res.Err = fmt.Errorf("failed lenient decoding: %v", err)
			return res
		}
	}
	return res.cast(obj, gvk)
}

// KubeletGVK is the only group/version/kind the kubelet accepts in drop-ins.
var KubeletGVK = kubeletv1beta1.SchemeGroupVersion.WithKind("KubeletConfiguration")

// DecodeDropIn reproduces LoadIntoJSON for a drop-in: strict decoding into an
// unstructured object (duplicate keys are fatal, unknown keys are kept), then the
// JSON the kubelet merges.
func DecodeDropIn(data []byte) ([]byte, *schema.GroupVersionKind, error) {
	strict, _ := codecs()
	obj, gvk, err := strict.UniversalDeserializer().Decode(data, nil, &unstructured.Unstructured{})
	if err != nil {
		return nil, nil, err
	}
	out, err := json.Marshal(obj.(*unstructured.Unstructured).Object)
	return out, gvk, err
}

// decodeDropInParsed is DecodeDropIn of f.Data, a drop-in as Parse read it.
// For YAML, the universal deserializer's only decoder is the YAML serializer:
// the JSON serializer run on yaml.YAMLToJSON(data) (whose error it returns
// alone), plus a second full parse, yaml.YAMLToJSONStrict(data), whose only
// strict error is a duplicate key. Where f's node tree proves there is none
// (duplicateKeys), that parse is skipped and the JSON serializer decodes the
// conversion (built from the node tree where jsonOf proves it, with the kind
// its keys name where unstructuredKind proves it), the calls the YAML
// serializer makes, in its order; where it proves excessive aliasing or a
// duplicate, the error is built as the serializer builds it. Anything else
// (JSON or protobuf input, an error of the JSON serializer, whose message may
// quote the input) takes the kubelet's own path, so every message stays its
// own; TestDecodeDropInParsed compares the two on every input of testdata, the
// hostile shapes and alias bombs.
func decodeDropInParsed(f *File) ([]byte, *schema.GroupVersionKind, error) {
	data := f.Data
	if utilyaml.IsJSONBuffer(data) || bytes.HasPrefix(data, protobufMagic) {
		return DecodeDropIn(data)
	}
	if excessiveAliasing(f) {
		// The YAML serializer's first step, yaml.YAMLToJSON, fails, and the
		// universal deserializer returns its error alone.
		return nil, nil, errExcessiveAliasing
	}
	switch duplicateKeys(f.Doc) {
	case dupNone:
	case dupSome:
		return decodeDropInDuplicates(f)
	default:
		return DecodeDropIn(data)
	}
	js, ok := jsonOf(f)
	if ok {
		if gvk, ok := unstructuredKind(f.Doc); ok {
			return js, gvk, nil
		}
	} else {
		var err error
		if js, err = yaml.YAMLToJSON(data); err != nil {
			return nil, nil, err // the YAML serializer's first step: its error alone
		}
	}
	strict, _ := jsonSerializers()
	obj, gvk, err := strict.Decode(js, nil, &unstructured.Unstructured{})
	if err != nil {
		return DecodeDropIn(data)
	}
	out, err := json.Marshal(obj.(*unstructured.Unstructured).Object)
	return out, gvk, err
}

// decodeDropInDuplicates is DecodeDropIn of a drop-in with a duplicate key
// (duplicateKeys proved one). The serializer converts and decodes the file
// without strictness first, then fails with yaml.YAMLToJSONStrict's error
// alone: where the node tree proves the conversion and the kind
// (jsonValueOf, unstructuredKind), only the strict conversion runs.
func decodeDropInDuplicates(f *File) ([]byte, *schema.GroupVersionKind, error) {
	if _, ok := jsonOf(f); ok {
		if _, ok := unstructuredKind(f.Doc); ok {
			if _, err := yaml.YAMLToJSONStrict(f.Data); err != nil {
				return nil, nil, runtime.NewStrictDecodingError([]error{err})
			}
		}
	}
	return DecodeDropIn(f.Data)
}

// unstructuredKind is what the strict JSON serializer returns for js, the
// JSON of doc (jsonOf), decoding into an Unstructured, where doc proves it: js
// itself (an unstructured object of doc's strings, integers, booleans and
// nulls marshals back to the same bytes) and the kind its apiVersion and kind
// name. The serializer first reads apiVersion and kind with encoding/json,
// which matches keys case-insensitively and fails on a value of another type
// (SimpleMetaFactory.Interpret) and parses the group and version; then it
// decodes the object and takes the kind from its apiVersion and kind keys
// (the last of repeated ones, as the conversion keeps), refusing an object
// without kind. ok is false unless the top level has no key spelled like
// either but those two, both strings, a kind that is not empty and an
// apiVersion that parses: the serializer then runs. doc must be one jsonOf
// converts.
func unstructuredKind(doc *yamlv3.Node) (*schema.GroupVersionKind, bool) {
	if doc == nil || doc.Kind != yamlv3.MappingNode {
		return nil, false
	}
	var kindNode, apiVersionNode *yamlv3.Node
	for i := 0; i+1 < len(doc.Content); i += 2 {
		switch k := doc.Content[i].Value; {
		case k == "kind":
			kindNode = doc.Content[i+1]
		case k == "apiVersion":
			apiVersionNode = doc.Content[i+1]
		case strings.EqualFold(k, "kind"), strings.EqualFold(k, "apiVersion"):
			return nil, false
		}
	}
	if kindNode == nil {
		return nil, false
	}
	// v2Value of a node jsonOf converted always succeeds: only its type matters.
	v, _ := v2Value(kindNode, 0)
	kind, ok := v.(string)
	if !ok || kind == "" {
		return nil, false
	}
	apiVersion := ""
	if apiVersionNode != nil {
		v, _ := v2Value(apiVersionNode, 0)
		if apiVersion, ok = v.(string); !ok {
			return nil, false
		}
	}
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return nil, false
	}
	gvk := gv.WithKind(kind)
	return &gvk, true
}
