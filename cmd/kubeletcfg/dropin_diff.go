package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kubeletcfg/kubeletcfg/author"
	"github.com/kubeletcfg/kubeletcfg/internal/atomicfile"
	"github.com/kubeletcfg/kubeletcfg/matrix"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
	"github.com/kubeletcfg/kubeletcfg/skew"
	"github.com/kubeletcfg/kubeletcfg/validate"
)

// lastName sorts after every name made of ASCII letters, digits and punctuation
// ('~' is the highest printable ASCII byte): the diff is checked as the last
// drop-in when -o does not put it in the folder.
const lastName = "~kubeletcfg-diff.conf"

func newDropinDiffCommand() *cobra.Command {
	var (
		from            []string
		to, out, cgroup string
		mf              minorsFlags
		force           bool
	)
	cmd := &cobra.Command{
		Use:   "diff --from FILE|DIR... --to FILE [-o NAME.conf]",
		Short: "Write the minimal drop-in that turns the current configuration into the desired one",
		Long: `Compute the drop-in whose merge over the current effective configuration gives the
desired one: RFC 7386 merge-patch semantics, so objects merge, lists are written
whole and null removes a key. Both sides are the effective configurations at the
kubelet minor (merged and defaulted), so keys both already agree on are left out.

--from names what the node runs today: the main --config file and/or the
--config-dir folder (give --from twice), or a configz dump
(kubectl get --raw /api/v1/nodes/NODE/proxy/configz). --to is the desired full
configuration (a kubelet config file or a configz dump).

The drop-in is checked by merging it back, as the last drop-in or at the place -o
gives it in the --from folder, at every minor named: if any minor would not end
up with the desired configuration, nothing is written and the exit code is 1.
With no difference nothing is written and the exit code is 0.`,
		Example: `  # what must a drop-in say to move this node to the new golden config?
  kubeletcfg dropin diff --from /var/lib/kubelet/config.yaml --from /etc/kubernetes/kubelet.conf.d \
    --to golden.yaml -o /etc/kubernetes/kubelet.conf.d/90-golden.conf

  # from a running node's configz
  kubectl get --raw /api/v1/nodes/node-1/proxy/configz > node-1.json
  kubeletcfg dropin diff --from node-1.json --to golden.yaml`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if len(from) == 0 || to == "" {
				return fmt.Errorf("give --from (the current files) and --to (the desired configuration)")
			}
			minors, err := mf.minors()
			if err != nil {
				return err
			}
			cur := pipeline.Input{Virtual: map[string][]byte{}}
			if cur.CgroupVersion, err = parseCgroup(cgroup); err != nil {
				return err
			}
			for _, p := range from {
				if err := addFrom(&cur, p); err != nil {
					return err
				}
			}
			want := pipeline.Input{Config: to, Virtual: map[string][]byte{}, CgroupVersion: cur.CgroupVersion}
			if err := addConfigz(&want, to); err != nil {
				return err
			}
			if out != "" {
				if err := checkDropInName(filepath.Base(out)); err != nil {
					return err
				}
				if fi, err := os.Lstat(out); err == nil && !force {
					if fi.IsDir() {
						return fmt.Errorf("%s: is a folder", out)
					}
					return fmt.Errorf("%s: exists; use --force to replace it", out)
				}
			}
			newest := minors[len(minors)-1]
			curL, err := pipeline.Load(cur)
			if err != nil {
				return err
			}
			wantL, err := pipeline.Load(want)
			if err != nil {
				return err
			}
			current, err := effectiveAt(curL, newest, "--from")
			if err != nil {
				return err
			}
			desired, err := effectiveAt(wantL, newest, "--to")
			if err != nil {
				return err
			}
			patch, err := author.Diff(current, desired)
			if err != nil {
				return err
			}
			if len(patch) == 0 {
				fmt.Fprintf(cmd.ErrOrStderr(), "kubeletcfg: no difference at kubelet %s: the current effective configuration is the desired one; nothing written\n", newest.Version)
				return nil
			}
			content, err := author.PatchYAML(patch, []string{
				"Written by kubeletcfg dropin diff: merged after the current files, it gives " + to + ".",
				"Checked against kubelet " + checkedMinors(minors) + ".",
			})
			if err != nil {
				return err
			}
			// Check it where it will sit: in the --from folder under its own
			// name, else as the last drop-in (in a scratch folder if there is none).
			check := cur
			check.Virtual = map[string][]byte{}
			for k, v := range cur.Virtual {
				check.Virtual[k] = v
			}
			switch {
			case out != "" && cur.ConfigDir != "" && filepath.Clean(filepath.Dir(out)) == filepath.Clean(cur.ConfigDir):
				check.Virtual[out] = content
			case cur.ConfigDir != "":
				check.Virtual[filepath.Join(cur.ConfigDir, lastName)] = content
			default:
				tmp, err := os.MkdirTemp("", "kubeletcfg-diff-")
				if err != nil {
					return err
				}
				defer os.RemoveAll(tmp)
				check.ConfigDir = tmp
				check.Virtual[filepath.Join(tmp, lastName)] = content
			}
			checkL, err := pipeline.Load(check)
			if err != nil {
				return err
			}
			var failures []string
			for _, m := range minors {
				d := desired
				if m != newest {
					if d, err = effectiveAt(wantL, m, "--to"); err != nil {
						failures = append(failures, fmt.Sprintf("kubelet %s: %v", m.Version, err))
						continue
					}
				}
				r, mismatches, err := author.Verify(checkL, m, d)
				if err != nil {
					return err
				}
				if !r.Starts {
					failures = append(failures, fmt.Sprintf("kubelet %s: would not start with the drop-in: %s", m.Version, firstErrorText(r)))
					continue
				}
				for _, c := range mismatches {
					failures = append(failures, fmt.Sprintf("kubelet %s: %s would be %s, not %s", m.Version, c.Path, matrix.Format(c.From), matrix.Format(c.To)))
				}
			}
			w := cmd.OutOrStdout()
			if len(failures) > 0 {
				fmt.Fprintf(w, "%s", content)
				fmt.Fprintln(cmd.ErrOrStderr(), "kubeletcfg: the drop-in does not give the desired configuration; nothing written:")
				for _, f := range failures {
					fmt.Fprintln(cmd.ErrOrStderr(), "  "+f)
				}
				return &findingsError{n: len(failures)}
			}
			if out == "" {
				_, err := w.Write(content)
				return err
			}
			if err := atomicfile.Write(out, content, atomicfile.Options{Overwrite: force}); err != nil {
				return err
			}
			fmt.Fprintf(w, "wrote %s (%d top-level %s; checked against kubelet %s)\n", out, len(patch), plural(len(patch), "key", "keys"), checkedMinors(minors))
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringArrayVar(&from, "from", nil, "the current --config file, --config-dir folder or a configz dump (repeatable: a file and a folder)")
	fl.StringVar(&to, "to", "", "the desired full configuration (a kubelet config file or a configz dump)")
	fl.StringVarP(&out, "out", "o", "", "write the drop-in to this NAME.conf (atomically) instead of printing it")
	fl.BoolVar(&force, "force", false, "replace an existing -o file")
	fl.StringVar(&cgroup, "cgroup-version", "v2", "cgroup version of the node, for host checks: v1 or v2")
	mf.register(cmd)
	return cmd
}

// addFrom adds one --from path to the input: a folder is --config-dir, a file
// is --config (a configz dump is converted in memory).
func addFrom(in *pipeline.Input, p string) error {
	fi, err := os.Stat(p)
	if err != nil {
		return fmt.Errorf("--from %s: %w", p, unwrapPathError(err))
	}
	if fi.IsDir() {
		if in.ConfigDir != "" {
			return fmt.Errorf("--from %s: a second folder (already %s); the kubelet has one --config-dir", p, in.ConfigDir)
		}
		in.ConfigDir = p
		return nil
	}
	if in.Config != "" {
		return fmt.Errorf("--from %s: a second file (already %s); the kubelet has one --config", p, in.Config)
	}
	in.Config = p
	return addConfigz(in, p)
}

// addConfigz reads in.Config from memory when path is a configz dump.
func addConfigz(in *pipeline.Input, path string) error {
	doc, ok, err := author.ReadConfigz(path)
	if err != nil {
		return err
	}
	if ok {
		in.Virtual[path] = doc
	}
	return nil
}

// effectiveAt is the effective configuration of in at m, or an error saying
// that the kubelet would not get that far.
func effectiveAt(l *pipeline.Loaded, m *skew.Minor, flag string) (map[string]any, error) {
	r, err := l.Evaluate(m)
	if err != nil {
		return nil, err
	}
	if !r.Starts {
		return nil, fmt.Errorf("%s: kubelet %s would not start with it (%s); kubeletcfg lint shows why", flag, m.Version, firstErrorText(r))
	}
	return r.EffectiveObject()
}

func firstErrorText(r *pipeline.Result) string {
	for _, f := range r.Findings {
		if f.Severity == validate.Error {
			return strings.TrimSpace(f.Position.String() + " " + f.Rule + ": " + f.Message)
		}
	}
	return "no finding"
}
