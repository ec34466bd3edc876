// Package cluster is kubeletcfg's cluster verbs (kubeletcfg cluster lint
// and preflight): each kubeconfig context's nodes listed and read through its
// API server (package fleet), each distinct configuration evaluated once with
// the library (kubeletcfg.LintConfigz; skew's preflight), and each cluster's
// pools reported. It is apart from the library so that a program that embeds
// kubeletcfg without it links no client-go.
package cluster

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/kubeletcfg/kubeletcfg"
	"github.com/kubeletcfg/kubeletcfg/engine"
	"github.com/kubeletcfg/kubeletcfg/fleet"
	"github.com/kubeletcfg/kubeletcfg/input"
	"github.com/kubeletcfg/kubeletcfg/internal/optionerr"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/report"
	"github.com/kubeletcfg/kubeletcfg/report/verbtext/clustertext"
	"github.com/kubeletcfg/kubeletcfg/skew"
)

// ConfigzName is what findings call a node's configz in a cluster run.
const ConfigzName = kubeletcfg.ConfigzName

// A fleet is a verdict like the library's results.
var _ kubeletcfg.Verdict = (*Fleet)(nil)

// Fleet is what Run found: fleet.Fleet (its fields, JSON and CountAtLeast)
// with the command's writer, whose text is report/verbtext/clustertext's.
type Fleet struct {
	*fleet.Fleet
}

// Write prints the run as `kubeletcfg cluster -o FORMAT` does: json, or text.
func (f *Fleet) Write(out io.Writer, format string, _ report.Options) error {
	switch format {
	case "json":
		return report.WriteJSON(out, f.Fleet)
	case "text":
		return clustertext.WriteFleet(out, f.Fleet)
	}
	return fleet.CheckFormat(format)
}

// EvaluateNode evaluates a node read through the API (fleet.Node:
// its configz and flagz) at the minor it runs (target nil: lint; the report
// is a LintReport) or from it to target (preflight; the values equal to the
// running minor's defaults taken as not set, fleet.WithoutDefaults), as the
// kubelet of its OS (fleet.Node.OS: a Windows node's checks, defaults and
// flags are the Windows kubelet's, and cgroup does not apply to it).
func EvaluateNode(n *fleet.Node, target *kubelets.Minor, cgroup int) *fleet.Eval {
	e := &fleet.Eval{}
	if target == nil {
		doc, err := kubeletcfg.LintConfigz(n.Configz, n.Args, n.Kubelet, n.OS, cgroup)
		if err != nil {
			e.Err = err
			return e
		}
		e.Lint = &doc.Document
		e.Starts, e.Findings = doc.Starts, doc.Findings
		e.Raw, e.Err = json.Marshal(doc)
		return e
	}
	src, err := input.Convert(ConfigzName, n.Configz, input.Configz)
	if err != nil {
		e.Err = err
		return e
	}
	in := kubeletcfg.FlagzInput(n.Args, n.OS, cgroup)
	if e.Err = fleet.CheckTarget(n, target); e.Err != nil {
		return e
	}
	doc, err := fleet.WithoutDefaults(src.Data, n.Kubelet, n.OS)
	if err != nil {
		e.Err = err
		return e
	}
	name := ConfigzName + " (without " + n.Kubelet.Version + " defaults)"
	in.Config = name
	in.Virtual = map[string][]byte{name: doc}
	p, err := skew.NewPreflight(in, n.Kubelet, target)
	if err != nil {
		e.Err = err
		return e
	}
	e.Preflight = p
	e.Starts = p.Starts()
	e.Findings = p.To.Result.Findings
	var b bytes.Buffer
	if err := p.WriteJSON(&b); err != nil {
		e.Err = err
		return e
	}
	e.Raw = b.Bytes()
	return e
}

// Request is a cluster run (kubeletcfg cluster lint and preflight)
// over one cluster or several: which kubeconfig contexts, which nodes, how
// they are read and what they are evaluated at.
type Request struct {
	// Kubeconfig and Overrides are kubectl's connection settings (client-go's
	// clientcmd: --kubeconfig, KUBECONFIG, --server, --user, ..., the
	// in-cluster configuration); the overrides apply to every context.
	Kubeconfig *clientcmd.ClientConfigLoadingRules
	Overrides  *clientcmd.ConfigOverrides
	// Contexts are the kubeconfig contexts to read, in this order; none is the
	// current context. AllContexts reads every context, sorted by name.
	Contexts    []string
	AllContexts bool

	// Selector (a label selector) or Nodes (names) choose the nodes;
	// PoolLabel names pools (default fleet.PoolLabel's).
	Selector  string
	Nodes     []string
	PoolLabel string

	// Target is preflight's --to; nil lints each node at the minor it runs.
	Target *kubelets.Minor
	// Cgroup is the nodes' hosts' cgroup version (1 or 2).
	Cgroup int

	// QPS and Burst bound the requests to each API server, UserAgent names
	// the client to it (default kubeletcfg/ and client-go's); Fetch bounds
	// the reads of the nodes.
	QPS       float32
	Burst     int
	UserAgent string
	Fetch     fleet.FetchOptions
	// Progress, when set, is called as each cluster's nodes are read
	// (fleet.FetchOptions.Progress, with the context's name).
	Progress func(context string, done, failed, total int)
}

