package karpenter

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	toml "github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
	yaml "go.yaml.in/yaml/v3"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/input/bootstrap"
)

// brScript is Karpenter's Bottlerocket user data for one EC2NodeClass
// (bootstrap/bottlerocket.go Script, v1.15.0): spec.userData's TOML, decoded
// as bottlerocketsettings.go UnmarshalTOML decodes it, with Karpenter's own
// settings written over it.
type brScript struct {
	// userPos are the positions in the manifest of the keys of the user's
	// TOML, by key path (tomlPath).
	userPos map[string]finding.Position
	// user is settings.kubernetes as the user's TOML gives them, after
	// Karpenter's typed decoding (the keys brKubernetes has).
	user map[string]any
	// k8s is settings.kubernetes as Karpenter writes them.
	k8s map[string]any
	// karp are the settings Karpenter writes itself, with the spec.kubelet
	// field each comes from ("" for its own).
	karp map[string]string
	// atBoot are the settings Karpenter writes with a value known at launch.
	atBoot map[string]bool
	// data is the user data Karpenter writes (MarshalTOML).
	data []byte
}

// tomlPath joins a TOML key path: its parts may hold dots ("memory.available").
func tomlPath(parts ...string) string { return strings.Join(parts, "\x1f") }

// brKarpenterSettings are the settings Script writes from spec.kubelet, by
// the field it reads.
var brKarpenterSettings = map[string]string{
	"maxPods": "max-pods", "clusterDNS": "cluster-dns-ip", "systemReserved": "system-reserved", "kubeReserved": "kube-reserved",
	"evictionHard": "eviction-hard", "evictionSoft": "eviction-soft", "evictionSoftGracePeriod": "eviction-soft-grace-period",
	"evictionMaxPodGracePeriod": "eviction-max-pod-grace-period", "imageGCHighThresholdPercent": "image-gc-high-threshold-percent",
	"imageGCLowThresholdPercent": "image-gc-low-threshold-percent", "cpuCFSQuota": "cpu-cfs-quota-enforced",
}

