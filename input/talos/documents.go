package talos

import (
	"cmp"
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/input/bootstrap"
	"github.com/kubeletcfg/kubeletcfg/input/internal/yamlmap"
)

// The documents beside v1alpha1 that Talos v1.14 reads the kubelet's settings
// from (pkg/machinery/config/types/k8s, Talos v1.14.0-rc.1): the config
// provider (pkg/machinery/config/container Container.K8sKubeletConfig,
// K8sNodeConfig, K8sNetworkConfig, K8sCredentialProviderConfig) takes the
// first document of the kind when there is one, else the v1alpha1 fields; the
// two never merge, and each document refuses the v1alpha1 fields it replaces
// (V1Alpha1ConflictValidate).
const (
	kindKubelet            = "KubeletConfig"
	kindNode               = "KubeNodeConfig"
	kindNetwork            = "KubeNetworkConfig"
	kindCredentialProvider = "KubeCredentialProviderConfig"
)

// The keys of each document (the yaml tags of its Go type, meta.Meta's
// apiVersion and kind inlined), for the decoder's unknown-key check.
var docSchemas = map[string]schema{
	kindKubelet: {"apiVersion": nil, "kind": nil, "image": nil, "config": nil, "extraArgs": nil, "clusterDNS": nil,
		"defaultRuntimeSeccompProfileEnabled": nil},
	kindNode: {"apiVersion": nil, "kind": nil, "skipNodeRegistration": nil, "registerWithFQDN": nil,
		"nodeIP": {"validSubnets": nil}, "labels": nil, "annotations": nil, "taints": nil},
	kindNetwork: {"apiVersion": nil, "kind": nil, "dnsDomain": nil, "podSubnets": nil, "serviceSubnets": nil,
		"nodeCIDRMaskSizeIPv4": nil, "nodeCIDRMaskSizeIPv6": nil},
	kindCredentialProvider: {"apiVersion": nil, "kind": nil, "configuration": nil},
}

// kubeletDocument is k8s.KubeletConfigV1Alpha1 (types/k8s/kubelet.go).
type kubeletDocument struct {
	Image                               string              `yaml:"image"`
	Config                              map[string]any      `yaml:"config"`
	ExtraArgs                           map[string]argValue `yaml:"extraArgs"`
	ClusterDNS                          []string            `yaml:"clusterDNS"`
	DefaultRuntimeSeccompProfileEnabled *bool               `yaml:"defaultRuntimeSeccompProfileEnabled"`
}

// nodeDocument is k8s.KubeNodeConfigV1Alpha1 (types/k8s/node.go).
type nodeDocument struct {
	SkipNodeRegistration *bool `yaml:"skipNodeRegistration"`
	RegisterWithFQDN     *bool `yaml:"registerWithFQDN"`
	NodeIP               struct {
		ValidSubnets []string `yaml:"validSubnets"`
	} `yaml:"nodeIP"`
	Taints map[string]string `yaml:"taints"`
}

// networkDocument is k8s.KubeNetworkConfigV1Alpha1 (types/k8s/network.go);
// the subnets are meta.Prefix, netip.Prefix's text form.
type networkDocument struct {
	DNSDomain            string   `yaml:"dnsDomain"`
	PodSubnets           []string `yaml:"podSubnets"`
	ServiceSubnets       []string `yaml:"serviceSubnets"`
	NodeCIDRMaskSizeIPv4 int      `yaml:"nodeCIDRMaskSizeIPv4"`
	NodeCIDRMaskSizeIPv6 int      `yaml:"nodeCIDRMaskSizeIPv6"`
}

// credentialProviderDocument is k8s.KubeCredentialProviderConfigV1Alpha1.
type credentialProviderDocument struct {
	Configuration map[string]any `yaml:"configuration"`
}

// place is where a setting of the kubelet chain is read from: a document of
// the file and the keys below it.
type place struct {
	doc  *yaml.Node
	base []string
	// kind is the document's kind, "" for the v1alpha1 document.
	kind string
}

func (p place) keys(keys ...string) []string { return append(slices.Clone(p.base), keys...) }

// at is the value node at keys below the place, or nil.
func (p place) at(keys ...string) *yaml.Node { return at(p.doc, p.keys(keys...)...) }

// name is how a message names the key at keys: machine.kubelet.extraArgs.x,
// or "the KubeletConfig document's extraArgs.x".
func (p place) name(keys ...string) string {
	if p.kind == "" {
		return strings.Join(p.keys(keys...), ".")
	}
	return "the " + p.kind + " document's " + strings.Join(keys, ".")
}

