package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kubeletcfg/kubeletcfg/validate"
)

// profileFlag is --profile of lint and skew (kubeletcfg.Options.Profile): a
// security profile whose checks (validate.RunProfile) run on the effective
// configuration of each minor. It is a pflag.Value so that an unknown name is a usage error before any file is
// read.
type profileFlag struct{ name string }

func (p *profileFlag) String() string { return p.name }
func (p *profileFlag) Type() string   { return "name" }

func (p *profileFlag) Set(s string) error {
	s = strings.ToLower(s) // --profile CIS is --profile cis
	if _, ok := validate.ProfileRules(s); !ok {
		return fmt.Errorf("unknown profile %q (want one of %s)", s, strings.Join(validate.Profiles(), ", "))
	}
	p.name = s
	return nil
}

func (p *profileFlag) register(cmd *cobra.Command) {
	cmd.Flags().Var(p, "profile", "also check a security profile on the effective configuration (drop-ins and defaults included): "+
		strings.Join(validate.Profiles(), ", ")+" (CIS Kubernetes Benchmark kubelet checks, warnings KC8xxx)")
	completeWith(cmd, "profile", validate.Profiles()...)
}