// script ports Bottlerocket.Script: spec.userData is decoded into
// BottlerocketConfig (the untyped settings, then the typed ones: a TOML error
// or a value of another type than Karpenter's field fails the launch), kc's
// values and the taints are written over its settings.kubernetes, and the
// settings are marshalled back with settings.kubernetes from the typed
// fields only.
func (t *translation) script(kc map[string]any, ud *yaml.Node) (*brScript, error) {
	s := &brScript{userPos: map[string]finding.Position{}, user: map[string]any{}, karp: map[string]string{}, atBoot: map[string]bool{}}
	var raw struct {
		SettingsRaw map[string]any `toml:"settings"`
	}
	var typed struct {
		Settings brSettings `toml:"settings"`
	}
	if ud != nil && strings.TrimSpace(ud.Value) != "" {
		data := []byte(ud.Value)
		at := t.tomlAt(ud)
		err := toml.Unmarshal(data, &raw)
		if err == nil {
			err = toml.Unmarshal(data, &typed)
		}
		if err != nil {
			pos := t.pos(ud)
			var de *toml.DecodeError
			if errors.As(err, &de) {
				pos = at(de.Position())
			}
			t.out.Findings = append(t.out.Findings, bootstrap.Refuses.At(pos, "",
				fmt.Sprintf("Karpenter: spec.userData is not the Bottlerocket settings TOML Karpenter reads (%s): Script fails with \"invalid UserData\" and no node is launched (pkg/providers/amifamily/bootstrap/bottlerocket.go Script, bottlerocketsettings.go UnmarshalTOML, %s)", tomlError(err), Tool.Release),
				"write spec.userData as Bottlerocket settings TOML, each setting with the type Bottlerocket gives it ([settings.kubernetes] kube-api-qps = 30)"))
			raw.SettingsRaw, typed.Settings = nil, brSettings{}
		} else {
			s.userPos = tomlPositions(data, at)
			t.brUnknown(data, at)
			// The user's settings.kubernetes as Karpenter's types keep them.
			if b, err := toml.Marshal(typed.Settings.Kubernetes); err == nil {
				_ = toml.Unmarshal(b, &s.user)
			}
		}
	}
	k := &typed.Settings.Kubernetes
	// Karpenter's own values: the cluster's (not the kubelet's configuration),
	// then spec.kubelet's.
	if v, ok := kc["maxPods"].(int64); ok {
		k.MaxPods = ptr(int(v))
	}
	if _, ok := t.out.AtBoot["maxPods"]; ok {
		k.MaxPods, s.atBoot["max-pods"] = nil, true
	}
	if ips, ok := kc["clusterDNS"].([]any); ok && len(ips) > 0 {
		k.ClusterDNSIP = ptr(fmt.Sprint(ips[0]))
	}
	if _, ok := t.out.AtBoot["clusterDNS"]; ok {
		k.ClusterDNSIP, s.atBoot["cluster-dns-ip"] = nil, true
	}
	strMap := func(v any) map[string]string {
		m := map[string]string{}
		for key, x := range v.(map[string]any) {
			m[key] = fmt.Sprint(x)
		}
		return m
	}
	for field, setting := range brKarpenterSettings {
		v, ok := kc[field]
		if !ok {
			if s.atBoot[setting] {
				s.karp[setting] = field
			}
			continue
		}
		s.karp[setting] = field
		switch field {
		case "systemReserved":
			k.SystemReserved = strMap(v)
		case "kubeReserved":
			k.KubeReserved = strMap(v)
		case "evictionHard":
			k.EvictionHard = strMap(v)
		case "evictionSoft":
			k.EvictionSoft = strMap(v)
		case "evictionSoftGracePeriod":
			k.EvictionSoftGracePeriod = strMap(v)
		case "evictionMaxPodGracePeriod":
			k.EvictionMaxPodGracePeriod = ptr(int(v.(int64)))
		case "imageGCHighThresholdPercent":
			k.ImageGCHighThresholdPercent = ptr(strconv.FormatInt(v.(int64), 10))
		case "imageGCLowThresholdPercent":
			k.ImageGCLowThresholdPercent = ptr(strconv.FormatInt(v.(int64), 10))
		case "cpuCFSQuota":
			k.CPUCFSQuota = ptr(v.(bool))
		}
	}
	k.NodeTaints = map[string][]string{}
	for _, x := range t.taints {
		m := x.(map[string]any)
		key := fmt.Sprint(m["key"])
		value, _ := m["value"].(string)
		k.NodeTaints[key] = append(k.NodeTaints[key], fmt.Sprintf("%s:%v", value, m["effect"]))
	}
	s.karp["node-taints"] = "registerWithTaints"
	// MarshalTOML.
	if raw.SettingsRaw == nil {
		raw.SettingsRaw = map[string]any{}
	}
	raw.SettingsRaw["kubernetes"] = typed.Settings.Kubernetes
	if typed.Settings.BootstrapCommands != nil {
		raw.SettingsRaw["bootstrap-commands"] = typed.Settings.BootstrapCommands
	}
	data, err := toml.Marshal(raw)
	if err != nil {
		return nil, fmt.Errorf("writing the Bottlerocket user data as Karpenter does: %v", err)
	}
	s.data = data
	var back struct {
		Settings struct {
			Kubernetes map[string]any `toml:"kubernetes"`
		} `toml:"settings"`
	}
	if err := toml.Unmarshal(data, &back); err != nil {
		return nil, fmt.Errorf("writing the Bottlerocket user data as Karpenter does: %v", err)
	}
	s.k8s = back.Settings.Kubernetes
	if s.k8s == nil {
		s.k8s = map[string]any{}
	}
	t.brOverwrites(s)
	return s, nil
}

func ptr[T any](v T) *T { return &v }

// tomlError is go-toml's message without its excerpt of the document.
func tomlError(err error) string {
	var de *toml.DecodeError
	if errors.As(err, &de) {
		row, col := de.Position()
		return fmt.Sprintf("toml: line %d, column %d: %s", row, col, strings.TrimPrefix(de.Error(), "toml: "))
	}
	return err.Error()
}

// tomlAt maps a line and column of spec.userData's text to the manifest: a
// literal block's content starts on the line after its indicator, indented
// by the block's indentation; a value of another style has every position at
// the value.
func (t *translation) tomlAt(ud *yaml.Node) func(line, col int) finding.Position {
	if ud.Style&yaml.LiteralStyle != 0 {
		indent := t.blockIndent(ud)
		return func(l, c int) finding.Position {
			return finding.Position{File: t.path, Line: ud.Line + l, Column: indent + c}
		}
	}
	return func(int, int) finding.Position { return t.pos(ud) }
}

