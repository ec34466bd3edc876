package talos

import (
	"bytes"
	"cmp"
	"fmt"
	"maps"
	"net/netip"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/blang/semver/v4"
	"go.yaml.in/yaml/v3"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/json"
	kubeletconfig "k8s.io/kubelet/config/v1beta1"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/input/bootstrap"
	"github.com/kubeletcfg/kubeletcfg/input/internal/yamlmap"
)

// Constants of pkg/machinery/constants/constants.go (Talos v1.13.9) the
// kubelet's configuration and flags are built from.
const (
	kubeletConfigPath               = "/etc/kubernetes/kubelet.yaml" // kubelet_service.go writeConfig
	kubeletPKIDir                   = "/var/lib/kubelet/pki"
	kubeletBootstrapKubeconfig      = "/etc/kubernetes/bootstrap-kubeconfig"
	kubeletKubeconfig               = "/etc/kubernetes/kubeconfig-kubelet"
	criContainerdAddress            = "/run/containerd/containerd.sock"
	kubeletCredentialProviderBinDir = "/usr/local/lib/kubelet/credentialproviders"
	kubeletCredentialProviderConfig = "/etc/kubernetes/kubelet-credentialproviderconfig.yaml"
	manifestsDirectory              = "/etc/kubernetes/manifests"
	kubeletPort                     = 10250
	kubernetesCACert                = "/etc/kubernetes/pki/ca.crt"
	cgroupSystem                    = "/system"
	cgroupKubelet                   = "/podruntime/kubelet"
	kubeletOOMScoreAdj              = -450
	systemReservedCPU               = "50m"
	systemReservedMemoryControlPl   = "512Mi"
	systemReservedMemoryWorker      = "384Mi"
	systemReservedPid               = "100"
	systemReservedEphemeralStorage  = "256Mi"
	shutdownGracePeriod             = 30 * time.Second
	shutdownGracePeriodCriticalPods = 10 * time.Second
	podResolvConfPath               = "/system/resolved/resolv.conf"
	labelNodeRoleControlPlane       = "node-role.kubernetes.io/control-plane"
	kubeletImage                    = "ghcr.io/siderolabs/kubelet"
	defaultDNSDomain                = "cluster.local"
	defaultIPv4ServiceNet           = "10.96.0.0/12"
	// cgroupRoot is internal/pkg/cgroup Root() on a machine booted from
	// Talos's own init ("/"); in container mode (talosctl cluster create
	// with docker) it is the nested cgroup path, which only that host knows.
	cgroupRoot = "/"
)

// ProtectedConfigurationFields is pkg/machinery/kubelet
// ProtectedConfigurationFields (Talos v1.13.9): extraConfig keys Talos
// refuses.
var ProtectedConfigurationFields = []string{
	"apiVersion",
	"authentication",
	"authorization",
	"cgroupRoot",
	"kind",
	"kubeletCgroups",
	"port",
	"protectKernelDefaults",
	"resolvConf",
	"rotateCertificates",
	"systemCgroups",
	"staticPodPath",
	"seccompDefault",
}

// deniedArgs are the extraArgs KubeletSpecController.Run merges with
// argsbuilder.MergeDenied: Talos refuses to start the kubelet with them
// ("extra arg %q is not allowed").
var deniedArgs = []string{"bootstrap-kubeconfig", "kubeconfig", "container-runtime", "container-runtime-endpoint", "config", "cert-dir"}

// spec is k8s.KubeletConfigSpec (pkg/machinery/resources/k8s/kubelet_config.go)
// as NewKubeletConfigController (kubelet_config.go) fills it.
type spec struct {
	Image                        string
	ClusterDNS                   []string
	ClusterDomain                string
	ExtraArgs                    map[string][]string
	ExtraConfig                  map[string]any
	CloudProviderExternal        bool
	DefaultRuntimeSeccompEnabled bool
	SkipNodeRegistration         bool
	StaticPodListURL             string
	DisableManifestsDirectory    bool
	EnableFSQuotaMonitoring      bool
	CredentialProviderConfig     map[string]any
	// AllowSchedulingOnControlPlane is v1.13's; RegisterWithTaints v1.14's
	// (K8sNodeConfig.Taints: the node's taints, the control plane's
	// included, controlPlaneTaint saying so).
	AllowSchedulingOnControlPlane bool
	RegisterWithTaints            map[string]string
	controlPlaneTaint             bool
	// RegisterWithFQDN is K8sNodeConfig.RegisterWithFQDN (the node name).
	RegisterWithFQDN bool
	// noNetwork: v1.14 found no network configuration (no kubelet).
	noNetwork bool
}

// version is go-kubernetes compatibility.Version.
type version semver.Version