// Validate checks the request's bounds before any cluster is read.
func (req *Request) Validate() error {
	if req.Fetch.Concurrency < 1 || req.QPS <= 0 || req.Burst < 1 || req.Fetch.NodeTimeout <= 0 {
		return requestErrorf("{Fetch.Concurrency}, {QPS}, {Burst} and {Fetch.NodeTimeout} must be positive")
	}
	return nil
}

// requestErrorf is an error about Request's fields in the library's words
// (Request.AllContexts); the command prints its flags (kubeletcfg.FlagWords:
// --all-contexts).
var requestErrorf = optionerr.In("Request").Errorf

// Run runs req: lists each cluster's nodes, reads them through its API
// server, evaluates each distinct configuration once over all the clusters
// (the key is the configuration, flags and minor, never the cluster) and
// reports each cluster's pools (fleet.Fleet, in a Fleet).
//
// With one context (or none: the current one), an error reaching or reading
// the cluster is the run's error. With several (or AllContexts), a cluster
// that cannot be read is listed in the result's Errors and the others are
// reported; the run's error is that none could be read. A context the
// kubeconfig does not have is an error before any cluster is read.
func Run(ctx context.Context, req Request) (*Fleet, error) {
	if req.Kubeconfig == nil {
		req.Kubeconfig = clientcmd.NewDefaultClientConfigLoadingRules()
	}
	if req.UserAgent == "" {
		req.UserAgent = "kubeletcfg/" + rest.DefaultKubernetesUserAgent()
	}
	names, single, err := clusterContexts(req)
	if err != nil {
		return nil, err
	}
	type read struct {
		server   string
		nodes    []*fleet.Node
		failures []fleet.Failure
	}
	runs := make([]*read, len(names))
	errs := map[string]string{}
	var all []*fleet.Node
	for i, name := range names {
		server, nodes, failures, err := readCluster(ctx, req, name)
		if ctx.Err() != nil {
			return nil, errors.New("interrupted")
		}
		if err != nil {
			if single {
				return nil, err
			}
			errs[name] = err.Error()
			continue
		}
		runs[i] = &read{server, nodes, failures}
		all = append(all, nodes...)
	}
	if len(errs) == len(names) {
		var b strings.Builder
		for i, name := range names {
			if i > 0 {
				b.WriteString("; ")
			}
			fmt.Fprintf(&b, "%s: %s", name, errs[name])
		}
		return nil, fmt.Errorf("no context could be read: %s", b.String())
	}

	evals := engine.Run(fleet.Keys(all), 0, func(i int) *fleet.Eval {
		return EvaluateNode(all[i], req.Target, req.Cgroup)
	})
	f := &fleet.Fleet{Contexts: map[string]*fleet.Report{}, Errors: errs, Order: names, Single: single}
	for i, name := range names {
		r := runs[i]
		if r == nil {
			continue
		}
		f.Contexts[name] = fleet.NewReport(r.server, r.nodes, evals[:len(r.nodes)], r.failures, req.Target)
		evals = evals[len(r.nodes):]
	}
	return &Fleet{f}, nil
}

