// Package aks translates an AKS custom node configuration's kubelet part (the
// kubeletConfig JSON of az aks create/nodepool add --kubelet-config, the
// agent pool's kubeletConfig in the AKS API) into the kubelet configuration
// file AKS writes on the node, ported from Azure/AgentBaker v0.20260821.0
// (pkg/agent/utils.go GetKubeletConfigFileContent, setCustomKubeletConfig).
package aks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/input/bootstrap"
	"github.com/kubeletcfg/kubeletcfg/input/internal/yamlmap"
	"github.com/kubeletcfg/kubeletcfg/internal/didyoumean"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/rule"
)

// Release is the AgentBaker release the translation is ported from.
const Release = "AgentBaker v0.20260821.0"

// Tool is AKS's node configuration.
var Tool = bootstrap.Tool{
	Name:    "AKS",
	Release: Release,
	Source:  "pkg/agent/utils.go GetKubeletConfigFileContent, setCustomKubeletConfig; pkg/agent/datamodel/types.go CustomKubeletConfig",
}

// configPath is where AgentBaker's CSE writes the kubelet's --config
// (parts/linux/cloud-init/artifacts/cse_config.sh, KUBELET_CONFIG_JSON_PATH).
const configPath = "/etc/default/kubeletconfig.json"

// keys are the properties of the AKS API's KubeletConfig (AgentBaker's
// CustomKubeletConfig JSON names, and the docs' preview kubeReserved and
// hardEvictionThreshold), with the KubeletConfiguration field each sets.
var keys = map[string]string{
	"cpuManagerPolicy":      "cpuManagerPolicy",
	"cpuCfsQuota":           "cpuCFSQuota",
	"cpuCfsQuotaPeriod":     "cpuCFSQuotaPeriod",
	"imageGcHighThreshold":  "imageGCHighThresholdPercent",
	"imageGcLowThreshold":   "imageGCLowThresholdPercent",
	"topologyManagerPolicy": "topologyManagerPolicy",
	"allowedUnsafeSysctls":  "allowedUnsafeSysctls",
	"failSwapOn":            "failSwapOn",
	"containerLogMaxSizeMB": "containerLogMaxSize",
	"containerLogMaxFiles":  "containerLogMaxFiles",
	"podMaxPids":            "podPidsLimit",
	"seccompDefault":        "seccompDefault",
	"kubeReserved":          "kubeReserved",
	"hardEvictionThreshold": "evictionHard",
}

// aksOnly are the names that are not also KubeletConfiguration fields: a
// file with one of them is an AKS kubeletConfig, not a KubeletConfiguration
// without its apiVersion.
var aksOnly = []string{"cpuCfsQuota", "cpuCfsQuotaPeriod", "imageGcHighThreshold", "imageGcLowThreshold",
	"containerLogMaxSizeMB", "podMaxPids", "hardEvictionThreshold"}

// Detect reports whether data is an AKS kubeletConfig: a JSON object (az
// reads the file with get_file_json) without apiVersion or kind, holding at
// least one of the API's own names (cpuCfsQuota, imageGcHighThreshold,
// containerLogMaxSizeMB, podMaxPids, ...).
func Detect(_ string, data []byte) bool {
	if t := bytes.TrimSpace(data); len(t) == 0 || t[0] != '{' {
		return false
	}
	if isAgentPool(data) {
		return true
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return false
	}
	if _, ok := m["apiVersion"]; ok {
		return false
	}
	if _, ok := m["kind"]; ok {
		return false
	}
	for _, k := range aksOnly {
		if _, ok := m[k]; ok {
			return true
		}
	}
	return false
}

// Accepts reports whether data is a kubeletConfig AKS takes at all, for
// --input-format aks: a JSON object with no apiVersion or kind (the file may
// hold only keys AKS does not have, which it drops; Detect needs one it has).
func Accepts(_ string, data []byte) bool {
	if t := bytes.TrimSpace(data); len(t) == 0 || t[0] != '{' {
		return false
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return false
	}
	_, api := m["apiVersion"]
	_, kind := m["kind"]
	return !api && !kind
}

// isAgentPool reports whether data is an AKS agent pool as az aks nodepool
// show prints it (kubeletConfig beside osType) or as the AKS API returns it
// (the same under properties).
func isAgentPool(data []byte) bool {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return false
	}
	if props, ok := m["properties"]; ok {
		m = nil
		if err := json.Unmarshal(props, &m); err != nil {
			return false
		}
	}
	_, os := m["osType"]
	_, kc := m["kubeletConfig"]
	return os && kc
}

