// Package flags is the command's flag parsing that the library does not
// need: --fail-on, --set, effective's -o and --show-origin, the file flags
// given once (OnceStringVarP), the policy's defaults for the flags the
// command line does not give, and the webhook's policy (WebhookPolicy).
package flags

import (
	"fmt"
	"strings"

	"github.com/kubeletcfg/kubeletcfg"
	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/policy"
)

// ParseFailOn reads --fail-on: the lowest severity that fails, or -1 for
// none.
func ParseFailOn(s string) (finding.Severity, error) {
	if s == "none" {
		return -1, nil
	}
	sev, err := finding.ParseSeverity(s)
	if err != nil {
		return 0, fmt.Errorf("--fail-on: unknown severity %q (want error, warning, info or none)", s)
	}
	return sev, nil
}

// ParseSets reads --set PATH=VALUE values (input.Options.Set: values only a
// bootstrapped instance knows); nil when there are none.
func ParseSets(kvs []string) (map[string]string, error) {
	var set map[string]string
	for _, kv := range kvs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, fmt.Errorf("--set %q: want PATH=VALUE (maxPods=58)", kv)
		}
		if set == nil {
			set = map[string]string{}
		}
		set[strings.TrimSpace(k)] = v
	}
	return set, nil
}

// CheckEffectiveFormat is the error of an output format Effective's Write does
// not have: yaml or json, and --show-origin needs YAML's comments.
func CheckEffectiveFormat(format string, showOrigin bool) error {
	if format != "yaml" && format != "json" {
		return fmt.Errorf("unknown output format %q (want yaml or json)", format)
	}
	if showOrigin && format == "json" {
		return fmt.Errorf("--show-origin needs -o yaml (JSON has no comments)")
	}
	return nil
}

// PolicyTargets are the flag values a policy may default, nil for the flags a
// command does not have; Changed says whether the command line gave a flag
// (cobra's Changed), which the policy never overrides.
type PolicyTargets struct {
	KubeletVersion *string // lint's --kubelet-version
	// KubeletVersionSet is set when the policy gave KubeletVersion.
	KubeletVersionSet *bool
	Versions          *string // skew's and the webhook's --versions (unless --control-plane or --kubelet-version is given)
	FailOn            *string // --fail-on
	Changed           func(flag string) bool
}

// ApplyPolicy finds and reads the policy (LoadPolicy; none with noPolicy),
// then fills in the targets whose flags the command line did not give. It
// returns the policy, nil when there is none.
func ApplyPolicy(file string, noPolicy bool, t PolicyTargets) (*policy.Policy, error) {
	if noPolicy {
		return nil, nil
	}
	p, err := kubeletcfg.LoadPolicy(file)
	if err != nil || p == nil {
		return nil, err
	}
	changed := t.Changed
	if changed == nil {
		changed = func(string) bool { return false }
	}
	if t.KubeletVersion != nil && !changed("kubelet-version") {
		// One minor for lint: the policy's, or the newest of its window.
		v, err := kubeletcfg.PolicyMinor(p)
		if err != nil {
			return nil, err
		}
		if v != "" {
			*t.KubeletVersion = v
			if t.KubeletVersionSet != nil {
				*t.KubeletVersionSet = true
			}
		}
	}
	if t.Versions != nil && p.Versions != "" && !changed("versions") && !changed("control-plane") && !changed("kubelet-version") {
		*t.Versions = p.Versions
	}
	if t.FailOn != nil && p.FailOn != "" && !changed("fail-on") {
		*t.FailOn = p.FailOn
	}
	return p, nil
}

// WebhookPolicy reads the webhook's --policy and --fail-on: the policy file
// (nil when file is ""), with its versions and failOn applied to the targets
// as ApplyPolicy does, and the severity the webhook denies from.
//
// The policy is the file named alone, never one found from the working folder
// (so the webhook has no --no-policy either, and does not reuse the verbs'
// --policy flag): in a pod there is no repository to find .kubeletcfg.yaml
// in, and a file the server's working folder happens to hold must not decide
// what a cluster admits. Its exclude globs are dropped: they name files, and
// the webhook judges objects, whose names would match them or not by the
// chance of the working folder. A policy's failOn none is refused: the
// webhook denies from error, warning or info.
func WebhookPolicy(file string, t PolicyTargets) (*policy.Policy, finding.Severity, error) {
	var p *policy.Policy
	if file != "" {
		var err error
		if p, err = ApplyPolicy(file, false, t); err != nil {
			return nil, 0, err
		}
		p.Exclude = nil
	}
	sev, err := finding.ParseSeverity(*t.FailOn)
	switch {
	case err != nil && p != nil && p.FailOn == *t.FailOn && (t.Changed == nil || !t.Changed("fail-on")):
		return nil, 0, &policy.Error{Path: p.Path, Msg: fmt.Sprintf("failOn %s: the webhook denies from error, warning or info (or give --fail-on)", *t.FailOn)}
	case err != nil:
		return nil, 0, fmt.Errorf("--fail-on: %v", err)
	}
	return p, sev, nil
}
