// Package clustertext is the text output of kubeletcfg cluster lint and
// preflight (fleet.Report and fleet.Fleet; each preflight group's text is
// verbtext.WritePreflight's). It is verbtext's, apart from it for the same
// reason package cluster is apart from the library: package fleet links
// client-go, and a program that embeds the library links none.
package clustertext