// posIn is the position of the key at keys below p, falling back to the
// nearest ancestor present, then to the anchor.
func (t *translation) posIn(p place, keys ...string) finding.Position {
	full := p.keys(keys...)
	for i := len(full); i > 0; i-- {
		if k := keyAt(p.doc, full[:i]...); k != nil {
			return t.pos(k)
		}
	}
	if p.kind != "" && p.doc != nil {
		return t.pos(p.doc)
	}
	return t.out.Anchor
}

// documents reads the documents beside v1alpha1 as the release's
// configloader decoder does (decoder.go parse and decode): a document with
// no kind or no apiVersion, a kind the release's registry does not know, or a
// second document of the same apiVersion, kind and name refuses the whole
// machine configuration. Of the kinds the release knows, those the kubelet's
// settings come from are decoded (unknown keys refuse the file, as for
// v1alpha1); the others do not reach the kubelet and are left alone.
func (t *translation) documents(docs []*yaml.Node) {
	t.docs = map[string]*yaml.Node{}
	t.kubelet = place{doc: t.doc, base: []string{"machine", "kubelet"}}
	t.node = t.kubelet
	t.network = place{doc: t.doc, base: []string{"cluster", "network"}}
	t.cred = t.kubelet
	seen := map[string]bool{}
	for _, d := range docs {
		if d == nil || d == t.doc {
			continue
		}
		if d.Kind != yaml.MappingNode {
			if d.Kind == yaml.ScalarNode && d.Tag == "!!null" {
				continue
			}
			t.add(bootstrap.Refuses, t.pos(d), "",
				fmt.Sprintf("expected a YAML document at line %d: Talos refuses the whole machine configuration (configloader decoder)", d.Line),
				"each document of a machine configuration is a YAML map")
			continue
		}
		apiVersion, kind, name := scalarOf(d, "apiVersion"), scalarOf(d, "kind"), scalarOf(d, "name")
		id := fmt.Sprintf("%s/%s/%s", apiVersion, cmp.Or(kind, "v1alpha1"), name)
		refuse := func(n *yaml.Node, why, hint string) {
			t.add(bootstrap.Refuses, t.pos(n), "",
				fmt.Sprintf("error decoding document %s (line %d): %s: Talos refuses the whole machine configuration (configloader decoder)", id, d.Line, why), hint)
		}
		if seen[id] {
			t.add(bootstrap.Refuses, t.pos(d), "",
				fmt.Sprintf("duplicate document %s is not allowed (line %d): Talos refuses the whole machine configuration (configloader decoder)", id, d.Line),
				"keep one document of each kind and name")
			continue
		}
		seen[id] = true
		kindKey, _ := yamlmap.Entry(d, "kind")
		switch {
		case kind == "":
			refuse(d, "missing kind", "give the document its kind, or remove it")
			continue
		case apiVersion == "":
			refuse(kindKey, "missing apiVersion", "give the document apiVersion: v1alpha1")
			continue
		case !t.rel.knows(kind) || apiVersion != "v1alpha1":
			hint := fmt.Sprintf("Talos %s does not know this kind: remove the document", t.rel.Name)
			if slices.ContainsFunc(Releases, func(r Release) bool { return r.knows(kind) }) && !t.rel.knows(kind) {
				hint = fmt.Sprintf("Talos knows %s documents from %s on: remove it for %s (the v1alpha1 document's fields say the same there)", kind, firstKnowing(kind), t.rel.Name)
			} else if near := nearestKind(kind, t.rel.kinds); near != "" && near != kind {
				hint = fmt.Sprintf("did you mean %s?", near)
			}
			refuse(kindKey, fmt.Sprintf("%q %q: not registered", kind, apiVersion), hint)
			continue
		}
		if _, ok := docSchemas[kind]; !ok || !t.rel.k8sDocuments {
			continue
		}
		t.checkUnknownKeysIn(d, docSchemas[kind], "", kind)
		if t.docs[kind] == nil {
			t.docs[kind] = d
		}
	}
	if d := t.docs[kindKubelet]; d != nil {
		t.kubelet = place{doc: d, kind: kindKubelet}
		t.out.Anchor = t.pos(d)
	}
	if d := t.docs[kindNode]; d != nil {
		t.node = place{doc: d, kind: kindNode}
	}
	if d := t.docs[kindNetwork]; d != nil {
		t.network = place{doc: d, kind: kindNetwork}
	}
	if d := t.docs[kindCredentialProvider]; d != nil {
		t.cred = place{doc: d, kind: kindCredentialProvider}
	}
}

