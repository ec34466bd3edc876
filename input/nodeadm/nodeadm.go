// Package nodeadm translates an EKS nodeadm NodeConfig (node.eks.aws/v1alpha1),
// alone or inside MIME multi-part user data, into what nodeadm init writes for
// the kubelet: /etc/kubernetes/kubelet/config.json, the user's
// spec.kubelet.config as the drop-in config.json.d/40-nodeadm.conf, and the
// kubelet's command line (nodeadm's flags, then spec.kubelet.flags). It is a
// port of awslabs/amazon-eks-ami's nodeadm at Tool.Release; each function
// names the file and function it follows.
package nodeadm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"sigs.k8s.io/yaml"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/input/bootstrap"
	"github.com/kubeletcfg/kubeletcfg/internal/optionerr"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/rule"
)

// Tool is EKS nodeadm at the release the translation is ported from.
var Tool = bootstrap.Tool{
	Name:    "EKS nodeadm",
	Release: "v20260724",
	Source:  "nodeadm/internal/kubelet/config.go writeKubeletConfig",
}

// Detect reports whether data is a NodeConfig (apiVersion node.eks.aws/...,
// kind NodeConfig) or MIME multi-part user data with a part of type
// application/node.eks.aws.
func Detect(path string, data []byte) bool {
	if r, _, err := multipartReader(data); err == nil && r != nil {
		return bytes.Contains(data, []byte(nodeConfigMediaType))
	}
	var tm struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
	}
	if err := yaml.Unmarshal(data, &tm); err != nil {
		return false
	}
	return tm.Kind == kindNodeConfig && strings.HasPrefix(tm.APIVersion, groupName+"/")
}

type translation struct {
	path string
	opt  bootstrap.Options
	out  *bootstrap.Output
	// nc and kc: where the merged NodeConfig's keys and its
	// spec.kubelet.config's field paths were written (the last document that
	// writes one wins, as in the merge).
	nc, kc   map[string]finding.Position
	leaf     map[string]bool
	flagsPos []finding.Position
	anchor   finding.Position
	// boot are the spec.cluster paths a generated document writes at boot
	// (Document.AtBoot), with what sets them.
	boot map[string]string
	// fixedAnchor: the caller gave the anchor (TranslateDocuments).
	fixedAnchor bool
}

func (t *translation) tool() string { return Tool.Name + " " + Tool.Release }

// add reports a finding of one of the bootstrapper rules (input/bootstrap) at
// pos (none: the anchor).
func (t *translation) add(rule *rule.Rule, pos finding.Position, path, msg, hint string) {
	if pos.File == "" || pos.Line < 1 {
		pos = t.anchor
	}
	t.out.Findings = append(t.out.Findings, rule.At(pos, path, msg, hint))
}

// ncPos is where the NodeConfig path p (or its nearest written ancestor) is.
func (t *translation) ncPos(p string) finding.Position {
	for p != "" {
		if pos, ok := t.nc[p]; ok {
			return pos
		}
		i := strings.LastIndexAny(p, ".[")
		if i < 0 {
			break
		}
		p = p[:i]
	}
	return t.anchor
}

// Translate reads a NodeConfig file or user data as nodeadm init does
// (cmd/nodeadm/init/init.go Run: the config providers, api.ValidateNodeConfig,
// then the kubelet daemon's Configure) and returns what it writes for the
// kubelet at the kubelet minor opt.Minor.
func Translate(path string, data []byte, opt bootstrap.Options) (*bootstrap.Output, error) {
	t, minor, minorName, err := newTranslation(path, opt)
	if err != nil {
		return nil, err
	}
	cfg, ndocs := t.read(data)
	return t.finish(cfg, ndocs, minor, minorName)
}

func newTranslation(path string, opt bootstrap.Options) (*translation, int, string, error) {
	minorName := opt.Minor
	if minorName == "" {
		minorName = kubelets.Default().Version
	}
	minor, err := minorNumber(minorName)
	if err != nil {
		return nil, 0, "", fmt.Errorf("%s: %v", path, err)
	}
	t := &translation{
		path: path, opt: opt,
		out: &bootstrap.Output{Tool: Tool, Positions: map[string]finding.Position{}, Notes: map[string]string{}, AtBoot: map[string]string{}},
		nc:  map[string]finding.Position{}, kc: map[string]finding.Position{}, leaf: map[string]bool{}, boot: map[string]string{},
		anchor: finding.Position{File: path, Line: 1, Column: 1},
	}
	t.out.Anchor = t.anchor
	return t, minor, minorName, nil
}

