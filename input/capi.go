package input

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	ppath "path"
	"slices"
	"sort"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"
	sigsyaml "sigs.k8s.io/yaml"

	kf "github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/input/bootstrap"
	"github.com/kubeletcfg/kubeletcfg/skew"
)

// Cluster API's kubeadm bootstrap provider (CABPK), ported from
// sigs.k8s.io/cluster-api v1.14.0. The translator lives in package input,
// not in input/capi, because what CAPI writes is a kubeadm configuration
// file plus files[], and what kubeadm then writes for the kubelet
// (KubeadmKubeletConfigAt, the patches of kubeadmpatches.go) is here: input/capi
// could not import it (layers_test.go).
//
// What CAPI does, at v1.14.0:
//   - bootstrap/kubeadm/reconcilers/kubeadmconfig/kubeadmconfig_controller.go:
//     handleClusterNotInitialized (the first control plane: ClusterConfiguration
//     + InitConfiguration into /run/kubeadm/kubeadm.yaml, `kubeadm init`),
//     joinWorker (JoinConfiguration with the node.cluster.x-k8s.io/uninitialized
//     taint added, `kubeadm join`), joinControlplane (JoinConfiguration as is);
//     resolveFiles writes spec.files before kubeadm runs
//     (pkg/cloudinit/controlplane_init.go, node.go: write_files, then runcmd).
//   - bootstrap/kubeadm/pkg/types/utils.go KubeVersionToKubeadmAPIGroupVersion:
//     kubeadm.k8s.io/v1beta3 for Kubernetes 1.22-1.30, v1beta4 from 1.31.
//   - api/bootstrap/kubeadm/v1beta2/conversion.go ConvertToArgs: a v1beta1
//     kubeletExtraArgs map becomes a list sorted by name.
//   - bootstrap/kubeadm/webhooks/admission/kubeadmconfig.go validateFiles and
//     the CRD's CEL rule on kubeletExtraArgs (unique names): refusals.
//
// What kubeadm then does with it (k8s.io/kubernetes cmd/kubeadm/app, 1.31-1.37):
// phases/kubelet/flags.go buildKubeletArgsCommon and WriteKubeletDynamicEnvFile
// (kubeadm-flags.env: its own flags sorted, kubeletExtraArgs replacing them by
// name and appended in order, util/arguments.go ArgumentsToCommand);
// phases/kubelet/config.go WriteConfigToDisk (defaults, patches, then the
// instance configuration's containerRuntimeEndpoint from 1.34).

// CAPITool is Cluster API's kubeadm bootstrap provider.
var CAPITool = bootstrap.Tool{Name: "Cluster API", Release: "v1.14.0",
	Source: "bootstrap/kubeadm/reconcilers/kubeadmconfig/kubeadmconfig_controller.go (handleClusterNotInitialized, joinWorker) and bootstrap/kubeadm/pkg/types/utils.go (KubeVersionToKubeadmAPIGroupVersion)"}

const (
	capiBootstrapGroup    = "bootstrap.cluster.x-k8s.io"
	capiControlPlaneGroup = "controlplane.cluster.x-k8s.io"
	// capiUninitializedTaint is clusterv1.NodeUninitializedTaint, which
	// joinWorker adds to every worker's JoinConfiguration.
	capiUninitializedTaint = "node.cluster.x-k8s.io/uninitialized:NoSchedule"
	kubeadmConfigYAML      = "/var/lib/kubelet/config.yaml"
)

// capiKinds are the kinds holding a KubeadmConfigSpec, with the path to it.
var capiKinds = map[string][]string{
	capiBootstrapGroup + "/KubeadmConfig":                  {"spec"},
	capiBootstrapGroup + "/KubeadmConfigTemplate":          {"spec", "template", "spec"},
	capiControlPlaneGroup + "/KubeadmControlPlane":         {"spec", "kubeadmConfigSpec"},
	capiControlPlaneGroup + "/KubeadmControlPlaneTemplate": {"spec", "template", "spec", "kubeadmConfigSpec"},
}

// DetectCAPI reports whether data holds a Cluster API kubeadm bootstrap or
// control plane document (by apiVersion and kind).
func DetectCAPI(path string, data []byte) bool {
	if !bytes.Contains(data, []byte(".cluster.x-k8s.io")) {
		return false
	}
	for _, d := range splitDocs(data) {
		if capiKinds[group(d.apiVersion)+"/"+d.kind] != nil {
			return true
		}
	}
	return false
}

// capiSpec is the KubeadmConfigSpec read from the manifest.
type capiSpec struct {
	path    string
	doc     *yamlDoc
	spec    *yaml.Node
	version string // KubeadmControlPlane spec.version
	cp      bool   // a control plane kind
	lines   []string
	out     *bootstrap.Output
}