// tomlPositions are where data's keys are written, by key path: a table's
// at its header, a key's at its first character (go-toml's unstable parser,
// which keeps every key's offset).
func tomlPositions(data []byte, at func(line, col int) finding.Position) map[string]finding.Position {
	out := map[string]finding.Position{}
	var p unstable.Parser
	p.Reset(data)
	record := func(path []string, key *unstable.Node) {
		sh := p.Shape(key.Raw)
		for i := range path {
			if _, ok := out[tomlPath(path[:i+1]...)]; !ok {
				out[tomlPath(path[:i+1]...)] = at(sh.Start.Line, sh.Start.Column)
			}
		}
	}
	keyOf := func(it unstable.Iterator) ([]string, *unstable.Node) {
		var parts []string
		var first *unstable.Node
		for it.Next() {
			if first == nil {
				first = it.Node()
			}
			parts = append(parts, string(it.Node().Data))
		}
		return parts, first
	}
	var keyval func(prefix []string, kv *unstable.Node)
	keyval = func(prefix []string, kv *unstable.Node) {
		parts, first := keyOf(kv.Key())
		path := append(append([]string(nil), prefix...), parts...)
		record(path, first)
		if v := kv.Value(); v.Kind == unstable.InlineTable {
			it := v.Children()
			for it.Next() {
				if c := it.Node(); c.Kind == unstable.KeyValue {
					keyval(path, c)
				}
			}
		}
	}
	var table []string
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			var first *unstable.Node
			table, first = keyOf(e.Key())
			record(table, first)
		case unstable.KeyValue:
			keyval(table, e)
		}
	}
	return out
}

// brUnknown reports the keys of the user's settings.kubernetes that
// Karpenter's BottlerocketKubernetes lacks: UnmarshalTOML logs them
// ("Unknown parameter in userData K8s settings") and MarshalTOML writes
// settings.kubernetes from the typed fields only, so they never reach the
// node.
func (t *translation) brUnknown(data []byte, at func(line, col int) finding.Position) {
	var strict struct {
		Settings struct {
			Kubernetes brKubernetes `toml:"kubernetes"`
		} `toml:"settings"`
	}
	d := toml.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	var sm *toml.StrictMissingError
	if err := d.Decode(&strict); !errors.As(err, &sm) {
		return
	}
	for _, e := range sm.Errors {
		key := e.Key()
		if len(key) < 3 || key[0] != "settings" || key[1] != "kubernetes" {
			continue
		}
		name := strings.Join(key[2:], ".")
		t.out.Findings = append(t.out.Findings, bootstrap.Drops.At(at(e.Position()), "",
			fmt.Sprintf("Karpenter: spec.userData sets settings.kubernetes.%s, which Karpenter's Bottlerocket settings do not have: it logs \"Unknown parameter in userData K8s settings\" and writes settings.kubernetes without it, so Bottlerocket never sees it (pkg/providers/amifamily/bootstrap/bottlerocketsettings.go UnmarshalTOML and MarshalTOML, %s)", name, Tool.Release),
			"check the setting's name against Bottlerocket's settings.kubernetes; Karpenter passes only the keys of its BottlerocketKubernetes"))
	}
}

// brOverwrites reports the user's settings.kubernetes that Karpenter writes
// over (Script: "Karpenter will overwrite settings present inside custom
// UserData"): the settings it maps from spec.kubelet, those it resolves at
// launch (max-pods, cluster-dns-ip), and node-taints, which it replaces with
// the NodeClaim's taints.
func (t *translation) brOverwrites(s *brScript) {
	var paths []string
	for p := range s.userPos {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		parts := strings.Split(p, "\x1f")
		if len(parts) != 3 || parts[0] != "settings" || parts[1] != "kubernetes" {
			continue
		}
		field, ok := s.karp[parts[2]]
		if !ok {
			continue
		}
		what := "spec.kubelet." + field
		if field == "registerWithTaints" {
			what = "the NodeClaim's taints (" + strings.TrimPrefix(t.taintsNote(""), "set by Karpenter: ") + ")"
		} else if _, set := t.kubelet[field]; !set {
			src := t.out.AtBoot[field]
			if src == "" {
				src = t.out.Notes[field]
			}
			what = "its own value (" + strings.TrimPrefix(src, "Karpenter: ") + ")"
		}
		t.out.Findings = append(t.out.Findings, bootstrap.Overrides.At(s.userPos[p], field,
			fmt.Sprintf("Karpenter: spec.userData sets settings.kubernetes.%s, but Karpenter writes it from %s over the user's (pkg/providers/amifamily/bootstrap/bottlerocket.go Script: \"Karpenter will overwrite settings present inside custom UserData\", %s)", parts[2], what, Tool.Release),
			brOverwriteHint(field)))
	}
}

func brOverwriteHint(field string) string {
	if field == "registerWithTaints" {
		return "give the taints in the NodePool's spec.template.spec.taints or startupTaints instead"
	}
	return fmt.Sprintf("set spec.kubelet.%s in the EC2NodeClass instead", field)
}