// pool is what is read of an agent pool besides its kubeletConfig.
type pool struct {
	osType, version, maxPods *yaml.Node
}

type translation struct {
	path string
	out  *bootstrap.Output
	kc   customKubeletConfig
	// pool is the agent pool the kubeletConfig is in (nil: a kubeletConfig
	// file); windows: the node pool is a Windows one.
	pool    *pool
	windows bool
	// keys are the kubeletConfig's keys read, by the API's name.
	keys map[string]*yaml.Node
}

// add reports a finding of one of the bootstrapper rules (input/bootstrap) at
// n (nil: the anchor).
func (t *translation) add(rule *rule.Rule, n *yaml.Node, fieldPath, msg, hint string) {
	t.out.Findings = append(t.out.Findings, rule.At(t.pos(n), fieldPath, msg, hint))
}

func (t *translation) pos(n *yaml.Node) finding.Position {
	if n == nil {
		return t.out.Anchor
	}
	return finding.Position{File: t.path, Line: n.Line, Column: n.Column}
}

// refuse reports a value the AKS API refuses. The resource provider's
// validation is not public: the rules are the custom node configuration
// docs' "Allowed values/interval" and the API's types.
func (t *translation) refuse(key string, n *yaml.Node, fieldPath, why, hint string) {
	t.add(bootstrap.Refuses, n, fieldPath,
		fmt.Sprintf("AKS refuses kubeletConfig.%s %s: %s (the AKS API's KubeletConfig; allowed values as the custom node configuration docs list them)", key, value(n), why), hint)
}

func value(n *yaml.Node) string {
	if n == nil {
		return ""
	}
	if n.Kind == yaml.ScalarNode {
		return n.Value
	}
	b, _ := json.Marshal(decode(n))
	return string(b)
}

func decode(n *yaml.Node) any {
	var v any
	_ = n.Decode(&v)
	return v
}

// Translate reads the kubeletConfig JSON and returns the kubelet
// configuration file AgentBaker writes from it.
func Translate(p string, data []byte, opt bootstrap.Options) (*bootstrap.Output, error) {
	t, err := parse(p, data, opt)
	if err != nil {
		return nil, err
	}
	if t.windows {
		t.translateWindows()
		finding.SortFindings(t.out.Findings)
		return t.out, nil
	}
	c := &aksKubeletConfiguration{APIVersion: "kubelet.config.k8s.io/v1beta1", Kind: "KubeletConfiguration"}
	setCustomKubeletConfig(&t.kc, c)
	b, err := json.MarshalIndent(c, "", "    ")
	if err != nil {
		return nil, fmt.Errorf("%s: %v", p, err)
	}
	// The resource provider's flags are not known here: the empty
	// authentication and authorization objects the struct always writes
	// stand for nothing.
	var doc map[string]any
	_ = json.Unmarshal(b, &doc)
	delete(doc, "authentication")
	delete(doc, "authorization")
	if mp := t.poolMaxPods(); mp != nil {
		// The resource provider's --max-pods, which AgentBaker writes as maxPods.
		doc["maxPods"] = mp
	}
	t.atBoot(doc, opt)
	b, _ = json.MarshalIndent(doc, "", "    ")
	t.out.Config = &bootstrap.File{Path: configPath, Data: b}
	t.out.Note = fmt.Sprintf("AKS kubeletConfig: %s as %s writes it (the resource provider's own flags, not public, are left to --set)", configPath, Release)
	if t.pool != nil {
		t.out.Note = "AKS agent pool (osType Linux): " + strings.TrimPrefix(t.out.Note, "AKS kubeletConfig: ")
	}
	finding.SortFindings(t.out.Findings)
	return t.out, nil
}

