// Package k0s translates a k0s ClusterConfig (k0s.yaml) into what a k0s worker
// starts its kubelet with: the KubeletConfiguration of one worker profile
// (spec.workerProfiles[].values over k0s's profile defaults) and the kubelet's
// command line, as k0s v1.36.3+k0s.2 writes them.
//
// The translation is ported from k0s's source at that release:
//
//   - pkg/component/controller/workerconfig/reconciler.go: buildProfile (the
//     defaults of every profile), buildConfigMaps (the "default" and
//     "default-windows" profiles, then each spec.workerProfiles entry decoded
//     over its profile with sigs.k8s.io/yaml.Unmarshal: encoding/json, not
//     strict, so a key the KubeletConfiguration type does not have is dropped);
//   - pkg/apis/k0s/v1beta1/workerprofile.go: WorkerProfile.Validate and
//     validateConfig (the name, the forbidden keys, the decode);
//   - pkg/apis/k0s/v1beta1/network.go DNSAddress and feature_gates.go AsMap
//     (clusterDNS, clusterDomain and featureGates of every profile);
//   - pkg/component/worker/kubelet.go: Start (the kubelet's arguments) and
//     writeKubeletConfig (the keys k0s sets on the node after the profile:
//     authentication.x509.clientCAFile, resolvConf, staticPodURL,
//     containerRuntimeEndpoint, registerWithTaints).
//
// k0s decodes the profile with the k8s.io/kubelet types of the Kubernetes it
// ships (k0s v1.36.x: v0.36.3): the translation decodes with the field tree of
// the minor evaluated (Options.Minor, default 1.36), so a key that kubelet minor
// does not know is dropped as k0s of that minor drops it.
package k0s

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/util/validation"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/input/bootstrap"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

// Release is the k0s release ported.
const Release = "v1.36.3+k0s.2"

// Train is the k0s releases ported, by the kubelet each ships: a k0s node
// runs the kubelet its release bundles.
var Train = bootstrap.Train{Tool: "k0s", Releases: []bootstrap.Shipped{{Release: Release, Kubelet: "v1.36.3"}}}

// Tool is k0s, as findings and the docs name it.
var Tool = bootstrap.Tool{
	Name:    "k0s",
	Release: Release,
	Source: "pkg/component/controller/workerconfig/reconciler.go buildProfile, buildConfigMaps; " +
		"pkg/apis/k0s/v1beta1/workerprofile.go validateConfig; pkg/component/worker/kubelet.go Start, writeKubeletConfig",
}

const (
	apiVersion = "k0s.k0sproject.io/v1beta1" // pkg/apis/k0s/v1beta1/clusterconfig_types.go ClusterConfigAPIVersion
	kind       = "ClusterConfig"

	// DefaultProfile is the profile a worker started without --profile loads;
	// WindowsProfile the one a Windows worker loads (reconciler.go buildConfigMaps).
	DefaultProfile = "default"
	WindowsProfile = "default-windows"

	// builtMinor is the kubelet minor k0s Release ships and decodes with.
	builtMinor = "1.36"

	// Paths of a worker run as root with the default data dir
	// (pkg/config/cfgvars.go NewCfgVars: /var/lib/k0s, /run/k0s).
	dataDir        = "/var/lib/k0s"
	runDir         = "/run/k0s"
	kubeletRootDir = dataDir + "/kubelet"
	configPath     = runDir + "/kubelet/config.yaml" // kubelet.go Init: filepath.Join(runDir, "kubelet", "config.yaml")
)

// Detect reports whether data is a k0s ClusterConfig: apiVersion
// k0s.k0sproject.io/v1beta1 and kind ClusterConfig in any case (k0sctl's own
// files write clusterconfig). k0s itself checks neither (Accepts).
func Detect(_ string, data []byte) bool {
	tm, ok := typeMeta(data)
	return ok && tm.APIVersion == apiVersion && strings.EqualFold(tm.Kind, kind)
}

// Accepts reports whether k0s reads the file as a ClusterConfig at all, for
// --input-format k0s: any YAML map. ConfigFromBytes
// (pkg/apis/k0s/v1beta1/clusterconfig_types.go) decodes it with
// yaml.UnmarshalStrict over the defaults and checks neither apiVersion nor kind.
func Accepts(_ string, data []byte) bool {
	_, ok := typeMeta(data)
	return ok
}

