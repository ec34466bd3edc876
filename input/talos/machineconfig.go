package talos

import (
	"errors"
	"fmt"
	"net/netip"
	"sort"
	"strings"

	"github.com/kubeletcfg/kubeletcfg/internal/didyoumean"

	"go.yaml.in/yaml/v3"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/input/bootstrap"
)

// The part of the v1alpha1 document the kubelet's configuration is built from
// (pkg/machinery/config/types/v1alpha1/v1alpha1_types.go, Talos v1.13.9:
// Config, MachineConfig, KubeletConfig, KubeletNodeIPConfig, FeaturesConfig,
// ClusterConfig, ClusterNetworkConfig, ExternalCloudProviderConfig), with the
// same YAML keys.
type v1alpha1Config struct {
	Machine *machineConfig `yaml:"machine"`
	Cluster *clusterConfig `yaml:"cluster"`
}

type machineConfig struct {
	Type       string            `yaml:"type"`
	Kubelet    *kubeletConfig    `yaml:"kubelet"`
	Features   *featuresConfig   `yaml:"features"`
	NodeTaints map[string]string `yaml:"nodeTaints"`
}

type kubeletConfig struct {
	Image                               string              `yaml:"image"`
	ClusterDNS                          []string            `yaml:"clusterDNS"`
	ExtraArgs                           map[string]argValue `yaml:"extraArgs"`
	ExtraConfig                         map[string]any      `yaml:"extraConfig"`
	CredentialProviderConfig            map[string]any      `yaml:"credentialProviderConfig"`
	DefaultRuntimeSeccompProfileEnabled *bool               `yaml:"defaultRuntimeSeccompProfileEnabled"`
	RegisterWithFQDN                    *bool               `yaml:"registerWithFQDN"`
	NodeIP                              *struct {
		ValidSubnets []string `yaml:"validSubnets"`
	} `yaml:"nodeIP"`
	SkipNodeRegistration      *bool `yaml:"skipNodeRegistration"`
	DisableManifestsDirectory *bool `yaml:"disableManifestsDirectory"`
}

type featuresConfig struct {
	DiskQuotaSupport *bool `yaml:"diskQuotaSupport"`
}

type clusterConfig struct {
	Network *struct {
		DNSDomain      string   `yaml:"dnsDomain"`
		ServiceSubnets []string `yaml:"serviceSubnets"`
	} `yaml:"network"`
	ExternalCloudProvider *struct {
		Enabled *bool `yaml:"enabled"`
	} `yaml:"externalCloudProvider"`
	AllowSchedulingOnMasters       *bool `yaml:"allowSchedulingOnMasters"`
	AllowSchedulingOnControlPlanes *bool `yaml:"allowSchedulingOnControlPlanes"`
}

// argValue is v1alpha1 ArgValue: a string or a list of strings
// (v1alpha1_types.go ArgValue.UnmarshalYAML).
type argValue struct {
	list []string
	str  string
}

func (a *argValue) UnmarshalYAML(n *yaml.Node) error {
	var s string
	if err := n.Decode(&s); err == nil {
		a.str, a.list = s, nil
		return nil
	}
	var l []string
	if err := n.Decode(&l); err == nil {
		a.list, a.str = l, ""
		return nil
	}
	return errors.New("arg value must be a string or list of strings")
}

// values is Args.ToMap for one value.
func (a argValue) values() []string {
	v := []string{}
	if a.str != "" {
		v = append(v, a.str)
	}
	if a.list != nil {
		v = append(v, a.list...)
	}
	return v
}

func deref(b *bool) bool { return b != nil && *b }

// schema is the set of keys Talos's decoder knows at each level this port
// checks (v1alpha1_types.go, Talos v1.13.9: the yaml tags of each struct);
// a nil schema below a key means anything goes there (or this port does not
// check it).
type schema map[string]schema

