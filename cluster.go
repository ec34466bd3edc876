package kubeletcfg

import (
	"bytes"
	"encoding/json"

	"github.com/kubeletcfg/kubeletcfg/fleet"
	"github.com/kubeletcfg/kubeletcfg/input"
	"github.com/kubeletcfg/kubeletcfg/matrix"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
	"github.com/kubeletcfg/kubeletcfg/report"
	"github.com/kubeletcfg/kubeletcfg/skew"
	"github.com/kubeletcfg/kubeletcfg/validate"
)

// ConfigzName is what findings call a node's configz in a cluster run.
const ConfigzName = "configz"

// EvaluateClusterNode evaluates a node read through the API (fleet.Node:
// its configz and flagz) at the minor it runs (target nil: lint; the report
// is a LintReport) or from it to target (preflight; the values equal to the
// running minor's defaults taken as not set, fleet.WithoutDefaults).
func EvaluateClusterNode(n *fleet.Node, target *skew.Minor, cgroup int) *fleet.Eval {
	e := &fleet.Eval{}
	src, err := input.Convert(ConfigzName, n.Configz, input.Configz)
	if err != nil {
		e.Err = err
		return e
	}
	in := pipeline.Input{CgroupVersion: cgroup, Flags: n.Args}
	for range n.Args {
		in.FlagPositions = append(in.FlagPositions, validate.Position{File: "flagz"})
	}
	if target == nil {
		src.Apply(&in)
		res, err := pipeline.Evaluate(n.Kubelet, in)
		if err == nil {
			err = src.Settle(res)
		}
		if err != nil {
			e.Err = err
			return e
		}
		doc := LintReport{Document: report.FromResult(res), Input: inputName(src)}
		e.Lint = &doc.Document
		e.Starts, e.Findings = doc.Starts, doc.Findings
		e.Raw, e.Err = json.Marshal(doc)
		return e
	}
	if e.Err = fleet.CheckTarget(n, target); e.Err != nil {
		return e
	}
	doc, err := fleet.WithoutDefaults(src.Data, n.Kubelet)
	if err != nil {
		e.Err = err
		return e
	}
	name := ConfigzName + " (without " + n.Kubelet.Version + " defaults)"
	in.Config = name
	in.Virtual = map[string][]byte{name: doc}
	p, err := matrix.NewPreflight(in, n.Kubelet, target)
	if err != nil {
		e.Err = err
		return e
	}
	e.Preflight = p
	e.Starts = p.Starts()
	e.Findings = p.To.Result.Findings
	var b bytes.Buffer
	if err := p.WriteJSON(&b); err != nil {
		e.Err = err
		return e
	}
	e.Raw = b.Bytes()
	return e
}
