package kubeletcfg

import (
	"encoding/json"
	"io"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
	"github.com/kubeletcfg/kubeletcfg/report"
)

// EffectiveConfig is what Effective found: the evaluation whose effective
// configuration Render prints.
type EffectiveConfig struct {
	// Result is the pipeline's result: Effective is nil when the kubelet
	// stops before it has a configuration, Starts false when it refuses.
	Result *pipeline.Result
	// ShowOrigin has Write annotate every key with where its value came
	// from (Render's showOrigin; YAML only).
	ShowOrigin bool
	// objects says, for a file of several node groups, which one this is
	// (objectsNote).
	objects string
}

// Write prints the effective configuration (Render, when there is one) and,
// on opt.Log, a note when the kubelet would not start with it.
func (e *EffectiveConfig) Write(w io.Writer, format string, opt report.Options) error {
	out, err := e.Render(format, e.ShowOrigin)
	if err != nil {
		return err
	}
	if _, err := w.Write(out); err != nil {
		return err
	}
	if e.objects != "" {
		opt.Logf("%s", e.objects)
	}
	if res := e.Result; !res.Starts {
		what := "would not start with this configuration"
		if by := res.Bootstrapper(); by != "" {
			what = "never starts: " + by + " first"
		}
		opt.Logf("kubeletcfg: kubelet %s %s (%s); run kubeletcfg lint for details\n", res.Minor.Version, what, report.ErrorCount(res.Findings))
	}
	return nil
}

// CountAtLeast counts the errors that stop the kubelet, when it would not
// start (effective has no --fail-on: the command asks at error); 0 when it
// starts.
func (e *EffectiveConfig) CountAtLeast(threshold finding.Severity) int {
	if e.Result.Starts || threshold < 0 {
		return 0
	}
	return CountAtLeast(e.Result.Findings, finding.Error)
}

// Effective evaluates the options at one kubelet minor for the configuration
// the kubelet would run with: the main file, the drop-ins merged, the flags
// applied and its defaults set.
func Effective(opt Options) (*EffectiveConfig, error) {
	p, res, err := evaluate(opt, lintHint)
	if err != nil {
		return nil, err
	}
	return &EffectiveConfig{Result: res, objects: p.objectsNote()}, nil
}

// Render prints the effective configuration with apiVersion and kind, keys
// sorted as the kubelet's own "Effective KubeletConfiguration" log prints
// them, as YAML (format "yaml", with showOrigin a comment on every key naming
// the file:line that set it, what set it (Result.OriginNotes: "set by
// kubeadm ..."), or default) or indented JSON ("json"). Nil
// when there is none (Result.Effective is nil).
func (e *EffectiveConfig) Render(format string, showOrigin bool) ([]byte, error) {
	res := e.Result
	if res.Effective == nil {
		return nil, nil
	}
	generic, err := res.EffectiveObject()
	if err != nil {
		return nil, err
	}
	if format == "json" {
		out, err := json.MarshalIndent(generic, "", "  ")
		return append(out, '\n'), err
	}
	var doc yaml.Node
	if err := doc.Encode(generic); err != nil {
		return nil, err
	}
	if showOrigin {
		annotate(&doc, "", res)
	}
	var b strings.Builder
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return nil, err
	}
	return []byte(b.String()), nil
}

// annotate sets a line comment on every key naming the origin of its value.
func annotate(n *yaml.Node, path string, res *pipeline.Result) {
	if n.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		p := k.Value
		switch {
		case strings.HasPrefix(path, "map:"):
			p = strings.TrimPrefix(path, "map:") + "[" + k.Value + "]"
		case path != "":
			p = path + "." + k.Value
		}
		if p == "apiVersion" || p == "kind" {
			continue
		}
		if note, ok := res.OriginNotes[p]; ok {
			// A converted input's tool computed it: its Origins position is
			// only the nearest written line (kind:), so say who did instead.
			k.LineComment = note
		} else if pos, ok := res.Origins[p]; ok && pos.File != "" {
			k.LineComment = "from " + pos.String()
		} else if v.Kind != yaml.MappingNode || isMapField(res.Minor.Fields(), p) {
			k.LineComment = "default"
		}
		if v.Kind == yaml.MappingNode {
			child := p
			if isMapField(res.Minor.Fields(), p) {
				child = "map:" + p
			}
			annotate(v, child, res)
		}
	}
}

// isMapField reports whether a path holds a free-form map (its keys are data).
func isMapField(tree *kubelets.Field, path string) bool {
	f := tree.At(path)
	return f != nil && f.Kind == kubelets.Map
}
