// Package capi is Cluster API's kubeadm bootstrap provider (CABPK), ported from
// sigs.k8s.io/cluster-api v1.14.2 (ported at v1.14.0; the files ported are the same at
// v1.14.2, whose code conformance/capi links: TestCAPIHarnessGoldens). What CAPI
// writes is a kubeadm configuration file plus files[]; what kubeadm then writes
// for the kubelet (kubeadm.KubeletConfigAt, the patches, kubeadm-flags.env) is
// input/kubeadm's port, run here as a machine runs it.
//
// What CAPI does, at v1.14.2:
//   - bootstrap/kubeadm/reconcilers/kubeadmconfig/kubeadmconfig_controller.go:
//     handleClusterNotInitialized (the first control plane: ClusterConfiguration
//   - InitConfiguration into /run/kubeadm/kubeadm.yaml, `kubeadm init`),
//     joinWorker (JoinConfiguration with the node.cluster.x-k8s.io/uninitialized
//     taint added, `kubeadm join`), joinControlplane (JoinConfiguration as is);
//     resolveFiles writes spec.files before kubeadm runs
//     (pkg/cloudinit/controlplane_init.go, node.go: write_files, then runcmd).
//   - bootstrap/kubeadm/pkg/types/utils.go KubeVersionToKubeadmAPIGroupVersion:
//     kubeadm.k8s.io/v1beta3 for Kubernetes 1.22-1.30, v1beta4 from 1.31.
//   - api/bootstrap/kubeadm/v1beta2/conversion.go ConvertToArgs: a v1beta1
//     kubeletExtraArgs map becomes a list sorted by name.
//   - controlplane/kubeadm/pkg/desiredstate/desired_state.go ComputeDesiredKubeadmConfig,
//     DefaultFeatureGates: a KubeadmControlPlane's machines get
//     featureGates.ControlPlaneKubeletLocalMode for Kubernetes 1.31-1.35.
//   - bootstrap/kubeadm/webhooks/admission/kubeadmconfig.go validateFiles and
//     the CRD's CEL rule on kubeletExtraArgs (unique names): refusals.
//
// What kubeadm then does with it (k8s.io/kubernetes cmd/kubeadm/app, 1.31-1.38) is
// not re-implemented here: CAPI's kubeadm documents (kubeadmDocs, built of the
// manifest's own YAML nodes so that every position is the manifest's) go through the
// kubeadm input's port of the kubelet-start phase, input/kubeadm (kubeadm.NodeOf,
// kubeadm.Node.Writes: kubeadm-flags.env in ArgumentsToCommand's order of each
// minor, --pod-infra-container-image up to 1.34, --register-with-taints on a joining
// worker, the instance configuration where NodeLocalCRISocket is on;
// kubeadm.MergeInstanceConfig after the patches), which the conformance
// harness checks against kubeadm itself at every minor; Convert hands the
// documents to package input's Source, so kubeadm's per-minor findings
// (kubeadm.Node.Settle) are a kubeadm file's. What stays here is CAPI's: which phase
// runs, files[] (patches, --config, --config-dir), the webhook's and the CRD's
// refusals, cloud-init templates, the Cluster's networking.
package capi

import (
	"bytes"
	"fmt"
	"maps"
	ppath "path"
	"slices"
	"sort"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kubeletcfg/kubeletcfg/defaults"
	kf "github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/input/bootstrap"
	"github.com/kubeletcfg/kubeletcfg/input/internal/yamlmap"
	"github.com/kubeletcfg/kubeletcfg/input/kubeadm"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/rule"
)

