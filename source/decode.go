package source

import (
	"encoding/json"
	"fmt"
	"sync"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	kubeletv1beta1 "k8s.io/kubelet/config/v1beta1"
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
	kc, ok := obj.(*kubeletv1beta1.KubeletConfiguration)
	if !ok {
		res.Err = fmt.Errorf("failed to cast object to KubeletConfiguration, unexpected type: %v", gvk)
		return res
	}
	res.Config = kc
	return res
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
