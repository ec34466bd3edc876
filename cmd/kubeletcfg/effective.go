package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	yaml "go.yaml.in/yaml/v3"

	"github.com/kubeletcfg/kubeletcfg/pipeline"
	"github.com/kubeletcfg/kubeletcfg/skew"
	"github.com/kubeletcfg/kubeletcfg/validate"
)

func newEffectiveCommand() *cobra.Command {
	var in inputFlags
	var output string
	var showOrigin bool
	cmd := &cobra.Command{
		Use:   "effective [PATH]",
		Short: "Print the configuration the kubelet would run with (merged and defaulted)",
		Long: `Print the KubeletConfiguration the kubelet holds after reading --config, merging the
--config-dir drop-ins and applying its defaults: every field, including the ones no
file sets. With --show-origin each field says where its value came from.

If the kubelet would not start, the configuration is still printed when it exists,
a note goes to stderr and the exit code is 1.`,
		Example: `  kubeletcfg effective -c config.yaml -d conf.d
  kubeletcfg effective -c config.yaml -d conf.d --show-origin
  kubeletcfg effective -c config.yaml -o json | jq .crashLoopBackOff`,
		Args: onePath,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := in.takePath(args); err != nil {
				return err
			}
			if output != "yaml" && output != "json" {
				return fmt.Errorf("unknown output format %q (want yaml or json)", output)
			}
			if showOrigin && output == "json" {
				return fmt.Errorf("--show-origin needs -o yaml (JSON has no comments)")
			}
			res, err := in.evaluate()
			if err != nil {
				return err
			}
			if res.Effective != nil {
				out, err := renderEffective(res, output, showOrigin)
				if err != nil {
					return err
				}
				if _, err := cmd.OutOrStdout().Write(out); err != nil {
					return err
				}
			}
			if !res.Starts {
				n := countAtLeast(res.Findings, validate.Error)
				fmt.Fprintf(cmd.ErrOrStderr(), "kubeletcfg: kubelet %s would not start with this configuration (%d %s); run kubeletcfg lint for details\n", res.Minor.Version, n, plural(n, "error", "errors"))
				return &findingsError{n: n}
			}
			return nil
		},
	}
	in.register(cmd)
	in.registerDiscover(cmd)
	cmd.Flags().StringVarP(&output, "output", "o", "yaml", "output format: yaml or json")
	cmd.Flags().BoolVar(&showOrigin, "show-origin", false, "annotate each field with the file:line that set it, or (default)")
	_ = cmd.RegisterFlagCompletionFunc("output", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return []string{"yaml", "json"}, cobra.ShellCompDirectiveNoFileComp
	})
	return cmd
}

// renderEffective prints the effective config with apiVersion and kind, keys sorted
// as the kubelet's own "Effective KubeletConfiguration" log prints them.
func renderEffective(res *pipeline.Result, output string, showOrigin bool) ([]byte, error) {
	generic, err := res.EffectiveObject()
	if err != nil {
		return nil, err
	}
	if output == "json" {
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
		if pos, ok := res.Origins[p]; ok && pos.File != "" {
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
func isMapField(tree *skew.Field, path string) bool {
	f := tree.At(path)
	return f != nil && f.Kind == skew.Map
}
