// Package minikube reads a minikube profile as minikube's nodes get it. minikube
// (k8s.io/minikube at eb25dbc703701fa38c3f65c89a1896baa375e5ed) keeps a
// profile's settings in ~/.minikube/profiles/<name>/config.json (config.ClusterConfig,
// written by config.SaveProfile); `--extra-config=kubelet.key=value` lands there as
// KubernetesConfig.ExtraOptions. From it, on every start, minikube writes
//   - /var/tmp/minikube/kubeadm.yaml (bsutil.GenerateKubeadmYAML, template
//     ktmpl.V1Beta4 for 1.31+), whose KubeletConfiguration document kubeadm init then
//     defaults into /var/lib/kubelet/config.yaml, and
//   - the kubelet's systemd drop-in 10-kubeadm.conf (bsutil.NewKubeletConfig,
//     ktmpl.KubeletSystemdTemplate): `ExecStart=` reset, then the kubelet binary with
//     extraKubeletOpts as sorted --key=value flags. kubeadm's kubeadm-flags.env is not
//     referenced by that ExecStart, so these flags are the whole command line.
//
// Which extra-config kubelet keys go where: the keys of kubeletConfigParams go into
// the KubeletConfiguration document (written as given, key included) and never on
// the command line; every other key is a flag.
package minikube

import (
	"bytes"
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/input/internal/yamlmap"
	"github.com/kubeletcfg/kubeletcfg/input/kubeadm"
	"github.com/kubeletcfg/kubeletcfg/input/posmap"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/source"
)

// Options are what minikube reads from the host rather than the profile.
type Options struct {
	// CgroupVersion of the host (1 or 2; 0: 2). A container driver's cgroup driver
	// follows it (node/start.go cgroupDriver: detect.CgroupDriver).
	CgroupVersion int
	// Node is the node to read, by minikube's machine name (minikube, minikube-m02,
	// ...); empty: the first, the control plane kubeadm init runs on.
	Node string
}

// mkConfigParams is bsutil's kubeletConfigParams: the extra-config kubelet keys
// GenerateKubeadmYAML writes into the KubeletConfiguration as given (key included).
// extraKubeletOpts appends container-runtime-endpoint to that package variable for
// Kubernetes 1.27+ (every supported minor) before it drops those keys from the
// flags; whether GenerateKubeadmYAML then also writes it as given depends on which
// ran first in the process, and kubeadm drops that key either way, so the port
// leaves it out of the document (its value is containerRuntimeEndpoint's).
var mkConfigParams = []string{"localStorageCapacityIsolation", "runtime-request-timeout", "hairpin-mode", "FailCgroupV1"}

// mkKubeadmGates are the gates of kubeadm's InitFeatureGates (minikube's
// third_party/kubeadm/app/features): parseFeatureArgs gives them to kubeadm, the
// others to the components, the kubelet among them.
var mkKubeadmGates = []string{"PublicKeysECDSA", "RootlessControlPlane"}

// mkOption is one KubernetesConfig.ExtraOptions entry.
type mkOption struct {
	component, key, value string
	pos                   finding.Position
}

// mkProfile is what minikube's kubelet generation reads of config.json.
type mkProfile struct {
	name, driver                             string
	version, dnsDomain, serviceCIDR, runtime string
	criSocket, networkPlugin, featureGates   string
	nodeIP, nodeName                         string
	nodes                                    []string // every node, by machine name
	worker                                   bool     // nodeName is not the first node (kubeadm join)
	extra                                    []mkOption
	at                                       map[string]finding.Position // a field's key ("DNSDomain", "Nodes.IP", ...)
	anchor                                   finding.Position            // the KubernetesConfig key
	minor                                    int                         // of KubernetesVersion; 0 when unparsed
}

// Detect reports whether data is a minikube profile's config.json: a JSON
// object with a KubernetesConfig object and the cluster's Nodes or Driver.
func Detect(data []byte) bool {
	t := bytes.TrimSpace(data)
	if len(t) == 0 || t[0] != '{' || !bytes.Contains(t, []byte(`"KubernetesConfig"`)) {
		return false
	}
	root := jsonRoot(t)
	if root == nil {
		return false
	}
	k := yamlmap.Value(root, "KubernetesConfig")
	return k != nil && k.Kind == yaml.MappingNode && (yamlmap.Value(root, "Nodes") != nil || yamlmap.Value(root, "Driver") != nil)
}

