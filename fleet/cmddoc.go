package fleet

// Doc is the reference of `kubeletcfg cluster` (its help and man page): what
// is read of each node and how (Fetch, ListNodes), the connection, several
// contexts (kubeletcfg.Cluster's Fleet) and the nodes that cannot be checked
// (Failure).
const Doc = `Read every node of a cluster through the Kubernetes API, as kubectl does: its
kubelet version (status.nodeInfo.kubeletVersion), its configuration
(GET /api/v1/nodes/NAME/proxy/configz) and, where the kubelet serves it, its
command line (/proxy/flagz, ComponentFlagz: on by default from 1.36). Nodes are
grouped by pool (--pool-label) and by what they run; each distinct
configuration is evaluated once.

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
listed at all.`

// PreflightDoc is the reference of `kubeletcfg cluster preflight`: each pool
// and running minor evaluated at --to, the running minor's defaults taken as
// not set (WithoutDefaults), and the exit codes.
const PreflightDoc = `For each pool and each kubelet minor its nodes run, evaluate each distinct
configuration at the running minor and at --to, as 'kubeletcfg preflight' does
for files: blockers (why the target would not start), behaviour changes, notes;
and which nodes each concerns. Pools whose nodes do not share one configuration
are reported as drift.

configz shows every value, defaults included, and cannot tell a value a file set
from a default: a value equal to the running minor's default is taken as not set,
so it follows the target's default (a default that changes is reported as a
behaviour change). Exit code 1 when a target kubelet would not start (or a target
finding is at or above --fail-on), or when a node could not be checked (unless
--fail-on none).`
