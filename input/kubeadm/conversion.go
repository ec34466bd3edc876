package kubeadm

import (
	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/input/posmap"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

// Reading is how a file is read (package input's Options of the same names):
// AsWritten reads its KubeletConfiguration document without kubeadm's
// defaulting; Minor is the kubelet minor evaluated ("" for the default), whose
// kubeadm writes the flags; Set are values only the node knows.
type Reading struct {
	AsWritten bool
	Minor     string
	Set       map[string]string
	Options   Options
}

// Conversion is what a tool built on kubeadm (kubeadm itself, kind, minikube)
// writes for the kubelet, as package input's Source takes it.
type Conversion struct {
	// Data is the KubeletConfiguration document the pipeline reads in place of
	// the user's file; Pos maps its positions back to that file.
	Data []byte
	Pos  *posmap.Map
	// Note says, in a line, what was read and how positions relate to the file.
	Note string
	// NodeFile: Data is what kubeadm writes to the node, not the file as
	// written; Written is then the KubeletConfiguration as written, laid out
	// at its lines (the keys kubeadm drops in decoding are reported from it).
	NodeFile bool
	Written  []byte
	// Node is the node's kubeadm documents: what each kubeadm minor refuses or
	// takes from the node (Node.Settle); nil for none.
	Node *Node
	// Flags are the kubelet arguments the input names (kubeadm-flags.env,
	// minikube's 10-kubeadm.conf), with their positions in the file.
	Flags         []string
	FlagPositions []finding.Position
	// KindNodes are a kind cluster's nodes by kind's names, grouped by the
	// kubelet configuration they get; KubeletVersion the kubelet release the
	// file names (a minikube profile's), "" for none.
	KindNodes      [][]string
	KubeletVersion string
	// OS is the node's operating system as the file says it (Windows: a
	// named-pipe criSocket), "" when it says none; OSFrom says where.
	OS     kubelets.OS
	OSFrom string
}