// versionFromImageRef ports siderolabs/go-kubernetes
// kubernetes/compatibility VersionFromImageRef (v0.2.38): the image's tag as a
// version, 1.99 when it does not parse. The reference parsing of
// go-containerregistry name.NewTag is reduced to "the tag after the last
// colon past the last slash, latest when none".
func versionFromImageRef(ref string) (version, bool) {
	latest := version{Major: 1, Minor: 99}
	ref, _, _ = strings.Cut(ref, "@")
	tag := "latest"
	if i := strings.LastIndexByte(ref, ':'); i > strings.LastIndexByte(ref, '/') {
		tag = ref[i+1:]
	}
	v, err := semver.ParseTolerant(tag)
	if err != nil {
		return latest, false
	}
	return version{Major: v.Major, Minor: v.Minor, Patch: v.Patch}, true
}

// supportsKubeletConfigContainerRuntimeEndpoint: kubelet 1.27 and later
// (compatibility/features.go).
func (v version) supportsKubeletConfigContainerRuntimeEndpoint() bool {
	return semver.Version(v).GTE(semver.Version{Major: 1, Minor: 27})
}

// isControlPlane ports machine.ParseType and Type.IsControlPlane
// (pkg/machinery/config/machine/machine.go): init and controlplane.
func isControlPlane(t string) bool { return t == "init" || t == "controlplane" }

func (t *translation) run() error {
	t.checkUnknownKeys(t.doc, documentSchema, "")
	c := t.decode()
	k := c.Machine.Kubelet
	t.validate(k)
	t.validateTaints(c.Machine.NodeTaints, place{doc: t.doc, base: []string{"machine"}}, "nodeTaints",
		"v1alpha1.Config: invalid machine node taints")
	// An unknown machine.type is not refused: MachineConfig.Type ignores
	// ParseType's error (TypeUnknown), which is not a control plane.

	s, userImage := t.spec(c)
	v, named := versionFromImageRef(s.Image)
	if userImage != "" && named {
		t.out.KubeletVersion = semver.Version(v).String()
	}

	t.flags(s, v)
	cfg := t.configuration(s, v, c.Machine.Type)
	data, err := write(cfg)
	if err != nil {
		return fmt.Errorf("%s: %v", t.path, err)
	}
	t.out.Config = &bootstrap.File{Path: kubeletConfigPath, Data: data}
	t.positions(s, c, cfg)
	kubelet := "kubelet " + strings.TrimPrefix(s.Image, kubeletImage+":")
	if userImage == "" {
		kubelet = "kubelet v" + t.rel.Kubernetes + " (Talos " + t.rel.Name + "'s default image)"
	}
	t.out.Note = fmt.Sprintf("Talos machine configuration: %s and the kubelet's flags as Talos %s writes them for %s", kubeletConfigPath, t.rel.Name, kubelet)
	return nil
}

