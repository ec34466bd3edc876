package k0s

import (
	"bytes"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/kubeletcfg/kubeletcfg/internal/didyoumean"
	"github.com/kubeletcfg/kubeletcfg/internal/optionerr"
	"github.com/kubeletcfg/kubeletcfg/rule"

	"go.yaml.in/yaml/v3"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/input/bootstrap"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	kubeletv1beta1 "github.com/kubeletcfg/kubeletcfg/upstream/kubelet/config/v1beta1"
)

// allowedTLS12CipherSuiteIDs is pkg/constant/constant.go
// AllowedTLS12CipherSuiteIDs, the kubelet's tlsCipherSuites in buildProfile.
var allowedTLS12CipherSuiteIDs = []uint16{
	tls.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
	tls.TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
	tls.TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,
	tls.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
	tls.TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
	tls.TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
}

const (
	noteDefault  = "k0s: default of every worker profile (pkg/component/controller/workerconfig/reconciler.go buildProfile, " + Release + ")"
	noteWindows  = "k0s: the default-windows profile (workerconfig/reconciler.go buildConfigMaps, " + Release + ")"
	noteCRI      = "k0s: its embedded containerd, for a worker started without --cri-socket (pkg/component/worker/kubelet.go writeKubeletConfig, cri_runtime.go GetContainerRuntimeEndpoint, " + Release + ")"
	sourceValues = "k0s decodes the values with encoding/json (pkg/apis/k0s/v1beta1/workerprofile.go validateConfig, " +
		"pkg/component/controller/workerconfig/reconciler.go buildConfigMaps, " + Release + ")"
)

type translation struct {
	d     *document
	name  string
	minor *kubelets.Minor
	out   *bootstrap.Output
	// configMap is the profile's kubeletConfiguration as the controller
	// writes it in the worker-config ConfigMap (JSON), for the peer suite.
	configMap []byte
	// set are the values known at boot the user gives (Options.Set).
	set map[string]string
}

// add reports a finding of one of the bootstrapper rules (input/bootstrap).
func (t *translation) add(rule *rule.Rule, pos finding.Position, path, msg, hint string) {
	t.out.Findings = append(t.out.Findings, rule.At(pos, path, msg, hint))
}

// buildProfile is workerconfig/reconciler.go Reconciler.buildProfile: the
// KubeletConfiguration every profile starts from.
func (t *translation) buildProfile() *kubeletv1beta1.KubeletConfiguration {
	cipherSuites := make([]string, len(allowedTLS12CipherSuiteIDs))
	for i, id := range allowedTLS12CipherSuiteIDs {
		cipherSuites[i] = tls.CipherSuiteName(id)
	}
	f, i32 := false, int32(0)
	kc := &kubeletv1beta1.KubeletConfiguration{
		FeatureGates:       map[string]bool{},
		ClusterDNS:         []string{t.d.dnsIP},
		ClusterDomain:      t.d.clusterDomain,
		KubeReservedCgroup: "system.slice",
		KubeletCgroups:     "/system.slice/containerd.service",
		TLSMinVersion:      "VersionTLS12",
		TLSCipherSuites:    cipherSuites,
		FailSwapOn:         &f,
		RotateCertificates: true,
		ServerTLSBootstrap: true,
		EventRecordQPS:     &i32,
		VolumePluginDir:    "/usr/libexec/k0s/kubelet-plugins/volume/exec",
	}
	kc.APIVersion, kc.Kind = "kubelet.config.k8s.io/v1beta1", "KubeletConfiguration"
	for name, v := range t.d.kubeletGates {
		kc.FeatureGates[name] = v
	}
	for _, p := range []string{"kubeReservedCgroup", "kubeletCgroups", "tlsMinVersion", "tlsCipherSuites", "failSwapOn",
		"rotateCertificates", "serverTLSBootstrap", "eventRecordQPS", "volumePluginDir"} {
		t.out.Notes[p] = noteDefault
	}
	t.out.Notes["clusterDNS"] = "k0s: the 10th address of spec.network.serviceCIDR (pkg/apis/k0s/v1beta1/network.go DNSAddress, " + Release + ")"
	t.out.Notes["clusterDomain"] = "k0s: spec.network.clusterDomain (default cluster.local; workerconfig/reconciler.go buildProfile, " + Release + ")"
	if p, ok := t.d.networkPositions["serviceCIDR"]; ok {
		t.out.Positions["clusterDNS"] = p
	}
	if p, ok := t.d.networkPositions["clusterDomain"]; ok {
		t.out.Positions["clusterDomain"] = p
	}
	for name, p := range t.d.featureGatesPositions {
		t.out.Positions["featureGates["+name+"]"] = p
	}
	if t.name == WindowsProfile {
		// buildConfigMaps: the default-windows profile.
		kc.CgroupsPerQOS = &f
		kc.KubeReservedCgroup = ""
		kc.KubeletCgroups = ""
		t.out.Notes["cgroupsPerQOS"] = noteWindows
		delete(t.out.Notes, "kubeReservedCgroup")
		delete(t.out.Notes, "kubeletCgroups")
	}
	return kc
}

