package input

import (
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
)

// The tests here run the pipeline on a source as the module root does
// (options.go: applySource, settle): input itself does not import pipeline,
// its tests may (pipeline does not import input).

// applyTo is Source.Apply on in's fields.
func applyTo(s *Source, in *pipeline.Input) {
	f := Files{Config: in.Config, ConfigDir: in.ConfigDir, ConfigDirInMemory: in.ConfigDirInMemory,
		Virtual: in.Virtual, Flags: in.Flags, FlagPositions: in.FlagPositions}
	s.Apply(&f)
	in.Config, in.ConfigDir, in.ConfigDirInMemory = f.Config, f.ConfigDir, f.ConfigDirInMemory
	in.Virtual, in.Flags, in.FlagPositions = f.Virtual, f.Flags, f.FlagPositions
}

// settleResult is Source.Settle on res, with the pipeline as its Evaluator.
func settleResult(s *Source, res *pipeline.Result) error {
	r := resultOf(res)
	err := s.Settle(r, evaluateFile)
	res.Findings, res.Origins, res.OriginNotes, res.Dropped = r.Findings, r.Origins, r.OriginNotes, r.Dropped
	return err
}

// translateResult is Source.Translate on res.
func translateResult(s *Source, res *pipeline.Result) {
	r := resultOf(res)
	s.Translate(r)
	res.Findings, res.Origins, res.OriginNotes = r.Findings, r.Origins, r.OriginNotes
}

func resultOf(res *pipeline.Result) *Result {
	r := &Result{Minor: res.Minor, Findings: res.Findings, Origins: res.Origins, OriginNotes: res.OriginNotes, Dropped: res.Dropped}
	if res.Effective != nil {
		r.Object = res.EffectiveObject
	}
	return r
}

func evaluateFile(m *kubelets.Minor, path string, data []byte) (*Result, error) {
	res, err := pipeline.Evaluate(m, pipeline.Input{Config: path, Virtual: map[string][]byte{path: data}})
	if err != nil {
		return nil, err
	}
	return resultOf(res), nil
}
