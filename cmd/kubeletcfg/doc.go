// Command kubeletcfg tells, before a node boots, what a kubelet version will do
// with a KubeletConfiguration file and its --config-dir drop-ins.
package main