// firstKnowing is the first release ported whose registry has kind.
func firstKnowing(kind string) string {
	for _, r := range Releases {
		if r.knows(kind) {
			return r.Name
		}
	}
	return ""
}

// nearestKind is the known kind closest to kind, or "".
func nearestKind(kind string, kinds []string) string {
	s := schema{}
	for _, k := range kinds {
		s[k] = nil
	}
	return nearest(kind, s)
}

// scalarOf is the value of key in mapping n when it is a scalar.
func scalarOf(n *yaml.Node, key string) string {
	v := yamlmap.Value(n, key)
	if v == nil || v.Kind != yaml.ScalarNode {
		return ""
	}
	return v.Value
}

// decodeDocument decodes the document of kind into v; a value of the wrong
// type is the decoder refusing the file.
func (t *translation) decodeDocument(kind string, v any) bool {
	d := t.docs[kind]
	if d == nil {
		return false
	}
	if err := d.Decode(v); err != nil {
		var te *yaml.TypeError
		if errors.As(err, &te) {
			for _, e := range te.Errors {
				t.add(bootstrap.Refuses, t.linePos(e), "",
					fmt.Sprintf("error decoding document v1alpha1/%s/ (line %d): %s: Talos refuses the whole machine configuration (configloader decoder)", kind, d.Line, e),
					"give the value the type the Talos "+kind+" reference documents")
			}
		} else {
			t.add(bootstrap.Refuses, t.pos(d), "",
				fmt.Sprintf("error decoding document v1alpha1/%s/ (line %d): %s (configloader decoder)", kind, d.Line, oneLine(err.Error())), "")
		}
	}
	return true
}

// conflicts ports V1Alpha1ConflictValidate of the four documents
// (types/k8s/kubelet.go, node.go, network.go, credential_provider.go, Talos
// v1.14.0-rc.1), which container.validate runs on every document beside a
// v1alpha1 one: Talos refuses the machine configuration with these words. The
// document is still the one read: the provider takes it over the v1alpha1
// fields.
func (t *translation) conflicts() {
	conflict := func(kind string, keys []string, msg string) {
		if t.docs[kind] == nil || at(t.doc, keys...) == nil {
			return
		}
		t.add(bootstrap.Refuses, t.pos(keyAt(t.doc, keys...)), "",
			msg+" (container.validate: "+kind+".V1Alpha1ConflictValidate)",
			fmt.Sprintf("remove %s: the %s document sets it", strings.Join(keys, "."), kind))
	}
	conflict(kindKubelet, []string{"machine", "kubelet"}, "kubelet config is already set in v1alpha1 config (.machine.kubelet)")
	conflict(kindCredentialProvider, []string{"machine", "kubelet"}, "cannot use KubeCredentialProviderConfig with legacy kubelet configuration (.machine.kubelet)")
	conflict(kindNetwork, []string{"cluster", "network"}, "cluster network config is already set in the v1alpha1 config (.machine.cluster.network). Please remove it and use only the new KubeNetworkConfig document to avoid conflicts")
	// KubeNodeConfig: the first field set is the one Talos names.
	for _, c := range []struct {
		keys []string
		msg  string
	}{
		{[]string{"cluster", "allowSchedulingOnControlPlanes"}, ".cluster.allowSchedulingOnControlPlanes is already set in v1alpha1 config"},
		{[]string{"cluster", "allowSchedulingOnMasters"}, ".cluster.allowSchedulingOnMasters is already set in v1alpha1 config"},
		{[]string{"machine", "kubelet", "skipNodeRegistration"}, ".machine.kubelet.skipNodeRegistration is already set in v1alpha1 config"},
		{[]string{"machine", "kubelet", "registerWithFQDN"}, ".machine.kubelet.registerWithFQDN is already set in v1alpha1 config"},
		{[]string{"machine", "kubelet", "nodeIP"}, ".machine.kubelet.nodeIP is already set in v1alpha1 config"},
		{[]string{"machine", "nodeLabels"}, ".machine.nodeLabels is already set in v1alpha1 config"},
		{[]string{"machine", "nodeAnnotations"}, ".machine.nodeAnnotations is already set in v1alpha1 config"},
		{[]string{"machine", "nodeTaints"}, ".machine.nodeTaints is already set in v1alpha1 config"},
	} {
		if t.docs[kindNode] != nil && at(t.doc, c.keys...) != nil {
			conflict(kindNode, c.keys, c.msg)
			break
		}
	}
}