// parse reads the kubeletConfig JSON into the customKubeletConfig AgentBaker
// receives, with the API's checks as findings.
func parse(p string, data []byte, opt bootstrap.Options) (*translation, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil || len(root.Content) != 1 || root.Content[0].Kind != yaml.MappingNode || !json.Valid(data) {
		return nil, fmt.Errorf("%s: Error reading kubelet configuration from %s: not a JSON object (az aks get_kubelet_config)", p, path.Base(p))
	}
	t := &translation{path: p, keys: map[string]*yaml.Node{}, out: &bootstrap.Output{
		Tool:      Tool,
		Positions: map[string]finding.Position{},
		Notes:     map[string]string{},
		AtBoot:    map[string]string{},
		Anchor:    finding.Position{File: p, Line: 1, Column: 1},
	}}
	m := root.Content[0]
	if isAgentPool(data) {
		if props := yamlmap.Value(m, "properties"); props != nil {
			m = props
		}
		t.pool = &pool{osType: yamlmap.Value(m, "osType"), version: yamlmap.Value(m, "currentOrchestratorVersion"), maxPods: yamlmap.Value(m, "maxPods")}
		if t.pool.version == nil {
			t.pool.version = yamlmap.Value(m, "orchestratorVersion")
		}
		if v := t.pool.version; v != nil && v.Kind == yaml.ScalarNode && v.Value != "" {
			t.out.KubeletVersion = v.Value
		}
		if k := yamlmap.Value(m, "kubeletConfig"); k != nil && k.Kind == yaml.MappingNode {
			m = k
		} else {
			m = &yaml.Node{Kind: yaml.MappingNode}
		}
		if os := t.pool.osType; os != nil && strings.EqualFold(os.Value, "Windows") {
			t.out.OS, t.out.OSFrom = kubelets.Windows, fmt.Sprintf("the agent pool's osType %s (line %d)", os.Value, os.Line)
		}
	}
	t.windows = opt.OS == kubelets.Windows || opt.OS == "" && t.out.OS == kubelets.Windows
	if len(m.Content) > 0 {
		t.out.Anchor = t.pos(m.Content[0])
	}
	names := slices.Sorted(maps.Keys(keys))
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		field, ok := keys[k.Value]
		if !ok {
			hint := "remove it: AKS sets only the kubelet settings its API names (" + strings.Join(names, ", ") + ")"
			if near := didyoumean.Nearest(k.Value, names); near != "" {
				hint = fmt.Sprintf("did you mean %q?", near)
			}
			t.add(bootstrap.Drops, k, "",
				fmt.Sprintf("AKS drops kubeletConfig.%s: it is no property of the AKS API's KubeletConfig, so az aks (get_kubelet_config, the SDK's KubeletConfig model) does not send it and AgentBaker (%s, pkg/agent/datamodel/types.go CustomKubeletConfig) never writes it", k.Value, strings.TrimPrefix(Release, "AgentBaker ")),
				hint)
			continue
		}
		t.keys[k.Value] = k
		t.read(k.Value, field, v)
	}
	t.validateThresholds(m)
	return t, nil
}

// atBoot marks what the resource provider sets from the node pool and the
// cluster (AgentBaker getAKSKubeletConfiguration's kc flags), unless the file
// or --set gives it.
func (t *translation) atBoot(doc map[string]any, opt bootstrap.Options) {
	boot := map[string]string{
		"maxPods":      "the node pool's maxPods (az aks nodepool add --max-pods; its default depends on the network plugin)",
		"clusterDNS":   "the cluster's DNS service IP (--dns-service-ip)",
		"kubeReserved": "reserved by AKS from the VM size's CPU and memory",
		"evictionHard": "AKS's default hard eviction thresholds",
	}
	paths := make([]string, 0, len(boot))
	for p := range boot {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		if _, ok := doc[p]; ok {
			continue
		}
		if v, ok := opt.Set[p]; ok {
			var val any
			if err := yaml.Unmarshal([]byte(v), &val); err == nil {
				doc[p] = val
				t.out.Notes[p] = "given with --set"
				continue
			}
		}
		t.out.AtBoot[p] = "AKS: " + boot[p]
		t.add(bootstrap.AtBoot, nil, p,
			fmt.Sprintf("AKS sets %s from the resource provider at provisioning: %s; it is left to the kubelet's default here", p, boot[p]),
			fmt.Sprintf("give the value with --set %s=VALUE when it is known", p))
	}
}

