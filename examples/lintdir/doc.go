// Command lintdir lints a folder of nodes with the kubeletcfg library and
// prints a one-line verdict per node:
//
//	go run ./examples/lintdir [-kubelet-version 1.37] DIR
//
// DIR holds a folder per node (its config file, drop-in folder and kubelet
// flags files) or a configuration file per node (a configz dump), as
// `kubeletcfg lint --nodes DIR` reads it. The exit code is 1 when a node's
// kubelet would not start or a node could not be read.
package main
