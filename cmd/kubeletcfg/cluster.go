package main

import (
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/kubeletcfg/kubeletcfg"
	"github.com/kubeletcfg/kubeletcfg/cluster"
	"github.com/kubeletcfg/kubeletcfg/cmd/kubeletcfg/internal/flags"
	"github.com/kubeletcfg/kubeletcfg/fleet"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/report"
)

// clusterFlags are the flags of cluster lint and cluster preflight, bound to
// the request they make (kubectl's connection flags as client-go's clientcmd
// binds them for kubectl: cli-runtime's ConfigFlags).
type clusterFlags struct {
	req                           cluster.Request
	output, failOn, cgroupVersion string
	to                            *string // preflight only
}

func newClusterCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "cluster",
		Short: "Lint or preflight the nodes of a live cluster, read through the Kubernetes API",
		Long: `Read every node of a cluster through the Kubernetes API, as kubectl does: its
kubelet version (status.nodeInfo.kubeletVersion), its configuration
(GET /api/v1/nodes/NAME/proxy/configz) and, where the kubelet serves it, its
command line (/proxy/flagz, ComponentFlagz: on by default from 1.36). Nodes are
grouped by pool (--pool-label), OS (a Windows node is checked as the Windows
kubelet) and what they run; each distinct configuration is evaluated once.

configz is merged and defaulted by the kubelet: it cannot show which values a
file set and which are defaults, nor which drop-in set them. Run
'kubeletcfg discover' on a node for file-level detail.

Connection flags are kubectl's (--kubeconfig, --context, KUBECONFIG, in-cluster
configuration in a pod), bound by client-go's clientcmd as kubectl binds them;
when none gives a cluster, the error says why each was passed over (exit 2).
The user needs list and get on nodes and get on
nodes/proxy (deploy/rbac.yaml). Installed as kubectl-kubeletcfg, this
is also 'kubectl kubeletcfg cluster ...'.

Several clusters in one run: --context is repeatable, and --all-contexts reads
every context of the kubeconfig, sorted by name. Each cluster's pools are
reported under its context (text: a "=== context NAME" section each; JSON:
{"contexts": {NAME: report}, "errors": {NAME: reason}}). A cluster that cannot
be reached is reported with its reason, never stops the others, and counts as
one error toward --fail-on; exit 2 when no cluster could be read.

A node that cannot be checked (forbidden, unreachable, timeout, configz not
served, an answer that is not a configz or is larger than 4 MiB, a kubelet
minor kubeletcfg does not know) is listed with its reason, never counted as a
configuration of its pool, and counts as one error toward --fail-on: exit 1
unless --fail-on none. Exit 2 for usage errors and when the nodes cannot be
listed at all.`,
		Example: `  kubeletcfg cluster lint
  kubeletcfg cluster preflight --to 1.37 -o json
  kubectl kubeletcfg cluster lint --context prod -l karpenter.sh/nodepool=gpu
  kubeletcfg cluster preflight --to 1.37 --all-contexts`,
	}
	cmd.AddCommand(newClusterLintCommand(), newClusterPreflightCommand())
	return cmd
}