// read reads one key of the kubeletConfig into t.kc, checking its type and
// range as the AKS API does.
func (t *translation) read(key, field string, v *yaml.Node) {
	t.out.Positions[field] = t.pos(v)
	switch key {
	case "cpuManagerPolicy", "topologyManagerPolicy", "cpuCfsQuotaPeriod":
		s, ok := t.str(key, field, v)
		if !ok {
			return
		}
		switch key {
		case "cpuManagerPolicy":
			if s != "none" && s != "static" {
				t.refuse(key, v, field, "allowed are none and static", `write "static" or "none"`)
				return
			}
			t.kc.CPUManagerPolicy = s
		case "topologyManagerPolicy":
			if s != "none" && s != "best-effort" && s != "restricted" && s != "single-numa-node" {
				t.refuse(key, v, field, "allowed are none, best-effort, restricted and single-numa-node", `write one of "none", "best-effort", "restricted", "single-numa-node"`)
				return
			}
			t.kc.TopologyManagerPolicy = s
		case "cpuCfsQuotaPeriod":
			d, err := time.ParseDuration(s)
			if err != nil || !strings.HasSuffix(s, "ms") || d <= 0 {
				t.refuse(key, v, field, "an interval in milliseconds is expected", `write milliseconds: "200ms"`)
				return
			}
			t.kc.CPUCfsQuotaPeriod = s
			t.out.Positions["featureGates[CustomCPUCFSQuotaPeriod]"] = t.pos(v)
			t.out.Notes["featureGates[CustomCPUCFSQuotaPeriod]"] = "set by AKS with cpuCfsQuotaPeriod (AgentBaker setCustomKubeletConfig)"
		}
	case "cpuCfsQuota", "failSwapOn":
		if v.Kind != yaml.ScalarNode || v.Tag != "!!bool" {
			t.refuse(key, v, field, "a JSON boolean is expected", "write true or false, unquoted")
			return
		}
		b := v.Value == "true"
		if key == "cpuCfsQuota" {
			t.kc.CPUCfsQuota = &b
		} else {
			t.kc.FailSwapOn = &b
		}
	case "seccompDefault":
		// The API's enum (Unconfined, RuntimeDefault); AgentBaker receives a
		// bool: RuntimeDefault is true.
		s, ok := t.str(key, field, v)
		if !ok {
			return
		}
		if s != "Unconfined" && s != "RuntimeDefault" {
			t.refuse(key, v, field, "allowed are Unconfined and RuntimeDefault", `write "RuntimeDefault" or "Unconfined"`)
			return
		}
		b := s == "RuntimeDefault"
		t.kc.SeccompDefault = &b
	case "imageGcHighThreshold", "imageGcLowThreshold", "containerLogMaxSizeMB", "containerLogMaxFiles", "podMaxPids":
		n, ok := t.int32(key, field, v)
		if !ok {
			return
		}
		switch key {
		case "imageGcHighThreshold", "imageGcLowThreshold":
			if n < 0 || n > 100 {
				t.refuse(key, v, field, "a percentage from 0 to 100 is expected", "write 0-100")
				return
			}
			if key == "imageGcHighThreshold" {
				t.kc.ImageGcHighThreshold = &n
			} else {
				t.kc.ImageGcLowThreshold = &n
			}
		case "containerLogMaxSizeMB":
			if n < 1 {
				t.refuse(key, v, field, "a size in megabytes is expected", "write a positive number of megabytes")
				return
			}
			t.kc.ContainerLogMaxSizeMB = &n
		case "containerLogMaxFiles":
			if n < 2 {
				t.refuse(key, v, field, "at least 2 files are required", "write 2 or more")
				return
			}
			t.kc.ContainerLogMaxFiles = &n
		case "podMaxPids":
			if n < -1 {
				t.refuse(key, v, field, "-1 (no limit) or a number of processes is expected", "write -1 or a positive number")
				return
			}
			t.kc.PodMaxPids = &n
		}
	case "allowedUnsafeSysctls":
		if v.Kind != yaml.SequenceNode {
			t.refuse(key, v, field, "a JSON array of sysctl names or patterns is expected", `write ["net.*"]`)
			return
		}
		var list []string
		for i, it := range v.Content {
			if it.Kind != yaml.ScalarNode || it.Tag != "!!str" {
				t.refuse(key, it, fmt.Sprintf("%s[%d]", field, i), "a sysctl name or pattern (a string) is expected", `write "net.*"`)
				continue
			}
			if !unsafeSysctlAllowed(it.Value) {
				t.refuse(key, it, fmt.Sprintf("%s[%d]", field, i), "allowed are kernel.shm*, kernel.msg*, kernel.sem, fs.mqueue.* and net.* (and names within them)", "use a sysctl of those groups")
				continue
			}
			t.out.Positions[fmt.Sprintf("%s[%d]", field, len(list))] = t.pos(it)
			list = append(list, it.Value)
		}
		t.kc.AllowedUnsafeSysctls = &list
	case "kubeReserved":
		t.object(key, v, map[string]string{"cpuMillicores": "cpu", "memoryMB": "memory"}, func(sub, target string, n *yaml.Node) {
			x, ok := t.int32(key+"."+sub, "kubeReserved["+target+"]", n)
			if !ok {
				return
			}
			if x < 1 {
				t.refuse(key+"."+sub, n, "kubeReserved["+target+"]", "at least 1 is expected", "write a positive number")
				return
			}
			if sub == "cpuMillicores" {
				t.kc.KubeReservedCPUMillicores = &x
			} else {
				t.kc.KubeReservedMemoryMB = &x
			}
		})
	case "hardEvictionThreshold":
		t.object(key, v, map[string]string{"memoryAvailable": "memory.available", "nodeFsAvailable": "nodefs.available", "nodeFsInodesFree": "nodefs.inodesFree"}, func(sub, target string, n *yaml.Node) {
			fp := "evictionHard[" + target + "]"
			s, ok := t.str(key+"."+sub, fp, n)
			if !ok {
				return
			}
			if t.kc.HardEviction == nil {
				t.kc.HardEviction = map[string]string{}
			}
			t.kc.HardEviction[target] = s
		})
	}
}