// spec ports kubelet_config.go NewKubeletConfigController's TransformFunc:
// the KubeletConfigSpec the release builds from the machine configuration,
// and the kubelet image the file names ("" for the release's default).
func (t *translation) spec(c *v1alpha1Config) (*spec, string) {
	if !t.rel.k8sDocuments {
		return t.specV113(c)
	}
	k := c.Machine.Kubelet
	s := &spec{
		ExtraArgs:               map[string][]string{},
		EnableFSQuotaMonitoring: deref(c.Machine.Features.DiskQuotaSupport),
		StaticPodListURL:        t.staticPodURL(),
	}
	if c.Cluster.ExternalCloudProvider != nil {
		s.CloudProviderExternal = deref(c.Cluster.ExternalCloudProvider.Enabled)
	}
	t.conflicts()

	// K8sKubeletConfig: the KubeletConfig document, else machine.kubelet.
	var userImage string
	var extraArgs map[string]argValue
	var kd kubeletDocument
	if t.decodeDocument(kindKubelet, &kd) {
		t.validateKubeletDocument(&kd)
		userImage, s.Image = kd.Image, kd.Image
		s.ClusterDNS, extraArgs, s.ExtraConfig = kd.ClusterDNS, kd.ExtraArgs, kd.Config
		s.DefaultRuntimeSeccompEnabled = deref(kd.DefaultRuntimeSeccompProfileEnabled)
		// KubeletConfigV1Alpha1.DisableManifestsDirectory returns true.
		s.DisableManifestsDirectory = true
	} else {
		userImage, s.Image = k.Image, k.Image
		if s.Image == "" {
			s.Image = kubeletImage + ":v" + t.rel.Kubernetes
		}
		s.ClusterDNS, extraArgs, s.ExtraConfig = k.ClusterDNS, k.ExtraArgs, k.ExtraConfig
		s.DefaultRuntimeSeccompEnabled = deref(k.DefaultRuntimeSeccompProfileEnabled)
		s.DisableManifestsDirectory = deref(k.DisableManifestsDirectory)
	}
	for name, v := range extraArgs {
		s.ExtraArgs[name] = v.values()
	}

	// K8sNodeConfig: the KubeNodeConfig document, else the v1alpha1 shim
	// (machine.kubelet, machine.nodeTaints and the control plane's taint).
	var nd nodeDocument
	if t.decodeDocument(kindNode, &nd) {
		t.validateNodeIP(t.node, nd.NodeIP.ValidSubnets, "KubeNodeConfig: nodeIP", "types/k8s/node.go KubeNodeConfigV1Alpha1.Validate")
		t.validateTaints(nd.Taints, t.node, "taints", "KubeNodeConfig: invalid node taints")
		s.SkipNodeRegistration, s.RegisterWithFQDN = deref(nd.SkipNodeRegistration), deref(nd.RegisterWithFQDN)
		s.RegisterWithTaints = nd.Taints
	} else {
		s.SkipNodeRegistration, s.RegisterWithFQDN = deref(k.SkipNodeRegistration), deref(k.RegisterWithFQDN)
		s.RegisterWithTaints = c.Machine.NodeTaints
		if isControlPlane(c.Machine.Type) && !scheduleOnControlPlanes(c) {
			s.RegisterWithTaints = maps.Clone(s.RegisterWithTaints)
			if s.RegisterWithTaints == nil {
				s.RegisterWithTaints = map[string]string{}
			}
			s.RegisterWithTaints[labelNodeRoleControlPlane] = string(corev1.TaintEffectNoSchedule)
			s.controlPlaneTaint = true
		}
	}

	// K8sNetworkConfig: the KubeNetworkConfig document, else cluster.network.
	var cidrs []netip.Prefix
	var nw networkDocument
	switch {
	case t.decodeDocument(kindNetwork, &nw):
		cidrs = t.validateNetworkDocument(&nw)
		s.ClusterDomain = cmp.Or(nw.DNSDomain, defaultDNSDomain)
	case c.Cluster.Network != nil:
		// ClusterConfig.ServiceCIDRs: each entry parsed on its own, an entry
		// that does not parse the zero prefix (v1alpha1 no longer checks them).
		subnets := c.Cluster.Network.ServiceSubnets
		if len(subnets) == 0 {
			subnets = []string{defaultIPv4ServiceNet}
		}
		for _, sub := range subnets {
			p, _ := netip.ParsePrefix(sub)
			cidrs = append(cidrs, p)
		}
		s.ClusterDomain = cmp.Or(c.Cluster.Network.DNSDomain, defaultDNSDomain)
	default:
		// MapMetadataOptionalFunc: no KubeletConfig resource, no kubelet.
		t.add(bootstrap.Refuses, t.posOf("cluster"), "",
			"the machine configuration has neither cluster.network nor a KubeNetworkConfig document: Talos creates no kubelet configuration and starts no kubelet (kubelet_config.go NewKubeletConfigController: K8sNetworkConfig() is nil)",
			"add a KubeNetworkConfig document (dnsDomain, podSubnets, serviceSubnets), as talosctl gen config writes for this release")
		cidrs = []netip.Prefix{netip.MustParsePrefix(defaultIPv4ServiceNet)}
		s.ClusterDomain = defaultDNSDomain
		s.noNetwork = true
	}
	if len(s.ClusterDNS) == 0 {
		// k8s.DNSServiceAddrs: the 10th address after each prefix's address.
		for _, p := range cidrs {
			addr := p.Addr()
			for range 10 {
				addr = addr.Next()
			}
			s.ClusterDNS = append(s.ClusterDNS, addr.String())
		}
	}

	// K8sCredentialProviderConfig: the document, else
	// machine.kubelet.credentialProviderConfig.
	var cd credentialProviderDocument
	if t.decodeDocument(kindCredentialProvider, &cd) {
		s.CredentialProviderConfig = cd.Configuration
	} else {
		s.CredentialProviderConfig = k.CredentialProviderConfig
	}
	return s, userImage
}

// scheduleOnControlPlanes is ClusterConfig.ScheduleOnControlPlanes.
func scheduleOnControlPlanes(c *v1alpha1Config) bool {
	if c.Cluster.AllowSchedulingOnControlPlanes != nil {
		return *c.Cluster.AllowSchedulingOnControlPlanes
	}
	return deref(c.Cluster.AllowSchedulingOnMasters)
}

