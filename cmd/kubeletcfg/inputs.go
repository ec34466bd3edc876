package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kubeletcfg/kubeletcfg"
	"github.com/kubeletcfg/kubeletcfg/input"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
)

// registerInput registers --input-format and remembers the command, whose
// standard input `-c -` reads and whose name decides what it may convert.
func (f *inputFlags) registerInput(cmd *cobra.Command) {
	f.cmd = cmd
	cmd.Flags().StringVar(&f.inputFormat, "input-format", "auto", "what --config is: auto (by content), config, configz (a configz dump), kubeadm (the kubelet-config ConfigMap), kubeadm-config (a kubeadm init --config file), kind (a kind cluster config) or minikube (a profile's config.json); -c - reads standard input")
	cmd.Flags().BoolVar(&f.read.AsWritten, "as-written", false, "kubeadm-config, kind and minikube: check the KubeletConfiguration as written, not what kubeadm (and kind, minikube) write to the node")
	cmd.Flags().StringVar(&f.read.KindNode, "kind-node", "", "kind: the node to check, by kind's name (kind-control-plane, kind-worker2, ...); needed when the nodes' kubelets get different settings (lint checks each)")
	cmd.Flags().StringVar(&f.read.Kubeadm.Patches, "kubeadm-patches", "", "kubeadm-config: kubeadm init's --patches folder, over the InitConfiguration's patches.directory (a relative one is the working folder's, as for kubeadm); its kubeletconfiguration patches apply to what kubeadm writes")
	cmd.Flags().StringVar(&f.read.Minikube.Node, "minikube-node", "", "minikube: the node to check, by minikube's name (minikube, minikube-m02, ...); default the first")
	cmd.Flags().StringArrayVar(&f.atBoot, "set", nil, "bootstrapper inputs: PATH=VALUE for a value only the instance knows (repeatable): --set maxPods=58")
	cmd.Flags().BoolVar(&f.read.Kubeadm.SystemdResolved, "systemd-resolved", false, "kubeadm-config and kind: the node runs systemd-resolved, so kubeadm sets resolvConf: /run/systemd/resolve/resolv.conf")
	_ = cmd.RegisterFlagCompletionFunc("input-format", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return input.Formats(), cobra.ShellCompDirectiveNoFileComp
	})
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
		Discover: f.kc.discover, Host: f.kc.discoverOptions(),
		Stdin: os.Stdin,
	}
	if f.cmd != nil {
		o.Stdin, o.Log = f.cmd.InOrStdin(), f.cmd.ErrOrStderr()
	}
	for _, kv := range f.atBoot {
		k, v, _ := strings.Cut(kv, "=")
		if o.Read.Set == nil {
			o.Read.Set = map[string]string{}
		}
		o.Read.Set[strings.TrimSpace(k)] = v
	}
	if changed("kubelet-version") || !f.kc.discover && (f.cmd == nil || f.policyVersion) {
		o.KubeletVersion = f.kubeletVersion
	}
	if !f.kc.discover || changed("cgroup-version") {
		o.CgroupVersion = f.cgroupVersion
	}
	return o
}

// input resolves the flags into the pipeline's input (once: standard input
// is read once, however often the command asks for its input); the
// discovered kubelet's minor, or the input's, becomes --kubelet-version's default.
func (f *inputFlags) input() (pipeline.Input, error) {
	if f.prepared == nil {
		for _, kv := range f.atBoot {
			if k, _, ok := strings.Cut(kv, "="); !ok || strings.TrimSpace(k) == "" {
				return pipeline.Input{}, fmt.Errorf("--set %q: want PATH=VALUE (maxPods=58)", kv)
			}
		}
		p, err := f.options().Prepare()
		var nothing *kubeletcfg.NothingToCheckError
		if errors.As(err, &nothing) {
			nothing.Discover = f.cmd != nil && f.cmd.Flags().Lookup("discover") != nil
		}
		if err != nil {
			return pipeline.Input{}, err
		}
		f.prepared, f.src = p, p.Source
		f.config, f.configDir = p.Config, p.ConfigDir
		if p.KubeletVersion != "" {
			f.kubeletVersion = p.KubeletVersion
		}
	}
	// fix writes back what it read: never a conversion over the original.
	if f.src != nil && f.src.Data != nil && f.cmd != nil && f.cmd.Name() == "fix" {
		return pipeline.Input{}, fmt.Errorf("--config %s: fix edits KubeletConfiguration files in place; this is %s", f.src.Path, describeSource(f.src))
	}
	return f.prepared.Input, nil
}

func describeSource(s *input.Source) string {
	switch s.Format {
	case input.Configz:
		return "a configz dump"
	case input.Kubeadm:
		return "a kubeadm ConfigMap"
	case input.KubeadmConfig:
		return "a kubeadm configuration file"
	case input.Kind:
		return "a kind cluster configuration"
	case input.Minikube:
		return "a minikube profile"
	}
	return "standard input"
}

// lintDocument is lint's JSON document (kubeletcfg.LintReport).
type lintDocument = kubeletcfg.LintReport
