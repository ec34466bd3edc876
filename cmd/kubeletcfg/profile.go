package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kubeletcfg/kubeletcfg/matrix"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
	"github.com/kubeletcfg/kubeletcfg/profile"
	"github.com/kubeletcfg/kubeletcfg/report"
	"github.com/kubeletcfg/kubeletcfg/validate"
)

// profileFlag is --profile of lint and skew: a security profile whose checks
// (validate.RunProfile) run on the effective configuration of each minor. It
// is a pflag.Value so that an unknown name is a usage error before any file is
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
	_ = cmd.RegisterFlagCompletionFunc("profile", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return validate.Profiles(), cobra.ShellCompDirectiveNoFileComp
	})
}

// apply adds the profile's findings to a lint result. The name was checked by
// Set, and the only other failure is a build defect, so it does not return one.
func (p *profileFlag) apply(res *pipeline.Result, mainFile string) {
	if p.name == "" {
		return
	}
	if err := profile.Apply(p.name, res, mainFile); err != nil {
		panic(err)
	}
}

// applyMatrix adds the profile's findings to each minor's findings (so every
// output format has them); policy applies after it, like for lint.
func (p *profileFlag) applyMatrix(mx *matrix.Matrix, mainFile string) {
	for _, c := range mx.Columns {
		p.apply(c.Result, mainFile)
	}
}

// writeMatrix is skew's writeMatrix; for text, the profile's findings (what
// policy left of them) follow the matrix in a section of their own, minors with
// the same findings shown once.
func (p *profileFlag) writeMatrix(w io.Writer, mx *matrix.Matrix, output string, opt report.Options) error {
	if err := writeMatrix(w, mx, output, opt); err != nil || p.name == "" || output != "text" {
		return err
	}
	rules, _ := validate.ProfileRules(p.name)
	ofProfile := map[string]bool{}
	for _, r := range rules {
		ofProfile[r.ID] = true
	}
	perMinor := make([][]validate.Finding, len(mx.Columns))
	for i, c := range mx.Columns {
		for _, f := range c.Result.Findings {
			if ofProfile[f.Rule] {
				perMinor[i] = append(perMinor[i], f)
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n--profile %s: findings on the effective configuration of each minor\n", p.name)
	for i := 0; i < len(mx.Columns); {
		j := i + 1
		for j < len(mx.Columns) && sameFindings(perMinor[i], perMinor[j]) &&
			(mx.Columns[i].Result.Effective == nil) == (mx.Columns[j].Result.Effective == nil) {
			j++
		}
		var names []string
		for _, c := range mx.Columns[i:j] {
			names = append(names, c.Minor.Version)
		}
		fmt.Fprintf(&b, "\nkubelet %s\n", strings.Join(names, ", "))
		switch {
		case mx.Columns[i].Result.Effective == nil:
			b.WriteString("  not checked: the kubelet stops before it has a configuration\n")
		case len(perMinor[i]) == 0:
			b.WriteString("  no findings\n")
		}
		for _, f := range perMinor[i] {
			fmt.Fprintf(&b, "  %s: %s [%s]\n", f.Position, f.Message, f.Rule)
		}
		i = j
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func sameFindings(a, b []validate.Finding) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Rule != b[i].Rule || a[i].Position != b[i].Position || a[i].Message != b[i].Message {
			return false
		}
	}
	return true
}
