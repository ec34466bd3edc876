package nodeadm

import (
	"encoding/json"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kubeletcfg/kubeletcfg/input/nodeadm/internal/v1alpha1"
)

// mergeNodeConfig is api/merge.go (NodeConfig).Merge (v20260724):
// mergo.Merge(dst, src, mergo.WithOverride, nodeConfigTransformer), written
// out field by field for the fields that reach the kubelet. mergo with
// WithOverride sets a field from src when src's value is not empty: a
// non-empty string or slice replaces, a pointer is set when dst's is nil and
// otherwise merged through (so enableOutpost: false never turns a true off),
// map keys of src replace dst's (false included). The transformers: kubelet
// flags are appended (mergeKubeletFlags), spec.kubelet.config is deep-merged
// as JSON (mergeInlineDocument).
func mergeNodeConfig(dst, src *nodeConfig) error {
	d, s := &dst.Spec, &src.Spec
	str := func(d *string, s string) {
		if s != "" {
			*d = s
		}
	}
	str(&d.Cluster.Name, s.Cluster.Name)
	str(&d.Cluster.APIServerEndpoint, s.Cluster.APIServerEndpoint)
	if len(s.Cluster.CertificateAuthority) > 0 {
		d.Cluster.CertificateAuthority = s.Cluster.CertificateAuthority
	}
	str(&d.Cluster.CIDR, s.Cluster.CIDR)
	if s.Cluster.EnableOutpost != nil {
		if d.Cluster.EnableOutpost == nil {
			d.Cluster.EnableOutpost = s.Cluster.EnableOutpost
		} else if *s.Cluster.EnableOutpost {
			v := true
			d.Cluster.EnableOutpost = &v
		}
	}
	str(&d.Cluster.ID, s.Cluster.ID)
	for k, v := range s.FeatureGates {
		if d.FeatureGates == nil {
			d.FeatureGates = map[v1alpha1.Feature]bool{}
		}
		d.FeatureGates[k] = v
	}
	// mergeKubeletFlags: "we choose to explicitly append slices for this
	// field and no other slices".
	d.Kubelet.Flags = append(d.Kubelet.Flags, s.Kubelet.Flags...)
	str(&d.Kubelet.MaxPodsExpression, s.Kubelet.MaxPodsExpression)
	cfg, err := mergeInlineDocument(d.Kubelet.Config, s.Kubelet.Config)
	if err != nil {
		return err
	}
	d.Kubelet.Config = cfg
	return nil
}

// mergeInlineDocument is nodeConfigTransformer.mergeInlineDocument: an empty
// dst takes src; otherwise a non-empty src is merged into dst through JSON
// (util.Merge) and each top-level value re-marshalled (toInlineDocument). A
// nil dst is not transformed (mergo skips nil values) but merged key by key,
// which comes to the same: src's keys.
func mergeInlineDocument(dst, src map[string]runtime.RawExtension) (map[string]runtime.RawExtension, error) {
	if dst == nil {
		if src == nil {
			return nil, nil
		}
		out := make(map[string]runtime.RawExtension, len(src))
		for k, v := range src {
			out[k] = v
		}
		return out, nil
	}
	if len(dst) == 0 {
		return src, nil
	}
	if len(src) == 0 {
		return dst, nil
	}
	merged, err := utilMerge(dst, src)
	if err != nil {
		return nil, err
	}
	out := make(map[string]runtime.RawExtension, len(merged))
	for k, v := range merged {
		raw, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		out[k] = runtime.RawExtension{Raw: raw}
	}
	return out, nil
}

// utilMerge is util/merge.go Merge with json.Marshal and json.Unmarshal:
// both sides through JSON into map[string]interface{}, then mergo.Merge with
// WithOverride.
func utilMerge(dst, src any) (map[string]any, error) {
	var dstMap, srcMap map[string]any
	for _, x := range []struct {
		v   any
		out *map[string]any
	}{{dst, &dstMap}, {src, &srcMap}} {
		b, err := json.Marshal(x.v)
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(b, x.out); err != nil {
			return nil, err
		}
	}
	if dstMap == nil {
		dstMap = map[string]any{}
	}
	mergoMergeMaps(dstMap, srcMap)
	return dstMap, nil
}

// mergoMergeMaps is what dario.cat/mergo v1.0.2 deepMerge does with
// WithOverride on two map[string]interface{} decoded from JSON: for each key
// of src, a null sets null; an object is merged into a non-empty object of dst
// (recursively) and replaces anything else; a list or scalar replaces (false,
// 0, "" and [] included).
func mergoMergeMaps(dst, src map[string]any) {
	for k, sv := range src {
		if sm, ok := sv.(map[string]any); ok {
			if dm, ok := dst[k].(map[string]any); ok && len(dm) > 0 {
				mergoMergeMaps(dm, sm)
				continue
			}
		}
		dst[k] = sv
	}
}