// jsonRoot parses JSON (a YAML flow mapping) with positions; nil when it is not an object.
func jsonRoot(data []byte) *yaml.Node {
	var n yaml.Node
	if yaml.Unmarshal(data, &n) != nil || len(n.Content) != 1 || n.Content[0].Kind != yaml.MappingNode {
		return nil
	}
	return n.Content[0]
}

func posOf(path string, n *yaml.Node) finding.Position {
	return finding.Position{File: path, Line: n.Line, Column: n.Column}
}

// readMinikubeProfile reads the fields minikube's kubelet generation uses.
func readMinikubeProfile(path string, data []byte, node string) (*mkProfile, error) {
	root := jsonRoot(data)
	k := yamlmap.Value(root, "KubernetesConfig")
	if root == nil || k == nil || k.Kind != yaml.MappingNode {
		return nil, &source.InputError{Path: path, Err: fmt.Errorf(`is not a minikube profile (~/.minikube/profiles/NAME/config.json with a "KubernetesConfig" object)`)}
	}
	p := &mkProfile{name: "minikube", at: map[string]finding.Position{}, anchor: posOf(path, yamlmap.Key(root, "KubernetesConfig"))}
	str := func(m *yaml.Node, name, at string) string {
		v := yamlmap.Value(m, name)
		if v == nil || v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
			return ""
		}
		if v.Value != "" {
			p.at[at] = posOf(path, yamlmap.Key(m, name))
		}
		return v.Value
	}
	if n := str(root, "Name", "Name"); n != "" {
		p.name = n
	}
	p.driver = str(root, "Driver", "Driver")
	p.version = str(k, "KubernetesVersion", "KubernetesVersion")
	p.dnsDomain = str(k, "DNSDomain", "DNSDomain")
	p.serviceCIDR = str(k, "ServiceCIDR", "ServiceCIDR")
	p.runtime = str(k, "ContainerRuntime", "ContainerRuntime")
	p.criSocket = str(k, "CRISocket", "CRISocket")
	p.networkPlugin = str(k, "NetworkPlugin", "NetworkPlugin")
	p.featureGates = str(k, "FeatureGates", "FeatureGates")
	if v, ok := strings.CutPrefix(p.version, "v"); ok {
		if parts := strings.Split(v, "."); len(parts) >= 2 && parts[0] == "1" {
			p.minor, _ = strconv.Atoi(parts[1])
		}
	}
	p.nodeName = p.name
	if ns := yamlmap.Value(root, "Nodes"); ns != nil && ns.Kind == yaml.SequenceNode && len(ns.Content) > 0 {
		var n *yaml.Node
		for i, c := range ns.Content {
			// config.MachineName: the profile's name for a single node or one without a name.
			machine := p.name
			if v := yamlmap.Value(c, "Name"); v != nil && v.Value != "" && len(ns.Content) > 1 {
				machine = p.name + "-" + v.Value
			}
			p.nodes = append(p.nodes, machine)
			if node == machine || node == "" && i == 0 {
				n, p.nodeName, p.worker = c, machine, i > 0
			}
		}
		if n == nil {
			return nil, &source.InputError{Path: path, Err: fmt.Errorf("has no node %q (%s)", node, strings.Join(p.nodes, ", "))}
		}
		p.nodeIP = str(n, "IP", "Nodes.IP")
		str(n, "Name", "Nodes.Name")
	} else if node != "" && node != p.name {
		return nil, &source.InputError{Path: path, Err: fmt.Errorf("has no node %q (%s)", node, p.name)}
	}
	if eo := yamlmap.Value(k, "ExtraOptions"); eo != nil && eo.Kind == yaml.SequenceNode {
		for _, e := range eo.Content {
			if e.Kind != yaml.MappingNode {
				return nil, &source.InputError{Path: path, Err: fmt.Errorf("line %d: an ExtraOptions entry is not an object", e.Line)}
			}
			o := mkOption{pos: posOf(path, e)}
			for _, f := range []struct {
				name string
				to   *string
			}{{"Component", &o.component}, {"Key", &o.key}, {"Value", &o.value}} {
				if v := yamlmap.Value(e, f.name); v != nil {
					*f.to = v.Value
				}
			}
			if kn := yamlmap.Key(e, "Key"); kn != nil {
				o.pos = posOf(path, kn)
			}
			p.extra = append(p.extra, o)
		}
	}
	return p, nil
}

