package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/signal"
	"reflect"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/kubeletcfg/kubeletcfg/fleet"
	"github.com/kubeletcfg/kubeletcfg/input"
	"github.com/kubeletcfg/kubeletcfg/matrix"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
	"github.com/kubeletcfg/kubeletcfg/report"
	"github.com/kubeletcfg/kubeletcfg/skew"
	"github.com/kubeletcfg/kubeletcfg/validate"
)

// clusterFlags are the flags of cluster lint and cluster preflight.
type clusterFlags struct {
	// kubeconfig and overrides are kubectl's connection flags, bound by
	// client-go's clientcmd as kubectl (cli-runtime's ConfigFlags) binds them.
	kubeconfig    *clientcmd.ClientConfigLoadingRules
	overrides     *clientcmd.ConfigOverrides
	selector      string
	nodes         []string
	poolLabel     string
	output        string
	failOn        string
	concurrency   int
	qps           float32
	burst         int
	nodeTimeout   time.Duration
	cgroupVersion string
	to            string // preflight only
}

// Client defaults: at most 16 proxied requests in flight keeps kubeletcfg a
// small tenant of its API Priority and Fairness level (APF limits requests in
// flight, not their rate); 100 QPS with a burst of 200 reads 2,000 nodes'
// configz and flagz (4,000 requests) in about 40 s.
const (
	defaultConcurrency = 16
	defaultQPS         = 100
	defaultBurst       = 200
	defaultNodeTimeout = 20 * time.Second
)

func newClusterCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "cluster",
		Short: "Lint or preflight the nodes of a live cluster, read through the Kubernetes API",
		Long: `Read every node of a cluster through the Kubernetes API, as kubectl does: its
kubelet version (status.nodeInfo.kubeletVersion), its configuration
(GET /api/v1/nodes/NAME/proxy/configz) and, where the kubelet serves it, its
command line (/proxy/flagz, ComponentFlagz: on by default from 1.36). Nodes are
grouped by pool (--pool-label) and by what they run; each distinct
configuration is evaluated once.

configz is merged and defaulted by the kubelet: it cannot show which values a
file set and which are defaults, nor which drop-in set them. Run
'kubeletcfg discover' on a node for file-level detail.

Connection flags are kubectl's (--kubeconfig, --context, KUBECONFIG, in-cluster
configuration in a pod), bound by client-go's clientcmd as kubectl binds them. The user needs list and get on nodes and get on
nodes/proxy (deploy/rbac.yaml). Installed as kubectl-kubeletcfg, this
is also 'kubectl kubeletcfg cluster ...'.`,
		Example: `  kubeletcfg cluster lint
  kubeletcfg cluster preflight --to 1.37 -o json
  kubectl kubeletcfg cluster lint --context prod -l karpenter.sh/nodepool=gpu`,
	}
	cmd.AddCommand(newClusterLintCommand(), newClusterPreflightCommand())
	return cmd
}