// typeMeta is the document's apiVersion and kind; ok is false when it is not
// a YAML map.
func typeMeta(data []byte) (tm struct{ APIVersion, Kind string }, ok bool) {
	var m map[string]any
	if err := yaml.Unmarshal(data, &m); err != nil || m == nil {
		return tm, false
	}
	tm.APIVersion, _ = m["apiVersion"].(string)
	tm.Kind, _ = m["kind"].(string)
	return tm, true
}

// Profiles lists the worker profiles k0s makes a ConfigMap of, one per node
// group: the file's spec.workerProfiles names in order (a name repeated once),
// then "default" when the file does not define it. "default-windows" is left
// out unless the file names it (TranslateProfile takes it).
func Profiles(data []byte) ([]string, error) {
	d, err := parse("", data)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, p := range d.profiles {
		if !slices.Contains(names, p.name) {
			names = append(names, p.name)
		}
	}
	if !slices.Contains(names, DefaultProfile) {
		names = append(names, DefaultProfile)
	}
	return names, nil
}

// ObjectPrefix starts the object name of a worker profile (Objects):
// "WorkerProfile/pool-b", after k0s's type (pkg/apis/k0s/v1beta1/workerprofile.go
// WorkerProfile), as a Cluster API manifest's objects are "Kind/name". A
// profile's name is an RFC 1123 label (validateName): it has no "/".
const ObjectPrefix = "WorkerProfile/"

// Objects are the node groups of the file, one per worker profile k0s makes
// of it (Profiles), as object names ("WorkerProfile/pool-b"); on Windows
// (os) the workers started without --profile load default-windows, not
// default. Nil when the file is not one k0s reads.
func Objects(data []byte, os kubelets.OS) []string {
	names, err := Profiles(data)
	if err != nil {
		return nil
	}
	var out []string
	for _, n := range names {
		if n == DefaultProfile && os == kubelets.Windows && !slices.Contains(names, WindowsProfile) {
			n = WindowsProfile
		}
		out = append(out, ObjectPrefix+n)
	}
	return out
}

// ProfileOf is the worker profile an object name names: "WorkerProfile/NAME"
// or the bare NAME (k0s worker --profile NAME) are NAME.
func ProfileOf(object string) string {
	return strings.TrimPrefix(object, ObjectPrefix)
}

// Translate translates the worker profile opt.Object names (ProfileOf), else the first
// worker profile of the file, or the "default" profile when the file has none
// (TranslateProfile).
func Translate(path string, data []byte, opt bootstrap.Options) (*bootstrap.Output, error) {
	return TranslateProfile(path, data, ProfileOf(opt.Object), opt)
}

// TranslateProfile translates the worker profile name ("" for the first of
// the file, else "default"): the kubelet configuration and command line of a
// worker started with --profile=name.
func TranslateProfile(path string, data []byte, name string, opt bootstrap.Options) (*bootstrap.Output, error) {
	t, err := translate(path, data, name, opt)
	if err != nil {
		return nil, err
	}
	return t.out, nil
}

func translate(path string, data []byte, name string, opt bootstrap.Options) (*translation, error) {
	d, err := parse(path, data)
	if err != nil {
		return nil, err
	}
	switch {
	case name == "" && opt.OS == kubelets.Windows:
		// A Windows worker started without --profile loads default-windows.
		name = WindowsProfile
	case name == "":
		name = DefaultProfile
		if len(d.profiles) > 0 {
			name = d.profiles[0].name
		}
	}
	var mine []*profile
	for _, p := range d.profiles {
		if p.name == name {
			mine = append(mine, p)
		}
	}
	if len(mine) == 0 && name != DefaultProfile && name != WindowsProfile {
		names, _ := Profiles(data)
		return nil, fmt.Errorf("%s: no worker profile %q in spec.workerProfiles (profiles: %s)", path, name, strings.Join(names, ", "))
	}
	minorName := opt.Minor
	if minorName == "" {
		minorName = builtMinor
	}
	minor, err := kubelets.Lookup(minorName)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	t := &translation{d: d, name: name, minor: minor, out: &bootstrap.Output{
		Tool:      Tool,
		Positions: map[string]finding.Position{},
		Notes:     map[string]string{},
		AtBoot:    map[string]string{},
		Anchor:    d.anchor,
	}}
	if len(mine) > 0 {
		t.out.Anchor = d.pos(mine[0].nameKey)
	}
	if name == WindowsProfile {
		// The profile of k0s's Windows workers (reconciler.go buildConfigMaps).
		t.out.OS, t.out.OSFrom = kubelets.Windows, "the worker profile "+WindowsProfile+", which k0s's Windows workers load"
	}
	if err := t.run(mine, opt); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return t, nil
}