// get is ExtraOptionSlice.Get: the first value of key for the component.
func (p *mkProfile) get(component, key string) (mkOption, bool) {
	for _, o := range p.extra {
		if o.component == component && o.key == key {
			return o, true
		}
	}
	return mkOption{}, false
}

// socket is the container runtime's CRI socket (cruntime.New, SocketPath).
func (p *mkProfile) socket() string {
	if p.criSocket != "" {
		return p.criSocket
	}
	switch p.runtime {
	case "crio", "cri-o":
		return "/var/run/crio/crio.sock"
	case "containerd":
		return "/run/containerd/containerd.sock"
	}
	return "/var/run/cri-dockerd.sock" // docker, 1.24+: cri-dockerd
}

// cgroupDriver is node/start.go cgroupDriver without --force-systemd: a VM runs
// systemd on cgroup v2, the ssh driver cgroupfs, any other the host's.
func (p *mkProfile) cgroupDriver(opt Options) string {
	switch p.driver {
	case "ssh":
		return "cgroupfs"
	case "docker", "podman", "none", "":
		if opt.CgroupVersion == 1 {
			return "cgroupfs"
		}
		return "systemd"
	}
	return "systemd"
}

// kubeletOpts is the KubeletConfigOpts of GenerateKubeadmYAML: the config-file
// keys of extra-config as written, then the fields minikube always sets; each with
// the position of what set it.
func (p *mkProfile) kubeletOpts(cgroupDriver string) (map[string]string, map[string]finding.Position) {
	opts, at := map[string]string{}, map[string]finding.Position{}
	for _, o := range p.extra {
		if o.component == "kubelet" && slices.Contains(mkConfigParams, o.key) {
			opts[o.key], at[o.key] = o.value, o.pos
		}
	}
	set := func(field, key, def string, from ...string) {
		if o, ok := p.get("kubelet", key); ok && o.value != "" {
			opts[field], at[field] = o.value, o.pos
			return
		}
		opts[field] = def
		for _, f := range from {
			if q, ok := p.at[f]; ok {
				at[field] = q
				return
			}
		}
	}
	set("containerRuntimeEndpoint", "container-runtime-endpoint", "unix://"+p.socket(), "CRISocket", "ContainerRuntime")
	set("hairpinMode", "hairpin-mode", "hairpin-veth")
	set("runtimeRequestTimeout", "runtime-request-timeout", "15m")
	if p.minor >= 35 && cgroupDriver != "systemd" {
		opts["failCgroupV1"] = "false"
		if q, ok := p.at["Driver"]; ok {
			at["failCgroupV1"] = q
		}
	}
	return opts, at
}

// kubeletDocument is the KubeletConfiguration document of minikube's kubeadm.yaml
// (ktmpl.V1Beta4), byte for byte.
func (p *mkProfile) kubeletDocument(cgroupDriver string, opts map[string]string) []byte {
	var b bytes.Buffer
	b.WriteString("apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nauthentication:\n  x509:\n    clientCAFile: /var/lib/minikube/certs/ca.crt\n")
	fmt.Fprintf(&b, "cgroupDriver: %s", cgroupDriver)
	for _, k := range slices.Sorted(maps.Keys(opts)) { // text/template ranges over a map in key order
		fmt.Fprintf(&b, "\n%s: %s", k, opts[k])
	}
	domain := p.dnsDomain
	if domain == "" {
		domain = kubeadm.DefaultNetworking().DNSDomain
	}
	fmt.Fprintf(&b, "\nclusterDomain: %q\n", domain)
	b.WriteString(`# disable disk resource management by default
imageGCHighThresholdPercent: 100
evictionHard:
  nodefs.available: "0%"
  nodefs.inodesFree: "0%"
  imagefs.available: "0%"
failSwapOn: false
staticPodPath: /etc/kubernetes/manifests
`)
	// HasResolvConfSearchRegression: 1.25.0 only, not a supported minor.
	return b.Bytes()
}

// mkCopied are the keys of mkConfigParams that GenerateKubeadmYAML also writes to
// their field.
var mkCopied = []string{"hairpin-mode", "runtime-request-timeout"}

func withoutCopied(opts map[string]string) map[string]string {
	out := maps.Clone(opts)
	for _, k := range mkCopied {
		delete(out, k)
	}
	return out
}

// mkFlag is one flag of minikube's kubelet command line.
type mkFlag struct {
	name, value string
	pos         finding.Position
}