// Tool is Cluster API's kubeadm bootstrap provider.
var Tool = bootstrap.Tool{Name: "Cluster API", Release: "v1.14.2",
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

// Detect reports whether data holds a Cluster API kubeadm bootstrap or
// control plane document (by apiVersion and kind).
func Detect(path string, data []byte) bool {
	if !bytes.Contains(data, []byte(".cluster.x-k8s.io")) {
		return false
	}
	for _, d := range kubeadm.SplitDocs(data) {
		if capiKinds[kubeadm.Group(d.APIVersion)+"/"+d.Kind] != nil {
			return true
		}
	}
	return false
}

// capiSpec is the KubeadmConfigSpec read from the manifest.
type capiSpec struct {
	path    string
	doc     *kubeadm.Doc
	spec    *yaml.Node
	version string // KubeadmControlPlane spec.version
	cp      bool   // a control plane kind
	// join: the control plane kind's joining machines (JoinSuffix), not its
	// first machine.
	join  bool
	lines []string
	out   *bootstrap.Output
	// node is the kubeadm configuration CAPI writes, as input/kubeadm reads it;
	// kubeadmFlags are the flags kubeadm writes from it into kubeadm-flags.env.
	node         *kubeadm.Node
	kubeadmFlags []kubeadm.Arg
	// kdocs are the kubeadm documents CAPI writes (kubeadmDocs), checked against
	// Cluster API's own output by TestCAPIHarnessGoldens.
	kdocs []kubeadm.Doc
	// kubeVersion is the Kubernetes minor CAPI writes for: spec.version, else the one evaluated.
	kubeVersion kubelets.Version
	// os is the node's operating system: the one asked for, else Windows when
	// the spec says so (nodeOS), else "" (Linux).
	os kubelets.OS
}

// imageBuilder is the Cluster API image build whose Windows images start
// the kubelet (images/capi/ansible/windows/roles/kubernetes/templates/StartKubelet.ps1).
var imageBuilder = bootstrap.Tool{Name: "image-builder's Windows image", Release: "v0.1.55", Source: "images/capi/ansible/windows/roles/kubernetes/templates/StartKubelet.ps1"}

// windowsImageFlags are StartKubelet.ps1's own kubelet arguments (image-builder
// v0.1.55, from sig-windows-tools' PrepareNode.ps1), before kubeadm-flags.env's,
// with $env:SYSTEMDRIVE as C: ("" in PowerShell is an empty value on the
// kubelet's command line). --hostname-override=$(hostname) is the machine's
// name, left out (kubeadm's own, from nodeRegistration.name, follows it).
func windowsImageFlags() []capiArg {
	note := "image-builder's Windows image: StartKubelet.ps1's own arguments (" + imageBuilder.Release + ")"
	var out []capiArg
	for _, f := range []string{"cert-dir=C:/var/lib/kubelet/pki", "bootstrap-kubeconfig=C:/etc/kubernetes/bootstrap-kubelet.conf",
		"kubeconfig=C:/etc/kubernetes/kubelet.conf", "enable-debugging-handlers=true", "cgroups-per-qos=false",
		"enforce-node-allocatable=", "resolv-conf="} {
		name, value, _ := strings.Cut(f, "=")
		out = append(out, capiArg{name: name, value: value, note: note})
	}
	return out
}

// nodeOS is Windows when the spec says the machine is a Windows one: its
// criSocket is a named pipe (CAPZ's Windows templates:
// npipe:////./pipe/containerd-containerd), or files[] are written under a
// drive letter (c:/k/azure.json); "" otherwise, with where it says so.
func (c *capiSpec) nodeOS(nodeReg *yaml.Node, files []capiFile) (kubelets.OS, string) {
	if v := yamlmap.Value(nodeReg, "criSocket"); v != nil && kubeadm.IsWindowsSocket(v.Value) {
		return kubelets.Windows, fmt.Sprintf("nodeRegistration.criSocket %s (line %d)", v.Value, v.Line)
	}
	for _, f := range files {
		if defaults.IsDrivePath(f.path) {
			return kubelets.Windows, fmt.Sprintf("files[%d].path %s", f.index, f.path)
		}
	}
	return "", ""
}

func (c *capiSpec) pos(n *yaml.Node) kf.Position {
	if n == nil {
		return c.out.Anchor
	}
	return kf.Position{File: c.path, Line: n.Line, Column: n.Column}
}

// add reports a finding of one of the bootstrapper rules (input/bootstrap) at
// n, its message prefixed with "Cluster API: ".
func (c *capiSpec) add(rule *rule.Rule, n *yaml.Node, fieldPath, msg, hint string) {
	c.addAt(rule, c.pos(n), fieldPath, msg, hint)
}

// addAt is add at a position of the manifest (none: the anchor).
func (c *capiSpec) addAt(rule *rule.Rule, pos kf.Position, fieldPath, msg, hint string) {
	if pos.Line == 0 {
		pos = c.out.Anchor
	}
	c.out.Findings = append(c.out.Findings, rule.At(pos, fieldPath, "Cluster API: "+msg, hint))
}

// walk is the node at the keys' path under n; nil when missing.
func walk(n *yaml.Node, keys ...string) *yaml.Node {
	for _, k := range keys {
		if n == nil {
			return nil
		}
		n = yamlmap.Value(n, k)
	}
	return n
}

// capiArg is one kubelet flag: the kubeadm API's Arg.
type capiArg struct {
	name, value string
	pos         kf.Position
	note        string
}

// Translate is what a node of a Cluster API KubeadmConfig,
// KubeadmConfigTemplate, KubeadmControlPlane or KubeadmControlPlaneTemplate
// starts its kubelet with: the kubeadm configuration CAPI writes and what
// kubeadm init (the first control plane machine) or kubeadm join (workers)
// writes from it, files[] in place.
func Translate(path string, data []byte, opt bootstrap.Options) (*bootstrap.Output, error) {
	c, err := translateCAPI(path, data, opt)
	if err != nil {
		return nil, err
	}
	return c.out, nil
}

// Convert is Translate with kubeadm's node documents kept, as for a kubeadm
// file: package input's Settle adds what kubeadm of each minor says of them
// (kubeadm.Node.Settle: its refusals, the CRI socket it detects on the node, its
// own deprecated flags), and flagNotes, by field path, name the field each
// kubeadm flag comes from, for --show-origin.
func Convert(path string, data []byte, opt bootstrap.Options) (out *bootstrap.Output, node *kubeadm.Node, flagNotes map[string]string, err error) {
	c, err := translateCAPI(path, data, opt)
	if err != nil {
		return nil, nil, nil, err
	}
	table, err := kubelets.Default().Flags()
	if err != nil {
		return nil, nil, nil, err
	}
	c.node.Wrote(c.kubeadmFlags)
	for _, f := range c.kubeadmFlags {
		if tf, ok := table.Lookup(f.Name); ok && tf.Path != "" && f.Pos.Line != 0 {
			if flagNotes == nil {
				flagNotes = map[string]string{}
			}
			flagNotes[tf.Path] = kubeadm.SetBy(path, f.From, f.Pos, "kubeadm-flags.env --"+f.Name)
		}
	}
	return c.out, c.node, flagNotes, nil
}

// translateCAPI is Translate, with kubeadm's node documents kept. It
// follows what a machine does: CAPI's bootstrap controller writes files[] and
// /run/kubeadm/kubeadm.yaml, kubeadm's kubelet-start phase writes the flags
// and the kubelet's configuration (defaults, patches, instance configuration),
// and the kubelet reads what its command line names.
func translateCAPI(path string, data []byte, opt bootstrap.Options) (*capiSpec, error) {
	c := &capiSpec{path: path, lines: strings.SplitAfter(string(data), "\n")}
	cluster, kinds, err := c.findSpec(kubeadm.SplitDocs(data), opt.Object)
	if err != nil {
		return nil, err
	}
	m, err := c.minor(opt)
	if err != nil {
		return nil, err
	}
	kubeadmAPI := "kubeadm.k8s.io/v1beta4" // every supported minor is 1.31 or newer

	// Which kubeadm runs: a control plane kind's first machine runs kubeadm
	// init from initConfiguration, its other machines kubeadm join
	// --control-plane from joinConfiguration (JoinSuffix); a KubeadmConfig(Template) with a
	// joinConfiguration, or without an initConfiguration, joins.
	init := c.cp && !c.join
	if !c.cp {
		init = yamlmap.Value(c.spec, "initConfiguration") != nil && yamlmap.Value(c.spec, "joinConfiguration") == nil
	}
	phase := "joinConfiguration"
	if init {
		phase = "initConfiguration"
	}
	phaseNode := yamlmap.Value(c.spec, phase)
	nodeReg := walk(phaseNode, "nodeRegistration")

	c.checkUnknownKeys(phase, phaseNode, nodeReg)
	c.validateFiles()

	// The files CAPI writes before kubeadm runs (resolveFiles; contentFrom is
	// a Secret kubeletcfg cannot read).
	files := c.files()

	c.os = opt.OS
	if c.os == "" {
		c.os, c.out.OSFrom = c.nodeOS(nodeReg, files)
		c.out.OS = c.os
	}
	c.checkExtraArgs(nodeReg)
	clusterConf := yamlmap.Value(c.spec, "clusterConfiguration")
	w, configArg, dirArg := c.kubeletFlags(phase, phaseNode, clusterConf, init, m, opt.Set)
	used := map[int]bool{}
	net := capiNetworking(clusterConf, cluster)
	patches, err := c.kubeletConfig(files, used, phaseNode, net, w, m)
	if err != nil {
		return nil, err
	}
	c.kubeadmNotes(net, cluster, clusterConf)
	from := c.configArgs(files, used, patches, configArg, dirArg)
	c.unreadFiles(files, used, phase, patches.Dir)

	what := "kubeadm join"
	if init {
		what = "kubeadm init"
	}
	read := c.doc.Kind
	if len(kinds) > 1 {
		read = objectName(c.doc) // one node group of several
	}
	if c.join {
		read += "'s joining machines"
		what = "kubeadm join --control-plane"
	}
	c.out.Note = fmt.Sprintf("Cluster API %s (%s): %s with %s %s for Kubernetes %s; the kubelet's config is %s",
		read, strings.Join(kinds, ", "), what, kubeadmAPI, phase, m.Version, from)
	switch {
	case c.join:
		c.out.Note += "; the first control plane machine runs kubeadm init with initConfiguration"
	case c.cp:
		c.out.Note += "; the other control plane machines join with joinConfiguration"
	}
	return c, nil
}

// JoinSuffix ends the object name of a control plane kind's joining
// machines: "KubeadmControlPlane/name (join)" (Objects). A Kubernetes name has
// no space.
//
// A KubeadmControlPlane bootstraps two node groups (Cluster API v1.14.2):
// its first machine (reconcilers/kubeadmcontrolplane/scale.go
// initializeControlPlane: cloneConfigsAndGenerateMachine with isJoin false)
// runs kubeadm init from initConfiguration, and every later one (scaleUpControlPlane,
// which rollouts and remediation go through too: isJoin true) runs kubeadm
// join --control-plane from joinConfiguration. pkg/desiredstate/desired_state.go
// ComputeDesiredKubeadmConfig makes both from the same kubeadmConfigSpec: for
// a join it empties initConfiguration and sets joinConfiguration.controlPlane
// ({} when unset); nothing is copied from initConfiguration (no defaulting of
// joinConfiguration from it: neither there nor in webhooks/admission
// kubeadmcontrolplane.go Default), and files, preKubeadmCommands and
// clusterConfiguration (DefaultFeatureGates applied) are the same.
const JoinSuffix = " (join)"

// Objects names the documents of a Cluster API manifest a machine is
// bootstrapped from ("KubeadmConfigTemplate/name"), in the file's order: each
// is a node group of its own (a cluster template's control plane, its Linux
// and its Windows workers), a control plane kind two, its first machine and
// its joining ones ("KubeadmControlPlane/name", "KubeadmControlPlane/name (join)",
// JoinSuffix).
func Objects(data []byte) []string {
	return objectNames(kubeadm.SplitDocs(data))
}

func objectNames(docs []kubeadm.Doc) []string {
	var names []string
	for i := range docs {
		d := &docs[i]
		if capiKinds[kubeadm.Group(d.APIVersion)+"/"+d.Kind] != nil && d.Root != nil {
			names = append(names, objectName(d))
			if kubeadm.Group(d.APIVersion) == capiControlPlaneGroup {
				names = append(names, objectName(d)+JoinSuffix)
			}
		}
	}
	return names
}

// objectName is "Kind/metadata.name" ("Kind" without a name).
func objectName(d *kubeadm.Doc) string {
	if n := walk(d.Root, "metadata", "name"); n != nil && n.Value != "" {
		return d.Kind + "/" + n.Value
	}
	return d.Kind
}

// findSpec finds, among the file's documents, the Cluster and the first
// document of a kind CAPI bootstraps from (c.doc, its kubeadm spec c.spec),
// and starts the translation's output at it.
func (c *capiSpec) findSpec(docs []kubeadm.Doc, object string) (cluster *kubeadm.Doc, kinds []string, err error) {
	for i := range docs {
		d := &docs[i]
		if d.Kind == "Cluster" && kubeadm.Group(d.APIVersion) == "cluster.x-k8s.io" && cluster == nil {
			cluster = d
		}
		keys := capiKinds[kubeadm.Group(d.APIVersion)+"/"+d.Kind]
		if keys == nil || d.Root == nil {
			continue
		}
		kinds = append(kinds, d.Kind)
		cp := kubeadm.Group(d.APIVersion) == capiControlPlaneGroup
		join := cp && object == objectName(d)+JoinSuffix
		if c.doc == nil && (object == "" || objectName(d) == object || join) {
			c.doc, c.spec = d, walk(d.Root, keys...)
			c.cp, c.join = cp, join
			if v := walk(d.Root, "spec", "version"); v != nil && c.cp {
				c.version = v.Value
			}
		}
	}
	if c.doc == nil && object != "" {
		return nil, nil, fmt.Errorf("%s: no Cluster API object %s (objects: %s)", c.path, object, strings.Join(objectNames(docs), ", "))
	}
	if c.doc == nil {
		return nil, nil, fmt.Errorf("%s: no Cluster API KubeadmConfig, KubeadmConfigTemplate, KubeadmControlPlane or KubeadmControlPlaneTemplate document", c.path)
	}
	c.out = &bootstrap.Output{Tool: Tool, Positions: map[string]kf.Position{}, Notes: map[string]string{}, AtBoot: map[string]string{},
		Anchor: kf.Position{File: c.path, Line: c.doc.KindLine, Column: c.doc.KindColumn}}
	if c.spec == nil || c.spec.Kind != yaml.MappingNode {
		c.spec = &yaml.Node{Kind: yaml.MappingNode}
	}
	return cluster, kinds, nil
}

// minor is the kubelet minor translated for: the KubeadmControlPlane's
// spec.version, else the one evaluated (opt.Minor, else the default); it sets
// c.kubeVersion, the version kubeadm is told.
func (c *capiSpec) minor(opt bootstrap.Options) (*kubelets.Minor, error) {
	m := kubelets.Default()
	if opt.Minor != "" {
		mm, err := kubelets.Lookup(opt.Minor)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", c.path, err)
		}
		m = mm
	}
	if c.version != "" {
		v, ok := kubelets.ParseVersion(strings.TrimPrefix(c.version, "v"))
		if ok {
			// Not a clusterctl variable (${KUBERNETES_VERSION}): the minor evaluated.
			c.out.KubeletVersion = c.version
		}
		if ok && opt.Minor == "" {
			if mm, err := kubelets.Lookup(fmt.Sprintf("%d.%d", v.Major, v.Minor)); err == nil {
				m = mm
			}
		}
		// KubeVersionToKubeadmAPIGroupVersion refuses below 1.22.
		if ok && (v.Major < 1 || v.Major == 1 && v.Minor < 22) {
			c.add(bootstrap.Refuses, walk(c.doc.Root, "spec", "version"), "",
				fmt.Sprintf("version %s: the bootstrap provider for kubeadm doesn't support Kubernetes version lower than v1.22.0 (bootstrap/kubeadm/pkg/types/utils.go KubeVersionToKubeadmAPIGroupVersion, %s)", c.version, Tool.Release),
				"set spec.version to a Kubernetes release CAPI supports")
		}
	}
	c.kubeVersion, _ = kubelets.ParseVersion(m.Version)
	if v, ok := kubelets.ParseVersion(strings.TrimPrefix(c.version, "v")); ok && c.version != "" {
		c.kubeVersion = v
	}
	return m, nil
}