// finish validates and generates what nodeadm writes from the merged
// NodeConfig cfg of ndocs documents (nil: nodeadm refuses them).
func (t *translation) finish(cfg *nodeConfig, ndocs, minor int, minorName string) (*bootstrap.Output, error) {
	if cfg == nil {
		t.out.Note = fmt.Sprintf("EKS nodeadm NodeConfig: nodeadm %s refuses it; it writes nothing for the kubelet", Tool.Release)
		return t.out, nil
	}
	t.validate(cfg)
	if err := t.generate(cfg, minor, minorName); err != nil {
		return nil, fmt.Errorf("%s: %v", t.path, err)
	}
	what := "NodeConfig"
	if ndocs > 1 {
		what = fmt.Sprintf("%d NodeConfigs merged", ndocs)
	}
	files, verb := "config.json", "writes it"
	if len(t.out.DropIns) > 0 {
		files, verb = "config.json and 40-nodeadm.conf", "writes them"
	}
	if !t.refused() {
		t.out.Note = fmt.Sprintf("EKS nodeadm %s: %s as nodeadm %s %s for kubelet %s", what, files, Tool.Release, verb, minorName)
		return t.out, nil
	}
	// nodeadm init stops: what it would write is still checked, but the
	// values it would set at boot are not worth a word.
	kept := t.out.Findings[:0]
	for _, f := range t.out.Findings {
		if f.Rule != bootstrap.AtBoot.ID {
			kept = append(kept, f)
		}
	}
	t.out.Findings = kept
	t.out.Note = fmt.Sprintf("EKS nodeadm %s: nodeadm %s refuses it; checked as the %s it would write for kubelet %s", what, Tool.Release, files, minorName)
	return t.out, nil
}

// refused reports whether nodeadm stops on the file (a KC9001 finding).
func (t *translation) refused() bool {
	for _, f := range t.out.Findings {
		if f.Rule == bootstrap.Refuses.ID {
			return true
		}
	}
	return false
}

func minorNumber(v string) (int, error) {
	v = strings.TrimPrefix(v, "v")
	parts := strings.Split(v, ".")
	if len(parts) < 2 || parts[0] != "1" {
		return 0, fmt.Errorf("kubelet minor %q: want 1.N", v)
	}
	n, err := strconv.Atoi(parts[1])
	if err != nil {
		return 0, fmt.Errorf("kubelet minor %q: want 1.N", v)
	}
	return n, nil
}

// read finds, decodes and merges the NodeConfigs of the file
// (configprovider ParseMaybeMultipart, api.MergeNodeConfigs), with their
// positions; nil when nodeadm refuses the file.
func (t *translation) read(data []byte) (*nodeConfig, int) {
	at := func(l, c int) finding.Position { return finding.Position{File: t.path, Line: l, Column: c} }
	docs, multi, err := userDataDocuments(data, at)
	if err != nil {
		for _, d := range docs {
			t.skipped(d)
		}
		msg := fmt.Sprintf("%s cannot read the user data: %s (configprovider/mime.go ParseMultipart, %s)", Tool.Name, oneLine(err.Error()), Tool.Release)
		hint := "fix the MIME structure of the user data"
		if errors.Is(err, errNoConfigInUserData) {
			msg = fmt.Sprintf("%s finds no NodeConfig in the user data: no part has Content-Type %s (configprovider/mime.go ParseMultipart: %v, %s); nodeadm init stops",
				Tool.Name, nodeConfigMediaType, err, Tool.Release)
			hint = "put the NodeConfig in a part with Content-Type: " + nodeConfigMediaType
		}
		t.add(bootstrap.Refuses, t.anchor, "", msg, hint)
		return nil, 0
	}
	return t.readDocs(docs, multi)
}

// skipped reports a user-data part nodeadm skips that holds a NodeConfig.
func (t *translation) skipped(d Document) {
	t.add(bootstrap.Drops, d.Anchor, "",
		fmt.Sprintf("%s skips this part of the user data: it holds a NodeConfig but its Content-Type is %q, not %s (configprovider/mime.go ParseMultipart, %s)",
			Tool.Name, d.Skipped, nodeConfigMediaType, Tool.Release),
		"set the part's Content-Type to "+nodeConfigMediaType)
}

