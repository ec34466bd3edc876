package main

import (
	"github.com/spf13/cobra"

	"github.com/kubeletcfg/kubeletcfg"
	"github.com/kubeletcfg/kubeletcfg/policy"
)

// policyFlags are --policy and --no-policy of a command that reports findings,
// and the policy they select (nil: none). The policy supplies the defaults of
// the command's flags that are not given on the command line.
type policyFlags struct {
	file   string
	none   bool
	policy *policy.Policy
	to     policyTargets
}

// policyTargets are the flag variables a policy may default; nil for flags
// the command does not have.
type policyTargets struct {
	kubeletVersion *string // lint's --kubelet-version
	// kubeletVersionSet is set when the policy gave kubeletVersion.
	kubeletVersionSet *bool
	versions          *string // skew's --versions (unless --control-plane is given)
	failOn            *string // --fail-on
}

// register adds the flags and loads the policy before the command runs (a
// PreRunE, so that the call sites stay one line each).
func (pf *policyFlags) register(cmd *cobra.Command, to policyTargets) {
	pf.to = to
	cmd.Flags().StringVar(&pf.file, "policy", "", "the policy file (default: "+policy.FileName+" in the working folder or a parent, up to the repository root)")
	cmd.Flags().BoolVar(&pf.none, "no-policy", false, "ignore "+policy.FileName+" (inline kubeletcfg:ignore comments still apply)")
	cmd.MarkFlagsMutuallyExclusive("policy", "no-policy")
	next := cmd.PreRunE
	cmd.PreRunE = func(cmd *cobra.Command, args []string) error {
		if err := pf.load(cmd); err != nil {
			return err
		}
		if next != nil {
			return next(cmd, args)
		}
		return nil
	}
}

// load finds and reads the policy (kubeletcfg.LoadPolicy), then fills in the defaults of the flags
// not given on the command line (cobra's Changed).
func (pf *policyFlags) load(cmd *cobra.Command) error {
	if pf.none {
		return nil
	}
	p, err := kubeletcfg.LoadPolicy(pf.file)
	if err != nil || p == nil {
		return err
	}
	pf.policy = p
	changed := cmd.Flags().Changed
	if t := pf.to.kubeletVersion; t != nil && !changed("kubelet-version") {
		// One minor for lint: the policy's, or the newest of its window.
		v, err := kubeletcfg.PolicyMinor(p)
		if err != nil {
			return err
		}
		if v != "" {
			*t = v
			if pf.to.kubeletVersionSet != nil {
				*pf.to.kubeletVersionSet = true
			}
		}
	}
	if t := pf.to.versions; t != nil && p.Versions != "" && !changed("versions") && !changed("control-plane") {
		*t = p.Versions
	}
	if t := pf.to.failOn; t != nil && p.FailOn != "" && !changed("fail-on") {
		*t = p.FailOn
	}
	return nil
}
