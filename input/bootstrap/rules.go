package bootstrap

import (
	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/rule"
)

// Rules about what a bootstrapper (kubeadm, EKS nodeadm, Karpenter, Cluster
// API, Talos, k0s, k3s/RKE2, AKS) does with the file the user keeps before the
// kubelet sees it. They have no Check: the translators under input/ emit them
// (Output.Findings, each built from one of these values with Rule.At, so that
// its ID and severity are the rule's) and the bridge in package input merges
// them; they are declared here, in the contract the translators share, and
// listed in internal/ruleset (go generate ./internal/rulesgen
// ./internal/ruleset). Each finding names the tool, its release and the source
// that does it, at the line of the user's file. Severity follows the node: the
// tool refusing the file leaves the node without a kubelet (error); a value the
// tool replaces or drops is a kubelet that does not do what the file says
// (warning).

var (
	Refuses = &rule.Rule{ID: "KC9001", AnyField: true, Name: "bootstrapper-refuses", Severity: finding.Error, Stage: rule.StageBootstrap,
		Summary: "The bootstrapper refuses the file: the node never starts a kubelet with it.",
		Doc: "The tool that turns this file into the kubelet's configuration checks it first and stops on this value: a kubeadm " +
			"API version that kubeadm minor no longer reads, a key Talos protects, a value Karpenter's validation rejects, a NodeConfig " +
			"nodeadm's validation refuses. The message names the tool, its release and the source that refuses. Fix: change the value " +
			"in the file as the hint says.",
		EmittedBy: emittedBy,
	}
	Overrides = &rule.Rule{ID: "KC9002", AnyField: true, Name: "bootstrapper-overrides", Severity: finding.Warning, Stage: rule.StageBootstrap,
		Summary: "The bootstrapper replaces a value the file sets: the kubelet runs with the tool's value.",
		Doc: "The tool writes this key itself, after (or instead of) the value in the file: nodeadm's flags and drop-in order, Talos's " +
			"generated fields, k0s's profile defaults, kubeadm's flags over its config.yaml. The kubelet starts, but not with what the " +
			"file says. The message names the value that wins and where the tool sets it. Fix: set the value where the " +
			"tool takes it from, or remove the key that has no effect.",
		EmittedBy: emittedBy,
	}
	Drops = &rule.Rule{ID: "KC9003", AnyField: true, Name: "bootstrapper-drops", Severity: finding.Warning, Stage: rule.StageBootstrap,
		Summary: "The bootstrapper does not pass a key of the file on to the kubelet.",
		Doc: "The tool reads the file with its own schema and silently leaves this key out of what it writes for the kubelet: a key it " +
			"does not know (often misspelled), a field it does not map (Karpenter's Bottlerocket settings), or a field of an API version " +
			"it converts away. The kubelet never sees the value. Fix: move it where the tool passes it on, as the hint says.",
		EmittedBy: emittedBy,
	}
	AtBoot = &rule.Rule{ID: "KC9004", AnyField: true, Name: "bootstrapper-value-at-boot", Severity: finding.Info, Stage: rule.StageBootstrap,
		Summary: "The bootstrapper sets this value on the instance at boot: unknown until then.",
		Doc: "Some values are computed on the node when the tool runs (nodeadm's maxPods from the instance type's network interfaces, " +
			"kubeReserved from its memory and CPUs, clusterDNS and providerID from the instance; node IPs). kubeletcfg does not invent " +
			"them: the effective configuration leaves them to the kubelet's default and the checks that need them do not run. Fix: " +
			"nothing to fix; give the value with --set PATH=VALUE (--set maxPods=58) when it is known.",
		EmittedBy: emittedBy,
	}
)

// emittedBy is the step the rules reference names for these rules.
const emittedBy = "input: bootstrapper translation"