// kubeletFlags is the kubelet's command line on the machine: the kubeadm
// configuration CAPI writes to /run/kubeadm/kubeadm.yaml, read by
// kubeletcfg's port of kubeadm's kubelet-start phase (input/kubeadm) as a
// kubeadm file is (the flags of kubeadm-flags.env and the instance
// configuration are the ones the harness checks against kubeadm itself),
// after the flags of kubeadm's 10-kubeadm.conf. It returns what kubeadm
// writes, and the --config and --config-dir it passes, nil for none.
func (c *capiSpec) kubeletFlags(phase string, phaseNode, clusterConf *yaml.Node, init bool, m *kubelets.Minor, set map[string]string) (w kubeadm.Writes, configArg, dirArg *kubeadm.Arg) {
	kdocs := c.kubeadmDocs(phase, phaseNode, clusterConf, init, !init && !c.cp && yamlmap.Value(phaseNode, "controlPlane") == nil)
	c.kdocs = kdocs
	node := kubeadm.NodeOf(c.path, kdocs)
	node.OS = c.os
	if node.BadValue != nil {
		// The CRD types every value as a string: the API server refuses the object
		// before CAPI (or kubeadm's decoder) sees it.
		c.add(bootstrap.Refuses, node.BadValue, "", fmt.Sprintf("kubeletExtraArgs value %s is not a string: the API server refuses the object (the CRD's structural schema types kubeletExtraArgs values as strings, %s)", node.BadValue.Value, Tool.Release),
			fmt.Sprintf("quote the value: %q", node.BadValue.Value))
		node.BadValue = nil
	}
	c.renderedAtBoot(node, set)
	// The socket kubeadm detects on the node: --set containerRuntimeEndpoint=... says it
	// (kubeadm.Convert).
	if v, ok := set["containerRuntimeEndpoint"]; ok {
		node.Detected = strings.Trim(strings.TrimSpace(v), `"'`)
	}
	w = node.Writes(m, node.Detected)
	for i := range w.Flags {
		if w.Flags[i].Pos.Line == 0 {
			w.Flags[i].Pos = kf.Position{} // what CAPI adds (the uninitialized taint alone): no line of the manifest
		}
	}
	// An extra arg that replaces one of kubeadm's own flags (ArgumentsToCommand):
	// kubeadm's flags are those it writes without the extra args.
	own := *node
	own.Extra = nil
	for _, b := range own.Writes(m, node.Detected).Flags {
		for _, a := range node.Extra {
			if a.Name == b.Name && a.Value != b.Value {
				c.addAt(bootstrap.Overrides, a.Pos, "", fmt.Sprintf("kubeletExtraArgs %s=%q replaces kubeadm's own --%s=%s (util/arguments.go ArgumentsToCommand: an extra arg replaces the base arg of its name)", a.Name, a.Value, b.Name, b.Value),
					"drop the extra arg unless replacing kubeadm's value is intended")
			}
		}
	}

	// The systemd drop-in kubeadm's packages install (10-kubeadm.conf):
	// $KUBELET_KUBECONFIG_ARGS $KUBELET_CONFIG_ARGS $KUBELET_KUBEADM_ARGS.
	flags := []capiArg{
		{name: "bootstrap-kubeconfig", value: "/etc/kubernetes/bootstrap-kubelet.conf", note: "kubeadm's 10-kubeadm.conf (KUBELET_KUBECONFIG_ARGS)"},
		{name: "kubeconfig", value: "/etc/kubernetes/kubelet.conf", note: "kubeadm's 10-kubeadm.conf (KUBELET_KUBECONFIG_ARGS)"},
	}
	if c.os == kubelets.Windows {
		// A Windows machine's image (image-builder) starts the kubelet with
		// StartKubelet.ps1: its own arguments, then kubeadm-flags.env's.
		flags = windowsImageFlags()
		c.out.FlagWriters = map[string]bootstrap.Tool{}
		for _, a := range flags {
			c.out.FlagWriters[a.name] = imageBuilder
		}
	}
	var kubeadmFlags []kubeadm.Arg
	for i, a := range w.Flags {
		switch a.Name {
		case "config":
			configArg = &w.Flags[i]
			continue
		case "config-dir":
			dirArg = &w.Flags[i]
			continue
		}
		kubeadmFlags = append(kubeadmFlags, a)
		note := "kubeadm-flags.env, from " + a.From
		if a.Name == "register-with-taints" {
			note += " (Cluster API joinWorker adds the node.cluster.x-k8s.io/uninitialized taint)"
		}
		flags = append(flags, capiArg{name: a.Name, value: a.Value, pos: a.Pos, note: note})
	}
	for _, a := range flags {
		c.out.Flags = append(c.out.Flags, "--"+a.name+"="+a.value)
		c.out.FlagPositions = append(c.out.FlagPositions, a.pos)
		c.out.FlagNotes = append(c.out.FlagNotes, a.note)
	}
	c.node, c.kubeadmFlags = node, kubeadmFlags
	return w, configArg, dirArg
}