func (c *capiSpec) pos(n *yaml.Node) kf.Position {
	if n == nil {
		return c.out.Anchor
	}
	return kf.Position{File: c.path, Line: n.Line, Column: n.Column}
}

func (c *capiSpec) add(rule string, sev kf.Severity, n *yaml.Node, fieldPath, msg, hint string) {
	c.out.Findings = append(c.out.Findings, kf.Finding{Rule: rule, Severity: sev, Message: "Cluster API: " + msg,
		Position: c.pos(n), Path: fieldPath, Hint: hint})
}

// walk is the node at the keys' path under n; nil when missing.
func walk(n *yaml.Node, keys ...string) *yaml.Node {
	for _, k := range keys {
		if n == nil {
			return nil
		}
		n = get(n, k)
	}
	return n
}

// capiArg is one kubelet flag: the kubeadm API's Arg.
type capiArg struct {
	name, value string
	pos         kf.Position
	key         *yaml.Node
	note        string
}

// TranslateCAPI is what a node of a Cluster API KubeadmConfig,
// KubeadmConfigTemplate, KubeadmControlPlane or KubeadmControlPlaneTemplate
// starts its kubelet with: the kubeadm configuration CAPI writes and what
// kubeadm init (the first control plane machine) or kubeadm join (workers)
// writes from it, files[] in place.
func TranslateCAPI(path string, data []byte, opt bootstrap.Options) (*bootstrap.Output, error) {
	docs := splitDocs(data)
	c := &capiSpec{path: path, lines: strings.SplitAfter(string(data), "\n")}
	var cluster *yamlDoc
	var kinds []string
	for i := range docs {
		d := &docs[i]
		if d.kind == "Cluster" && group(d.apiVersion) == "cluster.x-k8s.io" && cluster == nil {
			cluster = d
		}
		keys := capiKinds[group(d.apiVersion)+"/"+d.kind]
		if keys == nil || d.root == nil {
			continue
		}
		kinds = append(kinds, d.kind)
		if c.doc == nil {
			c.doc, c.spec = d, walk(d.root, keys...)
			c.cp = group(d.apiVersion) == capiControlPlaneGroup
			if v := walk(d.root, "spec", "version"); v != nil && c.cp {
				c.version = v.Value
			}
		}
	}
	if c.doc == nil {
		return nil, fmt.Errorf("%s: no Cluster API KubeadmConfig, KubeadmConfigTemplate, KubeadmControlPlane or KubeadmControlPlaneTemplate document", path)
	}
	c.out = &bootstrap.Output{Tool: CAPITool, Positions: map[string]kf.Position{}, Notes: map[string]string{}, AtBoot: map[string]string{},
		Anchor: kf.Position{File: path, Line: c.doc.kindLine, Column: c.doc.kindColumn}}
	if c.spec == nil || c.spec.Kind != yaml.MappingNode {
		c.spec = &yaml.Node{Kind: yaml.MappingNode}
	}

	// The kubelet minor: the KubeadmControlPlane's spec.version, else the one evaluated.
	m := skew.Default()
	if opt.Minor != "" {
		mm, err := skew.Lookup(opt.Minor)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		m = mm
	}
	if c.version != "" {
		v, ok := skew.ParseVersion(strings.TrimPrefix(c.version, "v"))
		if ok {
			// Not a clusterctl variable (${KUBERNETES_VERSION}): the minor evaluated.
			c.out.KubeletVersion = c.version
		}
		if ok && opt.Minor == "" {
			if mm, err := skew.Lookup(fmt.Sprintf("%d.%d", v.Major, v.Minor)); err == nil {
				m = mm
			}
		}
		// KubeVersionToKubeadmAPIGroupVersion refuses below 1.22.
		if ok && (v.Major < 1 || v.Major == 1 && v.Minor < 22) {
			c.add("KC9001", kf.Error, walk(c.doc.root, "spec", "version"), "",
				fmt.Sprintf("version %s: the bootstrap provider for kubeadm doesn't support Kubernetes version lower than v1.22.0 (bootstrap/kubeadm/pkg/types/utils.go KubeVersionToKubeadmAPIGroupVersion, %s)", c.version, CAPITool.Release),
				"set spec.version to a Kubernetes release CAPI supports")
		}
	}
	kubeadmAPI := "kubeadm.k8s.io/v1beta4" // every supported minor is 1.31 or newer
	mv := m.MajorMinor()

	// Which kubeadm runs: a control plane kind's first machine runs kubeadm
	// init from initConfiguration; a KubeadmConfig(Template) with a
	// joinConfiguration, or without an initConfiguration, joins.
	init := c.cp
	if !c.cp {
		init = get(c.spec, "initConfiguration") != nil && get(c.spec, "joinConfiguration") == nil
	}
	phase := "joinConfiguration"
	if init {
		phase = "initConfiguration"
	}
	phaseNode := get(c.spec, phase)
	nodeReg := walk(phaseNode, "nodeRegistration")

	c.checkUnknownKeys(phase, phaseNode, nodeReg)
	c.validateFiles()

	// The files CAPI writes before kubeadm runs (resolveFiles; contentFrom is
	// a Secret kubeletcfg cannot read).
	files := c.files()

	// kubeletExtraArgs: v1beta2's list or v1beta1's map (ConvertToArgs: sorted by name).
	extra := c.extraArgs(nodeReg, opt.Set)

	// kubeadm's own flags (phases/kubelet/flags.go buildKubeletArgsCommon).
	var base []capiArg
	criSocket := ""
	if v := walk(nodeReg, "criSocket"); v != nil {
		criSocket = v.Value
	}
	clusterConf := get(c.spec, "clusterConfiguration")
	localCRISocket := mv.AtLeast(skew.VersionOf("1.34")) // NodeLocalCRISocket: beta (on) in 1.34, GA in 1.36
	if g := walk(clusterConf, "featureGates", "NodeLocalCRISocket"); g != nil && !mv.AtLeast(skew.VersionOf("1.36")) {
		localCRISocket = g.Value == "true"
	}
	if !localCRISocket {
		if criSocket != "" {
			base = append(base, capiArg{name: "container-runtime-endpoint", value: criSocket, pos: c.pos(walk(nodeReg, "criSocket")),
				note: "kubeadm: nodeRegistration.criSocket (phases/kubelet/flags.go buildKubeletArgsCommon)"})
		} else {
			c.out.AtBoot["containerRuntimeEndpoint"] = "kubeadm: the CRI socket it detects on the node (nodeRegistration.criSocket is not set)"
		}
	}
	if !mv.AtLeast(skew.VersionOf("1.35")) {
		repo := "registry.k8s.io"
		if v := walk(clusterConf, "imageRepository"); v != nil && v.Value != "" {
			repo = v.Value
		}
		pause := "3.10"
		if mv.AtLeast(skew.VersionOf("1.34")) {
			pause = "3.10.1"
		}
		base = append(base, capiArg{name: "pod-infra-container-image", value: repo + "/pause:" + pause,
			note: "kubeadm: its pause image (images.GetPauseImage, phases/kubelet/flags.go)"})
	}
	if !init && !c.cp && get(phaseNode, "controlPlane") == nil {
		// joinWorker adds the uninitialized taint; kubeadm join registers
		// taints with the flag when the node is not a control plane
		// (joinConfiguration.controlPlane unset: joinControlplane adds none).
		taints := []string{}
		if t := walk(nodeReg, "taints"); t != nil && t.Kind == yaml.SequenceNode {
			for _, tn := range t.Content {
				taints = append(taints, taintString(tn))
			}
		}
		if !slices.Contains(taints, capiUninitializedTaint) {
			taints = append(taints, capiUninitializedTaint)
		}
		base = append(base, capiArg{name: "register-with-taints", value: strings.Join(taints, ","),
			note: "Cluster API joinWorker adds the node.cluster.x-k8s.io/uninitialized taint; kubeadm join passes taints as a flag"})
	}
	if n := walk(nodeReg, "name"); n != nil && n.Value != "" {
		a := capiArg{name: "hostname-override", value: n.Value, pos: c.pos(n), note: "kubeadm: nodeRegistration.name differs from the hostname"}
		if isTemplate(n.Value) {
			c.add("KC9004", kf.Info, n, "", fmt.Sprintf("nodeRegistration.name %q is rendered by cloud-init on the instance; kubeadm passes it as --hostname-override when it differs from the hostname (phases/kubelet/flags.go GetNodeNameAndHostname)", n.Value),
				"give the node name with --set hostname-override=NAME when it matters")
			a.value = ""
			if v, ok := opt.Set["hostname-override"]; ok {
				a.value = v
			}
		}
		if a.value != "" {
			base = append(base, a)
		}
	}
	sort.SliceStable(base, func(i, j int) bool { return base[i].name < base[j].name }) // sortArgsSlice

	// ArgumentsToCommand: base args replaced by an extra arg of their name, extra args appended.
	overridden := map[string]capiArg{}
	for _, a := range extra {
		overridden[a.name] = a
	}
	var args []capiArg
	for _, b := range base {
		if o, ok := overridden[b.name]; ok {
			if o.value != b.value {
				c.add("KC9002", kf.Warning, o.key, "", fmt.Sprintf("kubeletExtraArgs %s=%q replaces kubeadm's own --%s=%s (util/arguments.go ArgumentsToCommand: an extra arg replaces the base arg of its name)", o.name, o.value, b.name, b.value),
					"drop the extra arg unless replacing kubeadm's value is intended")
			}
			continue
		}
		args = append(args, b)
	}
	args = append(args, extra...)

	// The systemd drop-in kubeadm's packages install (10-kubeadm.conf):
	// $KUBELET_KUBECONFIG_ARGS $KUBELET_CONFIG_ARGS $KUBELET_KUBEADM_ARGS.
	flags := []capiArg{
		{name: "bootstrap-kubeconfig", value: "/etc/kubernetes/bootstrap-kubelet.conf", note: "kubeadm's 10-kubeadm.conf (KUBELET_KUBECONFIG_ARGS)"},
		{name: "kubeconfig", value: "/etc/kubernetes/kubelet.conf", note: "kubeadm's 10-kubeadm.conf (KUBELET_KUBECONFIG_ARGS)"},
	}

	var configArg, dirArg *capiArg
	for i, a := range args {
		switch a.name {
		case "config":
			configArg = &args[i]
			continue
		case "config-dir":
			dirArg = &args[i]
			continue
		}
		flags = append(flags, a)
	}
	for _, a := range flags {
		c.out.Flags = append(c.out.Flags, "--"+a.name+"="+a.value)
		c.out.FlagPositions = append(c.out.FlagPositions, a.pos)
		c.out.FlagNotes = append(c.out.FlagNotes, a.note)
	}

	// The kubelet configuration: kubeadm's (defaults, the patches of the
	// phase's patches.directory, the instance configuration), unless an
	// extra arg --config names a file of files[].
	patchDir := ""
	if v := walk(phaseNode, "patches", "directory"); v != nil {
		patchDir = ppath.Clean(v.Value)
	}
	used := map[int]bool{}
	net := capiNetworking(clusterConf, cluster)
	kubeadmDoc, err := KubeadmKubeletConfigAt(nil, net, KubeadmOptions{}, m)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	var patches KubeadmPatches
	patches.Dir = patchDir
	if patchDir != "" {
		// getPatchSetsFromPath walks the folder in lexical order.
		var inDir []int
		for i, f := range files {
			if strings.HasPrefix(f.path, patchDir+"/") {
				inDir = append(inDir, i)
			}
		}
		sort.SliceStable(inDir, func(a, b int) bool { return files[inDir[a]].path < files[inDir[b]].path })
		for _, i := range inDir {
			f := files[i]
			target, typ, ok, err := parseKubeadmPatchName(ppath.Base(f.path))
			if err != nil {
				c.add("KC9001", kf.Error, f.pathNode, "", fmt.Sprintf("files[%d] %s: kubeadm stops: %v (cmd/kubeadm/app/util/patches/patches.go parseFilename)", f.index, f.path, err),
					"name the patch target[suffix][+strategic|+merge|+json].{yaml,json}")
				used[i] = true
				continue
			}
			if !ok {
				if looksLikeKubeletPatch(ppath.Base(f.path)) {
					c.add("KC9003", kf.Warning, f.pathNode, "", fmt.Sprintf("files[%d] %s is in the patches directory, but kubeadm ignores it: only %s[suffix][+patchtype].{json,yaml} is a kubeletconfiguration patch (cmd/kubeadm/app/util/patches/patches.go)", f.index, f.path, kubeadmPatchTarget),
						"rename the file to kubeletconfiguration[suffix][+strategic|+merge|+json].yaml or .json")
					used[i] = true
				}
				continue
			}
			used[i] = true
			if !f.known || len(f.content) == 0 {
				continue
			}
			ps, err := splitKubeadmPatches(f.path, f.content, typ)
			if err != nil {
				c.add("KC9001", kf.Error, f.contentNode, "", fmt.Sprintf("files[%d] %s: kubeadm stops: %v", f.index, f.path, firstLine(err.Error())), "fix the patch's YAML or JSON")
				continue
			}
			if target != kubeadmPatchTarget {
				continue
			}
			for j := range ps {
				ps[j].byPath = f.positions(typ, j)
			}
			patches.patches = append(patches.patches, ps...)
			patches.Files = append(patches.Files, f.path)
		}
	}
	configDoc := kubeadmDoc
	if len(patches.patches) > 0 {
		configDoc, err = patches.Apply(kubeadmDoc)
		if err != nil {
			c.add("KC9001", kf.Error, nil, "", "kubeadm stops: "+firstLine(err.Error()), "fix the kubeletconfiguration patch")
			configDoc = kubeadmDoc
		}
		maps.Copy(c.out.Positions, patches.positions())
	}
	if localCRISocket {
		// WriteConfigToDisk: the instance configuration, after the patches.
		if criSocket != "" {
			if p, ok := c.out.Positions["containerRuntimeEndpoint"]; ok {
				c.out.Findings = append(c.out.Findings, kf.Finding{Rule: "KC9002", Severity: kf.Warning, Position: p, Path: "containerRuntimeEndpoint",
					Message: fmt.Sprintf("Cluster API: kubeadm %s writes containerRuntimeEndpoint %q from nodeRegistration.criSocket over the patch's value (phases/kubelet/config.go WriteConfigToDisk: the instance configuration is applied after the patches)", m.Version, criSocket),
					Hint:    "set nodeRegistration.criSocket instead"})
			}
			configDoc, err = mergeYAML(configDoc, map[string]any{"containerRuntimeEndpoint": criSocket})
			if err != nil {
				return nil, fmt.Errorf("%s: %v", path, err)
			}
			c.out.Positions["containerRuntimeEndpoint"] = c.pos(walk(nodeReg, "criSocket"))
		} else {
			c.out.AtBoot["containerRuntimeEndpoint"] = "kubeadm: the CRI socket it detects on the node (nodeRegistration.criSocket is not set)"
		}
	}
	if _, ok := c.out.AtBoot["containerRuntimeEndpoint"]; ok {
		var v any
		if s, ok := opt.Set["containerRuntimeEndpoint"]; ok {
			v = s
		}
		if configDoc, err = mergeYAML(configDoc, map[string]any{"containerRuntimeEndpoint": v}); err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
	}
	c.out.Config = &bootstrap.File{Path: kubeadmConfigYAML, Data: configDoc}
	for _, p := range kubeadmSets {
		if p != "resolvConf" { // only with systemd-resolved on the node (Mutate)
			c.out.Notes[p] = "set by kubeadm (its default for the kubelet, componentconfigs/kubelet.go Default)"
		}
	}
	where := "kubeadm's default " + net.ServiceSubnet
	if cluster != nil {
		where = fmt.Sprintf("%s, from the Cluster's spec.clusterNetwork or kubeadm's default", net.ServiceSubnet)
	} else if v := walk(clusterConf, "networking", "serviceSubnet"); v != nil {
		where = net.ServiceSubnet + " from clusterConfiguration.networking.serviceSubnet"
	}
	c.out.Notes["clusterDNS"] = fmt.Sprintf("set by kubeadm: the 10th address of the service subnet (%s; CAPI takes it from the Cluster's spec.clusterNetwork.services when that object is in the same file)", where)
	c.out.Notes["clusterDomain"] = fmt.Sprintf("set by kubeadm: the DNS domain (%s; CAPI takes it from the Cluster's spec.clusterNetwork.serviceDomain when that object is in the same file)", net.DNSDomain)
	from := "kubeadm's defaults"
	if len(patches.Files) > 0 {
		from += " and the patches " + strings.Join(patches.Files, ", ")
	}
	for p := range c.out.AtBoot {
		c.add("KC9004", kf.Info, walk(nodeReg, "criSocket"), p, "kubeadm detects the container runtime's socket on the node: nodeRegistration.criSocket is not set (cmd/kubeadm/app/util/runtime DetectCRISocket)",
			"set nodeRegistration.criSocket, or give the value with --set containerRuntimeEndpoint=unix:///run/containerd/containerd.sock")
	}
	if configArg != nil {
		i := slices.IndexFunc(files, func(f capiFile) bool { return f.path == ppath.Clean(configArg.value) })
		if i < 0 || !files[i].known {
			c.add("KC9004", kf.Info, configArg.key, "", fmt.Sprintf("kubeletExtraArgs config=%s: the kubelet reads that file instead of kubeadm's %s, and it is not written by files[] with inline content: kubeletcfg cannot see it", configArg.value, kubeadmConfigYAML),
				"put the file in files[] with content, or lint the file itself")
		} else {
			used[i] = true
			c.out.Config = &bootstrap.File{Path: files[i].path, Data: files[i].content}
			c.out.Positions = files[i].positions("", 0)
			c.out.Notes = map[string]string{}
			from = fmt.Sprintf("files[%d] %s (kubeletExtraArgs config= replaces kubeadm's --config=%s; kubeadm's defaults and patches do not reach the kubelet)", files[i].index, files[i].path, kubeadmConfigYAML)
			if len(patches.Files) > 0 {
				c.add("KC9003", kf.Warning, configArg.key, "", fmt.Sprintf("the kubeletconfiguration patches (%s) patch kubeadm's %s, which the kubelet does not read: kubeletExtraArgs config=%s comes later on its command line (10-kubeadm.conf: $KUBELET_CONFIG_ARGS before $KUBELET_KUBEADM_ARGS)", strings.Join(patches.Files, ", "), kubeadmConfigYAML, configArg.value),
					"use one of the two: the patches, or the file given with config=")
			}
		}
	}
	if dirArg != nil {
		c.out.ConfigDir = ppath.Clean(dirArg.value)
		for i, f := range files {
			if ppath.Dir(f.path) == c.out.ConfigDir && strings.HasSuffix(f.path, ".conf") && f.known {
				used[i] = true
				c.out.DropIns = append(c.out.DropIns, bootstrap.File{Path: f.path, Data: f.content})
				for p, pos := range f.positions("", 0) {
					if _, ok := c.out.Positions[p]; !ok {
						c.out.Positions[p] = pos
					}
				}
			}
		}
	}
	// A KubeletConfiguration or kubeletconfiguration patch written where
	// nothing reads it.
	for i, f := range files {
		if used[i] || !f.known {
			continue
		}
		base := ppath.Base(f.path)
		isPatch := strings.HasPrefix(base, kubeadmPatchTarget)
		isConfig := bytes.Contains(f.content, []byte("kubelet.config.k8s.io")) && bytes.Contains(f.content, []byte("KubeletConfiguration"))
		if !isPatch && !isConfig {
			continue
		}
		where := "no kubeletExtraArgs config= or config-dir= names it"
		hint := "add kubeletExtraArgs config=" + f.path + ", or write it as a kubeletconfiguration patch under " + phase + ".patches.directory"
		if isPatch {
			where = fmt.Sprintf("%s.patches.directory is %s", phase, strconv.Quote(patchDir))
			if patchDir == "" {
				where = phase + ".patches.directory is not set"
			}
			hint = fmt.Sprintf("set %s.patches.directory: %s", phase, ppath.Dir(f.path))
		}
		c.add("KC9003", kf.Warning, f.pathNode, "", fmt.Sprintf("files[%d] %s holds kubelet configuration that never reaches the kubelet: %s (kubeadm reads the kubelet configuration patches of %s.patches.directory only)", f.index, f.path, where, phase), hint)
	}

	what := "kubeadm join"
	if init {
		what = "kubeadm init"
	}
	c.out.Note = fmt.Sprintf("Cluster API %s (%s): %s with %s %s for Kubernetes %s; the kubelet's config is %s",
		c.doc.kind, strings.Join(kinds, ", "), what, kubeadmAPI, phase, m.Version, from)
	if c.cp {
		c.out.Note += "; the other control plane machines join with joinConfiguration"
	}
	return c.out, nil
}