// clusterContexts are the contexts req reads, in order; single is one
// context asked (or none: the current one, "" in the result).
func clusterContexts(req Request) (names []string, single bool, err error) {
	seen := map[string]bool{}
	for _, n := range req.Contexts {
		if !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	if req.AllContexts && len(names) > 0 {
		return nil, false, requestErrorf("{AllContexts} reads every context: leave out {Contexts}")
	}
	if !req.AllContexts && len(names) <= 1 {
		if len(names) == 0 {
			names = []string{""}
		}
		return names, true, nil
	}
	raw, err := req.Kubeconfig.Load()
	if err != nil {
		return nil, false, fmt.Errorf("kubeconfig: %s", fleet.Redact(err.Error()))
	}
	known := make([]string, 0, len(raw.Contexts))
	for n := range raw.Contexts {
		known = append(known, n)
	}
	sort.Strings(known)
	if req.AllContexts {
		if len(known) == 0 {
			return nil, false, requestErrorf("{AllContexts}: the kubeconfig has no contexts")
		}
		return known, false, nil
	}
	for _, n := range names {
		if raw.Contexts[n] == nil {
			return nil, false, fmt.Errorf("kubeconfig: no context %q (it has %s)", n, strings.Join(known, ", "))
		}
	}
	return names, false, nil
}

// inClusterToken is where client-go's in-cluster configuration reads the
// service account token (rest.InClusterConfig).
const inClusterToken = "/var/run/secrets/kubernetes.io/serviceaccount/token"

// noConfigError replaces client-go's empty-configuration error, which tells
// the user to set KUBERNETES_MASTER (a variable kubectl stopped reading long
// ago), with what kubectl's loading order tried and why each gave nothing.
func noConfigError(rules *clientcmd.ClientConfigLoadingRules) error {
	var tried []string
	if rules.ExplicitPath != "" {
		tried = append(tried, "--kubeconfig "+rules.ExplicitPath+" ("+emptyOrMissing(rules.ExplicitPath)+")")
	} else {
		tried = append(tried, "--kubeconfig (not given)")
	}
	env := os.Getenv(clientcmd.RecommendedConfigPathEnvVar)
	home := "~/.kube/config (" + clientcmd.RecommendedHomeFile + ": " + emptyOrMissing(clientcmd.RecommendedHomeFile) + ")"
	switch {
	case rules.ExplicitPath != "":
		// An explicit --kubeconfig is the only file client-go reads.
		tried = append(tried, "KUBECONFIG and ~/.kube/config (not read: --kubeconfig is given)")
	case env != "":
		var files []string
		for _, f := range filepath.SplitList(env) {
			files = append(files, f+": "+emptyOrMissing(f))
		}
		tried = append(tried, "KUBECONFIG ("+strings.Join(files, ", ")+")", "~/.kube/config (not read: KUBECONFIG is set)")
	default:
		tried = append(tried, "KUBECONFIG (not set)", home)
	}
	switch {
	case os.Getenv("KUBERNETES_SERVICE_HOST") == "" || os.Getenv("KUBERNETES_SERVICE_PORT") == "":
		tried = append(tried, "the in-cluster configuration (not in a pod: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT are not both set)")
	default:
		tried = append(tried, "the in-cluster configuration (no service account token at "+inClusterToken+")")
	}
	return fmt.Errorf("no cluster to read: tried %s; give --kubeconfig FILE, or --server with credentials", strings.Join(tried, ", "))
}

// emptyOrMissing says why a kubeconfig file gave no configuration.
func emptyOrMissing(path string) string {
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return "no such file"
	} else if err != nil {
		return fleet.Redact(err.Error())
	}
	return "no cluster in it"
}

// readCluster lists the nodes of context name's cluster ("" the current
// context) and reads them: the API server (without credentials), the nodes
// with what was read, and the nodes that could not be.
func readCluster(ctx context.Context, req Request, name string) (string, []*fleet.Node, []fleet.Failure, error) {
	overrides := clientcmd.ConfigOverrides{}
	if req.Overrides != nil {
		overrides = *req.Overrides
	}
	if name != "" {
		overrides.CurrentContext = name
	}
	cfg, err := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(req.Kubeconfig, &overrides).ClientConfig()
	if clientcmd.IsEmptyConfig(err) {
		return "", nil, nil, noConfigError(req.Kubeconfig)
	}
	if err != nil {
		return "", nil, nil, fmt.Errorf("kubeconfig: %s", fleet.Redact(err.Error()))
	}
	cfg.QPS, cfg.Burst, cfg.UserAgent = req.QPS, req.Burst, req.UserAgent
	client, err := fleet.NewClient(cfg)
	if err != nil {
		return "", nil, nil, fmt.Errorf("kubeconfig: %s", fleet.Redact(err.Error()))
	}
	list, missing, err := fleet.ListNodes(ctx, client, req.Selector, req.Nodes)
	if err != nil {
		return "", nil, nil, fleet.ListError(cfg.Host, err)
	}
	nodes, failures := fleet.NewNodes(list, missing, req.PoolLabel)

	// configz, and flagz where the minor serves it by default.
	reqs, reading := fleet.Requests(nodes)
	opt := req.Fetch
	if req.Progress != nil {
		opt.Progress = func(done, failed, total int) { req.Progress(name, done, failed, total) }
	}
	for i, d := range fleet.Fetch(ctx, client, reqs, opt) {
		if fl := reading[i].Take(d, req.Cgroup); fl != nil {
			failures = append(failures, *fl)
		}
	}
	return fleet.RedactURL(cfg.Host), nodes, failures, nil
}
