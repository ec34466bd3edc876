package fleet

import (
	"context"
	"regexp"
	"sort"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// PoolLabels are the labels that name a node's pool on the managed
// Kubernetes services and Karpenter, in the order PoolLabel tries them.
var PoolLabels = []string{
	"eks.amazonaws.com/nodegroup",
	"karpenter.sh/nodepool",
	"cloud.google.com/gke-nodepool",
	"kubernetes.azure.com/agentpool",
}

// PoolLabel is the label that names pools: the first of PoolLabels that any
// node has; "" when none does (then all nodes are one pool).
func PoolLabel(nodes []corev1.Node) string {
	for _, l := range PoolLabels {
		for i := range nodes {
			if _, ok := nodes[i].Labels[l]; ok {
				return l
			}
		}
	}
	return ""
}

// Pool names for nodes that have no pool label.
const (
	PoolAll  = "all"    // no pool label in use: every node
	PoolNone = "(none)" // the pool label is in use, this node lacks it
)

// PoolOf is the node's pool under label.
func PoolOf(n *corev1.Node, label string) string {
	if label == "" {
		return PoolAll
	}
	if v, ok := n.Labels[label]; ok && v != "" {
		return v
	}
	return PoolNone
}

var kubeletVersionPattern = regexp.MustCompile(`^v?(\d+)\.(\d+)(?:\.|$)`)

// MinorOf is "1.34" for a kubeletVersion "v1.34.4-eks-4a3c1b2"; "" when the
// version is not MAJOR.MINOR...
func MinorOf(kubeletVersion string) string {
	m := kubeletVersionPattern.FindStringSubmatch(kubeletVersion)
	if m == nil {
		return ""
	}
	return m[1] + "." + m[2]
}

// ListNodes lists the nodes matching selector, a page of 500 at a time, or
// gets the named ones (names not found are returned in missing). Sorted by
// name.
func ListNodes(ctx context.Context, cs kubernetes.Interface, selector string, names []string) (nodes []corev1.Node, missing []string, err error) {
	if len(names) > 0 {
		seen := map[string]bool{}
		for _, name := range names {
			if seen[name] {
				continue
			}
			seen[name] = true
			n, err := cs.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
			switch {
			case err == nil:
				nodes = append(nodes, *n)
			case apierrors.IsNotFound(err):
				missing = append(missing, name)
			default:
				return nil, nil, err
			}
		}
	} else {
		opts := metav1.ListOptions{LabelSelector: selector, Limit: 500}
		for {
			list, err := cs.CoreV1().Nodes().List(ctx, opts)
			if err != nil {
				return nil, nil, err
			}
			nodes = append(nodes, list.Items...)
			if list.Continue == "" {
				break
			}
			opts.Continue = list.Continue
		}
	}
	sort.Slice(nodes, func(i, j int) bool { return nodes[i].Name < nodes[j].Name })
	sort.Strings(missing)
	return nodes, missing, nil
}
