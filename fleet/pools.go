package fleet

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"sync"

	corev1 "k8s.io/api/core/v1"

	"github.com/kubeletcfg/kubeletcfg/engine"
	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/internal/optionerr"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
	"github.com/kubeletcfg/kubeletcfg/report"
	"github.com/kubeletcfg/kubeletcfg/skew"
)

// Node is one node of a cluster run (kubeletcfg cluster): what the API says
// of it, what was read from it, and the group it falls in. Its JSON is an
// entry of the run's "nodes".
type Node struct {
	Name string `json:"name"`
	Pool string `json:"pool"`
	// OS is the operating system its kubelet is evaluated for (NodeOS:
	// status.nodeInfo.operatingSystem); OSReported is the API's value when
	// it is neither linux nor windows (the node is then evaluated as linux).
	OS             kubelets.OS `json:"os"`
	OSReported     string      `json:"osReported,omitempty"`
	KubeletVersion string      `json:"kubeletVersion"`
	Minor          string      `json:"minor"`
	Group          string      `json:"group"`
	Flags          string      `json:"flags"`

	// Kubelet is the minor it runs; nil when it is not evaluated (a minor
	// kubeletcfg does not know, a node that could not be read).
	Kubelet *kubelets.Minor `json:"-"`
	// Configz is its /configz body, Args its command line from /flagz.
	Configz []byte   `json:"-"`
	Args    []string `json:"-"`
	// FlagzMissing says why its flags are unknown.
	FlagzMissing string `json:"-"`
	// Key is what is evaluated (configuration, flags, minor, and the cgroup
	// version, or the OS for a Windows node), Config the configuration and
	// flags alone (drift).
	Key, Config string `json:"-"`
}

// NewNodes turns the API's nodes into the run's, with their pool (the
// poolLabel's value, default PoolLabel's), OS and minor; nodes whose minor
// kubeletcfg does not know, and the names in missing, are failures.
func NewNodes(list []corev1.Node, missing []string, poolLabel string) ([]*Node, []Failure) {
	if poolLabel == "" {
		poolLabel = PoolLabel(list)
	}
	var failures []Failure
	nodes := make([]*Node, 0, len(list))
	for i := range list {
		n := &list[i]
		cn := &Node{Name: n.Name, Pool: PoolOf(n, poolLabel), KubeletVersion: n.Status.NodeInfo.KubeletVersion, Flags: "unknown"}
		cn.OS, cn.OSReported = NodeOS(n.Status.NodeInfo.OperatingSystem)
		cn.Minor = MinorOf(cn.KubeletVersion)
		m, err := kubelets.Lookup(cn.Minor)
		if cn.Minor == "" || err != nil {
			cn.Minor = ""
			failures = append(failures, Failure{Node: n.Name, Reason: ReasonUnknownMinor,
				Message: fmt.Sprintf("kubelet %q: kubeletcfg knows %s", cn.KubeletVersion, strings.Join(kubelets.Supported(), ", "))})
		} else {
			cn.Kubelet = m
		}
		nodes = append(nodes, cn)
	}
	for _, name := range missing {
		failures = append(failures, Failure{Node: name, Reason: ReasonUnreachable, Message: "no such node"})
	}
	return nodes, failures
}

// NodeOS is the operating system a node's kubelet is evaluated for, from its
// status.nodeInfo.operatingSystem (the kubelet's runtime.GOOS): windows is
// kubelets.Windows, anything else kubelets.Linux. reported is the API's value
// when it is neither linux, windows nor empty (a node that reports none is
// taken as Linux, as --os defaults), so that the report shows what was
// assumed rather than guessing silently.
func NodeOS(operatingSystem string) (os kubelets.OS, reported string) {
	switch kubelets.OS(operatingSystem) {
	case kubelets.Windows:
		return kubelets.Windows, ""
	case kubelets.Linux, "":
		return kubelets.Linux, ""
	}
	return kubelets.Linux, operatingSystem
}

// Requests are the reads of the nodes that are evaluated: configz, and flagz
// where the minor serves it by default (FlagzByDefault).
func Requests(nodes []*Node) (reqs []Request, reading []*Node) {
	for _, n := range nodes {
		if n.Kubelet != nil {
			reqs = append(reqs, Request{Name: n.Name, Flagz: FlagzByDefault(n.Kubelet)})
			reading = append(reading, n)
		}
	}
	return reqs, reading
}