var (
	kubeletSchema = schema{
		"image": nil, "clusterDNS": nil, "extraArgs": nil, "extraMounts": nil, "extraConfig": nil,
		"credentialProviderConfig": nil, "defaultRuntimeSeccompProfileEnabled": nil, "registerWithFQDN": nil,
		"nodeIP": {"validSubnets": nil}, "skipNodeRegistration": nil, "disableManifestsDirectory": nil,
	}
	documentSchema = schema{
		"version": nil, "debug": nil, "persist": nil,
		"machine": {
			"type": nil, "token": nil, "ca": nil, "acceptedCAs": nil, "certSANs": nil, "controlPlane": nil,
			"kubelet": kubeletSchema, "pods": nil, "network": nil, "disks": nil, "install": nil, "files": nil,
			"env": nil, "time": nil, "sysctls": nil, "sysfs": nil, "registries": nil, "systemDiskEncryption": nil,
			"features": {
				"rbac": nil, "stableHostname": nil, "kubernetesTalosAPIAccess": nil, "apidCheckExtKeyUsage": nil,
				"diskQuotaSupport": nil, "kubePrism": nil, "hostDNS": nil, "imageCache": nil, "nodeAddressSortAlgorithm": nil,
			},
			"udev": nil, "logging": nil, "kernel": nil, "seccompProfiles": nil, "baseRuntimeSpecOverrides": nil,
			"nodeLabels": nil, "nodeAnnotations": nil, "nodeTaints": nil,
		},
		"cluster": {
			"id": nil, "secret": nil, "controlPlane": nil, "clusterName": nil,
			"network": {"cni": nil, "dnsDomain": nil, "podSubnets": nil, "serviceSubnets": nil},
			"token":   nil, "aescbcEncryptionSecret": nil, "secretboxEncryptionSecret": nil, "ca": nil, "acceptedCAs": nil,
			"aggregatorCA": nil, "serviceAccount": nil, "apiServer": nil, "controllerManager": nil, "proxy": nil,
			"scheduler": nil, "discovery": nil, "etcd": nil, "coreDNS": nil,
			"externalCloudProvider": {"enabled": nil, "manifests": nil},
			"extraManifests":        nil, "extraManifestHeaders": nil, "inlineManifests": nil, "adminKubeconfig": nil,
			"allowSchedulingOnMasters": nil, "allowSchedulingOnControlPlanes": nil,
		},
	}
)

// checkUnknownKeys ports siderolabs/gen xyaml.CheckUnknownKeys (v0.8.x, which
// Talos's decoder calls on every document): a key the document's Go type does
// not have refuses the whole machine configuration ("unknown keys found
// during decoding"). Each unknown key is a finding of its own here, at its
// line. The check covers the v1alpha1 document's top level, machine,
// machine.kubelet, machine.features, cluster, cluster.network and
// cluster.externalCloudProvider, and every level of the documents the
// kubelet's settings come from (documents.go).
func (t *translation) checkUnknownKeys(n *yaml.Node, s schema, where string) {
	t.checkUnknownKeysIn(n, s, where, "")
}

// checkUnknownKeysIn checks n, of the document of kind ("" for v1alpha1).
func (t *translation) checkUnknownKeysIn(n *yaml.Node, s schema, where, kind string) {
	if n == nil || n.Kind != yaml.MappingNode {
		return
	}
	in := ""
	if kind != "" {
		in = " of the " + kind + " document"
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		sub, ok := s[k.Value]
		if !ok {
			name := strings.TrimPrefix(where+"."+k.Value, ".")
			hint := "remove the key or fix its spelling"
			if near := nearest(k.Value, s); near != "" {
				hint = fmt.Sprintf("did you mean %s?", strings.TrimPrefix(where+"."+near, "."))
			}
			t.add(bootstrap.Refuses, t.pos(k), "",
				fmt.Sprintf("unknown key %s%s: Talos refuses the whole machine configuration (configloader decoder, siderolabs/gen xyaml.CheckUnknownKeys: \"unknown keys found during decoding\")", name, in),
				hint)
			continue
		}
		if sub != nil {
			t.checkUnknownKeysIn(v, sub, where+"."+k.Value, kind)
		}
	}
}