// specV113 is NewKubeletConfigController at v1.13: machine.kubelet and
// cluster only.
func (t *translation) specV113(c *v1alpha1Config) (*spec, string) {
	k := c.Machine.Kubelet
	s := &spec{
		Image:                         k.Image,
		ClusterDNS:                    k.ClusterDNS,
		ExtraArgs:                     map[string][]string{},
		ExtraConfig:                   k.ExtraConfig,
		DefaultRuntimeSeccompEnabled:  deref(k.DefaultRuntimeSeccompProfileEnabled),
		SkipNodeRegistration:          deref(k.SkipNodeRegistration),
		RegisterWithFQDN:              deref(k.RegisterWithFQDN),
		DisableManifestsDirectory:     deref(k.DisableManifestsDirectory),
		EnableFSQuotaMonitoring:       deref(c.Machine.Features.DiskQuotaSupport),
		CredentialProviderConfig:      k.CredentialProviderConfig,
		ClusterDomain:                 defaultDNSDomain,
		StaticPodListURL:              t.staticPodURL(),
		AllowSchedulingOnControlPlane: scheduleOnControlPlanes(c),
	}
	if s.Image == "" {
		s.Image = kubeletImage + ":v" + t.rel.Kubernetes
	}
	if len(s.ClusterDNS) == 0 {
		var cidrs []string
		if c.Cluster.Network != nil {
			cidrs = c.Cluster.Network.ServiceSubnets
		}
		ips, err := dnsServiceIPs(cidrs)
		if err != nil {
			t.add(bootstrap.Refuses, t.posOf("cluster", "network", "serviceSubnets"), "clusterDNS",
				"error building DNS service IPs: "+err.Error()+" (kubelet_config.go NewKubeletConfigController)",
				"give cluster.network.serviceSubnets as CIDRs, or machine.kubelet.clusterDNS")
		}
		s.ClusterDNS = ips
	}
	if c.Cluster.Network != nil && c.Cluster.Network.DNSDomain != "" {
		s.ClusterDomain = c.Cluster.Network.DNSDomain
	}
	for name, v := range k.ExtraArgs {
		s.ExtraArgs[name] = v.values()
	}
	if c.Cluster.ExternalCloudProvider != nil {
		s.CloudProviderExternal = deref(c.Cluster.ExternalCloudProvider.Enabled)
	}
	return s, k.Image
}

// staticPodURL is the URL of machined's static pod server
// (static_pod_server.go: http:// and a listener on 127.0.0.1:0), which
// NewKubeletConfiguration writes as staticPodURL.
func (t *translation) staticPodURL() string {
	const what = "Talos: the URL of machined's static pod server on 127.0.0.1, a port picked at boot (static_pod_server.go)"
	url := t.atBoot("staticPodURL", what)
	if url == "" {
		t.add(bootstrap.AtBoot, t.out.Anchor, "staticPodURL",
			"staticPodURL is the URL of machined's static pod server (http://127.0.0.1 and a port picked at boot; static_pod_server.go, kubelet_spec.go NewKubeletConfiguration): unknown until then",
			"give it with --set staticPodURL=URL when it matters; the static pods of machine.pods are served there")
	}
	return url
}

// atBoot records path as known only on the node and returns the value
// Options.Set gives it, or "".
// A flag's path is written "--node-ip"; Options.Set may name it with or
// without the dashes.
func (t *translation) atBoot(path, what string) string {
	for _, key := range []string{path, strings.TrimPrefix(path, "--")} {
		if v, ok := t.opt.Set[key]; ok {
			return strings.TrimSpace(v)
		}
	}
	t.out.AtBoot[path] = what
	return ""
}