// FlagzByDefault: ComponentFlagz is on by default from 1.36; older kubelets
// are not asked (a 404 per node would only cost requests).
func FlagzByDefault(m *kubelets.Minor) bool { return m.AtLeast(kubelets.Version{Major: 1, Minor: 36}) }

// Take records what was read from n and computes its keys; a node that
// could not be read, or whose body is not configz, is a failure and is not
// evaluated (nor counted among its pool's configurations).
func (n *Node) Take(d NodeData, cgroup int) *Failure {
	if d.Failure != nil {
		n.Kubelet = nil
		return d.Failure
	}
	if err := CheckConfigz(d.Configz); err != nil {
		n.Kubelet = nil
		return &Failure{Node: n.Name, Reason: ReasonMalformed, Message: err.Error()}
	}
	n.Configz = d.Configz
	n.Flags, n.FlagzMissing = "unknown", d.FlagzMissing
	if d.Flagz != nil {
		args, err := ParseFlagz(d.Flagz, n.Kubelet, n.OS)
		if err != nil {
			n.FlagzMissing = "flagz: " + err.Error()
		} else {
			n.Flags, n.Args = "known", args
		}
	}
	n.Config = engine.NewHasher().Bytes(d.Configz).String(n.Flags).Strings(n.Args).Sum()
	key := engine.NewHasher().String(n.Config).String(n.Kubelet.Version)
	if n.OS == kubelets.Windows {
		// No cgroups on Windows (the pipeline ignores the version); the OS
		// instead keeps a Windows node apart from a Linux one with the same
		// configz. A Linux node's key is as it was before nodes had an OS.
		key.String(string(n.OS))
	} else {
		key.String(fmt.Sprint(cgroup))
	}
	n.Key = key.Sum()
	return nil
}

// CheckConfigz tells a configz body from anything else a node or a proxy may
// answer with (an HTML error page, a truncated or foreign document): JSON, one
// object with the one key "kubeletconfig", whose value is an object. These are
// the documents input.FromConfigz converts, so a node that passes is one the
// evaluation can read. The body is hashed as it is: the kubelet writes it with
// encoding/json from its own struct, so the same configuration at the same
// minor is the same bytes.
func CheckConfigz(body []byte) error {
	if !json.Valid(body) {
		var v json.RawMessage
		err := json.Unmarshal(body, &v) // only for its message
		return fmt.Errorf("configz is not JSON: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if t, _ := dec.Token(); t != json.Delim('{') {
		return fmt.Errorf(`configz has no kubeletconfig: the body is %s, not {"kubeletconfig": {...}}`, jsonKind(t))
	}
	var keys []string
	var inner json.RawMessage
	for dec.More() {
		k, _ := dec.Token()
		key, _ := k.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return fmt.Errorf("configz is not JSON: %v", err)
		}
		if key == "kubeletconfig" && inner == nil {
			inner = v
		}
		keys = append(keys, key)
	}
	switch {
	case inner == nil:
		return fmt.Errorf(`configz has no kubeletconfig: the body is an object with %s, not {"kubeletconfig": {...}}`, keyList(keys))
	case len(keys) > 1:
		return fmt.Errorf(`configz has keys besides kubeletconfig: the body is an object with %s, not {"kubeletconfig": {...}}`, keyList(keys))
	case inner[0] != '{':
		var t json.Token
		t, _ = json.NewDecoder(bytes.NewReader(inner)).Token()
		return fmt.Errorf("configz's kubeletconfig is %s, not an object", jsonKind(t))
	}
	return nil
}