func (f *clusterFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	f.kubeconfig = clientcmd.NewDefaultClientConfigLoadingRules()
	f.overrides = &clientcmd.ConfigOverrides{}
	fl.StringVar(&f.kubeconfig.ExplicitPath, "kubeconfig", "", "path to the kubeconfig file (default: $KUBECONFIG, else ~/.kube/config, else the in-cluster configuration)")
	names := clientcmd.RecommendedConfigOverrideFlags("")
	names.ContextOverrideFlags.Namespace = clientcmd.FlagInfo{} // nodes have no namespace
	names.AuthOverrideFlags.Username, names.AuthOverrideFlags.Password = clientcmd.FlagInfo{}, clientcmd.FlagInfo{}
	names.ClusterOverrideFlags.APIServer.ShortName = "s"
	clientcmd.BindOverrideFlags(f.overrides, fl, names)
	fl.StringVarP(&f.selector, "selector", "l", "", "only the nodes with these labels (a label selector: pool=gpu,zone!=a)")
	fl.StringArrayVar(&f.nodes, "node", nil, "only this node (repeatable)")
	fl.StringVar(&f.poolLabel, "pool-label", "", "the node label that names pools (default: the first present of "+strings.Join(fleet.PoolLabels, ", ")+"; else one pool)")
	fl.StringVarP(&f.output, "output", "o", "text", "output format: json, text")
	fl.StringVar(&f.failOn, "fail-on", "error", "exit 1 when a finding is at or above this severity: error, warning, info or none")
	fl.IntVar(&f.concurrency, "concurrency", defaultConcurrency, "nodes read at once (proxied requests in flight)")
	fl.Float32Var(&f.qps, "qps", defaultQPS, "requests per second to the API server (client-side rate limit)")
	fl.IntVar(&f.burst, "burst", defaultBurst, "requests allowed above --qps in a burst")
	fl.DurationVar(&f.nodeTimeout, "node-timeout", defaultNodeTimeout, "time allowed to read one node, retries included")
	fl.StringVar(&f.cgroupVersion, "cgroup-version", "v2", "cgroup version of the nodes' hosts (v1 or v2): the API does not report it")
	_ = cmd.RegisterFlagCompletionFunc("output", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return []string{"json", "text"}, cobra.ShellCompDirectiveNoFileComp
	})
	_ = cmd.RegisterFlagCompletionFunc("fail-on", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return []string{"error", "warning", "info", "none"}, cobra.ShellCompDirectiveNoFileComp
	})
}

func newClusterLintCommand() *cobra.Command {
	var f clusterFlags
	cmd := &cobra.Command{
		Use:   "lint",
		Short: "Lint every node's running configuration at the kubelet minor it runs",
		Example: `  # every node of the current context, grouped by pool
  kubeletcfg cluster lint

  # one pool, machine-readable, failing on warnings too
  kubeletcfg cluster lint -l eks.amazonaws.com/nodegroup=gpu -o json --fail-on warning

  # as a kubectl plugin, two nodes of another context
  kubectl kubeletcfg cluster lint --context prod --node ip-10-0-1-5 --node ip-10-0-1-6`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runCluster(cmd, &f, nil) },
	}
	f.register(cmd)
	return cmd
}