// kubeletConfig is the kubelet configuration kubeadm writes: its defaults, the
// kubeletconfiguration patches of the phase's patches.directory (among
// files[], marked used), then the instance configuration.
func (c *capiSpec) kubeletConfig(files []capiFile, used map[int]bool, phaseNode *yaml.Node, net kubeadm.Networking, w kubeadm.Writes, m *kubelets.Minor) (kubeadm.Patches, error) {
	path, node := c.path, c.node
	patchDir := ""
	if v := walk(phaseNode, "patches", "directory"); v != nil {
		patchDir = ppath.Clean(v.Value)
	}
	kubeadmDoc, err := kubeadm.KubeletConfigAt(nil, net, kubeadm.Options{OS: c.os}, m)
	if err != nil {
		return kubeadm.Patches{}, fmt.Errorf("%s: %v", path, err)
	}
	var patches kubeadm.Patches
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
			target, typ, ok, err := kubeadm.ParsePatchName(ppath.Base(f.path))
			if err != nil {
				c.add(bootstrap.Refuses, f.pathNode, "", fmt.Sprintf("files[%d] %s: kubeadm stops: %v (cmd/kubeadm/app/util/patches/patches.go parseFilename)", f.index, f.path, err),
					"name the patch target[suffix][+strategic|+merge|+json].{yaml,json}")
				used[i] = true
				continue
			}
			if !ok {
				if looksLikeKubeletPatch(ppath.Base(f.path)) {
					c.add(bootstrap.Drops, f.pathNode, "", fmt.Sprintf("files[%d] %s is in the patches directory, but kubeadm ignores it: only %s[suffix][+patchtype].{json,yaml} is a kubeletconfiguration patch (cmd/kubeadm/app/util/patches/patches.go)", f.index, f.path, kubeadm.PatchTarget),
						"rename the file to kubeletconfiguration[suffix][+strategic|+merge|+json].yaml or .json")
					used[i] = true
				}
				continue
			}
			used[i] = true
			if !f.known || len(f.content) == 0 {
				continue
			}
			ps, err := kubeadm.SplitPatches(f.path, f.content, typ)
			if err != nil {
				c.add(bootstrap.Refuses, f.contentNode, "", fmt.Sprintf("files[%d] %s: kubeadm stops: %v", f.index, f.path, firstLine(err.Error())), "fix the patch's YAML or JSON")
				continue
			}
			if target != kubeadm.PatchTarget {
				continue
			}
			for j := range ps {
				ps[j].ByPath = f.positions(typ, j)
			}
			patches.List = append(patches.List, ps...)
			patches.Files = append(patches.Files, f.path)
		}
	}
	configDoc := kubeadmDoc
	if len(patches.List) > 0 {
		configDoc, err = patches.Apply(kubeadmDoc)
		if err != nil {
			c.add(bootstrap.Refuses, nil, "", "kubeadm stops: "+firstLine(err.Error()), "fix the kubeletconfiguration patch")
			configDoc = kubeadmDoc
		}
		maps.Copy(c.out.Positions, patches.Positions())
	}
	switch {
	case w.Instance && w.Endpoint != "":
		// WriteConfigToDisk: instance-config.yaml, merged after the patches
		// (kubeadm.MergeInstanceConfig, as for a kubeadm file).
		if p, ok := c.out.Positions["containerRuntimeEndpoint"]; ok && node.CRISocket != "" {
			c.addAt(bootstrap.Overrides, p, "containerRuntimeEndpoint", fmt.Sprintf("kubeadm %s writes containerRuntimeEndpoint %q from nodeRegistration.criSocket over the patch's value (phases/kubelet/config.go WriteConfigToDisk: the instance configuration is applied after the patches)", m.Version, w.Endpoint),
				"set nodeRegistration.criSocket instead")
		}
		if configDoc, err = kubeadm.MergeInstanceConfig(configDoc, w.Endpoint); err != nil {
			return kubeadm.Patches{}, fmt.Errorf("%s: %v", path, err)
		}
		pos := node.CRIPos
		if node.CRISocket == "" {
			pos = node.Anchor
		}
		c.out.Positions["containerRuntimeEndpoint"] = pos
	case node.CRISocket == "" && node.Detected == "":
		c.out.AtBoot["containerRuntimeEndpoint"] = "kubeadm: the CRI socket it detects on the node (nodeRegistration.criSocket is not set)"
	}
	c.out.Config = &bootstrap.File{Path: kubeadmConfigYAML, Data: configDoc}
	return patches, nil
}