// object reads a nested object's known keys; others are dropped (KC9003).
func (t *translation) object(key string, v *yaml.Node, subs map[string]string, read func(sub, target string, n *yaml.Node)) {
	if v.Kind != yaml.MappingNode {
		t.refuse(key, v, keys[key], "a JSON object is expected", "see the custom node configuration docs")
		return
	}
	names := slices.Sorted(maps.Keys(subs))
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, n := v.Content[i], v.Content[i+1]
		target, ok := subs[k.Value]
		if !ok {
			hint := "AKS takes " + strings.Join(names, ", ")
			if near := didyoumean.Nearest(k.Value, names); near != "" {
				hint = fmt.Sprintf("did you mean %q?", near)
			}
			t.add(bootstrap.Drops, k, "",
				fmt.Sprintf("AKS drops kubeletConfig.%s.%s: it is no property of the AKS API's %s", key, k.Value, key), hint)
			continue
		}
		fp := keys[key] + "[" + target + "]"
		t.out.Positions[fp] = t.pos(n)
		read(k.Value, target, n)
	}
}

func (t *translation) str(key, field string, v *yaml.Node) (string, bool) {
	if v.Kind != yaml.ScalarNode || v.Tag != "!!str" {
		t.refuse(key, v, field, "a JSON string is expected", "quote the value")
		return "", false
	}
	return v.Value, true
}

func (t *translation) int32(key, field string, v *yaml.Node) (int32, bool) {
	if v.Kind != yaml.ScalarNode || v.Tag != "!!int" {
		t.refuse(key, v, field, "a JSON integer is expected", "write a number, unquoted")
		return 0, false
	}
	n, err := strconv.ParseInt(v.Value, 10, 32)
	if err != nil {
		t.refuse(key, v, field, "a 32-bit integer is expected", "write a smaller number")
		return 0, false
	}
	return int32(n), true
}

// validateThresholds: imageGcLowThreshold may be no higher than
// imageGcHighThreshold (the docs' allowed values).
func (t *translation) validateThresholds(m *yaml.Node) {
	hi, lo := t.kc.ImageGcHighThreshold, t.kc.ImageGcLowThreshold
	if hi == nil || lo == nil || *lo <= *hi {
		return
	}
	var n *yaml.Node
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == "imageGcLowThreshold" {
			n = m.Content[i+1]
		}
	}
	t.refuse("imageGcLowThreshold", n, "imageGCLowThresholdPercent",
		fmt.Sprintf("it may be no higher than imageGcHighThreshold (%d)", *hi), "lower imageGcLowThreshold or raise imageGcHighThreshold")
}

// unsafeSysctlAllowed: the groups AKS allows (kernel.shm*, kernel.msg*,
// kernel.sem, fs.mqueue.*, net.*), a name or a pattern within one.
func unsafeSysctlAllowed(s string) bool {
	switch {
	case s == "kernel.sem":
		return true
	case strings.HasPrefix(s, "kernel.shm"), strings.HasPrefix(s, "kernel.msg"),
		strings.HasPrefix(s, "fs.mqueue."), strings.HasPrefix(s, "net."):
		return true
	}
	return false
}

// poolMaxPods is the agent pool's maxPods, nil when the file is no pool or
// has none.
func (t *translation) poolMaxPods() any {
	if t.pool == nil || t.pool.maxPods == nil || t.pool.maxPods.Tag != "!!int" {
		return nil
	}
	n, err := strconv.Atoi(t.pool.maxPods.Value)
	if err != nil {
		return nil
	}
	t.out.Positions["maxPods"] = t.pos(t.pool.maxPods)
	t.out.Notes["maxPods"] = "the agent pool's maxPods, which AKS passes to the kubelet"
	return n
}

