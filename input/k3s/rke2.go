package k3s

import (
	"fmt"
	"strings"

	"github.com/kubeletcfg/kubeletcfg/input/bootstrap"
)

// RKE2 runs k3s's agent, with its own kubelet executor and cloud providers
// (v1.36.3+rke2r1).

// rke2Bundled are RKE2's bundled cloud providers (pkg/cli/cmds/root.go
// cloudProviders): their name becomes "external", and on a server the ones
// with a CPI chart disable k3s's embedded cloud controller
// (validateCloudProvider).
var rke2Bundled = map[string]bool{"rancher-vsphere": true, "harvester": true, "ovirt": false}

// rke2CloudProvider is the --cloud-provider RKE2's static pod executor passes
// (pkg/rke2/rke2_linux.go: aws clears the name and takes the node name from
// the metadata; a bundled provider is "external"), and whether a server's
// embedded cloud controller is disabled.
func (t *translation) rke2CloudProvider() (name string, disableCCM bool) {
	a, named := t.last("cloud-provider-name")
	if c, ok := t.last("cloud-provider-config"); ok && c.Value != "" && (!named || a.Value == "") {
		t.add(bootstrap.Refuses, c.KeyPos, "",
			fmt.Sprintf("RKE2 refuses cloud-provider-config without cloud-provider-name: --cloud-provider-config requires --cloud-provider-name to be provided (pkg/rke2/rke2_linux.go, %s)", RKE2.Release),
			"set cloud-provider-name too")
	}
	if !named || a.Value == "" {
		return "", false
	}
	if e, ok := t.last("node-external-ip"); ok && e.Value != "" {
		t.add(bootstrap.Refuses, e.KeyPos, "",
			fmt.Sprintf("RKE2 refuses node-external-ip with a cloud provider: can't set node-external-ip while using cloud provider (pkg/cli/cmds/root.go validateCloudProvider, %s)", RKE2.Release),
			"leave node-external-ip to the cloud provider")
	}
	name = a.Value
	if cpi, ok := rke2Bundled[name]; ok {
		disableCCM = cpi && t.command == "server"
		name = "external"
	}
	if name == "aws" {
		name = ""
	}
	return name, disableCCM
}

// rke2KubeletFlags are the flags RKE2's static pod executor puts before k3s's
// (pkg/executor/staticpod/staticpod.go Kubelet).
func rke2KubeletFlags(cloudProvider string) []string {
	f := []string{"--volume-plugin-dir=/var/lib/kubelet/volumeplugins", "--file-check-frequency=5s", "--sync-frequency=30s"}
	if cloudProvider != "" {
		f = append(f, "--cloud-provider="+cloudProvider)
	}
	return f
}

// klogFlags are the klog flags (but v and vmodule) RKE2 takes out of the
// kubelet's arguments to write the kubelet's log itself (pkg/logging
// ExtractFromArgs, names normalised with dashes).
var klogFlags = map[string]bool{
	"log-dir": true, "log-file": true, "log-file-max-size": true, "logtostderr": true,
	"alsologtostderr": true, "add-dir-header": true, "skip-headers": true, "one-output": true,
	"skip-log-headers": true, "stderrthreshold": true, "log-backtrace-at": true,
}

// isKlogFlag reports whether the argument is one ExtractFromArgs takes.
func isKlogFlag(arg string) bool {
	name, _, _ := strings.Cut(strings.TrimPrefix(arg, "--"), "=")
	return klogFlags[strings.ReplaceAll(name, "_", "-")]
}
