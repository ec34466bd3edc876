package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kubeletcfg/kubeletcfg"
	"github.com/kubeletcfg/kubeletcfg/author"
	"github.com/kubeletcfg/kubeletcfg/report"
)

func newDropinDiffCommand() *cobra.Command {
	var (
		from                            []string
		to, out, oldOut, cgroup, output string
		mf                              minorsFlags
		force                           bool
	)
	cmd := &cobra.Command{
		Use:   "diff --from FILE|DIR... --to FILE [--output-file NAME.conf]",
		Short: "Write the minimal drop-in that turns the current configuration into the desired one",
		Long: `Compute the drop-in whose merge over the current effective configuration gives the
desired one: RFC 7386 merge-patch semantics, so objects merge, lists are written
whole and null removes a key. Both sides are the effective configurations at the
kubelet minor (merged and defaulted), so keys both already agree on are left out.

--from names what the node runs today: the main --config file and/or the
--config-dir folder (give --from twice), or a configz dump
(kubectl get --raw /api/v1/nodes/NODE/proxy/configz). --to is the desired full
configuration (a kubelet config file or a configz dump).

The drop-in is checked by merging it back, as the last drop-in or at the place
--output-file gives it in the --from folder, at every minor named: if any minor
would not end up with the desired configuration, nothing is written and the exit
code is 1. With no difference nothing is written and the exit code is 0.

-o is the output format, as in every command: text (the drop-in itself, or what
was written) or json (kubelet, checkedAt, content, keys, failures, written).
The file to write is --output-file (--out, its old name, still works).`,
		Example: `  # what must a drop-in say to move this node to the new golden config?
  kubeletcfg dropin diff --from /var/lib/kubelet/config.yaml --from /etc/kubernetes/kubelet.conf.d \
    --to golden.yaml --output-file /etc/kubernetes/kubelet.conf.d/90-golden.conf

  # from a running node's configz
  kubectl get --raw /api/v1/nodes/node-1/proxy/configz > node-1.json
  kubeletcfg dropin diff --from node-1.json --to golden.yaml`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			// -o used to be the file to write: a value that looks like one says where that went.
			if strings.HasSuffix(output, ".conf") || strings.ContainsRune(output, '/') {
				return fmt.Errorf("-o %s: -o is the output format (json or text), as in every command; write the drop-in with --output-file %s", output, output)
			}
			if err := report.CheckFormat(output, "json", "text"); err != nil {
				return err
			}
			if oldOut != "" {
				if out != "" && out != oldOut {
					return fmt.Errorf("--out %s and --output-file %s: --out is --output-file's old name; give one", oldOut, out)
				}
				out = oldOut
				fmt.Fprintln(cmd.ErrOrStderr(), "kubeletcfg: --out is deprecated, use --output-file")
			}
			req := author.DiffRequest{From: from, To: to, Out: out, Force: force}
			if err := req.Validate(); err != nil {
				return err
			}
			rep, err := kubeletcfg.DropInDiff(mf.options("", "", cgroup), req)
			if err != nil {
				return err
			}
			rep.Reword(kubeletcfg.CommandWords)
			return finish(cmd, rep, output)
		},
	}
	fl := cmd.Flags()
	fl.StringArrayVar(&from, "from", nil, "the current --config file, --config-dir folder or a configz dump (repeatable: a file and a folder)")
	fl.StringVar(&to, "to", "", "the desired full configuration (a kubelet config file or a configz dump)")
	fl.StringVar(&out, "output-file", "", "write the drop-in to this NAME.conf (atomically) instead of printing it")
	fl.StringVar(&oldOut, "out", "", "the old name of --output-file")
	// Hidden, not MarkDeprecated: cobra prints that note on stdout, into the
	// drop-in a user may be redirecting; ours goes to stderr.
	_ = fl.MarkHidden("out")
	outputFlag(cmd, &output, "text", "json", "text")
	fl.BoolVar(&force, "force", false, "replace an existing --output-file")
	fl.StringVar(&cgroup, "cgroup-version", "v2", "cgroup version of the node, for host checks: v1 or v2")
	mf.register(cmd)
	return cmd
}