// validateKubeletDocument ports KubeletConfigV1Alpha1.Validate: the image
// must be given (its tag's support by the release is checked on the node,
// not here); the protected fields are refused in prepareExtraConfig.
func (t *translation) validateKubeletDocument(k *kubeletDocument) {
	if k.Image == "" {
		t.add(bootstrap.Refuses, t.posIn(t.kubelet, "image"), "",
			"KubeletConfig: kubelet image cannot be empty (types/k8s/kubelet.go KubeletConfigV1Alpha1.Validate)",
			"give image: "+kubeletImage+":v"+t.rel.Kubernetes+" (this release's default) or the kubelet the node runs")
	}
}

// validateNodeIP ports the nodeIP check of KubeletConfig.Validate
// (v1alpha1) and KubeNodeConfigV1Alpha1.Validate: each valid subnet must
// parse (sideronet.ParseSubnetOrAddress).
func (t *translation) validateNodeIP(p place, subnets []string, prefix, source string) {
	list := p.at("nodeIP", "validSubnets")
	for i, cidr := range subnets {
		cidr = strings.TrimPrefix(cidr, "!")
		if parseSubnetOrAddress(cidr) {
			continue
		}
		var n *yaml.Node
		if list != nil && i < len(list.Content) {
			n = list.Content[i]
		}
		t.add(bootstrap.Refuses, t.pos(n), "",
			fmt.Sprintf("%s subnet is not valid: %q (%s)", prefix, cidr, source),
			"give a CIDR (10.0.0.0/8) or an address, optionally negated with !")
	}
}

// validEffects is constants.ValidEffects.
var validEffects = []string{"NoSchedule", "PreferNoSchedule", "NoExecute"}

// validateTaints ports the effect check of labels.ValidateTaints, which
// v1alpha1's Validate runs on machine.nodeTaints and KubeNodeConfig's on
// taints: a taint Talos cannot add refuses the file. (The syntax of keys and
// values is left to the kubelet's own validation of registerWithTaints.)
func (t *translation) validateTaints(taints map[string]string, p place, key, prefix string) {
	keys := make([]string, 0, len(taints))
	for k := range taints {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		_, effect := parseTaint(taints[k])
		if slices.Contains(validEffects, effect) {
			continue
		}
		_, v := yamlmap.Entry(p.at(key), k)
		t.add(bootstrap.Refuses, t.pos(v), "",
			fmt.Sprintf("%s: invalid taint effect: %q (labels.ValidateTaints)", prefix, effect),
			"write the taint as VALUE:EFFECT or EFFECT, the effect one of "+strings.Join(validEffects, ", "))
	}
}

// parseTaint is labels.ParseTaint: "value:effect" or "effect".
func parseTaint(s string) (value, effect string) {
	value, effect, found := strings.Cut(s, ":")
	if !found {
		return "", value
	}
	return value, effect
}

// Constants of pkg/machinery/constants (Talos v1.14.0-rc.1) KubeNetworkConfig
// validates its subnets with.
const (
	minSubnetHostBits           = 4
	maxHostBitsForServiceSubnet = 20
	podSubnetNodeMaskMaxDiff    = 16
	defaultNodeCIDRMaskSizeIPv4 = 24
	defaultNodeCIDRMaskSizeIPv6 = 64
)

