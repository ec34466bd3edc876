package talos

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
	corev1 "k8s.io/api/core/v1"
	kubeletconfig "k8s.io/kubelet/config/v1beta1"
)

// positions maps the generated configuration's field paths to where the user
// wrote them: every key under machine.kubelet.extraConfig (a KubeletConfig
// document's config) (at any depth, map
// keys in brackets, list items by index), and the fields Talos derives from
// other keys of the machine configuration. The fields Talos sets of its own
// accord get a Note.
func (t *translation) positions(s *spec, c *v1alpha1Config, cfg *kubeletconfig.KubeletConfiguration) {
	extra := t.kubelet.at(t.extraConfigKey())
	t.walk(extra, reflect.TypeFor[kubeletconfig.KubeletConfiguration](), "")
	// a key Talos refuses or replaces is not where the written value comes
	// from: its finding points at it, the value gets Talos's note below.
	for path := range t.out.Positions {
		for _, r := range t.replaced {
			if path == r || strings.HasPrefix(path, r+".") || strings.HasPrefix(path, r+"[") {
				delete(t.out.Positions, path)
			}
		}
	}

	from := func(path string, p place, keys ...string) bool {
		if _, ok := t.out.Positions[path]; ok {
			return true
		}
		if k := keyAt(p.doc, p.keys(keys...)...); k != nil {
			t.out.Positions[path] = t.pos(k)
			return true
		}
		return false
	}
	v1alpha1 := place{doc: t.doc}
	_, userDNS := s.ExtraConfig["clusterDNS"]
	if !userDNS && !from("clusterDNS", t.kubelet, "clusterDNS") && !from("clusterDNS", t.network, "serviceSubnets") {
		t.out.Notes["clusterDNS"] = "Talos: the 10th address of the service CIDR " + defaultIPv4ServiceNet + " (v1alpha1_clusterconfig.go DNSServiceIPs)"
	}
	if !from("clusterDomain", t.network, "dnsDomain") {
		t.out.Notes["clusterDomain"] = "Talos default cluster.network.dnsDomain (" + defaultDNSDomain + ")"
	}
	if s.DefaultRuntimeSeccompEnabled {
		from("seccompDefault", t.kubelet, "defaultRuntimeSeccompProfileEnabled")
	}
	if s.DisableManifestsDirectory {
		if t.kubelet.kind != "" {
			// KubeletConfigV1Alpha1.DisableManifestsDirectory is always true
			if _, ok := t.out.Positions["staticPodPath"]; !ok {
				t.out.Positions["staticPodPath"] = t.pos(t.kubelet.doc)
			}
		} else {
			from("staticPodPath", t.kubelet, "disableManifestsDirectory")
		}
	}
	if s.EnableFSQuotaMonitoring {
		from("featureGates[LocalStorageCapacityIsolationFSQuotaMonitoring]", v1alpha1, "machine", "features", "diskQuotaSupport")
	}
	if s.SkipNodeRegistration {
		from("authentication.webhook.enabled", t.node, "skipNodeRegistration")
		from("authorization.mode", t.node, "skipNodeRegistration")
	}
	switch {
	case t.rel.k8sDocuments && !s.SkipNodeRegistration:
		// v1.14: each taint Talos adds comes from KubeNodeConfig's taints,
		// else machine.nodeTaints, the control plane's from machine.type.
		for i, taint := range cfg.RegisterWithTaints {
			if _, ok := s.RegisterWithTaints[taint.Key]; !ok {
				continue
			}
			path := fmt.Sprintf("registerWithTaints[%d]", i)
			switch {
			case t.node.kind != "":
				from(path, t.node, "taints", taint.Key)
			case taint.Key == labelNodeRoleControlPlane && s.controlPlaneTaint:
				from(path, v1alpha1, "machine", "type")
			default:
				from(path, v1alpha1, "machine", "nodeTaints", taint.Key)
			}
		}
	case isControlPlane(c.Machine.Type) && !s.SkipNodeRegistration && !s.AllowSchedulingOnControlPlane &&
		slices.ContainsFunc(cfg.RegisterWithTaints, func(t corev1.Taint) bool { return t.Key == labelNodeRoleControlPlane }):
		from("registerWithTaints", v1alpha1, "machine", "type")
	}
	if _, user := s.ExtraConfig["systemReserved"]; !user {
		kind := "worker"
		if isControlPlane(c.Machine.Type) {
			kind = "control plane"
		}
		t.out.Notes["systemReserved[memory]"] = "Talos default for a " + kind + " (kubelet_spec.go NewKubeletConfiguration)"
	}
	const def = "Talos default (kubelet_spec.go NewKubeletConfiguration)"
	for _, path := range []string{
		"staticPodPath", "port", "authentication.x509.clientCAFile", "authentication.webhook.enabled",
		"authentication.anonymous.enabled", "authorization.mode", "cgroupRoot", "systemCgroups", "kubeletCgroups",
		"rotateCertificates", "protectKernelDefaults", "containerRuntimeEndpoint", "seccompDefault", "registerWithTaints",
		"address", "oomScoreAdj", "serializeImagePulls", "failSwapOn", "systemReserved", "logging.format",
		"shutdownGracePeriod", "shutdownGracePeriodCriticalPods", "streamingConnectionIdleTimeout", "tlsMinVersion",
		"resolvConf", "featureGates[LocalStorageCapacityIsolationFSQuotaMonitoring]",
	} {
		if _, ok := t.out.Positions[path]; !ok {
			t.out.Notes[path] = def
		}
	}
	if cgroupRoot == "/" {
		t.out.Notes["cgroupRoot"] = def + "; \"/\" on a machine booted by Talos, the nested cgroup in container mode"
	}
}

// walk records the position of every key under n, a value of Go type typ at
// path.
func (t *translation) walk(n *yaml.Node, typ reflect.Type, path string) {
	if n == nil {
		return
	}
	for typ != nil && typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			var sub string
			var elem reflect.Type
			switch {
			case typ != nil && typ.Kind() == reflect.Struct:
				sub = join(path, k.Value)
				elem = fieldType(typ, k.Value)
			case typ != nil && typ.Kind() == reflect.Map:
				sub = fmt.Sprintf("%s[%s]", path, k.Value)
				elem = typ.Elem()
			default:
				sub = join(path, k.Value)
			}
			if _, ok := t.out.Positions[sub]; !ok {
				t.out.Positions[sub] = t.pos(k)
			}
			t.walk(v, elem, sub)
		}
	case yaml.SequenceNode:
		var elem reflect.Type
		if typ != nil && typ.Kind() == reflect.Slice {
			elem = typ.Elem()
		}
		for i, item := range n.Content {
			sub := fmt.Sprintf("%s[%d]", path, i)
			t.out.Positions[sub] = t.pos(item)
			t.walk(item, elem, sub)
		}
	}
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// fieldType is the type of the field of struct typ whose JSON name is name
// (inlined structs included), or nil.
func fieldType(typ reflect.Type, name string) reflect.Type {
	for _, f := range reflect.VisibleFields(typ) {
		tag := strings.Split(f.Tag.Get("json"), ",")[0]
		if tag == name {
			return f.Type
		}
	}
	return nil
}