// capiFile is an entry of spec.files.
type capiFile struct {
	index                          int
	path                           string
	known                          bool // inline content kubeletcfg can read
	content                        []byte
	pathNode, contentNode, keyNode *yaml.Node
	file                           string
	lines                          []string
}

// files reads spec.files (resolveFiles: inline content; contentFrom's
// Secret is not in the manifest; encoding base64/gzip is decoded by
// cloud-init, which kubeletcfg does not).
func (c *capiSpec) files() []capiFile {
	var out []capiFile
	fs := get(c.spec, "files")
	if fs == nil || fs.Kind != yaml.SequenceNode {
		return nil
	}
	for i, f := range fs.Content {
		if f.Kind != yaml.MappingNode {
			continue
		}
		cf := capiFile{index: i, pathNode: get(f, "path"), contentNode: get(f, "content"), keyNode: keyNode(f, "content"), file: c.path, lines: c.lines}
		if cf.pathNode == nil {
			continue
		}
		cf.path = ppath.Clean(cf.pathNode.Value)
		enc := get(f, "encoding")
		tmpl := get(f, "contentFormat")
		if cf.contentNode != nil && (enc == nil || enc.Value == "") && (tmpl == nil || tmpl.Value == "") {
			cf.known = true
			cf.content = []byte(cf.contentNode.Value)
		}
		out = append(out, cf)
	}
	return out
}