// kubeadmNotes says which settings kubeadm makes for the kubelet, and from where.
func (c *capiSpec) kubeadmNotes(net kubeadm.Networking, cluster *kubeadm.Doc, clusterConf *yaml.Node) {
	for _, p := range kubeadm.Sets {
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
	if c.os == kubelets.Windows {
		mutate := "set by kubeadm on a Windows node (componentconfigs/kubelet_windows.go Mutate: "
		c.out.Notes["resolvConf"] = mutate + `resolvConf "")`
		c.out.Notes["staticPodPath"] = mutate + "the drive of kubeadm.exe, " + kubeadm.DefaultDrive + ", before kubeadm's /etc/kubernetes/manifests)"
		c.out.Notes["authentication.x509.clientCAFile"] = "set by kubeadm on a Windows node (componentconfigs/kubelet.go Default: filepath.Join of certificatesDir and ca.crt, with backslashes; Mutate adds no drive to it)"
	}
}

// configArgs applies the kubelet's own --config= and --config-dir= extra
// args, which replace kubeadm's file or add drop-ins, and says where the
// kubelet's configuration comes from.
func (c *capiSpec) configArgs(files []capiFile, used map[int]bool, patches kubeadm.Patches, configArg, dirArg *kubeadm.Arg) string {
	from := "kubeadm's defaults"
	if len(patches.Files) > 0 {
		from += " and the patches " + strings.Join(patches.Files, ", ")
	}
	if configArg != nil {
		i := slices.IndexFunc(files, func(f capiFile) bool { return f.path == ppath.Clean(configArg.Value) })
		if i < 0 || !files[i].known {
			c.addAt(bootstrap.AtBoot, configArg.Pos, "", fmt.Sprintf("kubeletExtraArgs config=%s: the kubelet reads that file instead of kubeadm's %s, and it is not written by files[] with inline content: kubeletcfg cannot see it", configArg.Value, kubeadmConfigYAML),
				"put the file in files[] with content, or lint the file itself")
		} else {
			used[i] = true
			c.out.Config = &bootstrap.File{Path: files[i].path, Data: files[i].content}
			c.out.Positions = files[i].positions("", 0)
			c.out.Notes = map[string]string{}
			from = fmt.Sprintf("files[%d] %s (kubeletExtraArgs config= replaces kubeadm's --config=%s; kubeadm's defaults and patches do not reach the kubelet)", files[i].index, files[i].path, kubeadmConfigYAML)
			if len(patches.Files) > 0 {
				c.addAt(bootstrap.Drops, configArg.Pos, "", fmt.Sprintf("the kubeletconfiguration patches (%s) patch kubeadm's %s, which the kubelet does not read: kubeletExtraArgs config=%s comes later on its command line (10-kubeadm.conf: $KUBELET_CONFIG_ARGS before $KUBELET_KUBEADM_ARGS)", strings.Join(patches.Files, ", "), kubeadmConfigYAML, configArg.Value),
					"use one of the two: the patches, or the file given with config=")
			}
		}
	}
	if dirArg != nil {
		c.out.ConfigDir = ppath.Clean(dirArg.Value)
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
	return from
}

// unreadFiles reports a KubeletConfiguration or kubeletconfiguration patch
// written where nothing reads it.
func (c *capiSpec) unreadFiles(files []capiFile, used map[int]bool, phase, patchDir string) {
	for i, f := range files {
		if used[i] || !f.known {
			continue
		}
		base := ppath.Base(f.path)
		isPatch := strings.HasPrefix(base, kubeadm.PatchTarget)
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
		c.add(bootstrap.Drops, f.pathNode, "", fmt.Sprintf("files[%d] %s holds kubelet configuration that never reaches the kubelet: %s (kubeadm reads the kubelet configuration patches of %s.patches.directory only)", f.index, f.path, where, phase), hint)
	}
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
	fs := yamlmap.Value(c.spec, "files")
	if fs == nil || fs.Kind != yaml.SequenceNode {
		return nil
	}
	for i, f := range fs.Content {
		if f.Kind != yaml.MappingNode {
			continue
		}
		cf := capiFile{index: i, pathNode: yamlmap.Value(f, "path"), contentNode: yamlmap.Value(f, "content"), keyNode: yamlmap.Key(f, "content"), file: c.path, lines: c.lines}
		if cf.pathNode == nil {
			continue
		}
		cf.path = ppath.Clean(cf.pathNode.Value)
		enc := yamlmap.Value(f, "encoding")
		tmpl := yamlmap.Value(f, "contentFormat")
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
				kubeadm.IndexPaths(tmp, f.file, n.Content[0], "")
				for p := range tmp {
					m[p] = pos
				}
			}
		}
		return m
	}
	if typ == "json" {
		kubeadm.IndexJSONPatch(m, f.file, text, 1)
		return m
	}
	var docs []kubeadm.Doc
	for _, d := range kubeadm.SplitDocs(text) {
		if d.Root != nil {
			docs = append(docs, d)
		}
	}
	if j < len(docs) {
		kubeadm.IndexPaths(m, f.file, docs[j].Root, "")
	}
	return m
}