// readDocs decodes and merges the NodeConfigs docs in order
// (api.MergeNodeConfigs), with their positions; nil when nodeadm refuses
// them. multi: they are parts of user data (not one file).
func (t *translation) readDocs(docs []Document, multi bool) (*nodeConfig, int) {
	var merged *nodeConfig
	refused := false
	n := 0
	for _, d := range docs {
		if d.Skipped != "" {
			t.skipped(d)
			continue
		}
		n++
		pos := positionsOf(&d)
		if n == 1 && !t.fixedAnchor {
			t.anchor = pos.first
			if k, ok := pos.nc["kind"]; ok {
				t.anchor = k
			}
			t.out.Anchor = t.anchor
		}
		where := "the file"
		if multi {
			where = "each user-data part"
		}
		for _, r := range pos.rest {
			t.add(bootstrap.Drops, r, "",
				fmt.Sprintf("%s reads only the first YAML document of %s: this document is ignored (api/bridge/decode.go DecodeNodeConfig decodes the whole data as one object, sigs.k8s.io/yaml keeps the first document, %s)",
					Tool.Name, where, Tool.Release),
				"put each NodeConfig in a part of its own in MIME multi-part user data (nodeadm merges those), or merge the documents into one")
		}
		cfg, strict, err := decodeNodeConfig(d.Data)
		if err != nil {
			refused = true
			t.add(bootstrap.Refuses, pos.first, "",
				fmt.Sprintf("%s cannot decode this NodeConfig: %s (api/bridge/decode.go DecodeNodeConfig, %s); nodeadm init stops", Tool.Name, oneLine(err.Error()), Tool.Release),
				"use apiVersion: node.eks.aws/v1alpha1 and kind: NodeConfig, with values of the types the NodeConfig API documents")
			continue
		}
		for _, se := range strict {
			t.strictFinding(se, pos, d)
		}
		if merged == nil {
			merged = cfg
		} else if err := mergeNodeConfig(merged, cfg); err != nil {
			refused = true
			t.add(bootstrap.Refuses, pos.first, "", fmt.Sprintf("%s cannot merge this NodeConfig: %v (api/merge.go MergeNodeConfigs, %s)", Tool.Name, err, Tool.Release), "")
		}
		t.clearBoot(cfg)
		if d.Generator != "" {
			t.atBootInto(&d, pos, merged)
		}
		for k, v := range pos.nc {
			if k == "spec.kubelet.flags" || strings.HasPrefix(k, "spec.kubelet.flags[") {
				continue
			}
			t.nc[k] = v
		}
		for k, v := range pos.kc {
			if prev, ok := t.kc[k]; ok && pos.leaf[k] && t.leaf[k] && d.Generator == "" {
				t.add(bootstrap.Overrides, prev, k,
					fmt.Sprintf("%s merges the NodeConfigs in order and the later one wins: %s here is replaced by the value at %d:%d (api/merge.go MergeNodeConfigs, mergeInlineDocument, %s)", Tool.Name, k, v.Line, v.Column, Tool.Release),
					"set the value in one NodeConfig only")
			}
			t.kc[k] = v
			t.leaf[k] = pos.leaf[k]
		}
		for j := range cfg.Spec.Kubelet.Flags {
			fp, ok := pos.nc["spec.kubelet.flags["+strconv.Itoa(j)+"]"]
			if !ok {
				fp = pos.first
			}
			t.flagsPos = append(t.flagsPos, fp)
		}
	}
	if refused {
		return nil, n
	}
	return merged, n
}

// The decoders' messages, parsed on first use (not at start-up).
var (
	unknownFieldRE   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`unknown field "([^"]*)"`) })
	duplicateFieldRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`duplicate field "([^"]*)"`) })
	yamlDuplicateRE  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`line (\d+): key "([^"]*)" already set`) })
)

// knownFields are the NodeConfig v1alpha1 fields by parent path, for hints.
var knownFields = map[string][]string{
	"":                           {"apiVersion", "kind", "metadata", "spec"},
	"spec":                       {"cluster", "containerd", "instance", "kubelet", "featureGates"},
	"spec.cluster":               {"name", "apiServerEndpoint", "certificateAuthority", "cidr", "enableOutpost", "id"},
	"spec.kubelet":               {"config", "flags", "maxPodsExpression"},
	"spec.containerd":            {"config", "baseRuntimeSpec"},
	"spec.instance":              {"localStorage", "environment", "network"},
	"spec.instance.localStorage": {"strategy", "mountPath", "disabledMounts"},
	"spec.instance.network":      {"nameservers", "domains"},
}

// strictFinding turns one of the strict decoder's complaints, which the
// lenient decoder nodeadm uses passes over, into a KC9003 finding.
func (t *translation) strictFinding(se error, pos *docPositions, d Document) {
	msg := se.Error()
	if m := unknownFieldRE().FindStringSubmatch(msg); m != nil {
		field := m[1]
		parent, name := "", field
		if i := strings.LastIndex(field, "."); i >= 0 {
			parent, name = field[:i], field[i+1:]
		}
		at, ok := pos.nc[field]
		if !ok {
			at = pos.first
		}
		hint := ""
		known := knownFields[parent]
		for _, k := range known {
			if strings.EqualFold(k, name) {
				hint = fmt.Sprintf("nodeadm matches keys case-sensitively: spell it %s.%s", parent, k)
			}
		}
		if hint == "" {
			if _, exact := kubelets.Tree().Child(name); exact && (parent == "spec.kubelet" || parent == "spec") {
				hint = fmt.Sprintf("%s is a KubeletConfiguration field: put it under spec.kubelet.config", name)
			} else if field == "status" {
				hint = "nodeadm fills in .status itself; remove it"
			} else if len(known) > 0 {
				where := parent
				if where == "" {
					where = "the top level"
				}
				hint = fmt.Sprintf("%s takes %s", where, strings.Join(known, ", "))
			}
		}
		t.add(bootstrap.Drops, at, "",
			fmt.Sprintf("%s drops %q: NodeConfig v1alpha1 has no such field and nodeadm decodes without strictness (api/bridge/decode.go DecodeNodeConfig, %s)", Tool.Name, field, Tool.Release),
			hint)
		return
	}
	if m := duplicateFieldRE().FindStringSubmatch(msg); m != nil {
		at, ok := pos.nc[m[1]]
		if !ok {
			at = pos.first
		}
		t.add(bootstrap.Drops, at, "",
			fmt.Sprintf("%s keeps only the last of the duplicate keys %q (api/bridge/decode.go DecodeNodeConfig, %s)", Tool.Name, m[1], Tool.Release),
			"write the key once")
		return
	}
	for _, m := range yamlDuplicateRE().FindAllStringSubmatch(msg, -1) {
		line, _ := strconv.Atoi(m[1])
		at := d.Anchor
		if d.At != nil && d.Generator == "" {
			at = d.At(droppedDuplicate(d.Data, line, m[2]))
		}
		t.add(bootstrap.Drops, at, "",
			fmt.Sprintf("%s keeps only the last of the duplicate keys %q (sigs.k8s.io/yaml in api/bridge/decode.go DecodeNodeConfig, %s): this one is dropped", Tool.Name, m[2], Tool.Release),
			"write the key once")
	}
}

