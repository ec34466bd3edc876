package kubeletcfg

import "github.com/kubeletcfg/kubeletcfg/policy"

// LoadPolicy reads the policy file (policy.Load), or with file "" the one
// policy.Find finds from the working folder up; nil when there is none.
func LoadPolicy(file string) (*policy.Policy, error) {
	if file == "" {
		found, err := policy.Find(".")
		if err != nil || found == "" {
			return nil, err
		}
		file = found
	}
	return policy.Load(file)
}

// PolicyTargets are the flag values a policy may default, nil for the flags a
// command does not have; Changed says whether the command line gave a flag
// (cobra's Changed), which the policy never overrides.
type PolicyTargets struct {
	KubeletVersion *string // lint's --kubelet-version
	// KubeletVersionSet is set when the policy gave KubeletVersion.
	KubeletVersionSet *bool
	Versions          *string // skew's --versions (unless --control-plane is given)
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
	p, err := LoadPolicy(file)
	if err != nil || p == nil {
		return nil, err
	}
	changed := t.Changed
	if changed == nil {
		changed = func(string) bool { return false }
	}
	if t.KubeletVersion != nil && !changed("kubelet-version") {
		// One minor for lint: the policy's, or the newest of its window.
		v, err := PolicyMinor(p)
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
	if t.Versions != nil && p.Versions != "" && !changed("versions") && !changed("control-plane") {
		*t.Versions = p.Versions
	}
	if t.FailOn != nil && p.FailOn != "" && !changed("fail-on") {
		*t.FailOn = p.FailOn
	}
	return p, nil
}
