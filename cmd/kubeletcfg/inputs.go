package main

import (
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kubeletcfg/kubeletcfg"
	"github.com/kubeletcfg/kubeletcfg/cmd/kubeletcfg/internal/flags"
	"github.com/kubeletcfg/kubeletcfg/input"
)

// registerInput registers --input-format and remembers the command, whose
// standard input `-c -` reads and whose name decides what it may convert.
func (f *inputFlags) registerInput(cmd *cobra.Command) {
	f.cmd = cmd
	cmd.Flags().StringVar(&f.inputFormat, "input-format", "auto", "what --config is: auto (by content), config, configz (a configz dump), kubeadm (the kubelet-config ConfigMap), kubeadm-config (a kubeadm init --config file), kind (a kind cluster config), minikube (a profile's config.json), or a bootstrapper's file ("+strings.Join(input.BootstrapperFormats(), ", ")+"); -c - reads standard input")
	cmd.Flags().BoolVar(&f.read.AsWritten, "as-written", false, "kubeadm-config, kind and minikube: check the KubeletConfiguration as written, not what kubeadm (and kind, minikube) write to the node")
	cmd.Flags().StringVar(&f.read.KindNode, "kind-node", "", "kind: the node to check, by kind's name (kind-control-plane, kind-worker2, ...); needed when the nodes' kubelets get different settings (lint checks each)")
	cmd.Flags().StringVar(&f.read.Object, "object", "", "cluster-api and k0s: the node group of a file of several to check: a Cluster API object KIND/NAME (KubeadmConfigTemplate/md-win; a KubeadmControlPlane's first machine KubeadmControlPlane/NAME, its joining machines 'KubeadmControlPlane/NAME (join)'), a k0s worker profile WorkerProfile/NAME (or NAME, as k0s worker --profile takes it); default the first (lint checks each)")
	cmd.Flags().StringVar(&f.read.Kubeadm.Patches, "kubeadm-patches", "", "kubeadm-config: kubeadm init's --patches folder, over the InitConfiguration's patches.directory (a relative one is the working folder's, as for kubeadm); its kubeletconfiguration patches apply to what kubeadm writes")
	cmd.Flags().StringVar(&f.read.Minikube.Node, "minikube-node", "", "minikube: the node to check, by minikube's name (minikube, minikube-m02, ...); default the first")
	cmd.Flags().StringArrayVar(&f.atBoot, "set", nil, "bootstrapper inputs: PATH=VALUE for a value only the instance knows (repeatable): --set maxPods=58")
	cmd.Flags().BoolVar(&f.read.Kubeadm.SystemdResolved, "systemd-resolved", false, "kubeadm-config and kind: the node runs systemd-resolved, so kubeadm sets resolvConf: /run/systemd/resolve/resolv.conf")
	completeWith(cmd, "input-format", input.Formats()...)
}

// options are the library's options for the flags; --kubelet-version and
// --cgroup-version are left to the discovered kubelet under --discover
// unless given, and --kubelet-version to the input (a minikube profile's
// Kubernetes version) unless given or set by the policy.
func (f *inputFlags) options() kubeletcfg.Options {
	changed := func(name string) bool { return f.cmd != nil && f.cmd.Flags().Changed(name) }
	o := kubeletcfg.Options{
		Config: f.config, ConfigDir: f.configDir,
		Format: input.Format(f.inputFormat), Read: f.read,
		KubeletFlags: f.kubeletFlags, KubeletFlagsFile: f.kubeletFlagsFile,
		Discover: f.kc.discover, Host: f.kc.host, OS: f.nodeOS,
		Stdin: os.Stdin, ErrorText: kubeletcfg.CommandWords,
	}
	if f.cmd != nil {
		o.Stdin, o.Log = f.cmd.InOrStdin(), f.cmd.ErrOrStderr()
	}
	o.Read.Set, _ = flags.ParseSets(f.atBoot) // checked by takePath
	if changed("kubelet-version") || !f.kc.discover && (f.cmd == nil || f.policyVersion) {
		o.KubeletVersion = f.kubeletVersion
	}
	if !f.kc.discover || changed("cgroup-version") {
		o.CgroupVersion = f.cgroupVersion
	}
	return o
}