// droppedDuplicate is the line and column of the earlier key of a duplicate
// yaml reports at line (the one it keeps): the nearest line above with the
// same key at the same indentation; line itself if there is none.
func droppedDuplicate(data []byte, line int, key string) (int, int) {
	lines := strings.Split(string(data), "\n")
	if line < 1 || line > len(lines) {
		return line, 1
	}
	indent := func(s string) int { return len(s) - len(strings.TrimLeft(s, " ")) }
	col := indent(lines[line-1])
	for i := line - 2; i >= 0; i-- {
		l := lines[i]
		if strings.TrimSpace(l) == "" || strings.HasPrefix(strings.TrimSpace(l), "#") {
			continue
		}
		if indent(l) < col {
			break
		}
		if indent(l) == col && strings.HasPrefix(strings.TrimLeft(l, " "), key+":") {
			return i + 1, col + 1
		}
	}
	return line, col + 1
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// validate is api/validation.go ValidateNodeConfig: the first missing field
// stops nodeadm init.
func (t *translation) validate(cfg *nodeConfig) {
	c := cfg.Spec.Cluster
	// A generated document's value at boot (Document.AtBoot) is given.
	given := func(p string) bool { _, ok := t.boot[p]; return ok }
	var msg, path string
	switch {
	case c.Name == "" && !given("spec.cluster.name"):
		msg, path = "Name is missing in cluster configuration", "spec.cluster.name"
	case c.APIServerEndpoint == "" && !given("spec.cluster.apiServerEndpoint"):
		msg, path = "Apiserver endpoint is missing in cluster configuration", "spec.cluster.apiServerEndpoint"
	case c.CertificateAuthority == nil && !given("spec.cluster.certificateAuthority"):
		msg, path = "Certificate authority is missing in cluster configuration", "spec.cluster.certificateAuthority"
	case c.CIDR == "" && !given("spec.cluster.cidr"):
		msg, path = "CIDR is missing in cluster configuration", "spec.cluster.cidr"
	case c.EnableOutpost != nil && *c.EnableOutpost && c.ID == "":
		msg, path = "cluster ID must be provided for outposts", "spec.cluster.id"
	default:
		return
	}
	t.add(bootstrap.Refuses, t.ncPos(path), "",
		fmt.Sprintf("%s refuses the NodeConfig: %q (api/validation.go ValidateNodeConfig, %s); nodeadm init stops before it writes the kubelet's configuration", Tool.Name, msg, Tool.Release),
		"set "+path)
}

// setValue is the value opt.Set gives for key, decoded from YAML.
func (t *translation) setValue(key string) (any, bool, error) {
	s, ok := t.opt.Set[key]
	if !ok {
		return nil, false, nil
	}
	var v any
	if err := yaml.Unmarshal([]byte(s), &v); err != nil {
		return nil, false, optionerr.Errorf("{Set} %s=%s: %v", key, s, err)
	}
	return v, true, nil
}

func (t *translation) setString(key string) (string, bool, error) {
	v, ok, err := t.setValue(key)
	if !ok || err != nil {
		return "", ok, err
	}
	switch x := v.(type) {
	case string:
		return x, true, nil
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), true, nil
	}
	return fmt.Sprint(v), true, nil
}

// setList is a --set value of a list of strings: [a, b] or a.
func setList(v string) []string {
	var l []string
	if err := yaml.Unmarshal([]byte(v), &l); err == nil {
		return l
	}
	return []string{strings.TrimSpace(v)}
}

// setFlag is the value opt.Set gives the flag name, written with or without
// its dashes (node-ip, --node-ip).
func (t *translation) setFlag(name string) (string, bool, error) {
	if _, ok := t.opt.Set["--"+name]; ok {
		return t.setString("--" + name)
	}
	return t.setString(name)
}

