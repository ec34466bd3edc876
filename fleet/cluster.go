package fleet

import (
	"context"
	"regexp"
	"sort"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"
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
// name. c is NewClient's; the requests are the typed clientset's
// (CoreV1().Nodes().Get and List: protobuf preferred, the options as query
// parameters).
func ListNodes(ctx context.Context, c rest.Interface, selector string, names []string) (nodes []corev1.Node, missing []string, err error) {
	codec := runtime.NewParameterCodec(nodeScheme())
	if len(names) > 0 {
		seen := map[string]bool{}
		for _, name := range names {
			if seen[name] {
				continue
			}
			seen[name] = true
			var n corev1.Node
			err := c.Get().UseProtobufAsDefault().Resource("nodes").Name(name).
				VersionedParams(&metav1.GetOptions{}, codec).Do(ctx).Into(&n)
			switch {
			case err == nil:
				nodes = append(nodes, n)
			case apierrors.IsNotFound(err):
				missing = append(missing, name)
			default:
				return nil, nil, err
			}
		}
	} else {
		opts := metav1.ListOptions{LabelSelector: selector, Limit: 500}
		for {
			var list corev1.NodeList
			err := c.Get().UseProtobufAsDefault().Resource("nodes").
				VersionedParams(&opts, codec).Do(ctx).Into(&list)
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