// kubeletFlags is extraKubeletOpts: minikube's defaults, extra-config kubelet keys,
// the runtime's, the node's, the gates, less the keys that go to the config file;
// sorted by name as convertToFlags writes them.
func (p *mkProfile) kubeletFlags() ([]mkFlag, error) {
	flags := map[string]mkFlag{
		"bootstrap-kubeconfig": {value: "/etc/kubernetes/bootstrap-kubelet.conf", pos: p.anchor},
		"config":               {value: "/var/lib/kubelet/config.yaml", pos: p.anchor},
		"kubeconfig":           {value: "/etc/kubernetes/kubelet.conf", pos: p.anchor},
	}
	for _, o := range p.extra {
		if o.component == "kubelet" {
			flags[o.key] = mkFlag{value: o.value, pos: o.pos}
		}
	}
	from := func(field string) finding.Position {
		if q, ok := p.at[field]; ok {
			return q
		}
		return p.anchor
	}
	flags["container-runtime-endpoint"] = mkFlag{value: "unix://" + p.socket(), pos: from("ContainerRuntime")}
	if p.driver == "docker" && p.runtime == "crio" {
		flags["cgroups-per-qos"] = mkFlag{value: "false", pos: from("ContainerRuntime")}
		flags["enforce-node-allocatable"] = mkFlag{value: "", pos: from("ContainerRuntime")}
	}
	if p.networkPlugin != "" {
		if p.networkPlugin != "cni" && p.runtime != "docker" {
			return nil, fmt.Errorf("invalid network plugin: %s", p.networkPlugin)
		}
		if p.networkPlugin == "kubenet" {
			flags["pod-cidr"] = mkFlag{value: "10.244.0.0/16", pos: from("NetworkPlugin")}
		}
	}
	if _, ok := flags["node-ip"]; !ok {
		flags["node-ip"] = mkFlag{value: p.nodeIP, pos: from("Nodes.IP")}
	}
	if _, ok := flags["hostname-override"]; !ok {
		at := "Name"
		if p.worker {
			at = "Nodes.Name"
		}
		flags["hostname-override"] = mkFlag{value: p.nodeName, pos: from(at)}
	}
	if gates := componentGates(p.featureGates); gates != "" {
		flags["feature-gates"] = mkFlag{value: gates, pos: from("FeatureGates")}
	}
	for _, k := range append(slices.Clone(mkConfigParams), "container-runtime-endpoint") {
		delete(flags, k)
	}
	var out []mkFlag
	for _, k := range slices.Sorted(maps.Keys(flags)) {
		f := flags[k]
		f.name = k
		out = append(out, f)
	}
	return out, nil
}

// componentGates is parseFeatureArgs's component part: the gates kubeadm does not
// take, as written, comma-separated.
func componentGates(gates string) string {
	var out []string
	for s := range strings.SplitSeq(gates, ",") {
		if s == "" {
			continue
		}
		k, _, _ := strings.Cut(s, "=")
		if slices.Contains(mkKubeadmGates, strings.TrimSpace(k)) {
			continue
		}
		out = append(out, s)
	}
	return strings.Join(out, ",")
}