// userSets reports whether spec.kubelet.config writes path (then the
// drop-in, which the kubelet reads after config.json, decides it).
func (t *translation) userSets(path string) bool {
	_, ok := t.kc[path]
	return ok
}

// generate is config.go writeKubeletConfig and generateKubeletConfig, and
// environment.go writeKubeletEnvironment for the command line.
func (t *translation) generate(cfg *nodeConfig, minor int, minorName string) error {
	for _, p := range []string{"address", "authentication", "authorization", "cgroupDriver", "cgroupRoot", "clusterDomain",
		"containerRuntimeEndpoint", "evictionHard", "featureGates", "hairpinMode", "logging", "protectKernelDefaults",
		"readOnlyPort", "serializeImagePulls", "serverTLSBootstrap", "tlsCipherSuites"} {
		t.noteTool(p, "EKS default (internal/kubelet/config.go defaultKubeletSubConfig)")
	}
	fl := kubeletFlags{values: map[string]string{}, notes: map[string]string{}}
	kc := defaultKubeletSubConfig()
	// internal/kubelet/config.go generateKubeletConfig's steps, in order.
	if err := t.clusterDNSAndNodeIP(cfg, &kc, fl); err != nil {
		return err
	}
	t.versionToggles(&kc, minor)
	if err := t.cloudProvider(cfg, &kc, fl); err != nil {
		return err
	}
	if err := t.reservedResources(cfg, &kc); err != nil {
		return err
	}
	if err := t.imageServiceEndpoint(cfg, &kc); err != nil {
		return err
	}
	if err := t.runtimeFlags(minor, fl); err != nil {
		return err
	}
	if err := t.writeKubeletConfig(cfg, &kc, fl); err != nil {
		return err
	}
	t.commandLine(cfg, fl.values, fl.notes)
	return nil
}

// kubeletFlags are the flags nodeadm passes the kubelet, by name, and where
// each comes from.
type kubeletFlags struct{ values, notes map[string]string }

// noteTool notes that nodeadm sets path, and why.
func (t *translation) noteTool(path, s string) {
	t.out.Notes[path] = fmt.Sprintf("%s: %s", t.tool(), s)
}

// atBootFlag is a flag nodeadm passes with a value only the instance knows:
// the value given with --set, else an AtBoot finding.
func (t *translation) atBootFlag(fl kubeletFlags, name, what, src string) error {
	v, ok, err := t.setFlag(name)
	if err != nil {
		return err
	}
	if ok {
		fl.values[name] = v
		fl.notes[name] = fmt.Sprintf("%s at boot (%s), given with --set", what, src)
		return nil
	}
	t.out.AtBoot["--"+name] = fmt.Sprintf("%s: %s (internal/kubelet/config.go %s)", t.tool(), what, src)
	t.add(bootstrap.AtBoot, t.anchor, "",
		fmt.Sprintf("%s passes --%s=<%s> on the node at boot (internal/kubelet/config.go %s, %s): unknown here", Tool.Name, name, what, src, Tool.Release),
		fmt.Sprintf("give it with --set %s=VALUE when it is known", name))
	return nil
}

// clusterDNSAndNodeIP is withFallbackClusterDns and withNodeIp.
func (t *translation) clusterDNSAndNodeIP(cfg *nodeConfig, kc *kubeletConfig, fl kubeletFlags) error {
	// withFallbackClusterDns; getNodeIp parses the same CIDR.
	dns, err := clusterDNS(cfg.Spec.Cluster.CIDR)
	if cidrNote, atBoot := t.boot["spec.cluster.cidr"]; atBoot {
		// The service CIDR is a generated document's, known at boot: so are
		// the DNS address nodeadm derives from it and the node IP's family.
		if err := t.atBootPath(kc, "clusterDNS", "the DNS address of the service CIDR ("+cidrNote+")", "withFallbackClusterDns", func(v string) error {
			kc.ClusterDNS = setList(v)
			return nil
		}); err != nil {
			return err
		}
		if err := t.atBootFlag(fl, "node-ip", "the instance's IPv4 or IPv6 address from IMDS, by the service CIDR's family", "withNodeIp"); err != nil {
			return err
		}
	} else if err != nil {
		if cfg.Spec.Cluster.CIDR != "" {
			t.add(bootstrap.Refuses, t.ncPos("spec.cluster.cidr"), "",
				fmt.Sprintf("%s cannot derive clusterDNS from spec.cluster.cidr: %v (api/net.go GetClusterDns, from internal/kubelet/config.go withFallbackClusterDns, %s); nodeadm init stops", Tool.Name, err, Tool.Release),
				"set spec.cluster.cidr to the cluster's service CIDR (10.100.0.0/16)")
		}
	} else {
		kc.ClusterDNS = []string{dns}
		t.noteTool("clusterDNS", "the service CIDR's DNS address (api/net.go GetClusterDns, from spec.cluster.cidr)")
		if pos, ok := t.nc["spec.cluster.cidr"]; ok && !t.userSets("clusterDNS") {
			t.out.Positions["clusterDNS"] = pos
		}
		ipv4, _ := cidrIsIPv4(cfg.Spec.Cluster.CIDR)
		what := "the instance's private IPv4 address from IMDS local-ipv4"
		if !ipv4 {
			what = "the instance's IPv6 address from IMDS"
		}
		if err := t.atBootFlag(fl, "node-ip", what, "withNodeIp"); err != nil {
			return err
		}
	}

	return nil
}