// laidOut is the content's block at the manifest's lines and columns, every
// other line blank; nil when the content is not a block scalar.
func (f capiFile) laidOut() []byte {
	n := f.contentNode
	if n == nil || n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) == 0 || f.keyNode == nil {
		return nil
	}
	indent := f.keyNode.Column - 1
	var b strings.Builder
	for i := 0; i < n.Line && i < len(f.lines); i++ {
		b.WriteString("\n")
	}
	for i := n.Line; i < len(f.lines); i++ {
		l := f.lines[i]
		t := strings.TrimRight(l, "\r\n")
		if strings.TrimSpace(t) != "" && len(t)-len(strings.TrimLeft(t, " ")) <= indent {
			break
		}
		b.WriteString(l)
	}
	return []byte(b.String())
}

// positions are the keys of the content's document j (a patch of type typ,
// or a configuration when typ is "") at the manifest's lines; the content
// key's when the content is not a block.
func (f capiFile) positions(typ string, j int) map[string]kf.Position {
	m := map[string]kf.Position{}
	text := f.laidOut()
	if text == nil {
		if f.contentNode != nil {
			var n yaml.Node
			if yaml.Unmarshal(f.content, &n) == nil && len(n.Content) == 1 {
				pos := kf.Position{File: f.file, Line: f.contentNode.Line, Column: f.contentNode.Column}
				tmp := map[string]kf.Position{}
				indexPaths(tmp, f.file, n.Content[0], "")
				for p := range tmp {
					m[p] = pos
				}
			}
		}
		return m
	}
	if typ == "json" {
		indexJSONPatch(m, f.file, text, 1)
		return m
	}
	var docs []yamlDoc
	for _, d := range splitDocs(text) {
		if d.root != nil {
			docs = append(docs, d)
		}
	}
	if j < len(docs) {
		indexPaths(m, f.file, docs[j].root, "")
	}
	return m
}