func (t *translation) run(mine []*profile, opt bootstrap.Options) error {
	t.set = opt.Set
	kc := t.buildProfile()
	t.strays()
	for _, p := range mine {
		t.profile(p, kc)
	}
	// The ConfigMap k0s writes for the profile (toConfigMap:
	// workerconfig.ToConfigMapData marshals the KubeletConfiguration with
	// encoding/json), before the worker's own changes.
	var err error
	if t.configMap, err = json.Marshal(kc); err != nil {
		return err
	}
	t.worker(kc)

	// writeKubeletConfig: yaml.Marshal of the typed configuration (every
	// field the type marshals without omitempty included, keys sorted), with
	// the fields of the kubelet minor k0s is built with.
	js, err := json.Marshal(kc)
	if err != nil {
		return err
	}
	var obj map[string]any
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.UseNumber() // numbers as marshalled (an int64 stays an integer)
	if err := dec.Decode(&obj); err != nil {
		return err
	}
	t.minor.PruneJSON(obj)
	for path := range t.out.AtBoot {
		if v, ok := opt.Set[path]; ok {
			if err := setPath(obj, path, v); err != nil {
				return optionerr.Errorf("{Set} %s: %v", path, err)
			}
		}
	}
	data, err := sigsyaml.Marshal(obj)
	if err != nil {
		return err
	}
	t.out.Config = &bootstrap.File{Path: configPath, Data: data}
	t.out.Note = fmt.Sprintf("k0s ClusterConfig, worker profile %q: %s and the kubelet's arguments as k0s %s writes them (profile values decoded with kubelet %s's fields)",
		t.name, configPath, Release, t.minor.Version)
	Train.Pair(t.out, t.minor.Version)
	finding.SortFindings(t.out.Findings)
	return nil
}