// versionToggles is withVersionToggles, with where each toggle comes from.
func (t *translation) versionToggles(kc *kubeletConfig, minor int) {
	kc.withVersionToggles(minor)
	// A gate entry nodeadm writes in config.json stays there when the user's
	// drop-in writes it too.
	gate := func(path, s string) {
		t.noteTool(path, s)
		if t.userSets(path) {
			if t.out.WrittenToo == nil {
				t.out.WrittenToo = map[string]string{}
			}
			t.out.WrittenToo[path] = t.out.Notes[path]
		}
	}
	if minor >= 33 {
		gate("featureGates[DynamicResourceAllocation]", "enabled for kubelet 1.33+ (internal/kubelet/config.go withVersionToggles)")
	}
	if minor >= 34 {
		gate("featureGates[MutableCSINodeAllocatableCount]", "enabled for kubelet 1.34+ (internal/kubelet/config.go withVersionToggles)")
		t.noteTool("shutdownGracePeriod", "graceful node shutdown for kubelet 1.34+ (internal/kubelet/config.go withVersionToggles)")
		t.noteTool("shutdownGracePeriodCriticalPods", "graceful node shutdown for kubelet 1.34+ (internal/kubelet/config.go withVersionToggles)")
	}
}

// cloudProvider is withCloudProvider.
func (t *translation) cloudProvider(cfg *nodeConfig, kc *kubeletConfig, fl kubeletFlags) error {
	// withCloudProvider
	fl.values["cloud-provider"] = "external"
	fl.notes["cloud-provider"] = "withCloudProvider"
	if err := t.atBootPath(kc, "providerID", "aws:///<availability zone>/<instance ID> from IMDS", "withCloudProvider", func(v string) error {
		kc.ProviderID = &v
		return nil
	}); err != nil {
		return err
	}
	hostname := "the instance's private DNS name from EC2"
	if isFeatureEnabled(featureInstanceIDNodeName, cfg.Spec.FeatureGates) {
		hostname = "the instance ID (featureGates InstanceIdNodeName)"
	}
	if err := t.atBootFlag(fl, "hostname-override", hostname, "withCloudProvider"); err != nil {
		return err
	}

	return nil
}

// reservedResources is withDefaultReservedResources.
func (t *translation) reservedResources(cfg *nodeConfig, kc *kubeletConfig) error {
	// withDefaultReservedResources
	kc.SystemReservedCgroup = ptrTo("/system")
	kc.KubeReservedCgroup = ptrTo("/runtime")
	t.noteTool("systemReservedCgroup", "internal/kubelet/config.go withDefaultReservedResources")
	t.noteTool("kubeReservedCgroup", "internal/kubelet/config.go withDefaultReservedResources")
	maxPodsFrom := "the instance type's ENI limits (internal/kubelet/eni_max_pods.go CalcMaxPods)"
	if e := cfg.Spec.Kubelet.MaxPodsExpression; e != "" {
		maxPodsFrom = fmt.Sprintf("spec.kubelet.maxPodsExpression %q over the instance type's ENI limits", e)
	}
	maxPodsSet := false
	if err := t.atBootPath(kc, "maxPods", maxPodsFrom, "withDefaultReservedResources", func(v string) error {
		n, err := strconv.ParseInt(v, 10, 32)
		if err != nil {
			return optionerr.Errorf("{Set} maxPods=%s: want an integer", v)
		}
		kc.MaxPods = int32(n)
		maxPodsSet = true
		return nil
	}); err != nil {
		return err
	}
	if pos, ok := t.nc["spec.kubelet.maxPodsExpression"]; ok && !t.userSets("maxPods") {
		t.out.Positions["maxPods"] = pos
	}
	kc.KubeReserved = map[string]string{"ephemeral-storage": "1Gi"}
	t.noteTool("kubeReserved", "internal/kubelet/config.go withDefaultReservedResources")
	if whole, ok, err := t.setValue("kubeReserved"); err != nil {
		return err
	} else if ok {
		m, isMap := whole.(map[string]any)
		if !isMap {
			return optionerr.Errorf("{Set} kubeReserved: want a map")
		}
		for k, v := range m {
			kc.KubeReserved[k] = fmt.Sprint(v)
		}
	}
	if _, ok := kc.KubeReserved["cpu"]; !ok {
		if err := t.atBootPath(kc, "kubeReserved[cpu]", "a share of the instance's CPUs", "withDefaultReservedResources (getCPUMillicoresToReserve)", func(v string) error {
			kc.KubeReserved["cpu"] = v
			return nil
		}); err != nil {
			return err
		}
	}
	if _, ok := kc.KubeReserved["memory"]; !ok {
		if s, ok := t.opt.Set["kubeReserved[memory]"]; ok {
			kc.KubeReserved["memory"] = strings.TrimSpace(s)
		} else if maxPodsSet {
			kc.KubeReserved["memory"] = fmt.Sprintf("%dMi", memoryMebibytesToReserve(kc.MaxPods))
			t.noteTool("kubeReserved[memory]", fmt.Sprintf("11 × maxPods + 255 Mi with the instance's maxPods %d (internal/kubelet/config.go getMemoryMebibytesToReserve)", kc.MaxPods))
		} else if !t.userSets("kubeReserved[memory]") {
			what := "11 × the instance's maxPods + 255 Mi"
			if t.userSets("maxPods") {
				what += " (the maxPods nodeadm computes for the instance, not the one in spec.kubelet.config)"
			}
			t.atBootFinding("kubeReserved[memory]", what, "withDefaultReservedResources (getMemoryMebibytesToReserve)")
		}
	}

	return nil
}