// extraArgs reads nodeRegistration.kubeletExtraArgs: v1beta2's list of
// {name, value} (the CRD's CEL rule refuses a name twice), v1beta1's map
// (ConvertToArgs sorts it by name).
func (c *capiSpec) extraArgs(nodeReg *yaml.Node, set map[string]string) []capiArg {
	ea := walk(nodeReg, "kubeletExtraArgs")
	if ea == nil {
		return nil
	}
	var out []capiArg
	note := "kubeletExtraArgs"
	switch ea.Kind {
	case yaml.SequenceNode:
		seen := map[string]*yaml.Node{}
		for _, it := range ea.Content {
			n, v := get(it, "name"), get(it, "value")
			if n == nil {
				continue
			}
			a := capiArg{name: n.Value, pos: c.pos(n), key: n, note: note}
			if v != nil {
				a.value = v.Value
			}
			if first, dup := seen[a.name]; dup {
				c.add("KC9001", kf.Error, n, "", fmt.Sprintf("kubeletExtraArgs name %q is given twice (first at line %d): the CRD's CEL rule refuses the object: \"kubeletExtraArgs name must be unique\" (api/bootstrap/kubeadm/v1beta2/kubeadm_types.go NodeRegistrationOptions, %s)", a.name, first.Line, CAPITool.Release),
					"give each kubelet flag once")
			} else {
				seen[a.name] = n
			}
			out = append(out, a)
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(ea.Content); i += 2 {
			k, v := ea.Content[i], ea.Content[i+1]
			out = append(out, capiArg{name: k.Value, value: v.Value, pos: c.pos(k), key: k, note: note + " (v1beta1 map: sorted by name, api/bootstrap/kubeadm/v1beta2/conversion.go ConvertToArgs)"})
		}
		sort.SliceStable(out, func(i, j int) bool { return out[i].name < out[j].name })
	}
	kept := out[:0]
	for _, a := range out {
		if !isTemplate(a.value) {
			kept = append(kept, a)
			continue
		}
		if v, ok := set[a.name]; ok {
			a.value = v
			kept = append(kept, a)
			continue
		}
		c.add("KC9004", kf.Info, a.key, "", fmt.Sprintf("kubeletExtraArgs %s=%q is rendered by cloud-init on the instance: its value is known at boot, and the flag is left out here", a.name, a.value),
			fmt.Sprintf("give the value with --set %s=VALUE when it matters", a.name))
	}
	return kept
}

// isTemplate: a cloud-init Jinja template ({{ ds.meta_data.local_hostname }}).
func isTemplate(s string) bool { return strings.Contains(s, "{{") }

// validateFiles is webhooks/admission/kubeadmconfig.go validateFiles.
func (c *capiSpec) validateFiles() {
	fs := get(c.spec, "files")
	if fs == nil || fs.Kind != yaml.SequenceNode {
		return
	}
	known := map[string]int{}
	for i, f := range fs.Content {
		if f.Kind != yaml.MappingNode {
			continue
		}
		if get(f, "content") != nil && get(f, "content").Value != "" && get(f, "contentFrom") != nil {
			c.add("KC9001", kf.Error, keyNode(f, "contentFrom"), "", fmt.Sprintf("files[%d]: the webhook refuses it: only one of content or contentFrom may be specified for a single file (bootstrap/kubeadm/webhooks/admission/kubeadmconfig.go validateFiles, %s)", i, CAPITool.Release),
				"keep content or contentFrom")
		}
		p := ""
		if pn := get(f, "path"); pn != nil {
			p = pn.Value
		}
		if first, dup := known[p]; dup {
			c.add("KC9001", kf.Error, get(f, "path"), "", fmt.Sprintf("files[%d]: the webhook refuses it: path property must be unique among all files (files[%d] has it; bootstrap/kubeadm/webhooks/admission/kubeadmconfig.go validateFiles, %s)", i, first, CAPITool.Release),
				"write each path once")
			continue
		}
		known[p] = i
	}
}

// capiNodeRegistrationKeys are NodeRegistrationOptions' fields (v1beta1 and
// v1beta2); capiPhaseKeys InitConfiguration's and JoinConfiguration's.
var (
	capiNodeRegistrationKeys = []string{"name", "criSocket", "taints", "kubeletExtraArgs", "ignorePreflightErrors", "imagePullPolicy", "imagePullSerial"}
	capiPhaseKeys            = map[string][]string{
		"initConfiguration": {"apiVersion", "kind", "bootstrapTokens", "nodeRegistration", "localAPIEndpoint", "skipPhases", "patches", "timeouts"},
		"joinConfiguration": {"apiVersion", "kind", "nodeRegistration", "caCertPath", "discovery", "controlPlane", "skipPhases", "patches", "timeouts"},
	}
)

// checkUnknownKeys: the API server prunes fields the CRD's structural schema
// does not have (kubectl warns "unknown field"): CAPI never sees them.
func (c *capiSpec) checkUnknownKeys(phase string, phaseNode, nodeReg *yaml.Node) {
	check := func(n *yaml.Node, where string, known []string) {
		for i := 0; n != nil && n.Kind == yaml.MappingNode && i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if slices.Contains(known, k.Value) {
				continue
			}
			c.add("KC9003", kf.Warning, k, "", fmt.Sprintf("%s.%s is not a field of the %s API: the API server prunes it and CAPI never passes it to kubeadm (the CRD's structural schema, %s)", where, k.Value, c.doc.apiVersion, CAPITool.Release),
				fmt.Sprintf("use one of %s", strings.Join(known, ", ")))
		}
	}
	check(phaseNode, phase, capiPhaseKeys[phase])
	check(nodeReg, phase+".nodeRegistration", capiNodeRegistrationKeys)
	check(walk(phaseNode, "patches"), phase+".patches", []string{"directory"})
}

