package main

import (
	"github.com/spf13/cobra"

	"github.com/kubeletcfg/kubeletcfg/cmd/kubeletcfg/internal/flags"
	"github.com/kubeletcfg/kubeletcfg/policy"
)

// policyFlags are --policy and --no-policy of a command that reports findings,
// and the policy they select (nil: none). The policy supplies the defaults of
// the command's flags that are not given on the command line
// (flags.ApplyPolicy).
type policyFlags struct {
	file   string
	none   bool
	policy *policy.Policy
}

// register adds the flags and loads the policy before the command runs (a
// PreRunE, so that the call sites stay one line each).
func (pf *policyFlags) register(cmd *cobra.Command, to flags.PolicyTargets) {
	cmd.Flags().StringVar(&pf.file, "policy", "", "the policy file (default: "+policy.FileName+" in the working folder or a parent, up to the repository root)")
	cmd.Flags().BoolVar(&pf.none, "no-policy", false, "ignore "+policy.FileName+" (inline kubeletcfg:ignore comments still apply)")
	cmd.MarkFlagsMutuallyExclusive("policy", "no-policy")
	next := cmd.PreRunE
	cmd.PreRunE = func(cmd *cobra.Command, args []string) error {
		to.Changed = cmd.Flags().Changed
		var err error
		if pf.policy, err = flags.ApplyPolicy(pf.file, pf.none, to); err != nil {
			return err
		}
		if next != nil {
			return next(cmd, args)
		}
		return nil
	}
}