// Convert reads a minikube profile: the node gets the KubeletConfiguration of
// minikube's kubeadm.yaml defaulted by kubeadm, and minikube's kubelet command line.
func Convert(path string, data []byte, opt kubeadm.Reading, mk Options) (*kubeadm.Conversion, error) {
	if !Detect(data) {
		return nil, &source.InputError{Path: path, Err: fmt.Errorf(`is not a minikube profile (~/.minikube/profiles/NAME/config.json with a "KubernetesConfig" object)`)}
	}
	p, err := readMinikubeProfile(path, data, mk.Node)
	if err != nil {
		return nil, err
	}
	if p.minor != 0 && p.minor < 31 {
		return nil, &source.InputError{Path: path, Err: fmt.Errorf("is a profile of Kubernetes %s; kubeletcfg reproduces minikube's kubeadm.yaml for 1.31 and later (kubeadm v1beta4)", p.version)}
	}
	cg := p.cgroupDriver(mk)
	opts, optAt := p.kubeletOpts(cg)
	// The document is checked without the keys minikube writes as given and also
	// copies to their field (hairpin-mode to hairpinMode, runtime-request-timeout to
	// runtimeRequestTimeout): kubeadm drops them, but their value is not lost, so a
	// finding on them would blame the user for minikube's template.
	written := p.kubeletDocument(cg, withoutCopied(opts))
	flags, err := p.kubeletFlags()
	if err != nil {
		return nil, &source.InputError{Path: path, Err: err}
	}
	net := kubeadm.DefaultNetworking()
	net.CertificatesDir = "/var/lib/minikube/certs"
	if p.serviceCIDR != "" {
		net.ServiceSubnet = p.serviceCIDR
	}
	if p.dnsDomain != "" {
		net.DNSDomain = p.dnsDomain
	}
	pm := &posmap.Map{Path: path, Anchor: p.anchor, ByPath: map[string]finding.Position{}, FlagAt: map[finding.Position][]string{},
		Set: append([]string{"authentication.x509.clientCAFile", "cgroupDriver", "clusterDomain", "imageGCHighThresholdPercent", "evictionHard", "failSwapOn", "staticPodPath"}, kubeadm.Sets...)}
	for k := range opts {
		pm.Set = append(pm.Set, k)
	}
	maps.Copy(pm.ByPath, optAt)
	for k, q := range optAt {
		// A key written in another case (FailCgroupV1) is reported on its field's path.
		if f := strings.ToLower(k[:1]) + k[1:]; f != k {
			if _, ok := pm.ByPath[f]; !ok {
				pm.ByPath[f] = q
			}
		}
	}
	if q, ok := p.at["DNSDomain"]; ok {
		pm.ByPath["clusterDomain"] = q
	}
	if q, ok := p.at["ServiceCIDR"]; ok {
		pm.ByPath["clusterDNS"] = q
	}
	var args []string
	var argPos []finding.Position
	table, err := kubelets.Default().Flags()
	if err != nil {
		return nil, err
	}
	var line []string
	for _, f := range flags {
		line = append(line, "--"+f.name+"="+f.value)
		if f.name == "config" {
			continue // the converted document is that file
		}
		args = append(args, "--"+f.name+"="+f.value)
		argPos = append(argPos, f.pos)
		fp := ""
		if tf, ok := table.Lookup(f.name); ok && tf.Path != "" {
			fp = tf.Path
			// The flag's value is an origin Translate keeps.
			pm.Set = append(pm.Set, tf.Path)
		}
		pm.FlagAt[f.pos] = append(pm.FlagAt[f.pos], fp)
	}
	what := fmt.Sprintf("minikube profile %s (Kubernetes %s, %s runtime, cgroupDriver %s)", p.name, cmp.Or(p.version, "version unknown"), cmp.Or(p.runtime, "docker"), cg)
	if len(p.nodes) > 1 {
		what += fmt.Sprintf(", node %s (of %s)", p.nodeName, strings.Join(p.nodes, ", "))
		if p.worker {
			// kubeadm join writes the cluster's kubelet-config ConfigMap, which kubeadm
			// init uploaded from the control plane's config; minikube writes each
			// node's 10-kubeadm.conf (NewKubeletConfig with that node).
			what += ", which kubeadm join gives the control plane's config.yaml"
		}
	}
	if opt.AsWritten {
		return &kubeadm.Conversion{Data: written, Pos: pm, Flags: args, FlagPositions: argPos, KubeletVersion: p.version,
			Note: what + ": the KubeletConfiguration minikube writes into /var/tmp/minikube/kubeadm.yaml, as written (--as-written: without kubeadm's defaulting), and minikube's kubelet flags"}, nil
	}
	out, err := kubeadm.KubeletConfig(written, net, opt.Options)
	if err != nil {
		return nil, &source.InputError{Path: path, Err: fmt.Errorf("kubeadm cannot read minikube's KubeletConfiguration: %v", err)}
	}
	return &kubeadm.Conversion{Data: out, Pos: pm, Written: written, NodeFile: true, Flags: args, FlagPositions: argPos, KubeletVersion: p.version,
		Note: fmt.Sprintf("%s: minikube's KubeletConfiguration (/var/tmp/minikube/kubeadm.yaml) with kubeadm's defaults (%s) is the node's /var/lib/kubelet/config.yaml, and its 10-kubeadm.conf starts the kubelet with %s; findings on what minikube or kubeadm set point at line %d",
			what, kubeadm.DefaultsNote(net, opt.Options), strings.Join(line, " "), p.anchor.Line)}, nil
}

// Nodes are the machine names of the profile in data (minikube,
// minikube-m02, ...); nil for a profile that does not read.
func Nodes(path string, data []byte) []string {
	p, err := readMinikubeProfile(path, data, "")
	if err != nil {
		return nil
	}
	return p.nodes
}
