// Package skew evaluates one set of files at several kubelet minors and compares
// the verdicts: the version-skew matrix (kubeletcfg skew) and the upgrade
// preflight of a node pool (kubeletcfg preflight). The files are read, parsed
// and decoded once (pipeline.Load); each minor then runs the pipeline over them.
package skew