// jsonKind names the JSON value that starts with token t.
func jsonKind(t json.Token) string {
	switch t.(type) {
	case json.Delim:
		return "an array" // '{' is handled by the callers
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return "a number"
}

// keyList is an object's keys for a message: at most five, each cut to 40
// bytes, since the object may be anything a broken node sends.
func keyList(keys []string) string {
	if len(keys) == 0 {
		return "no keys"
	}
	var b strings.Builder
	b.WriteString(plural(len(keys), "the key ", "the keys "))
	for i, k := range keys {
		if i == 5 {
			fmt.Fprintf(&b, " (+%d more)", len(keys)-5)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		if len(k) > 40 {
			k = k[:40] + "..."
		}
		fmt.Fprintf(&b, "%q", k)
	}
	return b.String()
}

// Keys are the nodes' keys for Run: "" for a node that is not evaluated.
func Keys(nodes []*Node) []string {
	keys := make([]string, len(nodes))
	for i, n := range nodes {
		if n.Kubelet != nil {
			keys[i] = n.Key
		}
	}
	return keys
}

// Eval is the evaluation of one distinct key: lint at the node's minor, or
// preflight from it to a target.
type Eval struct {
	Err    error
	Starts bool
	// Lint is the lint report (lint), Preflight the comparison (preflight).
	Lint      *report.Document
	Preflight *skew.Preflight
	// Raw is the report as JSON, spread into the group's JSON.
	Raw json.RawMessage
	// Findings are the lint findings, or the target's (preflight).
	Findings []finding.Finding
}

// CheckTarget refuses a preflight to an older minor than the node's. The
// error names the target as cluster.Request.Target, which the command prints
// as its --to (kubeletcfg.CommandWords; Fleet.Reword for the groups' errors).
func CheckTarget(n *Node, target *kubelets.Minor) error {
	if target.Before(n.Kubelet) {
		return optionerr.In("Request").Errorf("the nodes run kubelet %s, newer than {Target} %s", n.Kubelet.Version, target.Version)
	}
	return nil
}

// Group is the nodes of one pool with one key (so of one OS); its JSON is
// its fields and its report's.
type Group struct {
	ID     string      `json:"id"`
	Pool   string      `json:"pool"`
	OS     kubelets.OS `json:"os"`
	Minor  string      `json:"minor"`
	Nodes  []string    `json:"nodes"`
	Starts bool        `json:"starts"`
	Flags  string      `json:"flags"`
	Error  string      `json:"error,omitempty"`

	Eval   *Eval  `json:"-"`
	Config string `json:"-"`
}

// MarshalJSON spreads the group's report next to its own fields.
func (g Group) MarshalJSON() ([]byte, error) {
	type plain Group
	head, err := json.Marshal(plain(g))
	if err != nil {
		return nil, err
	}
	merged := map[string]json.RawMessage{}
	if g.Eval != nil && g.Eval.Raw != nil {
		if err := json.Unmarshal(g.Eval.Raw, &merged); err != nil {
			return nil, err
		}
	}
	var own map[string]json.RawMessage
	if err := json.Unmarshal(head, &own); err != nil {
		return nil, err
	}
	for k, v := range own {
		merged[k] = v
	}
	return json.Marshal(merged)
}

// Pool is one pool of the run, the nodes of one OS in it (the Windows nodes
// of a pool are a Pool apart from its Linux nodes: they cannot share a
// configuration, so they are not drift): its nodes and how many
// configurations they have (more than one: drift).
type Pool struct {
	Name           string      `json:"name"`
	OS             kubelets.OS `json:"os"`
	Nodes          int         `json:"nodes"`
	Configurations int         `json:"configurations"`
	Drift          bool        `json:"drift"`
}

// Result is the verdict for one pool's nodes of one OS at one running minor.
type Result struct {
	Pool   string      `json:"pool"`
	OS     kubelets.OS `json:"os"`
	Minor  string      `json:"minor"`
	To     string      `json:"to,omitempty"`
	Nodes  int         `json:"nodes"`
	Groups int         `json:"groups"`
	// Starts is true when every group's kubelet (the target's, for preflight)
	// starts; Refusing are the nodes whose kubelet would not.
	Starts   bool     `json:"starts"`
	Refusing []string `json:"refusing"`
}

// Groups groups the nodes by pool and key (sorted by pool, OS, minor, then
// most nodes first), counts the configurations of each pool's nodes of each
// OS, and sums up each pool's nodes of one OS at each minor; evals are Run's,
// one per node. The nodes get their Group.
func Groups(nodes []*Node, evals []*Eval, target *kubelets.Minor) ([]Group, []Pool, []Result) {
	type poolOS struct {
		name string
		os   kubelets.OS
	}
	at := map[string]int{}
	var groups []Group
	poolNodes := map[poolOS]int{}
	poolConfigs := map[poolOS]map[string]bool{}
	for i, n := range nodes {
		p := poolOS{n.Pool, n.OS.Or()}
		poolNodes[p]++
		if n.Kubelet == nil {
			continue
		}
		if poolConfigs[p] == nil {
			poolConfigs[p] = map[string]bool{}
		}
		poolConfigs[p][n.Config] = true
		id := n.Pool + "/" + n.Key[:12]
		j, ok := at[id]
		if !ok {
			j = len(groups)
			at[id] = j
			g := Group{ID: id, Pool: n.Pool, OS: p.os, Minor: n.Minor, Flags: n.Flags, Eval: evals[i], Config: n.Config}
			if evals[i].Err != nil {
				g.Error = evals[i].Err.Error()
			} else {
				g.Starts = evals[i].Starts
			}
			groups = append(groups, g)
		}
		groups[j].Nodes = append(groups[j].Nodes, n.Name)
		n.Group = id
	}
	sort.SliceStable(groups, func(i, j int) bool {
		a, b := groups[i], groups[j]
		switch {
		case a.Pool != b.Pool:
			return a.Pool < b.Pool
		case a.OS != b.OS:
			return a.OS < b.OS // linux first
		case a.Minor != b.Minor:
			return kubelets.VersionOf(a.Minor).Before(kubelets.VersionOf(b.Minor))
		case len(a.Nodes) != len(b.Nodes):
			return len(a.Nodes) > len(b.Nodes)
		}
		return a.Nodes[0] < b.Nodes[0]
	})
	if groups == nil {
		groups = []Group{}
	}
	var pools []Pool
	for p, n := range poolNodes {
		k := len(poolConfigs[p])
		pools = append(pools, Pool{Name: p.name, OS: p.os, Nodes: n, Configurations: k, Drift: k > 1})
	}
	sort.Slice(pools, func(i, j int) bool {
		if pools[i].Name != pools[j].Name {
			return pools[i].Name < pools[j].Name
		}
		return pools[i].OS < pools[j].OS
	})
	if pools == nil {
		pools = []Pool{}
	}
	to := ""
	if target != nil {
		to = target.Version
	}
	results := []Result{}
	for _, g := range groups {
		if last := len(results) - 1; last < 0 || results[last].Pool != g.Pool || results[last].OS != g.OS || results[last].Minor != g.Minor {
			results = append(results, Result{Pool: g.Pool, OS: g.OS, Minor: g.Minor, To: to, Starts: true, Refusing: []string{}})
		}
		r := &results[len(results)-1]
		r.Nodes += len(g.Nodes)
		r.Groups++
		if !g.Starts && g.Error == "" { // an error is not a verdict (a node newer than --to)
			r.Starts = false
			r.Refusing = append(r.Refusing, g.Nodes...)
		}
	}
	for i := range results {
		sort.Strings(results[i].Refusing)
	}
	return groups, pools, results
}

// defaultsObjects caches each minor's default configuration on each OS (the
// effective object of an empty file: the Windows kubelet's evictionHard
// defaults differ).
var defaultsObjects sync.Map // defaultsKey -> func() (map[string]any, error)

type defaultsKey struct {
	m  *kubelets.Minor
	os kubelets.OS
}

func defaultsObject(m *kubelets.Minor, os kubelets.OS) (map[string]any, error) {
	os = os.Or()
	f, _ := defaultsObjects.LoadOrStore(defaultsKey{m, os}, sync.OnceValues(func() (map[string]any, error) {
		const empty = "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n"
		path := "(defaults of kubelet " + m.Version + ")"
		r, err := pipeline.Evaluate(m, pipeline.Input{Config: path, Virtual: map[string][]byte{path: []byte(empty)}, OS: os})
		if err != nil {
			return nil, err
		}
		return r.EffectiveObject()
	}))
	return f.(func() (map[string]any, error))()
}

// WithoutDefaults is the configuration document doc (configz's, merged and
// defaulted) without the values equal to the defaults of m's kubelet on os
// (a map is pruned key by key, a list compared whole): what a preflight takes
// as set, so that the rest follows the target's defaults.
func WithoutDefaults(doc []byte, m *kubelets.Minor, os kubelets.OS) ([]byte, error) {
	defaults, err := defaultsObject(m, os)
	if err != nil {
		return nil, err
	}
	var obj map[string]any
	if err := json.Unmarshal(doc, &obj); err != nil {
		return nil, err
	}
	// The defaults object went through JSON too: numbers are float64 on both sides.
	raw, err := json.Marshal(defaults)
	if err != nil {
		return nil, err
	}
	var def map[string]any
	if err := json.Unmarshal(raw, &def); err != nil {
		return nil, err
	}
	for _, k := range []string{"apiVersion", "kind"} {
		delete(def, k)
	}
	prune(obj, def)
	return json.MarshalIndent(obj, "", "  ")
}

func prune(obj, def map[string]any) {
	for k, v := range obj {
		d, ok := def[k]
		if !ok {
			continue
		}
		vm, vIsMap := v.(map[string]any)
		dm, dIsMap := d.(map[string]any)
		switch {
		case vIsMap && dIsMap:
			prune(vm, dm)
			if len(vm) == 0 {
				delete(obj, k)
			}
		case reflect.DeepEqual(v, d):
			delete(obj, k)
		}
	}
}
