package author

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"

	yaml "go.yaml.in/yaml/v3"
	jsonpatch "gopkg.in/evanphx/json-patch.v4"

	kubeletv1beta1 "github.com/kubeletcfg/kubeletcfg/upstream/kubelet/config/v1beta1"

	"github.com/kubeletcfg/kubeletcfg/input"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
	"github.com/kubeletcfg/kubeletcfg/skew"
)

// Diff is the JSON merge patch (RFC 7386: objects merge, lists are replaced
// whole, null removes) that turns the effective configuration current into
// desired. apiVersion and kind are not part of it; an empty map means equal.
func Diff(current, desired map[string]any) (map[string]any, error) {
	a, err := json.Marshal(withoutTypeMeta(current))
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(withoutTypeMeta(desired))
	if err != nil {
		return nil, err
	}
	raw, err := jsonpatch.CreateMergePatch(a, b)
	if err != nil {
		return nil, err
	}
	var patch map[string]any
	if err := json.Unmarshal(raw, &patch); err != nil {
		return nil, err
	}
	return patch, nil
}

func withoutTypeMeta(obj map[string]any) map[string]any {
	out := make(map[string]any, len(obj))
	for k, v := range obj {
		if k != "apiVersion" && k != "kind" {
			out[k] = v
		}
	}
	return out
}

// PatchYAML renders a merge patch as a drop-in: header comments, apiVersion,
// kind, then the keys sorted (as the kubelet prints its configuration).
func PatchYAML(patch map[string]any, header []string) ([]byte, error) {
	var body yaml.Node
	if err := body.Encode(patch); err != nil {
		return nil, err
	}
	root := &yaml.Node{Kind: yaml.MappingNode}
	addScalar(root, "apiVersion", kubeletv1beta1.SchemeGroupVersion.String())
	addScalar(root, "kind", "KubeletConfiguration")
	root.Content = append(root.Content, body.Content...)
	return encode(root, header)
}

// Mismatch is a leaf where merging the drop-in does not give the desired value.
type Mismatch = skew.Change

// Verify evaluates the loaded files, the drop-in among them (Input.Virtual), at
// minor m and compares the effective configuration with desired (an effective
// object at the same minor). It returns the leaves that differ; none means the
// drop-in is exact.
func Verify(l *pipeline.Loaded, m *kubelets.Minor, desired map[string]any) (*pipeline.Result, []Mismatch, error) {
	r, err := l.Evaluate(m)
	if err != nil {
		return nil, nil, err
	}
	got, err := r.EffectiveObject()
	if err != nil || got == nil {
		return r, nil, err
	}
	tree := m.Fields()
	a, b := kubelets.Flatten(got, tree), kubelets.Flatten(desired, tree)
	if reflect.DeepEqual(a, b) {
		return r, nil, nil
	}
	known := func(string) bool { return true }
	return r, skew.Diff(a, b, known, known), nil
}

// ReadConfigz recognises a configz dump (kubectl get --raw
// /api/v1/nodes/NODE/proxy/configz: {"kubeletconfig": {...}}, without apiVersion
// and kind) and returns it as a KubeletConfiguration document (see
// input.FromConfigz). ok is false for any other file, which is then read as a
// kubelet config file.
func ReadConfigz(path string) (doc []byte, ok bool, err error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, false, err
	}
	doc, ok, err = input.FromConfigz(data)
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", path, err)
	}
	return doc, ok, nil
}