// profile checks one spec.workerProfiles entry of the translated name as k0s
// validates it (WorkerProfile.Validate) and decodes its values over kc as
// buildConfigMaps does.
func (t *translation) profile(p *profile, kc *kubeletv1beta1.KubeletConfiguration) {
	d := t.d
	// k0s's own error texts: ClusterSpec.Validate names the path from
	// field.NewPath("workerProfiles").
	at := fmt.Sprintf("workerProfiles[%d]", p.index)
	if len(p.unknown) > 0 {
		return // the decode stops k0s before any validation
	}
	if err := validateName(p.name); err != nil {
		pos := d.pos(p.item)
		if p.nameVal != nil {
			pos = d.pos(p.nameVal)
		}
		t.add(bootstrap.Refuses, pos, "", fmt.Sprintf("k0s refuses the ClusterConfig: %s.%v (pkg/apis/k0s/v1beta1/workerprofile.go WorkerProfile.Validate, %s)", at, err, Release),
			"The name is part of a ConfigMap's name and a label value: use a lowercase RFC 1123 label (a-z, 0-9, '-', at most 63 characters).")
	}
	if p.raw == nil {
		pos := d.pos(p.item)
		if p.valuesKey != nil {
			pos = d.pos(p.valuesKey)
		}
		t.add(bootstrap.Refuses, pos, "", fmt.Sprintf("k0s: %s has no values: k0s %s reads profile.Config.Raw without a nil check (pkg/component/controller/workerconfig/reconciler.go buildConfigMaps): "+
			"the controller's worker configuration reconciler fails with a nil pointer dereference and writes no worker profile ConfigMaps", at, Release),
			"Give the profile values (values: {} for k0s's defaults).")
		return
	}
	valuesPos := d.pos(p.valuesKey)

	// Positions, and the keys k0s's decode drops.
	if p.values != nil && p.values.Kind == yaml.MappingNode {
		t.walk(p.values, t.minor.Fields(), "", "spec."+at+".values")
	}

	// validateConfig: decode into a fresh KubeletConfiguration.
	known := t.minor.KnownJSON(p.raw)
	var fresh kubeletv1beta1.KubeletConfiguration
	if err := json.Unmarshal(known, &fresh); err != nil {
		path, pos := "", valuesPos
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			path = te.Field
			if q, ok := t.lookup(path); ok {
				pos = q
			}
		}
		t.add(bootstrap.Refuses, pos, path, fmt.Sprintf("k0s refuses the ClusterConfig: %s.values: Invalid value: %s (pkg/apis/k0s/v1beta1/workerprofile.go validateConfig, %s)", at, oneLine(err), Release),
			"Give the value the type the KubeletConfiguration field has.")
		return
	}
	if fresh.APIVersion != "" && fresh.APIVersion != "kubelet.config.k8s.io/v1beta1" {
		t.add(bootstrap.Refuses, t.posOf("apiVersion", valuesPos), "apiVersion", fmt.Sprintf("k0s refuses the ClusterConfig: %s.values.apiVersion: Invalid value: %q: expected %q (pkg/apis/k0s/v1beta1/workerprofile.go validateConfig, %s)",
			at, fresh.APIVersion, "kubelet.config.k8s.io/v1beta1", Release), "Leave apiVersion out of the profile's values: k0s writes it.")
	}
	if fresh.Kind != "" && fresh.Kind != "KubeletConfiguration" {
		t.add(bootstrap.Refuses, t.posOf("kind", valuesPos), "kind", fmt.Sprintf("k0s refuses the ClusterConfig: %s.values.kind: Invalid value: %q: expected %q (pkg/apis/k0s/v1beta1/workerprofile.go validateConfig, %s)",
			at, fresh.Kind, "KubeletConfiguration", Release), "Leave kind out of the profile's values: k0s writes it.")
	}
	forbidden := func(field, hint string) {
		t.add(bootstrap.Refuses, t.posOf(field, valuesPos), field, fmt.Sprintf("k0s refuses the ClusterConfig: %s.values.%s: Forbidden: may not be used in k0s worker profiles (pkg/apis/k0s/v1beta1/workerprofile.go validateConfig, %s)",
			at, field, Release), hint)
	}
	if fresh.ClusterDNS != nil {
		forbidden("clusterDNS", "Remove it: k0s sets clusterDNS to the 10th address of spec.network.serviceCIDR.")
	}
	if fresh.ClusterDomain != "" {
		forbidden("clusterDomain", "Remove it and set spec.network.clusterDomain instead.")
	}
	if fresh.StaticPodURL != "" {
		forbidden("staticPodURL", "Remove it: k0s sets staticPodURL itself (node-local load balancing).")
	}

	// buildConfigMaps: yaml.Unmarshal(profile.Config.Raw, &workerProfile.KubeletConfiguration),
	// over what the profile has so far (maps merge, lists and scalars are replaced).
	if err := json.Unmarshal(known, kc); err != nil {
		t.add(bootstrap.Refuses, valuesPos, "", fmt.Sprintf("k0s: failed to decode worker profile %q: %s (workerconfig/reconciler.go buildConfigMaps, %s)", p.name, oneLine(err), Release), "")
		return
	}

	// writeKubeletConfig replaces these whatever the profile says.
	if fresh.Authentication.X509.ClientCAFile != "" {
		path := "authentication.x509.clientCAFile"
		t.add(bootstrap.Overrides, t.posOf(path, valuesPos), path, fmt.Sprintf("k0s replaces authentication.x509.clientCAFile with the CA of the kubelet's kubeconfig on the node (pkg/component/worker/kubelet.go writeKubeletConfig, getKubeletCAPath, %s)", Release),
			"Remove it from the profile: k0s always sets the kubelet's client CA itself.")
	}
	if fresh.ContainerRuntimeEndpoint != "" {
		path := "containerRuntimeEndpoint"
		t.add(bootstrap.Overrides, t.posOf(path, valuesPos), path, fmt.Sprintf("k0s replaces containerRuntimeEndpoint with its embedded containerd's socket unix://%s/containerd.sock, or the worker's --cri-socket (pkg/component/worker/kubelet.go writeKubeletConfig, %s)", runDir, Release),
			"Remove it from the profile; start the worker with --cri-socket=remote:<endpoint> to use another runtime.")
	}
}

