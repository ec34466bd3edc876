package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/kubeletcfg/kubeletcfg"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

func newSchemaCommand() *cobra.Command {
	var req kubeletcfg.SchemaRequest
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
  DIR/` + kubelets.KubeconformTemplate + `
as master (the default minor, the newest GA release) and v1.MINOR.0 up to the
patch each minor was generated from; a pre-release minor only under its own name
(v` + preReleaseExample() + `), since its types may change before its release;
each strict (-strict folders: unknown keys are errors) and non-strict. Files are written atomically; an existing file that differs is
never overwritten without --force. It prints one summary line; -v lists the files.

A schema checks shape only; kubeletcfg lint also runs the kubelet's defaulting,
drop-in merge, feature gates and validation.`,
		Example: `  # the default minor's schema (the newest GA release), for an editor
  kubeletcfg schema > kubelet-config.schema.json
  kubeletcfg schema --kubelet-version 1.37

  # a schema folder for kubeconform, then validate with it
  kubeletcfg schema --kubeconform schemas
  kubeconform -strict -schema-location default -schema-location 'schemas/` + kubelets.KubeconformTemplate + `' config.yaml`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			req.KubeletVersionSet = cmd.Flags().Changed("kubelet-version")
			return kubeletcfg.Schema(cmd.OutOrStdout(), req)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&req.KubeletVersion, "kubelet-version", kubelets.Default().Version, "kubelet minor whose schema to print ("+strings.Join(kubelets.Supported(), ", ")+"); v1.37.2 is accepted")
	fl.StringVar(&req.Kubeconform, "kubeconform", "", "write the schemas of every supported minor under this folder, in kubeconform's layout")
	fl.BoolVar(&req.Force, "force", false, "with --kubeconform: overwrite existing files that differ")
	// No -v: the root command's -v is --version.
	fl.BoolVar(&req.Verbose, "verbose", false, "with --kubeconform: list every file")
	_ = cmd.RegisterFlagCompletionFunc("kubelet-version", completeMinor)
	_ = cmd.MarkFlagDirname("kubeconform")
	return cmd
}

// preReleaseExample names a pre-release minor's kubeconform version (1.38.0-beta.0),
// or what one would look like when every minor is released.
func preReleaseExample() string {
	if m := kubelets.Newest(); m.PreRelease() {
		return strings.TrimPrefix(m.Patch, "v")
	}
	return kubelets.Newest().Version + ".0-rc.0"
}