// document is a parsed k0s.yaml: the nodes for positions, the values as k0s
// decodes them.
type document struct {
	path     string
	anchor   finding.Position
	spec     *yaml.Node
	profiles []*profile

	clusterDomain         string
	dnsIP                 string
	kubeletGates          map[string]bool
	nllb                  bool
	featureGatesPositions map[string]finding.Position
	networkPositions      map[string]finding.Position
	// stray are the keys k0s's decoding has no field for (strayKeys).
	stray []strayKey
}

// profile is one spec.workerProfiles entry.
type profile struct {
	index            int
	item             *yaml.Node
	name             string
	nameKey, nameVal *yaml.Node
	valuesKey        *yaml.Node
	values           *yaml.Node // nil: no values key
	// raw is values as k0s holds it (a runtime.RawExtension): the JSON
	// sigs.k8s.io/yaml converts the YAML to; nil when values is absent or null.
	raw []byte
	// unknown are the entry's keys other than name and values, which k0s's
	// strict decoding of the ClusterConfig refuses (strays reports them).
	unknown []*yaml.Node
}

func (d *document) pos(n *yaml.Node) finding.Position {
	if n == nil {
		return d.anchor
	}
	return finding.Position{File: d.path, Line: n.Line, Column: n.Column}
}

// mappingValue returns the key and value nodes of key in a mapping node.
func mappingValue(m *yaml.Node, key string) (k, v *yaml.Node) {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			k, v = m.Content[i], m.Content[i+1]
		}
	}
	return k, v
}

func resolve(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

// clusterJSON is the part of the ClusterConfig the kubelet's configuration
// depends on, decoded from the JSON sigs.k8s.io/yaml makes of the file as k0s
// decodes it (clusterconfig_types.go ConfigFromBytes over DefaultClusterConfig).
type clusterJSON struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Spec       *struct {
		API *struct {
			Address         string `json:"address"`
			ExternalAddress string `json:"externalAddress"`
		} `json:"api"`
		Network *struct {
			ServiceCIDR   *string `json:"serviceCIDR"`
			ClusterDomain *string `json:"clusterDomain"`
			DualStack     struct {
				Enabled         bool   `json:"enabled"`
				IPv6ServiceCIDR string `json:"IPv6serviceCIDR"`
			} `json:"dualStack"`
			PrimaryAddressFamily   string `json:"primaryAddressFamily"`
			NodeLocalLoadBalancing *struct {
				Enabled bool `json:"enabled"`
			} `json:"nodeLocalLoadBalancing"`
		} `json:"network"`
		FeatureGates   []featureGate     `json:"featureGates"`
		WorkerProfiles []json.RawMessage `json:"workerProfiles"`
	} `json:"spec"`
}

// featureGate is pkg/apis/k0s/v1beta1/feature_gates.go FeatureGate.
type featureGate struct {
	Name       string   `json:"name"`
	Enabled    bool     `json:"enabled"`
	Components []string `json:"components,omitempty"`
}

// kubernetesComponents is feature_gates.go KubernetesComponents.
var kubernetesComponents = []string{"kube-apiserver", "kube-controller-manager", "kubelet", "kube-scheduler", "kube-proxy"}

// enabledFor is feature_gates.go FeatureGate.EnabledFor.
func (fg featureGate) enabledFor(component string) (value, found bool) {
	components := fg.Components
	if len(components) == 0 {
		components = kubernetesComponents
	}
	if slices.Contains(components, component) {
		return fg.Enabled, true
	}
	return false, false
}