// resourceProvider is AKS's resource provider, which sets the kubelet's
// own flags of a node pool.
var resourceProvider = bootstrap.Tool{Name: "the AKS resource provider", Release: "(not public)", Source: "AgentBaker e2e/node_config.go (its Windows node configuration)"}

// windowsKeys are the kubeletConfig keys a Windows node's kubelet gets, as
// flags (datamodel/types.go setCustomKubletConfigFromSettings, through
// GetOrderedKubeletConfigStringForPowershell into kuberneteswindowssetup.ps1's
// kubelet arguments): containerLogMaxSizeMB in Mi, where Linux writes M.
var windowsKeys = []struct{ key, flag, field string }{
	{"containerLogMaxFiles", "container-log-max-files", "containerLogMaxFiles"},
	{"containerLogMaxSizeMB", "container-log-max-size", "containerLogMaxSize"},
	{"imageGcHighThreshold", "image-gc-high-threshold", "imageGCHighThresholdPercent"},
	{"imageGcLowThreshold", "image-gc-low-threshold", "imageGCLowThresholdPercent"},
}

// translateWindows is a Windows node pool's kubelet: no config file, the
// four keys AgentBaker passes as flags (sorted by flag name, as
// GetOrderedKubeletConfigStringForPowershell sorts them), the pool's
// --max-pods; every other key is dropped.
func (t *translation) translateWindows() {
	values := map[string]string{}
	if v := t.kc.ContainerLogMaxFiles; v != nil {
		values["containerLogMaxFiles"] = strconv.Itoa(int(*v))
	}
	if v := t.kc.ContainerLogMaxSizeMB; v != nil {
		values["containerLogMaxSizeMB"] = fmt.Sprintf("%dMi", *v)
	}
	if v := t.kc.ImageGcHighThreshold; v != nil {
		values["imageGcHighThreshold"] = strconv.Itoa(int(*v))
	}
	if v := t.kc.ImageGcLowThreshold; v != nil {
		values["imageGcLowThreshold"] = strconv.Itoa(int(*v))
	}
	// The resource provider's own flags are not public; AgentBaker's e2e
	// Windows node (e2e/node_config.go) has these two, without which the
	// Windows kubelet warns that it ignores QoS cgroups.
	t.out.PrependFlags(resourceProvider, "the AKS resource provider's Windows kubelet flags (not public; as AgentBaker's e2e Windows node configuration has them, e2e/node_config.go)",
		"--cgroups-per-qos=false", "--enforce-node-allocatable=")
	taken := map[string]bool{}
	for _, w := range windowsKeys {
		taken[w.key] = true
		if v, ok := values[w.key]; ok {
			t.out.Flags = append(t.out.Flags, "--"+w.flag+"="+v)
			t.out.FlagPositions = append(t.out.FlagPositions, t.pos(t.keys[w.key]))
			t.out.FlagNotes = append(t.out.FlagNotes, "")
		}
	}
	if mp := t.poolMaxPods(); mp != nil {
		t.out.Flags = append(t.out.Flags, fmt.Sprintf("--max-pods=%v", mp))
		t.out.FlagPositions = append(t.out.FlagPositions, t.pos(t.pool.maxPods))
		t.out.FlagNotes = append(t.out.FlagNotes, "")
	}
	for _, k := range slices.Sorted(maps.Keys(t.keys)) {
		if taken[k] {
			continue
		}
		t.add(bootstrap.Drops, t.keys[k], keys[k],
			fmt.Sprintf("AKS does not apply kubeletConfig.%s on a Windows node: its kubelet gets only containerLogMaxFiles, containerLogMaxSizeMB, imageGcHighThreshold and imageGcLowThreshold, as flags (%s, pkg/agent/datamodel/types.go setCustomKubletConfigFromSettings, GetOrderedKubeletConfigStringForPowershell)", k, strings.TrimPrefix(Release, "AgentBaker ")),
			"remove it from a Windows node pool's kubeletConfig; it applies to Linux node pools")
	}
	t.out.Note = fmt.Sprintf("AKS Windows node pool: the kubelet's flags as %s passes them to kuberneteswindowssetup.ps1 (no config file), after the resource provider's --cgroups-per-qos=false --enforce-node-allocatable= (as AgentBaker's e2e Windows node has them; its other flags, not public, are not modeled)", Release)
}
