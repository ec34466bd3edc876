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
