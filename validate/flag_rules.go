package validate

import (
	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/rule"
)

// Rules of the kubelet's own command line (--kubelet-flags, --kubelet-flags-file):
// NewKubeletCommand's RunE parses it before it reads any file, and
// kubeletConfigFlagPrecedence parses it again over the loaded configuration so
// that flags win (cmd/kubelet/app/server.go). The pipeline (pipeline/commandline.go)
// reports them; the flags of each minor are generated (kubelets/data/<minor>/flags.json).
var (
	// --- flag precedence (KC25xx) ---

	SplitStreamReset = &rule.Rule{ID: "KC2501", Fields: []string{"logging.options.json.splitStream", "logging.options.text.splitStream"}, Name: "splitstream-reset-by-flags", Severity: finding.Warning, Stage: rule.StageFlags,
		Summary: "logging.options.*.splitStream from a file is reset to false by the kubelet's flag re-parsing.",
		Doc:     "After loading the files the kubelet re-registers its command-line flags over the loaded configuration so that flags win. The --log-text-split-stream and --log-json-split-stream flags are registered with a literal default of false, which overwrites the file's value: splitStream: true in a config file never takes effect (and so never trips the LoggingAlphaOptions check). Use the flag instead.",
		Kubelet: kubeletServer + " kubeletConfigFlagPrecedence; k8s.io/component-base/logs/api/v1 addFlags"}

	FlagUnknown = &rule.Rule{ID: "KC2502", Fix: "remove the flag, or set the configuration field its deprecation named in the --config file or a drop-in.", Name: "flag-unknown", Severity: finding.Error, Stage: rule.StageFlags,
		Summary: "A command-line flag this kubelet does not have; the kubelet refuses to start.",
		Doc:     "RunE parses the command line with pflag before anything else and stops on the first flag its flag set does not register (\"failed to parse kubelet flag: unknown flag: --foo\"). Flags are removed after their deprecation period, so a flag an older kubelet accepted can stop a newer one; the configuration field named by the old flag's deprecation message is the replacement. Names are normalized as the kubelet does (underscores become dashes).",
		Kubelet: kubeletServer + " NewKubeletCommand (cleanFlagSet.Parse)"}
	FlagDeprecated = &rule.Rule{ID: "KC2503", AnyField: true, Name: "flag-deprecated", Severity: finding.Warning, Stage: rule.StageFlags,
		Summary: "A deprecated command-line flag: it still works, but the config-file field is the supported way.",
		Doc:     "Nearly every flag bound to a KubeletConfiguration field is deprecated (AddKubeletConfigFlags marks them all but v, vmodule, log-flush-frequency, provider-id and fail-cgroupv1) and will be removed; the kubelet prints pflag's deprecation notice and applies the value. Move the value into the --config file or a drop-in under the field the finding names.",
		Kubelet: "cmd/kubelet/app/options/options.go AddKubeletConfigFlags"}
	FlagOverridesFile = &rule.Rule{ID: "KC2504", Fix: "nothing is wrong if the flag is meant to win; otherwise change the value in one place only.", AnyField: true, Name: "flag-overrides-file", Severity: finding.Info, Stage: rule.StageFlags,
		Summary: "A command-line flag overrides a value the configuration files set.",
		Doc:     "kubeletConfigFlagPrecedence re-parses the command line over the loaded and merged configuration, so a flag wins over the --config file and every drop-in. A map flag (--eviction-hard, --kube-reserved, ...) or a list flag replaces the files' whole map or list; --feature-gates replaces the map too, then the files' gates the flag does not name come back.",
		Kubelet: kubeletServer + " kubeletConfigFlagPrecedence"}
	FlagInvalid = &rule.Rule{ID: "KC2505", Fix: "give the flag a value of its type (`--max-pods=110`, `--eviction-hard=memory.available<100Mi`), or remove the stray argument.", Name: "flag-invalid", Severity: finding.Error, Stage: rule.StageFlags,
		Summary: "A command-line flag value the kubelet cannot parse, or an argument that is not a flag; the kubelet refuses to start.",
		Doc:     "Each flag's value is parsed by its pflag type when RunE parses the command line (an int32, a duration, a key<value map, a taint list, ...); the first error stops the kubelet (\"failed to parse kubelet flag: invalid argument ...\"). An argument that is not a flag stops it too (\"unknown command\").",
		Kubelet: kubeletServer + " NewKubeletCommand (cleanFlagSet.Parse, cleanFlagSet.Args)"}
	FlagNodeLabels = &rule.Rule{ID: "KC2506", Fix: "remove the label from --node-labels, or move it to a namespace the kubelet may set (`node.kubernetes.io/...`, or your own domain); labels in other kubernetes.io namespaces are set through the API, not by the kubelet.", Name: "flag-node-labels", Severity: finding.Error, Stage: rule.StageFlags,
		Summary: "--node-labels names a label in a kubernetes.io or k8s.io namespace the kubelet may not set, or a label that is not valid; the kubelet refuses to start.",
		Doc:     "RunE checks its flags with ValidateKubeletFlags before it reads any file: every --node-labels key in a `kubernetes.io` or `k8s.io` namespace (`*.kubernetes.io/`, `*.k8s.io/` too) must be one the kubelet sets on its own Node (k8s.io/kubelet/pkg/apis IsKubeletLabel: `kubernetes.io/hostname`, `kubernetes.io/os`, `kubernetes.io/arch`, `topology.kubernetes.io/zone`, ... or a key under `[*.]kubelet.kubernetes.io/` or `[*.]node.kubernetes.io/`), and every key and value must be a valid label (\"failed to validate kubelet flags: unknown 'kubernetes.io' or 'k8s.io' labels specified with --node-labels\"). The NodeRestriction admission plugin refuses the others, so the kubelet does not try. The same list holds from 1.31 to 1.37.",
		Kubelet: "cmd/kubelet/app/options/options.go ValidateKubeletFlags"}
	FlagExits = &rule.Rule{ID: "KC2507", Fix: "remove --help or --version from the kubelet's command line.", Name: "flag-help-version", Severity: finding.Error, Stage: rule.StageFlags,
		Summary: "--help or --version on the kubelet's command line: it prints its help or version and exits without starting.",
		Doc:     "Right after parsing its command line, RunE short-circuits on --help (`cmd.Help()`) and on --version (`verflag.PrintAndExitIfRequested`: `--version`, `--version=true` or `--version=raw`; `--version=false` and `--version=v1.2.3` do not exit). The process exits 0 without reading any file, so a systemd unit with Restart= starts it again and again and the node never runs a kubelet.",
		Kubelet: kubeletServer + " NewKubeletCommand (help, verflag.PrintAndExitIfRequested)"}
	FlagWindowsOnly = &rule.Rule{ID: "KC2508", Name: "flag-windows-only", Severity: finding.Info, Stage: rule.StageFlags,
		Summary: "A flag only the Windows kubelet has (--windows-priorityclass, --windows-service) on a node evaluated as Linux, whose kubelet refuses it as unknown (KC2502): the node runs Windows (--os windows).",
		Doc: "cmd/kubelet/app/options/osflags_windows.go adds --windows-service and --windows-priorityclass to the Windows kubelet only; " +
			"the Linux kubelet refuses them as unknown flags (\"failed to parse kubelet flag: unknown flag: --windows-priorityclass\", KC2502; " +
			"conformance case 804-win-flags). Such a command line is a Windows node's (Cluster API's Windows templates, " +
			"AKS and EKS Windows node groups). Evaluated as Linux (the default), kubeletcfg reports the Linux kubelet's refusal and, " +
			"for each such flag, this note; the files are then checked as if the command line were fixed (Behind). With --os windows " +
			"the Windows kubelet's own flags, rules and defaults apply (docs/windows.md), except at a " +
			"minor whose Windows flags are not recorded yet, where these flags are left out with this note and the rest of the " +
			"command line is checked against the Linux kubelet's flags. Fix: evaluate a Windows node " +
			"with --os windows; on a Linux node, remove the flag.",
		Kubelet: "cmd/kubelet/app/options/osflags_windows.go addOSFlags"}
)

// WindowsOnlyFlags are the flags osflags_windows.go adds (--windows-service a
// boolean, --windows-priorityclass a string).
var WindowsOnlyFlags = map[string]bool{"windows-service": true, "windows-priorityclass": false}

// flagRules are emitted while the kubelet's command line is parsed and applied.
var flagRules = rule.Emitted("pipeline: command-line flags", SplitStreamReset, FlagUnknown, FlagDeprecated,
	FlagOverridesFile, FlagInvalid, FlagNodeLabels, FlagExits, FlagWindowsOnly)