// flags ports the argument building of KubeletSpecController.Run
// (kubelet_spec.go, Talos v1.13.9) and argsbuilder.Args.Merge/Args().
func (t *translation) flags(s *spec, v version) {
	type arg struct {
		values []string
		pos    []finding.Position
		note   string
	}
	args := map[string]*arg{
		"config":   {values: []string{kubeletConfigPath}, note: "Talos: the configuration it writes (kubelet_spec.go KubeletSpecController.Run)"},
		"cert-dir": {values: []string{kubeletPKIDir}, note: "Talos: the kubelet's certificate directory (kubelet_spec.go KubeletSpecController.Run)"},
	}
	extraArgs := s.ExtraArgs
	extraNode := t.kubelet.at("extraArgs")

	// "if the user supplied a hostname override, we do not manage it anymore"
	if _, ok := extraArgs["hostname-override"]; !ok {
		what := "Talos: the node name, from the machine's hostname (nodename.go NodenameController)"
		if s.RegisterWithFQDN {
			what = "Talos: the node name, from the machine's FQDN (" + t.node.name("registerWithFQDN") + "; nodename.go NodenameController)"
		}
		if name := t.atBoot("--hostname-override", what); name != "" {
			args["hostname-override"] = &arg{values: []string{name}, note: "--set: " + what}
		} else {
			pos := t.out.Anchor
			if s.RegisterWithFQDN {
				pos = t.posIn(t.node, "registerWithFQDN")
			}
			t.add(bootstrap.AtBoot, pos, "",
				"--hostname-override is the node name Talos takes from the machine's hostname at boot (kubelet_spec.go KubeletSpecController.Run, nodename.go): unknown until then",
				"give it with --set hostname-override=NAME when it is known")
		}
	}
	if !s.SkipNodeRegistration {
		args["bootstrap-kubeconfig"] = &arg{values: []string{kubeletBootstrapKubeconfig}, note: "Talos: machine.kubelet.skipNodeRegistration is not set (kubelet_spec.go KubeletSpecController.Run)"}
		args["kubeconfig"] = &arg{values: []string{kubeletKubeconfig}, note: "Talos: machine.kubelet.skipNodeRegistration is not set (kubelet_spec.go KubeletSpecController.Run)"}
	}
	if s.CloudProviderExternal {
		args["cloud-provider"] = &arg{values: []string{"external"}, pos: []finding.Position{t.posOf("cluster", "externalCloudProvider", "enabled")},
			note: "Talos: cluster.externalCloudProvider.enabled (kubelet_spec.go KubeletSpecController.Run)"}
	}
	if !v.supportsKubeletConfigContainerRuntimeEndpoint() {
		args["container-runtime-endpoint"] = &arg{values: []string{criContainerdAddress}, note: "Talos: kubelet older than 1.27 (kubelet_spec.go KubeletSpecController.Run)"}
	}
	// "if the user supplied node-ip via extra args, no need to pick automatically"
	if _, ok := extraArgs["node-ip"]; !ok {
		what := "Talos: the machine's addresses (" + t.node.name("nodeIP", "validSubnets") + " filter them; nodeip.go NodeIPController)"
		if ip := t.atBoot("--node-ip", what); ip != "" {
			args["node-ip"] = &arg{values: []string{ip}, note: "--set: " + what}
		} else {
			pos := t.out.Anchor
			if t.node.at("nodeIP", "validSubnets") != nil {
				pos = t.posIn(t.node, "nodeIP", "validSubnets")
			}
			t.add(bootstrap.AtBoot, pos, "",
				"--node-ip is the machine's addresses Talos picks at boot (kubelet_spec.go KubeletSpecController.Run, nodeip.go): unknown until then",
				"give it with --set node-ip=ADDRESS when it is known, or set "+t.kubelet.name("extraArgs", "node-ip"))
		}
	}

	// args.Merge(extraArgs, MergeDenied for deniedArgs): Talos returns the
	// error of the first denied key met (map order) and starts no kubelet;
	// each one is reported here.
	names := make([]string, 0, len(extraArgs))
	for name := range extraArgs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		keyNode, valNode := yamlmap.Entry(extraNode, name)
		if slices.Contains(deniedArgs, name) {
			t.add(bootstrap.Refuses, t.pos(keyNode), "",
				fmt.Sprintf("extra arg %q is not allowed: Talos sets --%s itself and refuses to start the kubelet (kubelet_spec.go KubeletSpecController.Run, argsbuilder.MergeDenied)", name, name),
				"remove "+t.kubelet.name("extraArgs", name))
			continue
		}
		a := &arg{values: slices.Clone(extraArgs[name])}
		switch {
		case valNode != nil && valNode.Kind == yaml.SequenceNode:
			for _, item := range valNode.Content {
				a.pos = append(a.pos, t.pos(item))
			}
		default:
			for range a.values {
				a.pos = append(a.pos, t.pos(valNode))
			}
		}
		args[name] = a
	}

	// "these flags are present from v1.24"
	if s.CredentialProviderConfig != nil {
		pos := t.posIn(t.cred, t.credKey())
		for name, value := range map[string]string{"image-credential-provider-bin-dir": kubeletCredentialProviderBinDir, "image-credential-provider-config": kubeletCredentialProviderConfig} {
			if user, ok := args[name]; ok {
				keyNode, _ := yamlmap.Entry(extraNode, name)
				t.add(bootstrap.Overrides, t.pos(keyNode), "",
					fmt.Sprintf("extraArgs %s=%s is replaced by --%s=%s because %s is set (kubelet_spec.go KubeletSpecController.Run)", name, strings.Join(user.values, ","), name, value, t.cred.name(t.credKey())),
					"remove "+t.kubelet.name("extraArgs", name)+": Talos writes the credential provider configuration and installs the binaries there")
			}
			args[name] = &arg{values: []string{value}, pos: []finding.Position{pos},
				note: "Talos: " + t.cred.name(t.credKey()) + " is set (kubelet_spec.go KubeletSpecController.Run)"}
		}
	}

	// argsbuilder.Args.Args: keys sorted, one --key=value per value.
	keys := make([]string, 0, len(args))
	for name := range args {
		keys = append(keys, name)
	}
	sort.Strings(keys)
	for _, name := range keys {
		a := args[name]
		for i, value := range a.values {
			t.out.Flags = append(t.out.Flags, "--"+name+"="+value)
			var pos finding.Position
			if i < len(a.pos) {
				pos = a.pos[i]
			}
			note := ""
			if pos == (finding.Position{}) {
				note = a.note
			}
			t.out.FlagPositions = append(t.out.FlagPositions, pos)
			t.out.FlagNotes = append(t.out.FlagNotes, note)
		}
	}
}

