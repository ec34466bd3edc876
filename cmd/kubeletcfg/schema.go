package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kubeletcfg/kubeletcfg"
	"github.com/kubeletcfg/kubeletcfg/skew"
)

func newSchemaCommand() *cobra.Command {
	var kubeletVersion, kubeconformDir string
	var force, verbose bool
	cmd := &cobra.Command{
		Use:   "schema",
		Short: "Print the JSON Schema of KubeletConfiguration for a kubelet minor, or write kubeconform's schema folder",
		Long: `Print the JSON Schema (draft 2020-12) of KubeletConfiguration
(kubelet.config.k8s.io/v1beta1) as the given kubelet minor defines it, generated
from that minor's k8s.io/kubelet types: field docs, types and Go integer
widths, Go durations, quantities, enums and the feature gate of each gated
field. Every object is closed (additionalProperties: false), like the kubelet's
strict decoding of the main file. Use it in editors (yaml-language-server).

With --kubeconform DIR, write the schemas of every supported minor in the layout
of kubeconform's default -schema-location template
  DIR/` + skew.KubeconformTemplate + `
as master (the newest minor) and v1.MINOR.0 up to the patch each minor was
generated from, each strict (-strict folders: unknown keys are errors) and
non-strict. Files are written atomically; an existing file that differs is
never overwritten without --force. It prints one summary line; -v lists the files.

A schema checks shape only; kubeletcfg lint also runs the kubelet's defaulting,
drop-in merge, feature gates and validation.`,
		Example: `  # the newest minor's schema, for an editor
  kubeletcfg schema > kubelet-config.schema.json
  kubeletcfg schema --kubelet-version 1.37

  # a schema folder for kubeconform, then validate with it
  kubeletcfg schema --kubeconform schemas
  kubeconform -strict -schema-location default -schema-location 'schemas/` + skew.KubeconformTemplate + `' config.yaml`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if kubeconformDir != "" {
				if cmd.Flags().Changed("kubelet-version") {
					return fmt.Errorf("--kubeconform writes every supported minor; leave out --kubelet-version")
				}
				res, err := skew.WriteKubeconform(kubeconformDir, force)
				if err != nil {
					return err
				}
				return res.WriteText(cmd.OutOrStdout(), kubeconformDir, verbose)
			}
			if force {
				return fmt.Errorf("--force only applies with --kubeconform")
			}
			m, err := kubeletcfg.LookupMinor(kubeletVersion, "kubeletcfg schema --kubeconform writes every minor's schema")
			if err != nil {
				return err
			}
			raw, err := m.Schema()
			if err != nil {
				return err
			}
			_, err = cmd.OutOrStdout().Write(raw)
			return err
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&kubeletVersion, "kubelet-version", skew.Default().Version, "kubelet minor whose schema to print ("+strings.Join(skew.Supported(), ", ")+"); v1.37.2 is accepted")
	fl.StringVar(&kubeconformDir, "kubeconform", "", "write the schemas of every supported minor under this folder, in kubeconform's layout")
	fl.BoolVar(&force, "force", false, "with --kubeconform: overwrite existing files that differ")
	// No -v: the root command's -v is --version.
	fl.BoolVar(&verbose, "verbose", false, "with --kubeconform: list every file")
	_ = cmd.RegisterFlagCompletionFunc("kubelet-version", completeMinor)
	_ = cmd.MarkFlagDirname("kubeconform")
	return cmd
}
