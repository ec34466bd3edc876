// Package fleet evaluates many nodes at once: each node is read once, its
// inputs (configuration bytes, kubelet flags, minor, cgroup version) are
// hashed, each distinct key is evaluated once on a bounded pool of workers, and
// the result is fanned out to every node that has that key. lint --nodes and
// kubeletcfg cluster share it; Fetcher reads nodes through the Kubernetes API.
package fleet