// prepareExtraConfig ports kubelet_spec.go prepareExtraConfig (Talos
// v1.13.9): a protected field is refused ("field %q can't be overridden"),
// then extraConfig is converted strictly into the v1beta1 type
// (runtime.DefaultUnstructuredConverter.FromUnstructuredWithValidation):
// an unknown field or a value of the wrong type is refused ("error
// unmarshalling extra kubelet configuration"). Talos stops on either; here
// each offending key is a finding at its line and is left out, so that the
// rest of the file is still checked.
func (t *translation) prepareExtraConfig(extra map[string]any) *kubeletconfig.KubeletConfiguration {
	node := t.kubelet.at(t.extraConfigKey())
	rest := map[string]any{}
	for key, value := range extra {
		rest[key] = value
	}
	for _, field := range ProtectedConfigurationFields {
		if _, ok := rest[field]; !ok {
			continue
		}
		keyNode, _ := yamlmap.Entry(node, field)
		t.add(bootstrap.Refuses, t.pos(keyNode), protectedPath(field),
			fmt.Sprintf("field %q can't be overridden: Talos refuses the machine configuration and starts no kubelet (kubelet_spec.go prepareExtraConfig, pkg/machinery/kubelet ProtectedConfigurationFields; %s)", field, t.kubeletValidate()),
			fmt.Sprintf("remove %s: Talos sets it itself%s", t.kubelet.name(t.extraConfigKey(), field), t.protectedHint(field)))
		delete(rest, field)
		t.replaced = append(t.replaced, field)
	}
	// Talos v1.13.9 links k8s.io/kubelet v0.36.3; kubeletcfg links v0.37,
	// whose v1beta1 type has one field more (Release.fieldsAfter). Talos's
	// strict conversion does not know it.
	for _, field := range t.rel.fieldsAfter {
		if _, ok := rest[field]; !ok {
			continue
		}
		keyNode, _ := yamlmap.Entry(node, field)
		t.add(bootstrap.Refuses, t.pos(keyNode), "",
			fmt.Sprintf("error unmarshalling extra kubelet configuration: strict decoding error: unknown field %q: Talos %s links k8s.io/kubelet %s, which does not have it; Talos starts no kubelet (kubelet_spec.go prepareExtraConfig)", field, t.rel.Name, t.rel.kubeletModule),
			"remove the key: this Talos release cannot pass it to the kubelet")
		delete(rest, field)
		t.replaced = append(t.replaced, field)
	}
	var config kubeletconfig.KubeletConfiguration
	if err := runtime.DefaultUnstructuredConverter.FromUnstructuredWithValidation(rest, &config, true); err == nil {
		return &config
	}
	keys := make([]string, 0, len(rest))
	for key := range rest {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	for _, key := range keys {
		var one kubeletconfig.KubeletConfiguration
		err := runtime.DefaultUnstructuredConverter.FromUnstructuredWithValidation(map[string]any{key: rest[key]}, &one, true)
		if err == nil {
			continue
		}
		keyNode, valNode := yamlmap.Entry(node, key)
		pos, hint := t.pos(valNode), "give the value the type the KubeletConfiguration field has"
		if strings.Contains(err.Error(), "unknown field") {
			pos, hint = t.pos(keyNode), "extraConfig takes KubeletConfiguration (kubelet.config.k8s.io/v1beta1) field names: fix the spelling or remove the key"
		}
		t.add(bootstrap.Refuses, pos, "",
			"error unmarshalling extra kubelet configuration: "+oneLine(err.Error())+": Talos starts no kubelet (kubelet_spec.go prepareExtraConfig)",
			hint)
		delete(rest, key)
	}
	config = kubeletconfig.KubeletConfiguration{}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructuredWithValidation(rest, &config, true); err != nil {
		t.add(bootstrap.Refuses, t.posIn(t.kubelet, t.extraConfigKey()), "",
			"error unmarshalling extra kubelet configuration: "+oneLine(err.Error())+" (kubelet_spec.go prepareExtraConfig)", "")
		return &kubeletconfig.KubeletConfiguration{}
	}
	return &config
}

// protectedPath is the finding path of a protected field: empty for the
// document's apiVersion and kind.
func protectedPath(field string) string {
	if field == "apiVersion" || field == "kind" {
		return ""
	}
	return field
}

// extraConfigKey is the key of the kubelet's extra configuration:
// machine.kubelet.extraConfig, a KubeletConfig document's config.
func (t *translation) extraConfigKey() string {
	if t.kubelet.kind != "" {
		return "config"
	}
	return "extraConfig"
}

// credKey is the key of the credential provider configuration.
func (t *translation) credKey() string {
	if t.cred.kind != "" {
		return "configuration"
	}
	return "credentialProviderConfig"
}

// kubeletValidate names the validation that refuses a protected field.
func (t *translation) kubeletValidate() string {
	if t.kubelet.kind != "" {
		return "types/k8s/kubelet.go KubeletConfigV1Alpha1.Validate: \"KubeletConfig: kubelet configuration field can't be overridden\""
	}
	return "v1alpha1_validation.go KubeletConfig.Validate"
}

// protectedHint says where the value of a protected field comes from.
func (t *translation) protectedHint(field string) string {
	switch field {
	case "staticPodPath":
		if t.kubelet.kind != "" {
			return " (none with a KubeletConfig document: it turns the manifests directory off; KubeStaticPodConfig documents add static pods)"
		}
		return " (/etc/kubernetes/manifests; machine.kubelet.disableManifestsDirectory turns it off, machine.pods adds static pods)"
	case "seccompDefault":
		return " (" + t.kubelet.name("defaultRuntimeSeccompProfileEnabled") + ": true sets it)"
	case "authentication", "authorization":
		return " (webhook; " + t.node.name("skipNodeRegistration") + ": true turns it to AlwaysAllow)"
	case "resolvConf":
		return " (" + podResolvConfPath + ")"
	}
	return ""
}

// configuration ports NewKubeletConfiguration (kubelet_spec.go, Talos
// v1.13.9) line for line, on the k8s.io/kubelet v1beta1 type Talos uses.
func (t *translation) configuration(s *spec, v version, machineType string) *kubeletconfig.KubeletConfiguration {
	config := t.prepareExtraConfig(s.ExtraConfig)

	// user values Talos replaces without refusing them
	t.overridden(s, v)

	// required fields (always set)
	config.TypeMeta = metav1.TypeMeta{
		APIVersion: kubeletconfig.SchemeGroupVersion.String(),
		Kind:       "KubeletConfiguration",
	}
	if s.DisableManifestsDirectory {
		config.StaticPodPath = ""
	} else {
		config.StaticPodPath = manifestsDirectory
	}
	config.StaticPodURL = s.StaticPodListURL
	config.Port = kubeletPort
	config.Authentication = kubeletconfig.KubeletAuthentication{
		X509:      kubeletconfig.KubeletX509Authentication{ClientCAFile: kubernetesCACert},
		Webhook:   kubeletconfig.KubeletWebhookAuthentication{Enabled: new(true)},
		Anonymous: kubeletconfig.KubeletAnonymousAuthentication{Enabled: new(false)},
	}
	config.Authorization = kubeletconfig.KubeletAuthorization{Mode: kubeletconfig.KubeletAuthorizationModeWebhook}
	config.CgroupRoot = cgroupRoot
	config.SystemCgroups = cgroupSystem
	config.KubeletCgroups = cgroupKubelet
	config.RotateCertificates = true
	config.ProtectKernelDefaults = true
	if v.supportsKubeletConfigContainerRuntimeEndpoint() {
		config.ContainerRuntimeEndpoint = "unix://" + criContainerdAddress
	}
	if s.DefaultRuntimeSeccompEnabled {
		config.SeccompDefault = new(true)
	}
	if s.EnableFSQuotaMonitoring {
		if _, overridden := config.FeatureGates["LocalStorageCapacityIsolationFSQuotaMonitoring"]; !overridden {
			if config.FeatureGates == nil {
				config.FeatureGates = map[string]bool{}
			}
			config.FeatureGates["LocalStorageCapacityIsolationFSQuotaMonitoring"] = true
		}
	}
	if s.SkipNodeRegistration {
		config.Authentication.Webhook.Enabled = new(false)
		config.Authorization.Mode = kubeletconfig.KubeletAuthorizationModeAlwaysAllow
	} else if t.rel.k8sDocuments {
		// v1.14: every taint of K8sNodeConfig.Taints the configuration does
		// not have, unless extraArgs register-with-taints is set; then sorted
		// by key. The map's keys are taken in order so that the output does
		// not depend on map iteration.
		if s.ExtraArgs["register-with-taints"] == nil {
			keys := make([]string, 0, len(s.RegisterWithTaints))
			for key := range s.RegisterWithTaints {
				keys = append(keys, key)
			}
			slices.Sort(keys)
			for _, key := range keys {
				value, effect := parseTaint(s.RegisterWithTaints[key])
				if slices.IndexFunc(config.RegisterWithTaints, func(t corev1.Taint) bool { return t.Key == key }) == -1 {
					config.RegisterWithTaints = append(config.RegisterWithTaints, corev1.Taint{
						Key:    key,
						Effect: corev1.TaintEffect(effect),
						Value:  value,
					})
				}
			}
			slices.SortFunc(config.RegisterWithTaints, func(a, b corev1.Taint) int {
				return cmp.Compare(a.Key, b.Key)
			})
		}
	} else if isControlPlane(machineType) && !s.AllowSchedulingOnControlPlane {
		if slices.IndexFunc(config.RegisterWithTaints, func(t corev1.Taint) bool {
			return t.Key == labelNodeRoleControlPlane
		}) == -1 {
			if s.ExtraArgs["register-with-taints"] == nil {
				config.RegisterWithTaints = append(config.RegisterWithTaints, corev1.Taint{
					Key:    labelNodeRoleControlPlane,
					Effect: corev1.TaintEffectNoSchedule,
				})
			}
		}
	}

	// fields which can be overridden
	if config.Address == "" {
		config.Address = "0.0.0.0"
	}
	if config.OOMScoreAdj == nil {
		config.OOMScoreAdj = new(int32(kubeletOOMScoreAdj))
	}
	if config.ClusterDomain == "" {
		config.ClusterDomain = s.ClusterDomain
	}
	if len(config.ClusterDNS) == 0 {
		config.ClusterDNS = s.ClusterDNS
	}
	if config.SerializeImagePulls == nil {
		config.SerializeImagePulls = new(false)
	}
	if config.FailSwapOn == nil {
		config.FailSwapOn = new(false)
	}
	if len(config.SystemReserved) == 0 {
		config.SystemReserved = map[string]string{
			"cpu":               systemReservedCPU,
			"pid":               systemReservedPid,
			"ephemeral-storage": systemReservedEphemeralStorage,
		}
		if isControlPlane(machineType) {
			config.SystemReserved["memory"] = systemReservedMemoryControlPl
		} else {
			config.SystemReserved["memory"] = systemReservedMemoryWorker
		}
	}
	if config.Logging.Format == "" {
		config.Logging.Format = "json"
	}
	extraConfig := s.ExtraConfig
	if _, overridden := extraConfig["shutdownGracePeriod"]; !overridden && config.ShutdownGracePeriod.Duration == 0 {
		config.ShutdownGracePeriod = metav1.Duration{Duration: shutdownGracePeriod}
	}
	if _, overridden := extraConfig["shutdownGracePeriodCriticalPods"]; !overridden && config.ShutdownGracePeriodCriticalPods.Duration == 0 {
		config.ShutdownGracePeriodCriticalPods = metav1.Duration{Duration: shutdownGracePeriodCriticalPods}
	}
	if config.StreamingConnectionIdleTimeout.Duration == 0 {
		config.StreamingConnectionIdleTimeout = metav1.Duration{Duration: 5 * time.Minute}
	}
	if config.TLSMinVersion == "" {
		config.TLSMinVersion = "VersionTLS13"
	}
	config.ResolverConfig = new(podResolvConfPath)
	return config
}

// overridden reports the extraConfig keys NewKubeletConfiguration replaces
// without refusing them: staticPodURL (always the URL of machined's static
// pod server) and containerRuntimeEndpoint (containerd's socket, kubelet 1.27
// and later).
func (t *translation) overridden(s *spec, v version) {
	node := t.kubelet.at(t.extraConfigKey())
	check := func(field, talos, hint string) {
		value, ok := s.ExtraConfig[field]
		if !ok {
			return
		}
		keyNode, _ := yamlmap.Entry(node, field)
		t.replaced = append(t.replaced, field)
		t.add(bootstrap.Overrides, t.pos(keyNode), field,
			fmt.Sprintf("extraConfig %s: %v is replaced by %s (kubelet_spec.go NewKubeletConfiguration sets it after merging extraConfig)", field, value, talos),
			hint)
	}
	check("staticPodURL", "the URL of machined's static pod server (http://127.0.0.1:PORT, chosen at boot)",
		"remove "+t.kubelet.name(t.extraConfigKey(), "staticPodURL")+": give static pods in machine.pods")
	if v.supportsKubeletConfigContainerRuntimeEndpoint() {
		check("containerRuntimeEndpoint", "unix://"+criContainerdAddress,
			"remove "+t.kubelet.name(t.extraConfigKey(), "containerRuntimeEndpoint")+": Talos runs the kubelet against its own containerd")
	}
}

// write ports KubeletServiceController.writeConfig (kubelet_service.go, Talos
// v1.13.9) with the round trip through the KubeletSpec resource
// (runtime.DefaultUnstructuredConverter.ToUnstructured in
// KubeletSpecController.Run, FromUnstructured in writeConfig): the apimachinery
// JSON serializer in YAML mode.
func write(cfg *kubeletconfig.KubeletConfiguration) ([]byte, error) {
	unstructured, err := runtime.DefaultUnstructuredConverter.ToUnstructured(cfg)
	if err != nil {
		return nil, fmt.Errorf("error converting to unstructured: %w", err)
	}
	var kubeletConfiguration kubeletconfig.KubeletConfiguration
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(unstructured, &kubeletConfiguration); err != nil {
		return nil, fmt.Errorf("error converting kubelet configuration from unstructured: %w", err)
	}
	serializer := json.NewSerializerWithOptions(json.DefaultMetaFactory, nil, nil, json.SerializerOptions{Yaml: true})
	var buf bytes.Buffer
	if err := serializer.Encode(&kubeletConfiguration, &buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