// checkExtraArgs is the CRD's CEL rule on v1beta2's kubeletExtraArgs list: a
// name twice refuses the object.
func (c *capiSpec) checkExtraArgs(nodeReg *yaml.Node) {
	ea := walk(nodeReg, "kubeletExtraArgs")
	if ea == nil || ea.Kind != yaml.SequenceNode {
		return
	}
	seen := map[string]*yaml.Node{}
	for _, it := range ea.Content {
		n := yamlmap.Value(it, "name")
		if n == nil {
			continue
		}
		if first, dup := seen[n.Value]; dup {
			c.add(bootstrap.Refuses, n, "", fmt.Sprintf("kubeletExtraArgs name %q is given twice (first at line %d): the CRD's CEL rule refuses the object: \"kubeletExtraArgs name must be unique\" (api/bootstrap/kubeadm/v1beta2/kubeadm_types.go NodeRegistrationOptions, %s)", n.Value, first.Line, Tool.Release),
				"give each kubelet flag once")
			continue
		}
		seen[n.Value] = n
	}
}

// renderedAtBoot: cloud-init renders Jinja templates ({{ ds.meta_data.local_hostname }})
// in nodeRegistration.name and kubeletExtraArgs values on the instance, before kubeadm
// reads them: unknown here unless --set gives them (name: --set hostname-override=).
func (c *capiSpec) renderedAtBoot(n *kubeadm.Node, set map[string]string) {
	if isTemplate(n.Name) {
		c.addAt(bootstrap.AtBoot, n.NamePos, "", fmt.Sprintf("nodeRegistration.name %q is rendered by cloud-init on the instance; kubeadm passes it as --hostname-override when it differs from the hostname (phases/kubelet/flags.go GetNodeNameAndHostname)", n.Name),
			"give the node name with --set hostname-override=NAME when it matters")
		n.Name = set["hostname-override"]
	}
	kept := n.Extra[:0]
	for _, a := range n.Extra {
		if !isTemplate(a.Value) {
			kept = append(kept, a)
			continue
		}
		if v, ok := set[a.Name]; ok {
			a.Value = v
			kept = append(kept, a)
			continue
		}
		c.addAt(bootstrap.AtBoot, a.Pos, "", fmt.Sprintf("kubeletExtraArgs %s=%q is rendered by cloud-init on the instance: its value is known at boot, and the flag is left out here", a.Name, a.Value),
			fmt.Sprintf("give the value with --set %s=VALUE when it matters", a.Name))
	}
	n.Extra = kept
}

