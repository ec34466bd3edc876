// Package testkubelet builds and starts a stand-in kubelet for tests of
// kubeletcfg discover: a small program named kubelet that sleeps and answers
// --version, so that it is found through /proc like the real one.
package testkubelet