func parse(path string, data []byte) (*document, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, fmt.Errorf("%s: %v", path, oneLine(err))
	}
	d := &document{path: path, featureGatesPositions: map[string]finding.Position{}, networkPositions: map[string]finding.Position{}}
	top := root.Content
	if len(top) == 0 || resolve(top[0]).Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s: not a k0s ClusterConfig: the document is not a mapping", path)
	}
	m := resolve(top[0])
	if k, _ := mappingValue(m, "kind"); k != nil {
		d.anchor = d.pos(k)
	} else {
		d.anchor = finding.Position{File: path, Line: m.Line, Column: m.Column}
	}

	// k0s converts the YAML with sigs.k8s.io/yaml.UnmarshalStrict (YAML 1.1
	// scalars: yes/no are booleans there; a key repeated in a mapping is an
	// error) before decoding it as JSON (strictyaml.YamlUnmarshalStrictIgnoringFields);
	// so does this.
	js, err := sigsyaml.YAMLToJSONStrict(data)
	if err != nil {
		return nil, fmt.Errorf("%s: k0s refuses the ClusterConfig: %v", path, oneLine(err))
	}
	var cc clusterJSON
	if err := json.Unmarshal(js, &cc); err != nil {
		return nil, fmt.Errorf("%s: k0s cannot decode the ClusterConfig: %v", path, oneLine(err))
	}
	// ConfigFromBytes checks neither apiVersion nor kind (Accepts).
	d.stray = strayKeys(m)

	_, d.spec = mappingValue(m, "spec")
	d.spec = resolve(d.spec)

	// Network defaults: network.go DefaultNetwork (serviceCIDR 10.96.0.0/12,
	// clusterDomain cluster.local); a network key keeps the defaults it does
	// not set (ClusterConfig.UnmarshalJSON decodes over DefaultClusterSpec).
	serviceCIDR, clusterDomain := "10.96.0.0/12", "cluster.local"
	var dualStack bool
	var ipv6ServiceCIDR, family string
	if cc.Spec != nil && cc.Spec.Network != nil {
		n := cc.Spec.Network
		if n.ServiceCIDR != nil {
			serviceCIDR = *n.ServiceCIDR
		}
		if n.ClusterDomain != nil {
			clusterDomain = *n.ClusterDomain
		}
		dualStack, ipv6ServiceCIDR, family = n.DualStack.Enabled, n.DualStack.IPv6ServiceCIDR, n.PrimaryAddressFamily
		d.nllb = n.NodeLocalLoadBalancing != nil && n.NodeLocalLoadBalancing.Enabled
	}
	if family == "" {
		// clusterconfig_types.go ClusterSpec.PrimaryAddressFamily: the family of
		// api.externalAddress, else of api.address (the controller's own
		// address when unset: taken as IPv4 here).
		family = "IPv4"
		if cc.Spec != nil && cc.Spec.API != nil {
			host := cc.Spec.API.ExternalAddress
			if h, _, err := net.SplitHostPort(host); err == nil && h != "" {
				host = h
			}
			if host == "" {
				host = cc.Spec.API.Address
			}
			if ip := net.ParseIP(host); ip != nil && ip.To4() == nil {
				family = "IPv6"
			}
		}
	}
	d.clusterDomain = clusterDomain
	if d.dnsIP, err = dnsAddress(serviceCIDR, dualStack && family == "IPv6", ipv6ServiceCIDR); err != nil {
		return nil, fmt.Errorf("%s: k0s: spec.network: %v", path, err)
	}
	_, network := mappingValue(d.spec, "network")
	network = resolve(network)
	for _, k := range []string{"serviceCIDR", "clusterDomain", "dualStack"} {
		if kn, _ := mappingValue(network, k); kn != nil {
			d.networkPositions[k] = d.pos(kn)
		}
	}

	// featureGates: feature_gates.go AsMap("kubelet"), in the file's order (a
	// later entry of the same name wins).
	d.kubeletGates = map[string]bool{}
	_, gatesNode := mappingValue(d.spec, "featureGates")
	gatesNode = resolve(gatesNode)
	if cc.Spec != nil {
		for i, fg := range cc.Spec.FeatureGates {
			if v, ok := fg.enabledFor("kubelet"); ok {
				d.kubeletGates[fg.Name] = v
				if gatesNode != nil && gatesNode.Kind == yaml.SequenceNode && i < len(gatesNode.Content) {
					item := resolve(gatesNode.Content[i])
					pos := d.pos(item)
					if k, _ := mappingValue(item, "name"); k != nil {
						pos = d.pos(k)
					}
					d.featureGatesPositions[fg.Name] = pos
				}
			}
		}
	}

	// workerProfiles: each entry as k0s's strict decoding of the ClusterConfig
	// reads WorkerProfile {name, values (a runtime.RawExtension)}.
	_, wps := mappingValue(d.spec, "workerProfiles")
	wps = resolve(wps)
	if cc.Spec != nil && len(cc.Spec.WorkerProfiles) > 0 {
		if wps == nil || wps.Kind != yaml.SequenceNode || len(wps.Content) != len(cc.Spec.WorkerProfiles) {
			return nil, fmt.Errorf("%s: spec.workerProfiles: not a list as k0s reads it", path)
		}
		for i, raw := range cc.Spec.WorkerProfiles {
			p, err := d.parseProfile(i, resolve(wps.Content[i]), raw)
			if err != nil {
				return nil, err
			}
			d.profiles = append(d.profiles, p)
		}
	}
	return d, nil
}

