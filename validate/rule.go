package validate

import (
	"slices"
	"strings"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/rule"
)

// cisRules are the rules of the cis profile (--profile cis, RunProfile).
var cisRules = []*rule.Rule{CISAnonymousAuth, CISAuthorizationMode, CISClientCAFile, CISReadOnlyPort, CISStreamingIdleTimeout,
	CISMakeIPTablesUtilChains, CISEventRecordQPS, CISTLSCertFile, CISRotateCertificates, CISRotateServerCertificate,
	CISStrongCiphers, CISPodPidsLimit, CISSeccompDefault, CISProtectKernelDefaults}

// Declared is every rule validate declares, ordered by ID: the kubelet's
// validation (validation*.go), the run stage (runstage.go), the command-line
// rules the pipeline emits (flag_rules.go), the lint rules and the cis profile.
var Declared = func() []*rule.Rule {
	var out []*rule.Rule
	for _, list := range [][]*rule.Rule{
		flagRules,
		validationRules, validationNodeRules, reservedMemoryRules,
		linuxRules, windowsRules, loggingRules, tracingRules, validationTailRules,
		runStageRules, lintRules, cisRules,
	} {
		out = append(out, list...)
	}
	slices.SortFunc(out, func(a, b *rule.Rule) int { return strings.Compare(a.ID, b.ID) })
	return rule.Resolve(out)
}()

// Run evaluates validate's rules over ctx (rule.Run): the kubelet's own checks,
// then the run stage's, Behind the error the kubelet stops at first
// (behindRun), then the lint rules.
func Run(ctx *rule.Context) []finding.Finding {
	return rule.Run(ctx, Declared, func(prior, run []finding.Finding) []finding.Finding {
		return behindRun(prior, run, ctx.IgnoreAllocatableEviction)
	})
}