// worker is what pkg/component/worker/kubelet.go does on the node: Start (the
// arguments) and writeKubeletConfig (the keys set after the profile). It runs
// as on Linux, as root, with the default data dir and none of the worker's
// optional flags (--cri-socket, --enable-cloud-provider, --labels, --taints,
// --kubelet-extra-args).
func (t *translation) worker(kc *kubeletv1beta1.KubeletConfiguration) {
	const src = "pkg/component/worker/kubelet.go writeKubeletConfig, " + Release
	kc.Authentication.X509.ClientCAFile = ""
	t.atBoot("authentication.x509.clientCAFile", "the CA of the kubelet's kubeconfig, written to "+runDir+"/kubelet/ca.crt when the kubeconfig embeds it ("+src+", getKubeletCAPath)")
	if kc.ResolverConfig == nil {
		t.atBoot("resolvConf", "/etc/resolv.conf, or /run/systemd/resolve/resolv.conf when systemd-resolved's 127.0.0.53 is its only nameserver ("+src+", determineKubeletResolvConfPath)")
	}
	kc.StaticPodURL = ""
	if t.d.nllb {
		t.atBoot("staticPodURL", "the URL of its static pod server (http://<address>/manifests), for node-local load balancing ("+src+", static_pods.go ManifestURL)")
	}
	kc.ContainerRuntimeEndpoint = "unix://" + runDir + "/containerd.sock"
	t.out.Notes["containerRuntimeEndpoint"] = noteCRI

	// Start: the arguments, sorted by name (stringmap.StringMap.ToArgs), but
	// --config=/run/k0s/kubelet/config.yaml (Output.Config) and the node's
	// --hostname-override (and --node-ip when dual-stack), known at boot.
	kubeconfig, kubeconfigNote := dataDir+"/kubelet.conf", "k0s: the kubelet's kubeconfig (pkg/config/cfgvars.go KubeletAuthConfigPath)"
	if t.d.nllb {
		kubeconfig, kubeconfigNote = runDir+"/nllb/kubeconfig.yaml", "k0s: the node-local load balancer's kubeconfig (pkg/component/worker/nllb/reconciler.go GetKubeletKubeconfigPath)"
	}
	const startSrc = "pkg/component/worker/kubelet.go Start, " + Release
	flags := []struct{ flag, note string }{
		{"--cert-dir=" + kubeletRootDir + "/pki", "k0s (" + startSrc + ")"},
		{"--containerd=" + runDir + "/containerd.sock", "k0s: its embedded containerd, worker without --cri-socket (" + startSrc + ")"},
		{"--kubeconfig=" + kubeconfig, kubeconfigNote},
		{"--root-dir=" + kubeletRootDir, "k0s (" + startSrc + ")"},
		{"--runtime-cgroups=/system.slice/containerd.service", "k0s on Linux (" + startSrc + ")"},
		{"--v=1", "k0s: the worker's --logging kubelet level, default 1 (pkg/config/cli.go)"},
	}
	for _, f := range flags {
		t.out.Flags = append(t.out.Flags, f.flag)
		t.out.FlagPositions = append(t.out.FlagPositions, finding.Position{})
		t.out.FlagNotes = append(t.out.FlagNotes, f.note)
	}
}

func (t *translation) atBoot(path, what string) {
	t.out.AtBoot[path] = "k0s: " + what
	if _, given := t.set[path]; given {
		t.out.Notes[path] = "given with --set; k0s: " + what
		return
	}
	t.add(bootstrap.AtBoot, t.out.Anchor, path, fmt.Sprintf("k0s sets %s on the node at boot: %s", path, what),
		"Give it with --set "+path+"=VALUE when it is known.")
}