// validateNetworkDocument ports KubeNetworkConfigV1Alpha1.Validate and the
// meta.Prefix decoding of its subnets; the service subnets it returns are
// the parsed ones (an unparsable one refuses the file).
func (t *translation) validateNetworkDocument(n *networkDocument) []netip.Prefix {
	refuse := func(keys []string, msg string) {
		t.add(bootstrap.Refuses, t.posIn(t.network, keys...), "", "KubeNetworkConfig: "+msg+" (types/k8s/network.go KubeNetworkConfigV1Alpha1.Validate)",
			"fix the KubeNetworkConfig document: Talos refuses the whole machine configuration")
	}
	parse := func(key string, list []string) ([]netip.Prefix, bool) {
		var out []netip.Prefix
		node := t.network.at(key)
		ok := true
		for i, s := range list {
			p, err := netip.ParsePrefix(s)
			if err != nil {
				var at *yaml.Node
				if node != nil && i < len(node.Content) {
					at = node.Content[i]
				}
				t.add(bootstrap.Refuses, t.pos(at), "",
					fmt.Sprintf("error decoding document v1alpha1/KubeNetworkConfig/ (line %d): %s: %v (configloader decoder)", t.network.doc.Line, key, err),
					"give a CIDR such as 10.96.0.0/12")
				ok = false
				continue
			}
			out = append(out, p)
		}
		return out, ok
	}
	pods, podsOK := parse("podSubnets", n.PodSubnets)
	services, servicesOK := parse("serviceSubnets", n.ServiceSubnets)
	v4 := n.NodeCIDRMaskSizeIPv4 == 0 || (n.NodeCIDRMaskSizeIPv4 >= 1 && n.NodeCIDRMaskSizeIPv4 <= 32)
	v6 := n.NodeCIDRMaskSizeIPv6 == 0 || (n.NodeCIDRMaskSizeIPv6 >= 1 && n.NodeCIDRMaskSizeIPv6 <= 128)
	if !v4 {
		refuse([]string{"nodeCIDRMaskSizeIPv4"}, "nodeCIDRMaskSizeIPv4 must be between 1 and 32")
	}
	if !v6 {
		refuse([]string{"nodeCIDRMaskSizeIPv6"}, "nodeCIDRMaskSizeIPv6 must be between 1 and 128")
	}
	mask4, mask6 := cmp.Or(n.NodeCIDRMaskSizeIPv4, defaultNodeCIDRMaskSizeIPv4), cmp.Or(n.NodeCIDRMaskSizeIPv6, defaultNodeCIDRMaskSizeIPv6)
	podSize := func(p netip.Prefix) error {
		mask, valid := mask4, v4
		if p.Addr().Is6() {
			mask, valid = mask6, v6
		}
		switch {
		case !valid:
			return nil
		case p.Bits() > mask:
			return fmt.Errorf("invalid subnet: %s is smaller than the per-node pod CIDR mask size /%d", p, mask)
		case mask-p.Bits() > podSubnetNodeMaskMaxDiff:
			return fmt.Errorf("invalid subnet: %s is too large for the per-node pod CIDR mask size /%d, the difference must be at most %d bits", p, mask, podSubnetNodeMaskMaxDiff)
		}
		return nil
	}
	serviceSize := func(p netip.Prefix) error {
		if host := p.Addr().BitLen() - p.Bits(); host > maxHostBitsForServiceSubnet {
			return fmt.Errorf("invalid subnet: %s is too large, it must be at least /%d (at most %d host identifier bits)", p, p.Addr().BitLen()-maxHostBitsForServiceSubnet, maxHostBitsForServiceSubnet)
		}
		return nil
	}
	if podsOK {
		if err := validateSubnets(pods, podSize); err != nil {
			refuse([]string{"podSubnets"}, "pod subnets: "+err.Error())
		}
	}
	if servicesOK {
		if err := validateSubnets(services, serviceSize); err != nil {
			refuse([]string{"serviceSubnets"}, "service subnets: "+err.Error())
		}
	}
	if len(n.PodSubnets) != len(n.ServiceSubnets) {
		refuse([]string{"podSubnets"}, "the number of pod subnets must match the number of service subnets")
	}
	return services
}

// validateSubnets is types/k8s/network.go validateSubnets and validateSubnet.
func validateSubnets(subnets []netip.Prefix, size func(netip.Prefix) error) error {
	if len(subnets) == 0 {
		return errors.New("at least one subnet must be specified")
	}
	if len(subnets) > 2 {
		return errors.New("at most two subnets can be specified for dual-stack clusters")
	}
	var v4, v6 int
	for _, s := range subnets {
		if s.Masked() != s {
			return fmt.Errorf("invalid subnet: %s is not a valid CIDR", s)
		}
		if host := s.Addr().BitLen() - s.Bits(); host < minSubnetHostBits {
			return fmt.Errorf("invalid subnet: /%d is too small, it must be larger than /%d", s.Bits(), s.Bits()-minSubnetHostBits)
		}
		if err := size(s); err != nil {
			return err
		}
		if s.Addr().Is4() {
			v4++
		} else {
			v6++
		}
	}
	if v4 > 1 || v6 > 1 {
		return errors.New("at most one IPv4 and one IPv6 subnet can be specified for dual-stack clusters")
	}
	return nil
}

// namedMinor is the kubelet minor the file's image names (machine.kubelet.image,
// else a KubeletConfig document's image), "" when none does.
func namedMinor(doc *yaml.Node, docs []*yaml.Node) string {
	image := scalarOf(at(doc, "machine", "kubelet"), "image")
	for _, d := range docs {
		if image == "" && scalarOf(d, "kind") == kindKubelet {
			image = scalarOf(d, "image")
		}
	}
	if image == "" {
		return ""
	}
	v, ok := versionFromImageRef(image)
	if !ok {
		return ""
	}
	return fmt.Sprintf("%d.%d", v.Major, v.Minor)
}