// The kubeadm documents CAPI writes are built of the manifest's own nodes, so that
// every position input/kubeadm reports is in the manifest; what CAPI adds has the
// position of the key it belongs to (or none).

// synth is a scalar node at the position of at (nil: no position).
func synth(value string, at *yaml.Node) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: value}
	if at != nil {
		n.Line, n.Column = at.Line, at.Column
	}
	return n
}

// kubeadmDoc is a kubeadm.k8s.io/v1beta4 document of kind with the fields of the
// mapping body (nil: none), its kind at the position of at.
func kubeadmDoc(kind string, at *yaml.Node, body []*yaml.Node) kubeadm.Doc {
	root := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	root.Content = append(root.Content, synth("apiVersion", at), synth("kubeadm.k8s.io/v1beta4", at), synth("kind", at), synth(kind, at))
	root.Content = append(root.Content, body...)
	d := kubeadm.Doc{Root: root, APIVersion: "kubeadm.k8s.io/v1beta4", Kind: kind}
	if at != nil {
		d.First, d.Last, d.KindLine, d.KindColumn = at.Line, at.Line, at.Line, at.Column
	}
	return d
}

// kubeadmDocs are the kubeadm documents CAPI writes to /run/kubeadm/kubeadm.yaml
// (kubeadmconfig_controller.go handleClusterNotInitialized: ClusterConfiguration and
// InitConfiguration; joinWorker, joinControlplane: the JoinConfiguration), as
// MarshalInitConfigurationForVersion and MarshalJoinConfigurationForVersion convert
// them to kubeadm.k8s.io/v1beta4 (bootstrap/kubeadm/types/upstreamv1beta4): a v1beta1
// kubeletExtraArgs map is the list ConvertToArgs sorts by name, and a worker's
// taints get clusterv1.NodeUninitializedTaint unless one matches it (key and effect,
// taints.HasTaint). The spec's clusterConfiguration is the ClusterConfiguration
// kubeadm reads for a join too (the cluster's, in the kubeadm-config ConfigMap: the
// control plane's, which this manifest may not hold).
func (c *capiSpec) kubeadmDocs(phase string, phaseNode, clusterConf *yaml.Node, init, worker bool) []kubeadm.Doc {
	at := yamlmap.Key(c.spec, phase)
	if at == nil {
		at = synth("", &yaml.Node{Line: c.doc.KindLine, Column: c.doc.KindColumn})
	}
	var body []*yaml.Node
	if phaseNode != nil && phaseNode.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(phaseNode.Content); i += 2 {
			k, v := phaseNode.Content[i], phaseNode.Content[i+1]
			if k.Value == "nodeRegistration" || k.Value == "apiVersion" || k.Value == "kind" {
				continue
			}
			body = append(body, k, v)
		}
	}
	nrKey := yamlmap.Key(phaseNode, "nodeRegistration")
	if nrKey == nil {
		nrKey = synth("nodeRegistration", nil)
	}
	body = append(body, nrKey, c.nodeRegistration(yamlmap.Value(orEmpty(phaseNode), "nodeRegistration"), worker))
	if c.join && yamlmap.Value(orEmpty(phaseNode), "controlPlane") == nil {
		// ComputeDesiredKubeadmConfig (isJoin): joinConfiguration.controlPlane
		// is always set, {} when the spec has none.
		body = append(body, synth("controlPlane", nil), &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"})
	}
	kind := "JoinConfiguration"
	if init {
		kind = "InitConfiguration"
	}
	docs := []kubeadm.Doc{kubeadmDoc(kind, at, body)}
	var cc []*yaml.Node
	if clusterConf != nil && clusterConf.Kind == yaml.MappingNode {
		cc = slices.Clone(clusterConf.Content)
	}
	if c.cp {
		// The cluster's ClusterConfiguration, which kubeadm join reads from the
		// kubeadm-config ConfigMap, is the first machine's, defaulted.
		cc = c.defaultFeatureGates(cc)
	}
	if cc != nil || init {
		// handleClusterNotInitialized writes a ClusterConfiguration, empty or not.
		ccAt := yamlmap.Key(c.spec, "clusterConfiguration")
		if ccAt == nil {
			ccAt = at
		}
		docs = append(docs, kubeadmDoc("ClusterConfiguration", ccAt, cc))
	}
	return docs
}

