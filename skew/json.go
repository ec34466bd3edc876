package skew

import (
	"io"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
	"github.com/kubeletcfg/kubeletcfg/report"
)

// VersionDoc is the JSON document of one minor in kubeletcfg skew -o json: the
// lint document of that minor (report.Document, inline), the keys it silently
// drops and its effective configuration (null when it stops before it has one).
type VersionDoc struct {
	report.Document
	Dropped   []string       `json:"dropped"`
	Effective map[string]any `json:"effective"`
	// Tool and ToolRelease: the bootstrapper that ships this kubelet and its
	// release that runs it (Column); a tool without toolRelease has no release
	// ported for the minor.
	Tool        string `json:"tool,omitempty"`
	ToolRelease string `json:"toolRelease,omitempty"`
}

func versionDoc(c *Column) VersionDoc {
	return VersionDoc{Document: report.FromResult(c.Result), Dropped: nonNil(c.Result.Dropped), Effective: c.Effective,
		Tool: c.Tool, ToolRelease: c.ToolRelease}
}

// WriteJSON prints {"versions":[...]}, oldest first.
func (mx *Matrix) WriteJSON(w io.Writer) error {
	docs := make([]VersionDoc, 0, len(mx.Columns))
	for _, c := range mx.Columns {
		docs = append(docs, versionDoc(c))
	}
	return report.WriteJSON(w, map[string][]VersionDoc{"versions": docs})
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// preflightDoc is the JSON document of kubeletcfg preflight -o json.
type preflightDoc struct {
	From string `json:"from"`
	To   string `json:"to"`
	// Tool, for a bootstrapper that ships its own kubelet, and its releases
	// that run at from and at to ("" when none ported does).
	Tool     string `json:"tool,omitempty"`
	Releases *struct {
		From string `json:"from"`
		To   string `json:"to"`
	} `json:"toolReleases,omitempty"`
	// Verdict is the target minor's (starts, panics, refusedBy, kubeletVerdict).
	pipeline.Verdict
	Blockers         []finding.Finding `json:"blockers"`
	Comparable       bool              `json:"comparable"`
	Changes          []BehaviourChange `json:"changes"`
	CrashLoopBackOff struct {
		From *pipeline.Backoff `json:"from"`
		To   *pipeline.Backoff `json:"to"`
	} `json:"crashLoopBackOff"`
	CgroupV1     string      `json:"cgroupV1,omitempty"`
	Gates        []GateNote  `json:"gates"`
	Fields       []FieldNote `json:"fields"`
	NewlyApplied []string    `json:"newlyApplied"`
	Rollback     struct {
		report.Document
		Dropped []string `json:"dropped"`
	} `json:"rollback"`
}

// WriteJSON prints the preflight as one JSON document.
func (p *Preflight) WriteJSON(w io.Writer) error {
	d := preflightDoc{
		From: p.From.Minor.Version, To: p.To.Minor.Version,
		Verdict:  p.To.Result.Verdict,
		Blockers: p.Blockers, Comparable: p.Comparable, Changes: p.Changes,
		CgroupV1: p.CgroupV1, Gates: p.Gates, Fields: p.Fields, NewlyApplied: nonNil(p.NewlyApplied),
	}
	if d.Changes == nil {
		d.Changes = []BehaviourChange{}
	}
	if d.Gates == nil {
		d.Gates = []GateNote{}
	}
	if d.Fields == nil {
		d.Fields = []FieldNote{}
	}
	if d.Tool = p.From.Tool; d.Tool != "" {
		d.Releases = &struct {
			From string `json:"from"`
			To   string `json:"to"`
		}{p.From.ToolRelease, p.To.ToolRelease}
	}
	d.CrashLoopBackOff.From = p.From.Result.CrashLoopBackOff
	d.CrashLoopBackOff.To = p.To.Result.CrashLoopBackOff
	d.Rollback.Document = report.FromResult(p.From.Result)
	d.Rollback.Dropped = nonNil(p.From.Result.Dropped)
	return report.WriteJSON(w, d)
}

// CountAtLeast is the --fail-on count of a preflight: the target minor's findings.
func (p *Preflight) CountAtLeast(threshold finding.Severity) int {
	return finding.CountAtLeast(p.To.Result.Findings, threshold)
}
