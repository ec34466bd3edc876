package kubeletcfg

import (
	"errors"
	"strings"

	"github.com/kubeletcfg/kubeletcfg/internal/optionerr"
)

// OptionError is an error about the options given: its text names Options
// fields in braces ("{KubeletVersion} takes one minor"), which Error writes as
// the library's words (Options.KubeletVersion) and Words as a front end's
// (the command's --kubelet-version, FlagWords). The packages below the
// library return it too (kubelets.Window names {Versions}).
type OptionError = optionerr.Error

// optionErrorf is an OptionError with a formatted text; a %w verb wraps.
func optionErrorf(format string, args ...any) error { return optionerr.Errorf(format, args...) }

// FlagWords are the command's flags by Options field (and by the verbs'
// request fields), for OptionError.Words.
var FlagWords = map[string]string{
	"Config": "--config", "ConfigDir": "--config-dir", "KubeletVersion": "--kubelet-version", "Versions": "--versions",
	"From": "--from", "To": "--to", "Nodes": "--nodes", "Discover": "--discover", "Host.PID": "--pid", "Host.Unit": "--unit", "PID": "--pid",
	"KubeletFlagsFile": "--kubelet-flags-file", "KubeletFlags": "--kubelet-flags", "Format": "--input-format",
	"Set": "--set", "CgroupVersion": "--cgroup-version", "OS": "--os", "ShowOrigin": "--show-origin", "FailOn": "--fail-on",
	"Kubeconform": "--kubeconform", "Force": "--force", "ControlPlane": "--control-plane", "Read.KindNode": "--kind-node",
	// dropin new and diff (author.NewRequest, author.DiffRequest)
	"Sets": "--set", "Gates": "--feature-gate", "Mode": "--mode",
	// cluster lint and preflight (cluster.Request)
	"Target": "--to", "Contexts": "--context", "AllContexts": "--all-contexts", "QPS": "--qps", "Burst": "--burst",
	"Fetch.Concurrency": "--concurrency", "Fetch.NodeTimeout": "--node-timeout",
}

// CommandWords is err's text as the command prints it: an OptionError within
// it names the command's flags (FlagWords) instead of Options fields.
func CommandWords(err error) string {
	var oe *OptionError
	if !errors.As(err, &oe) {
		return err.Error()
	}
	return strings.Replace(err.Error(), oe.Error(), oe.Words(FlagWords), 1)
}
