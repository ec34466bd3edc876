package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/kubeletcfg/kubeletcfg/report"
	"github.com/kubeletcfg/kubeletcfg/skew"
)

// versionInfo is what `kubeletcfg version -o json` prints.
type versionInfo struct {
	Version  string         `json:"version"`
	Commit   string         `json:"commit,omitempty"`
	Go       string         `json:"go"`
	Platform string         `json:"platform"`
	Minors   []versionMinor `json:"kubeletMinors"`
}

type versionMinor struct {
	Minor      string `json:"minor"`
	Kubernetes string `json:"kubernetes"`
	PreRelease bool   `json:"preRelease,omitempty"`
	Default    bool   `json:"default,omitempty"`
}

// buildInfo is a variable so that the golden test does not depend on the Go
// toolchain that runs it.
var buildInfo = func() versionInfo {
	v := versionInfo{Version: report.Version(), Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" {
				v.Commit = s.Value
			}
		}
	}
	return v
}

func newVersionCommand() *cobra.Command {
	var output string
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print kubeletcfg's version, its Go version and the kubelet minors it knows",
		Long: `Print kubeletcfg's version (the module version of a go install, "(devel)" for a
build from a source tree), the Go version it was built with, and each kubelet
minor it reproduces with the Kubernetes release its knowledge was generated from.

'kubeletcfg versions' lists the same minors alone, one per line, for scripts.`,
		Example: `  kubeletcfg version
  kubeletcfg version -o json | jq -r '.kubeletMinors[].minor'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := outputFormat(output); err != nil {
				return err
			}
			v := buildInfo()
			for _, m := range skew.Minors() {
				v.Minors = append(v.Minors, versionMinor{Minor: m.Version, Kubernetes: m.Patch, PreRelease: m.PreRelease(), Default: m == skew.Default()})
			}
			out := cmd.OutOrStdout()
			if output == "json" {
				return report.WriteJSON(out, v)
			}
			fmt.Fprintf(out, "kubeletcfg %s\n", v.Version)
			if v.Commit != "" {
				fmt.Fprintf(out, "commit      %s\n", v.Commit)
			}
			fmt.Fprintf(out, "go          %s %s\n\nkubelet minors:\n", v.Go, v.Platform)
			tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
			for _, m := range v.Minors {
				note := ""
				switch {
				case m.PreRelease:
					note = " (pre-release)"
				case m.Default:
					note = " (default)"
				}
				fmt.Fprintf(tw, "  %s\tk8s.io/kubernetes %s%s\n", m.Minor, m.Kubernetes, note)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().StringVarP(&output, "output", "o", "text", "output format: json, text")
	_ = cmd.RegisterFlagCompletionFunc("output", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return []string{"json", "text"}, cobra.ShellCompDirectiveNoFileComp
	})
	return cmd
}