// nearest is the known key closest to name, or "" (the nearest name as
// kubeletcfg's other did-you-mean hints find it).
func nearest(name string, s schema) string {
	keys := make([]string, 0, len(s))
	for k := range s {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return didyoumean.Nearest(name, keys)
}

// decode reads the v1alpha1 document into the typed subset. A value of the
// wrong type is Talos's decoder refusing the file ("error decoding
// v1alpha1"): each becomes a KC9001 at its line, and the rest decodes.
func (t *translation) decode() *v1alpha1Config {
	var c v1alpha1Config
	if err := t.doc.Decode(&c); err != nil {
		var te *yaml.TypeError
		if errors.As(err, &te) {
			for _, e := range te.Errors {
				t.add(bootstrap.Refuses, t.linePos(e), "",
					"the machine configuration does not decode (configloader decoder: \"error decoding v1alpha1\"): "+e,
					"give the value the type the Talos v1alpha1 reference documents")
			}
		} else {
			t.add(bootstrap.Refuses, t.out.Anchor, "",
				"the machine configuration does not decode (configloader decoder): "+oneLine(err.Error()), "")
		}
	}
	if c.Machine == nil {
		c.Machine = &machineConfig{}
	}
	if c.Machine.Kubelet == nil {
		c.Machine.Kubelet = &kubeletConfig{}
	}
	if c.Machine.Features == nil {
		c.Machine.Features = &featuresConfig{}
	}
	if c.Cluster == nil {
		c.Cluster = &clusterConfig{}
	}
	return &c
}

// linePos reads "line N: ..." of a yaml.v3 type error.
func (t *translation) linePos(e string) finding.Position {
	var line int
	if _, err := fmt.Sscanf(e, "line %d:", &line); err == nil && line > 0 {
		return finding.Position{File: t.path, Line: line, Column: 1}
	}
	return t.out.Anchor
}

// validate ports KubeletConfig.Validate (v1alpha1_validation.go):
// nodeIP.validSubnets must parse (sideronet.ParseSubnetOrAddress); extraConfig
// must not set a protected field (pkg/machinery/kubelet
// ProtectedConfigurationFields; refused in prepareExtraConfig). Talos refuses
// the machine configuration on either.
func (t *translation) validate(k *kubeletConfig) {
	if k.NodeIP != nil {
		t.validateNodeIP(place{doc: t.doc, base: []string{"machine", "kubelet"}}, k.NodeIP.ValidSubnets, "kubelet nodeIP", "v1alpha1_validation.go KubeletConfig.Validate")
	}
}

// parseSubnetOrAddress ports siderolabs/net v0.4.0 ParseSubnetOrAddress: a
// CIDR, else a bare address.
func parseSubnetOrAddress(s string) bool {
	if _, err := netip.ParsePrefix(s); err == nil {
		return true
	}
	_, err := netip.ParseAddr(s)
	return err == nil
}

// dnsServiceIPs ports ClusterConfig.DNSServiceIPs (v1alpha1_clusterconfig.go):
// the 10th address of each service CIDR (sideronet.SplitCIDRs,
// NthIPInCIDRSet); the default service CIDR is 10.96.0.0/12.
func dnsServiceIPs(serviceCIDRs []string) ([]string, error) {
	if len(serviceCIDRs) == 0 {
		serviceCIDRs = []string{defaultIPv4ServiceNet}
	}
	var out []string
	for _, s := range strings.Split(strings.Join(serviceCIDRs, ","), ",") {
		p, err := netip.ParsePrefix(s)
		if err != nil {
			return nil, fmt.Errorf("failed to process Service CIDRs: failed to parse %q as a CIDR: %w", s, err)
		}
		p = p.Masked()
		addr := p.Addr()
		for range 10 {
			addr = addr.Next()
		}
		if !p.Contains(addr) {
			return nil, fmt.Errorf("failed to process Service CIDRs: failed to calculate offset 10 from CIDR %s: network does not contain enough IPs", p)
		}
		out = append(out, addr.String())
	}
	return out, nil
}