func (d *document) parseProfile(i int, item *yaml.Node, raw json.RawMessage) (*profile, error) {
	p := &profile{index: i, item: item}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil || item.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s:%d:%d: spec.workerProfiles[%d]: k0s cannot decode the worker profile: not a mapping with name and values", d.path, item.Line, item.Column, i)
	}
	for j := 0; j+1 < len(item.Content); j += 2 {
		k := item.Content[j]
		// encoding/json matches field names case-insensitively; k0s's
		// strict decoder (DisallowUnknownFields) refuses any other key.
		switch {
		case strings.EqualFold(k.Value, "name"):
			p.nameKey, p.nameVal = k, resolve(item.Content[j+1])
		case strings.EqualFold(k.Value, "values"):
			p.valuesKey, p.values = k, resolve(item.Content[j+1])
		default:
			p.unknown = append(p.unknown, k)
		}
	}
	for k, v := range fields {
		switch {
		case strings.EqualFold(k, "name"):
			if err := json.Unmarshal(v, &p.name); err != nil {
				return nil, fmt.Errorf("%s: spec.workerProfiles[%d].name: k0s cannot decode it: %v", d.path, i, oneLine(err))
			}
		case strings.EqualFold(k, "values"):
			if !bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
				p.raw = v
			}
		}
	}
	return p, nil
}

// dnsAddress is network.go Network.DNSAddress: the 10th address of the
// service CIDR (the 2nd when it has 3 host bits or fewer), the IPv6 one when
// the cluster is dual-stack with IPv6 first.
func dnsAddress(serviceCIDR string, ipv6First bool, ipv6ServiceCIDR string) (string, error) {
	cidr := serviceCIDR
	if ipv6First {
		cidr = ipv6ServiceCIDR
	}
	_, ipnet, err := net.ParseCIDR(cidr)
	if err != nil {
		return "", fmt.Errorf("failed to parse service CIDR %q: %w", cidr, err)
	}
	addr := slices.Clone(ipnet.IP)
	maskLen, netLen := ipnet.Mask.Size()
	if netLen-maskLen > 3 {
		addr[len(addr)-1] += 10
	} else {
		addr[len(addr)-1] += 2
	}
	if !ipnet.Contains(addr) {
		return "", fmt.Errorf("failed to calculate DNS address: CIDR too narrow: %s", serviceCIDR)
	}
	return addr.String(), nil
}

// validateName is workerprofile.go WorkerProfile.Validate's check of the name
// (it names a ConfigMap and is a label value).
func validateName(name string) error {
	if name == "" {
		return errors.New("name: Required value")
	}
	if msgs := validation.IsDNS1123Label(name); len(msgs) > 0 {
		return fmt.Errorf("name: Invalid value: %q: %s", name, strings.Join(msgs, ", "))
	}
	return nil
}

func oneLine(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}
