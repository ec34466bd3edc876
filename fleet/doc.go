// Package fleet evaluates many nodes at once: each node is read once, its
// inputs (configuration bytes, kubelet flags, minor, cgroup version) are
// hashed, each distinct key is evaluated once on a bounded pool of workers, and
// the result is fanned out to every node that has that key. kubeletcfg.Nodes
// (lint --nodes) and kubeletcfg cluster share it. For a cluster, Fetch reads
// nodes through the Kubernetes API, NewNodes and Node.Take turn what was read
// into keys, Groups groups the evaluated nodes by pool (drift included) and
// Report is the run's document (its JSON; its text is
// report/verbtext/clustertext's); the evaluation of one node is
// cluster.EvaluateNode.
package fleet