// imageServiceEndpoint is withImageServiceEndpoint.
func (t *translation) imageServiceEndpoint(cfg *nodeConfig, kc *kubeletConfig) error {
	// withImageServiceEndpoint
	if isFeatureEnabled(featureFastImagePull, cfg.Spec.FeatureGates) {
		if err := t.atBootPath(kc, "imageServiceEndpoint", "the SOCI snapshotter's socket on instances with at least 4 CPUs and 7 GiB of memory (containerd/config.go UseSOCISnapshotter)", "withImageServiceEndpoint", func(v string) error {
			kc.ImageServiceEndpoint = v
			return nil
		}); err != nil {
			return err
		}
	}

	return nil
}

// runtimeFlags is withRuntimeCgroups and withNodeLabels.
func (t *translation) runtimeFlags(minor int, fl kubeletFlags) error {
	// withRuntimeCgroups
	fl.values["runtime-cgroups"] = "/runtime.slice/containerd.service"
	fl.notes["runtime-cgroups"] = "withRuntimeCgroups: so that cadvisor metrics include container usage"
	// withNodeLabels: from 1.35 the NVIDIA label, only on instances with an NVIDIA GPU.
	if minor >= 35 {
		if v, ok, err := t.setFlag("node-labels"); err != nil {
			return err
		} else if ok {
			fl.values["node-labels"] = v
			fl.notes["node-labels"] = "withNodeLabels at boot, given with --set"
		} else {
			t.add(bootstrap.AtBoot, t.anchor, "",
				fmt.Sprintf("%s passes --node-labels=nvidia.com/gpu.present=true on instances with an NVIDIA GPU, for kubelet 1.35+ (internal/kubelet/config.go withNodeLabels, %s): unknown here", Tool.Name, Tool.Release),
				"give it with --set node-labels=nvidia.com/gpu.present=true for a GPU instance")
		}
	}

	return nil
}

// writeKubeletConfig is writeKubeletConfig, then the flags of writeKubeconfig
// and writeImageCredentialProviderConfig.
func (t *translation) writeKubeletConfig(cfg *nodeConfig, kc *kubeletConfig, fl kubeletFlags) error {
	// writeKubeletConfig
	b, err := json.MarshalIndent(kc, "", strings.Repeat(" ", 4))
	if err != nil {
		return err
	}
	t.out.Config = &bootstrap.File{Path: kubeletConfigFile, Data: b}
	t.noteLeaves(b)
	fl.values["config"] = kubeletConfigFile
	fl.notes["config"] = "writeKubeletConfig"
	if len(cfg.Spec.Kubelet.Config) > 0 {
		fl.values["config-dir"] = kubeletConfigDir
		fl.notes["config-dir"] = "writeKubeletConfig: spec.kubelet.config is the drop-in 40-nodeadm.conf"
		// "merge in default type metadata like kind and apiVersion in case
		// the user has not specified this"
		m, err := utilMerge(defaultKubeletSubConfig().TypeMeta, cfg.Spec.Kubelet.Config)
		if err != nil {
			return err
		}
		d, err := json.MarshalIndent(m, "", strings.Repeat(" ", 4))
		if err != nil {
			return err
		}
		t.out.ConfigDir = kubeletConfigDir
		t.out.DropIns = []bootstrap.File{{Path: dropInFile, Data: d}}
	}
	for p, pos := range t.kc {
		t.out.Positions[p] = pos
	}
	// kubeconfig.go writeKubeconfig, image-credential-provider.go writeImageCredentialProviderConfig.
	fl.values["kubeconfig"] = "/var/lib/kubelet/kubeconfig"
	fl.notes["kubeconfig"] = "writeKubeconfig"
	if e := cfg.Spec.Cluster.EnableOutpost; e != nil && *e {
		fl.values["bootstrap-kubeconfig"] = "/var/lib/kubelet/bootstrap-kubeconfig"
		fl.notes["bootstrap-kubeconfig"] = "writeKubeconfig: outposts bootstrap with aws-iam-authenticator"
	}
	fl.values["image-credential-provider-bin-dir"] = "/etc/eks/image-credential-provider"
	fl.notes["image-credential-provider-bin-dir"] = "writeImageCredentialProviderConfig (ECR_CREDENTIAL_PROVIDER_BIN_PATH changes it)"
	fl.values["image-credential-provider-config"] = "/etc/eks/image-credential-provider/config.json"
	fl.notes["image-credential-provider-config"] = "writeImageCredentialProviderConfig"

	return nil
}