func (f *clusterFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	f.req.Kubeconfig = clientcmd.NewDefaultClientConfigLoadingRules()
	f.req.Overrides = &clientcmd.ConfigOverrides{}
	fl.StringVar(&f.req.Kubeconfig.ExplicitPath, "kubeconfig", "", "path to the kubeconfig file (default: $KUBECONFIG, else ~/.kube/config, else the in-cluster configuration)")
	names := clientcmd.RecommendedConfigOverrideFlags("")
	names.ContextOverrideFlags.Namespace = clientcmd.FlagInfo{} // nodes have no namespace
	names.CurrentContext = clientcmd.FlagInfo{}                 // bound below, repeatable
	names.AuthOverrideFlags.Username, names.AuthOverrideFlags.Password = clientcmd.FlagInfo{}, clientcmd.FlagInfo{}
	names.ClusterOverrideFlags.APIServer.ShortName = "s"
	clientcmd.BindOverrideFlags(f.req.Overrides, fl, names)
	fl.StringArrayVar(&f.req.Contexts, "context", nil, "the kubeconfig context to use (repeatable: several clusters in one run; default: the current context)")
	fl.BoolVar(&f.req.AllContexts, "all-contexts", false, "read every context of the kubeconfig, sorted by name")
	fl.StringVarP(&f.req.Selector, "selector", "l", "", "only the nodes with these labels (a label selector: pool=gpu,zone!=a)")
	fl.StringArrayVar(&f.req.Nodes, "node", nil, "only this node (repeatable)")
	fl.StringVar(&f.req.PoolLabel, "pool-label", "", "the node label that names pools (default: the first present of "+strings.Join(fleet.PoolLabels, ", ")+"; else one pool)")
	outputFlag(cmd, &f.output, "text", "json", "text")
	fl.StringVar(&f.failOn, "fail-on", "error", "exit 1 when a finding is at or above this severity (error, warning, info), or a node could not be checked; none: never")
	fl.IntVar(&f.req.Fetch.Concurrency, "concurrency", fleet.DefaultConcurrency, "nodes read at once (proxied requests in flight)")
	fl.Float32Var(&f.req.QPS, "qps", fleet.DefaultQPS, "requests per second to the API server (client-side rate limit)")
	fl.IntVar(&f.req.Burst, "burst", fleet.DefaultBurst, "requests allowed above --qps in a burst")
	fl.DurationVar(&f.req.Fetch.NodeTimeout, "node-timeout", fleet.DefaultNodeTimeout, "time allowed to read one node, retries included")
	fl.StringVar(&f.cgroupVersion, "cgroup-version", "v2", "cgroup version of the Linux nodes' hosts (v1 or v2): the API does not report it (Windows nodes have none)")
	completeWith(cmd, "fail-on", "error", "warning", "info", "none")
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
		RunE: func(cmd *cobra.Command, _ []string) error { return runCluster(cmd, &f) },
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
finding is at or above --fail-on), or when a node could not be checked (unless
--fail-on none).`,
		Example: `  # every pool of the current context, moving to the default minor
  kubeletcfg cluster preflight

  # moving to a given minor
  kubeletcfg cluster preflight --to 1.36

  # in a pod with the ClusterRole of deploy/, as JSON for a log pipeline
  kubeletcfg cluster preflight --to 1.37 -o json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runCluster(cmd, &f) },
	}
	f.register(cmd)
	// Defaults as preflight's --to does: the default minor, never a pre-release.
	f.to = new(string)
	cmd.Flags().StringVar(f.to, "to", kubelets.Default().Version, "the kubelet minor the pools move to ("+strings.Join(kubelets.Supported(), ", ")+")")
	_ = cmd.RegisterFlagCompletionFunc("to", completeMinor)
	return cmd
}

func runCluster(cmd *cobra.Command, f *clusterFlags) error {
	fleetMemoryLimit()
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// Every flag is checked before any cluster is read.
	req := f.req
	if f.to != nil {
		tgt, err := kubelets.Lookup(*f.to)
		if err != nil {
			return fmt.Errorf("--to: %w", err)
		}
		req.Target = tgt
	}
	if err := fleet.CheckFormat(f.output); err != nil {
		return err
	}
	threshold, err := flags.ParseFailOn(f.failOn)
	if err != nil {
		return err
	}
	if req.Cgroup, err = kubeletcfg.ParseCgroup(f.cgroupVersion); err != nil {
		return err
	}
	if err := req.Validate(); err != nil {
		return err
	}
	progress := fleet.NewProgress(cmd.ErrOrStderr(), len(req.Contexts) > 1 || req.AllContexts)
	req.Progress = progress.Update
	run, err := cluster.Run(ctx, req)
	progress.Done()
	if err != nil {
		return err
	}
	run.Reword(kubeletcfg.CommandWords) // a group's error names --to
	return kubeletcfg.FailOn(cmd.OutOrStdout(), run, f.output, report.Options{}, threshold)
}
