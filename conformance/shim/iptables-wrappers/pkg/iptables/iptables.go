// Package iptables stands in for sigs.k8s.io/iptables-wrappers/pkg/iptables, which
// k8s.io/kubernetes v1.38 imports (pkg/kubelet/kubelet_network_linux.go, the kubelet's
// KUBE-IPTABLES-HINT and KUBE-FIREWALL chains) and which the Go module proxy does not serve.
//
// It declares only what the kubelet's code names, and it describes a host without iptables:
// NewBestEffort returns no clients, the path the kubelet takes on an nftables-only host
// ("No iptables support on this system"). The harness records configuration loading,
// defaulting, merging and validation; it never reaches initNetworkUtil, so nothing it
// records depends on this package. It is written here, not copied from the module.
package iptables

import (
	"context"
	"time"
)

// Table is an iptables table name.
type Table string

// Chain is an iptables chain name.
type Chain string

// RulePosition says where EnsureRule puts a rule.
type RulePosition string

// Protocol is the IP family of a client.
type Protocol string

// Mode says which iptables binary a client uses.
type Mode string

const (
	TableMangle Table = "mangle"
	TableNAT    Table = "nat"
	TableFilter Table = "filter"

	ChainInput  Chain = "INPUT"
	ChainOutput Chain = "OUTPUT"

	Prepend RulePosition = "-I"
	Append  RulePosition = "-A"

	// UseInstalledMode uses whichever iptables the host has installed.
	UseInstalledMode Mode = "installed"
)

// Interface is the part of the iptables client that the kubelet calls.
type Interface interface {
	EnsureChain(ctx context.Context, table Table, chain Chain) (bool, error)
	EnsureRule(ctx context.Context, position RulePosition, table Table, chain Chain, args ...string) (bool, error)
	IsIPv6() bool
	Protocol() Protocol
	Monitor(ctx context.Context, canary Chain, tables []Table, reloadFunc func(), interval time.Duration)
}

// NewBestEffort returns a client per IP family that iptables supports on this host: none.
func NewBestEffort(ctx context.Context, mode Mode) map[string]Interface {
	return nil
}