// noteLeaves gives every leaf of config.json its nearest ancestor's note, so
// that a leaf nodeadm writes under an object the user writes too
// (featureGates[RotateKubeletServerCertificate] beside the user's gates) is
// told apart from the user's keys.
func (t *translation) noteLeaves(configJSON []byte) {
	var obj map[string]any
	if err := json.Unmarshal(configJSON, &obj); err != nil {
		return
	}
	for leaf := range kubelets.Flatten(obj, kubelets.Tree()) {
		for p := leaf; p != ""; p = kubelets.Parent(p) {
			if n, ok := t.out.Notes[p]; ok {
				t.out.Notes[leaf] = n
				break
			}
		}
	}
}

// atBootPath handles a config.json value only the instance knows: opt.Set
// gives it (set is called with it), or it is left out with a KC9004 finding
// unless spec.kubelet.config sets the path itself.
func (t *translation) atBootPath(kc *kubeletConfig, path, what, src string, set func(string) error) error {
	v, ok, err := t.setString(path)
	if err != nil {
		return err
	}
	if ok {
		t.out.Notes[path] = fmt.Sprintf("%s: %s at boot (internal/kubelet/config.go %s), given with --set", t.tool(), what, src)
		return set(v)
	}
	if t.userSets(path) {
		return nil
	}
	t.atBootFinding(path, what, src)
	return nil
}

func (t *translation) atBootFinding(path, what, src string) {
	t.out.AtBoot[path] = fmt.Sprintf("%s: %s (internal/kubelet/config.go %s)", t.tool(), what, src)
	pos := t.anchor
	if p, ok := t.nc["spec.kubelet.maxPodsExpression"]; ok && (path == "maxPods" || path == "kubeReserved[memory]") {
		pos = p
	}
	t.add(bootstrap.AtBoot, pos, path,
		fmt.Sprintf("%s writes %s in config.json on the node at boot: %s (internal/kubelet/config.go %s, %s); unknown here", Tool.Name, path, what, src, Tool.Release),
		fmt.Sprintf("give it with --set %s=VALUE when it is known, or set it in spec.kubelet.config", path))
}

// commandLine is environment.go writeKubeletEnvironment: nodeadm's flags
// ("--name=value", from a Go map: in no fixed order; they never share a
// name, so the order does not matter and kubeletcfg sorts them), then
// spec.kubelet.flags, joined with spaces into NODEADM_KUBELET_ARGS, which
// the kubelet unit expands unquoted (ExecStart=/usr/bin/kubelet
// $NODEADM_KUBELET_ARGS, templates/al2023/runtime/rootfs/etc/systemd/system/kubelet.service):
// systemd splits it at whitespace.
func (t *translation) commandLine(cfg *nodeConfig, flags, notes map[string]string) {
	out := t.out
	names := make([]string, 0, len(flags))
	for n := range flags {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		out.Flags = append(out.Flags, "--"+n+"="+flags[n])
		out.FlagPositions = append(out.FlagPositions, finding.Position{})
		out.FlagNotes = append(out.FlagNotes, fmt.Sprintf("%s: internal/kubelet %s", t.tool(), notes[n]))
	}
	for i, f := range cfg.Spec.Kubelet.Flags {
		pos := t.anchor
		if i < len(t.flagsPos) {
			pos = t.flagsPos[i]
		}
		args := strings.Fields(f)
		if len(args) != 1 {
			t.add(bootstrap.Overrides, pos, "",
				fmt.Sprintf("%s joins spec.kubelet.flags with spaces into NODEADM_KUBELET_ARGS and systemd splits it at whitespace (internal/kubelet/environment.go writeKubeletEnvironment, %s): the kubelet receives %q as %d arguments", Tool.Name, Tool.Release, f, len(args)),
				"write one flag per list item, --name=value, without spaces")
		}
		for _, a := range args {
			out.Flags = append(out.Flags, a)
			out.FlagPositions = append(out.FlagPositions, pos)
			out.FlagNotes = append(out.FlagNotes, "")
		}
	}
}