// looksLikeKubeletPatch: a file named for the kubeletconfiguration target
// that kubeadm's name pattern does not take (another extension).
func looksLikeKubeletPatch(name string) bool {
	return strings.HasPrefix(name, kubeadmPatchTarget)
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// capiNetworking is what kubeadm's kubelet defaulting reads of the
// ClusterConfiguration CAPI writes: the spec's clusterConfiguration, with a
// Cluster document's clusterNetwork in the same file over it
// (computeClusterConfigurationAndAdditionalData: ServiceDomain, Services).
func capiNetworking(cc *yaml.Node, cluster *yamlDoc) Networking {
	net := DefaultNetworking()
	if v := walk(cc, "networking", "serviceSubnet"); v != nil && v.Value != "" {
		net.ServiceSubnet = v.Value
	}
	if v := walk(cc, "networking", "dnsDomain"); v != nil && v.Value != "" {
		net.DNSDomain = v.Value
	}
	if v := walk(cc, "certificatesDir"); v != nil && v.Value != "" {
		net.CertificatesDir = v.Value
	}
	if cluster != nil {
		cn := walk(cluster.root, "spec", "clusterNetwork")
		if v := walk(cn, "serviceDomain"); v != nil && v.Value != "" {
			net.DNSDomain = v.Value
		}
		if v := walk(cn, "services", "cidrBlocks"); v != nil && v.Kind == yaml.SequenceNode && len(v.Content) > 0 {
			var cidrs []string
			for _, b := range v.Content {
				cidrs = append(cidrs, b.Value)
			}
			net.ServiceSubnet = strings.Join(cidrs, ",")
		}
	}
	return net
}

// mergeYAML sets (a nil value: deletes) top-level keys of the YAML document doc.
func mergeYAML(doc []byte, set map[string]any) ([]byte, error) {
	j, err := sigsyaml.YAMLToJSON(doc)
	if err != nil {
		return nil, err
	}
	var obj map[string]any
	if err := json.Unmarshal(j, &obj); err != nil {
		return nil, err
	}
	for k, v := range set {
		if v == nil {
			delete(obj, k)
		} else {
			obj[k] = v
		}
	}
	if j, err = json.Marshal(obj); err != nil {
		return nil, err
	}
	return sigsyaml.JSONToYAML(j)
}