// posOf is the position of path in the profile's values, else def.
func (t *translation) posOf(path string, def finding.Position) finding.Position {
	if p, ok := t.out.Positions[path]; ok {
		return p
	}
	return def
}

// lookup finds the position of a path as encoding/json names it in an error
// (the names as written, dotted).
func (t *translation) lookup(path string) (finding.Position, bool) {
	for path != "" {
		if p, ok := t.out.Positions[path]; ok {
			return p, true
		}
		for k, p := range t.out.Positions {
			if strings.EqualFold(k, path) {
				return p, true
			}
		}
		i := strings.LastIndexAny(path, ".[")
		if i < 0 {
			break
		}
		path = path[:i]
	}
	return finding.Position{}, false
}

// walk records where each key of the values is written, by its field path as
// the kubelet spells it (encoding/json matches names exactly, else
// case-insensitively: the canonical name is recorded), and reports the keys
// the KubeletConfiguration type of the minor has no field for: k0s's decode
// drops them (KC9003).
func (t *translation) walk(n *yaml.Node, f *kubelets.Field, prefix, filePrefix string) {
	n = resolve(n)
	if n == nil || f == nil {
		return
	}
	switch {
	case n.Kind == yaml.MappingNode && f.Kind == kubelets.Object:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			child, _ := f.Child(k.Value)
			if child == nil {
				t.dropped(k, f, kubelets.JoinPath(prefix, k.Value), filePrefix+"."+k.Value)
				continue
			}
			path := kubelets.JoinPath(prefix, child.Name)
			t.out.Positions[path] = t.d.pos(k)
			delete(t.out.Notes, path)
			t.walk(v, child, path, filePrefix+"."+k.Value)
		}
	case n.Kind == yaml.MappingNode && f.Kind == kubelets.Map:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			path := prefix + "[" + k.Value + "]"
			t.out.Positions[path] = t.d.pos(k)
			t.walk(v, f.Elem, path, filePrefix+"["+k.Value+"]")
		}
	case n.Kind == yaml.SequenceNode && f.Kind == kubelets.List:
		for i, v := range n.Content {
			path := prefix + "[" + strconv.Itoa(i) + "]"
			t.out.Positions[path] = t.d.pos(v)
			t.walk(v, f.Elem, path, filePrefix+"["+strconv.Itoa(i)+"]")
		}
	}
}

func (t *translation) dropped(k *yaml.Node, parent *kubelets.Field, path, filePath string) {
	why := fmt.Sprintf("kubelet %s's KubeletConfiguration has no such field", t.minor.Version)
	hint := "Remove it, or spell it as the KubeletConfiguration field it means."
	if newer := t.minor.FirstNewerWith(path); newer != nil {
		why = fmt.Sprintf("the field comes with kubelet %s; kubelet %s's KubeletConfiguration, which k0s decodes into, does not have it", newer.Version, t.minor.Version)
		hint = fmt.Sprintf("Remove it, or run a k0s release that ships kubelet %s or newer.", newer.Version)
	} else if s := suggest(k.Value, parent.ChildNames()); s != "" {
		hint = fmt.Sprintf("Did you mean %s?", s)
	}
	t.add(bootstrap.Drops, t.d.pos(k), path, fmt.Sprintf("k0s drops %s: %s and %s, which ignores unknown keys: the kubelet never sees it",
		filePath, why, sourceValues), hint)
}

// suggest returns the name among names closest to s, or "" (the nearest
// name as kubeletcfg's other did-you-mean hints find it).
func suggest(s string, names []string) string { return didyoumean.Nearest(s, names) }

// setPath sets a dotted path of obj to value, a YAML scalar or document
// (Options.Set).
func setPath(obj map[string]any, path, value string) error {
	var v any
	if err := sigsyaml.Unmarshal([]byte(value), &v); err != nil {
		return err
	}
	steps := strings.Split(path, ".")
	cur := obj
	for _, s := range steps[:len(steps)-1] {
		next, ok := cur[s].(map[string]any)
		if !ok {
			next = map[string]any{}
			cur[s] = next
		}
		cur = next
	}
	cur[steps[len(steps)-1]] = v
	return nil
}