func newClusterPreflightCommand() *cobra.Command {
	var f clusterFlags
	cmd := &cobra.Command{
		Use:   "preflight",
		Short: "Report, per pool and running minor, whether the --to kubelet starts with the nodes' configuration and what changes",
		Long: `For each pool and each kubelet minor its nodes run, evaluate each distinct
configuration at the running minor and at --to, as 'kubeletcfg preflight' does
for files: blockers (why the target would not start), behaviour changes, notes;
and which nodes each concerns. Pools whose nodes do not share one configuration
are reported as drift.

configz shows every value, defaults included, and cannot tell a value a file set
from a default: a value equal to the running minor's default is taken as not set,
so it follows the target's default (a default that changes is reported as a
behaviour change). Exit code 1 when a target kubelet would not start (or a target
finding is at or above --fail-on).`,
		Example: `  # every pool of the current context, moving to 1.37
  kubeletcfg cluster preflight --to 1.37

  # in a pod with the ClusterRole of deploy/, as JSON for a log pipeline
  kubeletcfg cluster preflight --to 1.37 -o json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			tgt, err := skew.Lookup(f.to)
			if err != nil {
				return fmt.Errorf("--to: %w", err)
			}
			return runCluster(cmd, &f, tgt)
		},
	}
	f.register(cmd)
	cmd.Flags().StringVar(&f.to, "to", "", "the kubelet minor the pools move to (required; "+strings.Join(skew.Supported(), ", ")+")")
	_ = cmd.MarkFlagRequired("to")
	_ = cmd.RegisterFlagCompletionFunc("to", completeMinor)
	return cmd
}

// clusterNode is one node of the run.
type clusterNode struct {
	Name           string `json:"name"`
	Pool           string `json:"pool"`
	KubeletVersion string `json:"kubeletVersion"`
	Minor          string `json:"minor"`
	Group          string `json:"group"`
	Flags          string `json:"flags"`

	minor   *skew.Minor
	configz []byte
	args    []string
	flagz   string // why flags are unknown
	key     string // what is evaluated: configuration, flags, minor
	config  string // the configuration alone (drift)
}

// clusterEval is the evaluation of one distinct key.
type clusterEval struct {
	err       error
	starts    bool
	fails     int
	doc       lintDocument       // lint
	preflight *matrix.Preflight  // preflight
	raw       json.RawMessage    // the report as JSON
	findings  []validate.Finding // lint: findings; preflight: the target's
}

type clusterGroup struct {
	ID     string   `json:"id"`
	Pool   string   `json:"pool"`
	Minor  string   `json:"minor"`
	Nodes  []string `json:"nodes"`
	Starts bool     `json:"starts"`
	Flags  string   `json:"flags"`
	Error  string   `json:"error,omitempty"`

	eval   *clusterEval
	config string
}

// MarshalJSON spreads the group's report next to its own fields.
func (g clusterGroup) MarshalJSON() ([]byte, error) {
	type plain clusterGroup
	head, err := json.Marshal(plain(g))
	if err != nil {
		return nil, err
	}
	merged := map[string]json.RawMessage{}
	if g.eval != nil && g.eval.raw != nil {
		if err := json.Unmarshal(g.eval.raw, &merged); err != nil {
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

type clusterPool struct {
	Name           string `json:"name"`
	Nodes          int    `json:"nodes"`
	Configurations int    `json:"configurations"`
	Drift          bool   `json:"drift"`
}

// clusterResult is the verdict for one pool at one running minor.
type clusterResult struct {
	Pool   string `json:"pool"`
	Minor  string `json:"minor"`
	To     string `json:"to,omitempty"`
	Nodes  int    `json:"nodes"`
	Groups int    `json:"groups"`
	// Starts is true when every group's kubelet (the target's, for preflight)
	// starts; Refusing are the nodes whose kubelet would not.
	Starts   bool     `json:"starts"`
	Refusing []string `json:"refusing"`
}

func runCluster(cmd *cobra.Command, f *clusterFlags, target *skew.Minor) error {
	fleetMemoryLimit()
	if f.output != "text" && f.output != "json" {
		return fmt.Errorf("unknown output format %q (want json or text)", f.output)
	}
	threshold, err := parseFailOn(f.failOn)
	if err != nil {
		return err
	}
	cgroup, err := parseCgroup(f.cgroupVersion)
	if err != nil {
		return err
	}
	if f.concurrency < 1 || f.qps <= 0 || f.burst < 1 || f.nodeTimeout <= 0 {
		return errors.New("--concurrency, --qps, --burst and --node-timeout must be positive")
	}
	cfg, err := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(f.kubeconfig, f.overrides).ClientConfig()
	if err != nil {
		return fmt.Errorf("kubeconfig: %s", fleet.Redact(err.Error()))
	}
	cfg.QPS, cfg.Burst = f.qps, f.burst
	cfg.UserAgent = "kubeletcfg/" + rest.DefaultKubernetesUserAgent()
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return fmt.Errorf("kubeconfig: %s", fleet.Redact(err.Error()))
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	list, missing, err := fleet.ListNodes(ctx, cs, f.selector, f.nodes)
	if err != nil {
		return apiServerError(cfg.Host, err)
	}
	nodes, failures := clusterNodes(list, missing, f.poolLabel)

	// Read configz (and flagz where the minor serves it by default).
	var reqs []fleet.Request
	var reading []*clusterNode
	for _, n := range nodes {
		if n.minor != nil {
			reqs = append(reqs, fleet.Request{Name: n.Name, Flagz: flagzByDefault(n.minor)})
			reading = append(reading, n)
		}
	}
	progress := newProgress(cmd.ErrOrStderr())
	data := fleet.Fetch(ctx, cs.CoreV1().RESTClient(), reqs, fleet.FetchOptions{
		Concurrency: f.concurrency, NodeTimeout: f.nodeTimeout, Progress: progress.update,
	})
	progress.done()
	for i, d := range data {
		n := reading[i]
		if d.Failure != nil {
			failures = append(failures, *d.Failure)
			n.minor = nil
			continue
		}
		n.configz = d.Configz
		n.Flags, n.flagz = "unknown", d.FlagzMissing
		if d.Flagz != nil {
			args, err := fleet.ParseFlagz(d.Flagz, n.minor)
			if err != nil {
				n.flagz = "flagz: " + err.Error()
			} else {
				n.Flags, n.args = "known", args
			}
		}
		if err := configzLike(d.Configz); err != nil {
			failures = append(failures, fleet.Failure{Node: n.Name, Reason: fleet.ReasonNotServed, Message: "configz: " + err.Error()})
			n.minor = nil
			continue
		}
		h := fleet.NewHasher().Bytes(d.Configz).String(n.Flags).Strings(n.args)
		n.config = h.Sum()
		n.key = fleet.NewHasher().String(n.config).String(n.minor.Version).String(fmt.Sprint(cgroup)).Sum()
	}
	if ctx.Err() != nil {
		return errors.New("interrupted")
	}

	keys := make([]string, len(nodes))
	for i, n := range nodes {
		if n.minor != nil {
			keys[i] = n.key
		}
	}
	evals := fleet.Run(keys, 0, func(i int) *clusterEval {
		return evaluateClusterNode(nodes[i], target, cgroup, threshold)
	})
	groups, pools, results := clusterGroups(nodes, evals, target)
	sort.Slice(failures, func(i, j int) bool { return failures[i].Node < failures[j].Node })
	if failures == nil {
		failures = []fleet.Failure{}
	}

	out := cmd.OutOrStdout()
	if f.output == "json" {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		err = enc.Encode(struct {
			Server   string          `json:"server"`
			To       string          `json:"to,omitempty"`
			Limits   []string        `json:"limits"`
			Nodes    []*clusterNode  `json:"nodes"`
			Groups   []clusterGroup  `json:"groups"`
			Pools    []clusterPool   `json:"pools"`
			Results  []clusterResult `json:"results"`
			Failures []fleet.Failure `json:"failures"`
		}{redactURL(cfg.Host), versionOf(target), clusterLimits(target), nodes, groups, pools, results, failures})
	} else {
		err = writeCluster(out, nodes, groups, pools, results, failures, target)
	}
	if err != nil {
		return err
	}
	fails := 0
	for _, g := range groups {
		if g.eval != nil && g.eval.err == nil {
			fails += g.eval.fails * len(g.Nodes)
		}
	}
	if fails > 0 {
		return &findingsError{n: fails}
	}
	return nil
}

// clusterLimits are what a report built from configz cannot know.
func clusterLimits(target *skew.Minor) []string {
	l := []string{"configz is the configuration each kubelet runs, merged and defaulted: it cannot show which values a file set and which are defaults, nor which drop-in set them (run 'kubeletcfg discover' on a node for file-level detail)"}
	if target != nil {
		l = append(l, "a value equal to the running minor's default is taken as not set: it follows the target's default")
	}
	return l
}

// flagzByDefault: ComponentFlagz is on by default from 1.36; older kubelets
// are not asked (a 404 per node would only cost requests).
func flagzByDefault(m *skew.Minor) bool { return m.AtLeast(skew.Version{Major: 1, Minor: 36}) }

func versionOf(m *skew.Minor) string {
	if m == nil {
		return ""
	}
	return m.Version
}

// clusterNodes turns the API's nodes into the run's, with their pool and
// minor; nodes whose minor kubeletcfg does not know (and --node names that do
// not exist) are failures.
func clusterNodes(list []corev1.Node, missing []string, poolLabel string) ([]*clusterNode, []fleet.Failure) {
	if poolLabel == "" {
		poolLabel = fleet.PoolLabel(list)
	}
	var failures []fleet.Failure
	nodes := make([]*clusterNode, 0, len(list))
	for i := range list {
		n := &list[i]
		cn := &clusterNode{Name: n.Name, Pool: fleet.PoolOf(n, poolLabel), KubeletVersion: n.Status.NodeInfo.KubeletVersion, Flags: "unknown"}
		cn.Minor = fleet.MinorOf(cn.KubeletVersion)
		m, err := skew.Lookup(cn.Minor)
		if cn.Minor == "" || err != nil {
			cn.Minor = ""
			failures = append(failures, fleet.Failure{Node: n.Name, Reason: fleet.ReasonUnknownMinor,
				Message: fmt.Sprintf("kubelet %q: kubeletcfg knows %s", cn.KubeletVersion, strings.Join(skew.Supported(), ", "))})
		} else {
			cn.minor = m
		}
		nodes = append(nodes, cn)
	}
	for _, name := range missing {
		failures = append(failures, fleet.Failure{Node: name, Reason: fleet.ReasonUnreachable, Message: "no such node"})
	}
	return nodes, failures
}

// configzLike tells a configz body from something else a proxy may answer
// with (an HTML error page): {"kubeletconfig": ...}. The body is hashed as it
// is: the kubelet writes it with encoding/json from its own struct, so the
// same configuration at the same minor is the same bytes.
func configzLike(body []byte) error {
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	if !bytes.HasPrefix(trimmed, []byte("{")) || !bytes.Contains(trimmed[:min(len(trimmed), 64)], []byte(`"kubeletconfig"`)) {
		return errors.New(`the body is not a configz document ({"kubeletconfig": {...}})`)
	}
	return nil
}

// configzName is what findings call a node's configz.
const configzName = "configz"

// evaluateClusterNode evaluates n's configuration at its minor (lint) or from
// its minor to target (preflight).
func evaluateClusterNode(n *clusterNode, target *skew.Minor, cgroup int, threshold validate.Severity) *clusterEval {
	e := &clusterEval{}
	src, err := input.Convert(configzName, n.configz, input.Configz)
	if err != nil {
		e.err = err
		return e
	}
	in := pipeline.Input{CgroupVersion: cgroup, Flags: n.args}
	for range n.args {
		in.FlagPositions = append(in.FlagPositions, validate.Position{File: "flagz"})
	}
	if target == nil {
		src.Apply(&in)
		res, err := pipeline.Evaluate(n.minor, in)
		if err == nil {
			err = src.Settle(res)
		}
		if err != nil {
			e.err = err
			return e
		}
		doc := report.FromResult(res)
		e.doc = lintDocument{Document: doc, Input: inputName(src)}
		e.starts, e.findings = doc.Starts, doc.Findings
		e.fails = countAtLeast(doc.Findings, threshold)
		e.raw, e.err = json.Marshal(e.doc)
		return e
	}
	if target.Before(n.minor) {
		e.err = fmt.Errorf("the nodes run kubelet %s, newer than --to %s", n.minor.Version, target.Version)
		return e
	}
	doc, err := withoutDefaults(src.Data, n.minor)
	if err != nil {
		e.err = err
		return e
	}
	name := configzName + " (without " + n.minor.Version + " defaults)"
	in.Config = name
	in.Virtual = map[string][]byte{name: doc}
	p, err := matrix.NewPreflight(in, n.minor, target)
	if err != nil {
		e.err = err
		return e
	}
	e.preflight = p
	e.starts = p.Starts()
	e.findings = p.To.Result.Findings
	e.fails = countAtLeast(e.findings, threshold)
	var b bytes.Buffer
	if err := p.WriteJSON(&b); err != nil {
		e.err = err
		return e
	}
	e.raw = b.Bytes()
	return e
}

// defaultsObjects caches each minor's default configuration (the effective
// object of an empty file).
var defaultsObjects sync.Map // *skew.Minor -> func() (map[string]any, error)

func defaultsObject(m *skew.Minor) (map[string]any, error) {
	f, _ := defaultsObjects.LoadOrStore(m, sync.OnceValues(func() (map[string]any, error) {
		const empty = "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n"
		path := "(defaults of kubelet " + m.Version + ")"
		r, err := pipeline.Evaluate(m, pipeline.Input{Config: path, Virtual: map[string][]byte{path: []byte(empty)}})
		if err != nil {
			return nil, err
		}
		return r.EffectiveObject()
	}))
	return f.(func() (map[string]any, error))()
}

// withoutDefaults is the configuration document doc without the values equal
// to m's defaults (a map is pruned key by key, a list compared whole).
func withoutDefaults(doc []byte, m *skew.Minor) ([]byte, error) {
	defaults, err := defaultsObject(m)
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

// clusterGroups groups the nodes by pool and key (sorted by pool, minor,
// then most nodes first), counts each pool's configurations, and sums up each
// pool at each minor.
func clusterGroups(nodes []*clusterNode, evals []*clusterEval, target *skew.Minor) ([]clusterGroup, []clusterPool, []clusterResult) {
	at := map[string]int{}
	var groups []clusterGroup
	poolNodes := map[string]int{}
	poolConfigs := map[string]map[string]bool{}
	for i, n := range nodes {
		poolNodes[n.Pool]++
		if n.minor == nil {
			continue
		}
		if poolConfigs[n.Pool] == nil {
			poolConfigs[n.Pool] = map[string]bool{}
		}
		poolConfigs[n.Pool][n.config] = true
		id := n.Pool + "/" + n.key[:12]
		j, ok := at[id]
		if !ok {
			j = len(groups)
			at[id] = j
			g := clusterGroup{ID: id, Pool: n.Pool, Minor: n.Minor, Flags: n.Flags, eval: evals[i], config: n.config}
			if evals[i].err != nil {
				g.Error = evals[i].err.Error()
			} else {
				g.Starts = evals[i].starts
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
		case a.Minor != b.Minor:
			return skew.VersionOf(a.Minor).Before(skew.VersionOf(b.Minor))
		case len(a.Nodes) != len(b.Nodes):
			return len(a.Nodes) > len(b.Nodes)
		}
		return a.Nodes[0] < b.Nodes[0]
	})
	if groups == nil {
		groups = []clusterGroup{}
	}
	var pools []clusterPool
	for name, n := range poolNodes {
		k := len(poolConfigs[name])
		pools = append(pools, clusterPool{Name: name, Nodes: n, Configurations: k, Drift: k > 1})
	}
	sort.Slice(pools, func(i, j int) bool { return pools[i].Name < pools[j].Name })
	if pools == nil {
		pools = []clusterPool{}
	}
	results := []clusterResult{}
	for _, g := range groups {
		if len(results) == 0 || results[len(results)-1].Pool != g.Pool || results[len(results)-1].Minor != g.Minor {
			results = append(results, clusterResult{Pool: g.Pool, Minor: g.Minor, To: versionOf(target), Starts: true, Refusing: []string{}})
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

// writeCluster prints the run grouped by pool: drift, then each group (its
// nodes and its report), the pool's nodes that could not be read; then a
// summary line.
func writeCluster(out io.Writer, nodes []*clusterNode, groups []clusterGroup, pools []clusterPool, results []clusterResult, failures []fleet.Failure, target *skew.Minor) error {
	text, err := report.For("text")
	if err != nil {
		return err
	}
	poolOf := map[string]string{}
	for _, n := range nodes {
		poolOf[n.Name] = n.Pool
	}
	var b strings.Builder
	for _, l := range clusterLimits(target) {
		fmt.Fprintf(&b, "note: %s\n", l)
	}
	for _, p := range pools {
		b.WriteString("\n")
		fmt.Fprintf(&b, "pool %s: %d %s", p.Name, p.Nodes, plural(p.Nodes, "node", "nodes"))
		if p.Drift {
			fmt.Fprintf(&b, ", drift: %d configurations among %d nodes", p.Configurations, p.Nodes)
		}
		b.WriteString("\n")
		configs := map[string]int{} // drift: which configuration each group has
		for _, g := range groups {
			if g.Pool != p.Name {
				continue
			}
			if _, ok := configs[g.config]; !ok {
				configs[g.config] = len(configs) + 1
			}
			names, more := g.Nodes, ""
			if len(names) > nodeNames {
				names, more = names[:nodeNames], fmt.Sprintf(" (+%d more)", len(g.Nodes)-nodeNames)
			}
			fmt.Fprintf(&b, "\n  group %s, kubelet %s", g.ID, g.Minor)
			if target != nil {
				fmt.Fprintf(&b, " -> %s", target.Version)
			}
			if p.Drift {
				fmt.Fprintf(&b, ", configuration %d of %d", configs[g.config], p.Configurations)
			}
			fmt.Fprintf(&b, ", flags %s: %d %s: %s%s\n", g.Flags, len(g.Nodes), plural(len(g.Nodes), "node", "nodes"), strings.Join(names, ", "), more)
			var r strings.Builder
			switch {
			case g.eval.err != nil:
				fmt.Fprintf(&r, "error: %s\n", g.Error)
			case g.eval.preflight != nil:
				if err := g.eval.preflight.WriteText(&r); err != nil {
					return err
				}
			default:
				if err := text.Write(&r, []report.Document{g.eval.doc.Document}, report.Options{Quiet: true}); err != nil {
					return err
				}
			}
			writeIndented(&b, r.String(), "    ")
		}
		var failed []fleet.Failure
		for _, fl := range failures {
			if poolOf[fl.Node] == p.Name {
				failed = append(failed, fl)
			}
		}
		if len(failed) > 0 {
			fmt.Fprintf(&b, "\n  %d %s could not be read:\n", len(failed), plural(len(failed), "node", "nodes"))
			for _, fl := range failed {
				fmt.Fprintf(&b, "    %s: %s: %s\n", fl.Node, fl.Reason, fl.Message)
			}
		}
	}
	var orphans []fleet.Failure // --node names that do not exist
	for _, fl := range failures {
		if _, ok := poolOf[fl.Node]; !ok {
			orphans = append(orphans, fl)
		}
	}
	if len(orphans) > 0 {
		fmt.Fprintf(&b, "\n%d %s not found:\n", len(orphans), plural(len(orphans), "node", "nodes"))
		for _, fl := range orphans {
			fmt.Fprintf(&b, "  %s: %s\n", fl.Node, fl.Message)
		}
	}
	refusing := 0
	for _, r := range results {
		refusing += len(r.Refusing)
	}
	at := "at the minor each runs"
	if target != nil {
		at = "at kubelet " + target.Version
	}
	fmt.Fprintf(&b, "\n%d %s in %d %s, %d %s %s: %d would not start, %d could not be read\n",
		len(nodes), plural(len(nodes), "node", "nodes"), len(pools), plural(len(pools), "pool", "pools"),
		len(groups), plural(len(groups), "group", "groups"), at, refusing, len(failures)-len(orphans))
	_, err = io.WriteString(out, b.String())
	return err
}

// apiServerError is the error of a run that could not list the nodes: the
// server named without credentials; exit code 2.
func apiServerError(host string, err error) error {
	server := redactURL(host)
	msg := fleet.Redact(err.Error())
	switch {
	case apierrors.IsForbidden(err):
		return fmt.Errorf("the API server at %s refused to list nodes: the user needs list and get on nodes and get on nodes/proxy (deploy/rbac.yaml): %s", server, msg)
	case apierrors.IsUnauthorized(err):
		return fmt.Errorf("the API server at %s did not accept the credentials: %s", server, msg)
	}
	var se apierrors.APIStatus
	if errors.As(err, &se) {
		return fmt.Errorf("the API server at %s could not list nodes: %s", server, msg)
	}
	if errors.Is(err, context.Canceled) {
		return errors.New("interrupted")
	}
	return fmt.Errorf("cannot reach the API server at %s: %s", server, msg)
}

// redactURL is host without user information.
func redactURL(host string) string {
	u, err := url.Parse(host)
	if err != nil || u.Host == "" {
		return fleet.Redact(host)
	}
	u.User = nil
	return u.String()
}

// progress prints "reading nodes: done/total, failed" on standard error while
// nodes are read, when standard error is a terminal; nothing otherwise.
type progress struct {
	w    io.Writer
	on   bool
	last time.Time
	line string
}

func newProgress(w io.Writer) *progress {
	f, ok := w.(*os.File)
	return &progress{w: w, on: ok && term.IsTerminal(int(f.Fd()))}
}

func (p *progress) update(done, failed, total int) {
	if !p.on || (done < total && time.Since(p.last) < 100*time.Millisecond) {
		return
	}
	p.last = time.Now()
	p.line = fmt.Sprintf("\rreading nodes: %d/%d, %d failed", done, total, failed)
	fmt.Fprint(p.w, p.line)
}

func (p *progress) done() {
	if p.on && p.line != "" {
		fmt.Fprint(p.w, "\r"+strings.Repeat(" ", len(p.line))+"\r")
	}
}
