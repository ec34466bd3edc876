package main

import (
	"github.com/spf13/cobra"

	"github.com/kubeletcfg/kubeletcfg"
	"github.com/kubeletcfg/kubeletcfg/report"
)

func newDiscoverCommand() *cobra.Command {
	var in inputFlags
	var output string
	cmd := &cobra.Command{
		Use:   "discover",
		Short: "Find the kubelet running on this host and print what it starts from",
		Long: `Find the kubelet process through /proc and read what it starts from: its command
line, the systemd unit and drop-ins that wrote it (ExecStart=, Environment=,
EnvironmentFile=, expanded as systemd does), the files its --config and --config-dir
name, its version (the release stamp in its binary, or kubelet --version) and the
host's cgroup version (the file system type of /sys/fs/cgroup), each with where it
came from.

lint, effective, skew and preflight take --discover to evaluate the same inputs.
In a pod, mount the host's / read-only at /host, use the host's PID namespace and
give --host-root /host (deploy/ has a Job and a DaemonSet).

Exit code 2, with one line naming what was looked for and where, when no kubelet
runs, several do (choose with --pid), the --pid process is not a kubelet (its
comm, executable or argv[0] is not named kubelet), or a file cannot be read.`,
		Example: `  kubeletcfg discover
  kubeletcfg discover --host-root /host -o json
  kubeletcfg lint --discover
  kubeletcfg preflight --discover --to 1.37`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := report.CheckFormat(output, "json", "text"); err != nil {
				return err
			}
			k, err := kubeletcfg.Discover(kubeletcfg.Options{Host: in.kc.host})
			if err != nil {
				return err
			}
			return finish(cmd, k, output)
		},
	}
	in.registerDiscover(cmd)
	_ = cmd.Flags().MarkHidden("discover") // discovering is what this command does
	outputFlag(cmd, &output, "text", "json", "text")
	return cmd
}
