package input

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"

	kubeletv1beta1 "github.com/kubeletcfg/kubeletcfg/upstream/kubelet/config/v1beta1"
)

// FromConfigz recognises a configz dump (kubectl get --raw
// /api/v1/nodes/NODE/proxy/configz: {"kubeletconfig": {...}}, without
// apiVersion and kind) and returns the inner object as a KubeletConfiguration
// document. ok is false for anything else. The wrapper is blanked out and
// apiVersion and kind are appended at the end of the object, so every key
// keeps the line and column it has in the dump.
func FromConfigz(data []byte) (doc []byte, ok bool, err error) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 || trimmed[0] != '{' || !json.Valid(trimmed) {
		return nil, false, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, false, nil
	}
	if t, err := dec.Token(); err != nil || t != "kubeletconfig" {
		return nil, false, nil
	}
	var inner json.RawMessage
	if dec.Decode(&inner) != nil {
		return nil, false, nil
	}
	end := int(dec.InputOffset())
	start := end - len(inner)
	// Exactly one key: anything else is some other JSON object.
	if t, err := dec.Token(); err != nil || t != json.Delim('}') {
		return nil, false, nil
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, false, nil
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(inner, &obj) != nil || obj == nil {
		return nil, true, errors.New("kubeletconfig is not an object")
	}
	// The dump has no TypeMeta; one it has anyway is left for the pipeline
	// to judge.
	var add []byte
	for _, kv := range [][2]string{{"apiVersion", kubeletv1beta1.SchemeGroupVersion.String()}, {"kind", "KubeletConfiguration"}} {
		if _, has := obj[kv[0]]; has {
			continue
		}
		if len(obj) > 0 || len(add) > 0 {
			add = append(add, ',')
		}
		add = append(add, `"`+kv[0]+`":"`+kv[1]+`"`...)
	}
	out := make([]byte, 0, len(data)+len(add))
	out = append(out, blank(data[:start])...)
	out = append(out, inner[:len(inner)-1]...)
	out = append(out, add...)
	out = append(out, '}')
	out = append(out, blank(data[end:])...)
	return out, true, nil
}
