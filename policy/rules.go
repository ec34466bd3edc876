package policy

import (
	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/rule"
)

// Rules about kubeletcfg's own inline suppressions (# kubeletcfg:ignore ID
// reason). They have no Check: this package emits them after the pipeline,
// when it decides what is reported, and declares them here; the generated
// list in internal/ruleset names them (go generate ./internal/rulesgen ./internal/ruleset). They sit in StageLint because, like the
// lint rules, the kubelet has nothing to do with them (and StageLint is the
// stage whose rules may have no Check).

var (
	SuppressionUnused = &rule.Rule{ID: "KC7001", Name: "suppression-unused", Severity: finding.Warning, Stage: rule.StageLint,
		Summary: "A kubeletcfg:ignore comment suppresses nothing.",
		Doc: "`# kubeletcfg:ignore KC1101 reason` hides the findings of that rule on its own line or, for a comment on a line of its own, " +
			"on the next line that is not a comment. This one matched no finding at any kubelet minor evaluated: the problem was fixed, " +
			"the comment is on the wrong line, or the ID is wrong (the hint names the nearest rule). Remove it, so that it cannot hide a " +
			"future finding there.",
		EmittedBy: emittedBy,
	}
	SuppressionNoReason = &rule.Rule{ID: "KC7002", Name: "suppression-no-reason", Severity: finding.Warning, Stage: rule.StageLint,
		Summary: "A kubeletcfg:ignore comment gives no reason.",
		Doc: "Write why the finding is acceptable after the rule ID (`# kubeletcfg:ignore KC1101 read by our provisioning tool`): " +
			"the next reader cannot tell a deliberate exception from a silenced mistake. The suppression still applies.",
		EmittedBy: emittedBy,
	}
	SuppressionNotAllowed = &rule.Rule{ID: "KC7003", Name: "suppression-not-allowed", Severity: finding.Warning, Stage: rule.StageLint,
		Summary: "A kubeletcfg:ignore comment tries to hide an error: the kubelet would not start, so the finding stays.",
		Doc: "Error findings mean this kubelet refuses to start or panics; no comment or policy changes that, so they cannot be " +
			"suppressed, turned off, lowered or excluded. Fix the configuration, or evaluate the kubelet minors it is meant for " +
			"(--kubelet-version, or kubeletVersion in .kubeletcfg.yaml).",
		EmittedBy: emittedBy,
	}
)

// emittedBy is the step the rules reference names for these rules.
const emittedBy = "policy"