// defaultFeatureGates is controlplane/kubeadm/pkg/desiredstate/desired_state.go
// DefaultFeatureGates (v1.14.2), which ComputeDesiredKubeadmConfig runs on every
// KubeadmConfig a KubeadmControlPlane creates: featureGates.ControlPlaneKubeletLocalMode
// true for Kubernetes 1.31 <= version < 1.36, unless the gate is set. cc is the
// ClusterConfiguration's fields (a copy: the manifest's nodes are not changed).
func (c *capiSpec) defaultFeatureGates(cc []*yaml.Node) []*yaml.Node {
	const gate = "ControlPlaneKubeletLocalMode"
	v := c.kubeVersion
	if v.Major != 1 || v.Minor < 31 || v.Minor >= 36 {
		return cc
	}
	for i := 0; i+1 < len(cc); i += 2 {
		if cc[i].Value != "featureGates" {
			continue
		}
		fg := cc[i+1]
		if fg.Kind != yaml.MappingNode {
			return cc
		}
		if yamlmap.Value(fg, gate) != nil {
			return cc
		}
		m := *fg
		m.Content = append(slices.Clone(fg.Content), synth(gate, fg), &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"})
		cc[i+1] = &m
		return cc
	}
	return append(cc, synth("featureGates", nil), &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map",
		Content: []*yaml.Node{synth(gate, nil), {Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"}}})
}

// atValue is a copy of the key k at the position of its value v.
func atValue(k, v *yaml.Node) *yaml.Node {
	c := *k
	c.Line, c.Column = v.Line, v.Column
	return &c
}

// orEmpty is n, or an empty mapping for nil.
func orEmpty(n *yaml.Node) *yaml.Node {
	if n == nil {
		return &yaml.Node{Kind: yaml.MappingNode}
	}
	return n
}

// nodeRegistration is the v1beta4 nodeRegistration of the manifest's nr (nil: none).
func (c *capiSpec) nodeRegistration(nr *yaml.Node, worker bool) *yaml.Node {
	out := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	var taintsKey, taints *yaml.Node
	for i := 0; nr != nil && nr.Kind == yaml.MappingNode && i+1 < len(nr.Content); i += 2 {
		k, v := nr.Content[i], nr.Content[i+1]
		switch k.Value {
		case "taints":
			taintsKey, taints = k, v
			continue
		case "name", "criSocket":
			// CAPI's findings and flags point at the value, as they always have.
			k = atValue(k, v)
		case "kubeletExtraArgs":
			if v.Kind == yaml.SequenceNode {
				list := *v
				list.Content = nil
				for _, it := range v.Content {
					if it.Kind == yaml.MappingNode {
						item := *it
						item.Content = slices.Clone(it.Content)
						for j := 0; j+1 < len(item.Content); j += 2 {
							if item.Content[j].Value == "name" {
								item.Content[j] = atValue(item.Content[j], item.Content[j+1])
							}
						}
						it = &item
					}
					list.Content = append(list.Content, it)
				}
				v = &list
			}
			if v.Kind == yaml.MappingNode {
				// api/bootstrap/kubeadm/v1beta2/conversion.go ConvertToArgs: sorted by name.
				list := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Line: v.Line, Column: v.Column}
				for j := 0; j+1 < len(v.Content); j += 2 {
					name := *v.Content[j]
					name.Tag = "!!str"
					list.Content = append(list.Content, &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: name.Line, Column: name.Column,
						Content: []*yaml.Node{synth("name", &name), &name, synth("value", v.Content[j+1]), v.Content[j+1]}})
				}
				slices.SortStableFunc(list.Content, func(a, b *yaml.Node) int { return strings.Compare(a.Content[1].Value, b.Content[1].Value) })
				v = list
			}
		}
		out.Content = append(out.Content, k, v)
	}
	if worker {
		list := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		if taints != nil && taints.Kind == yaml.SequenceNode {
			list.Content = slices.Clone(taints.Content)
		}
		key, effect, _ := strings.Cut(capiUninitializedTaint, ":")
		if !slices.ContainsFunc(list.Content, func(t *yaml.Node) bool {
			return walk(t, "key") != nil && walk(t, "key").Value == key && walk(t, "effect") != nil && walk(t, "effect").Value == effect
		}) {
			list.Content = append(list.Content, &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map",
				Content: []*yaml.Node{synth("key", nil), synth(key, nil), synth("effect", nil), synth(effect, nil)}})
		}
		taints = list
		if taintsKey == nil {
			taintsKey = synth("taints", nil)
		}
	}
	if taints != nil {
		out.Content = append(out.Content, taintsKey, taints)
	}
	return out
}

// isTemplate: a cloud-init Jinja template ({{ ds.meta_data.local_hostname }}).
func isTemplate(s string) bool { return strings.Contains(s, "{{") }

// validateFiles is webhooks/admission/kubeadmconfig.go validateFiles.
func (c *capiSpec) validateFiles() {
	fs := yamlmap.Value(c.spec, "files")
	if fs == nil || fs.Kind != yaml.SequenceNode {
		return
	}
	known := map[string]int{}
	for i, f := range fs.Content {
		if f.Kind != yaml.MappingNode {
			continue
		}
		if yamlmap.Value(f, "content") != nil && yamlmap.Value(f, "content").Value != "" && yamlmap.Value(f, "contentFrom") != nil {
			c.add(bootstrap.Refuses, yamlmap.Key(f, "contentFrom"), "", fmt.Sprintf("files[%d]: the webhook refuses it: only one of content or contentFrom may be specified for a single file (bootstrap/kubeadm/webhooks/admission/kubeadmconfig.go validateFiles, %s)", i, Tool.Release),
				"keep content or contentFrom")
		}
		p := ""
		if pn := yamlmap.Value(f, "path"); pn != nil {
			p = pn.Value
		}
		if first, dup := known[p]; dup {
			c.add(bootstrap.Refuses, yamlmap.Value(f, "path"), "", fmt.Sprintf("files[%d]: the webhook refuses it: path property must be unique among all files (files[%d] has it; bootstrap/kubeadm/webhooks/admission/kubeadmconfig.go validateFiles, %s)", i, first, Tool.Release),
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
			c.add(bootstrap.Drops, k, "", fmt.Sprintf("%s.%s is not a field of the %s API: the API server prunes it and CAPI never passes it to kubeadm (the CRD's structural schema, %s)", where, k.Value, c.doc.APIVersion, Tool.Release),
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
	return strings.HasPrefix(name, kubeadm.PatchTarget)
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// capiNetworking is what kubeadm's kubelet defaulting reads of the
// ClusterConfiguration CAPI writes: the spec's clusterConfiguration, with a
// Cluster document's clusterNetwork in the same file over it
// (computeClusterConfigurationAndAdditionalData: ServiceDomain, Services).
func capiNetworking(cc *yaml.Node, cluster *kubeadm.Doc) kubeadm.Networking {
	net := kubeadm.DefaultNetworking()
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
		cn := walk(cluster.Root, "spec", "clusterNetwork")
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
