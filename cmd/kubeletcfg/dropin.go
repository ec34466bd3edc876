package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kubeletcfg/kubeletcfg/author"
	"github.com/kubeletcfg/kubeletcfg/internal/atomicfile"
	"github.com/kubeletcfg/kubeletcfg/internal/didyoumean"
	"github.com/kubeletcfg/kubeletcfg/matrix"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
	"github.com/kubeletcfg/kubeletcfg/skew"
)

func newDropinCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "dropin",
		Short: "Write --config-dir drop-in files that are checked against the kubelet before they exist",
		Long: `Write kubelet drop-in files (--config-dir, *.conf) from the command line or from the
difference between two configurations. Every file is evaluated with the existing
files at each kubelet minor named before a byte is written.`,
		Example: `  kubeletcfg dropin new 50-crashloop.conf -d conf.d -c config.yaml --set crashLoopBackOff.maxContainerRestartPeriod=30s
  kubeletcfg dropin diff --from config.yaml --from conf.d --to golden.yaml -o conf.d/90-golden.conf`,
	}
	cmd.AddCommand(newDropinNewCommand(), newDropinDiffCommand())
	return cmd
}

// minorsFlags are --kubelet-version (one minor or a list) and --versions (a range or list).
type minorsFlags struct{ kubeletVersion, versions string }

func (f *minorsFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.kubeletVersion, "kubelet-version", "", "kubelet minor(s) to check, one or a list (1.33,1.37); default: the newest, "+skew.Newest().Version)
	cmd.Flags().StringVar(&f.versions, "versions", "", "kubelet minors to check: a range (1.34..1.37) or a list (1.33,1.37)")
	cmd.MarkFlagsMutuallyExclusive("kubelet-version", "versions")
	_ = cmd.RegisterFlagCompletionFunc("kubelet-version", completeVersions)
	_ = cmd.RegisterFlagCompletionFunc("versions", completeVersions)
}

func (f *minorsFlags) minors() ([]*skew.Minor, error) {
	switch {
	case f.kubeletVersion != "":
		return matrix.Window(f.kubeletVersion, "")
	case f.versions != "":
		return matrix.Window(f.versions, "")
	}
	return []*skew.Minor{skew.Newest()}, nil
}

func checkedMinors(ms []*skew.Minor) string {
	vs := make([]string, len(ms))
	for i, m := range ms {
		vs[i] = m.Version
	}
	return strings.Join(vs, ", ")
}

// checkDropInName enforces what makes a name safe and merged: it ends in .conf
// (the kubelet skips anything else) and stays inside the folder.
func checkDropInName(name string) error {
	switch {
	case name == "" || name == "." || name == "..":
		return fmt.Errorf("drop-in name %q: give a file name such as 50-crashloop.conf", name)
	case strings.ContainsAny(name, `/\`) || strings.Contains(name, ".."):
		return fmt.Errorf("drop-in name %q: a name, not a path (no /, \\ or ..); the folder is --config-dir", name)
	case filepath.Ext(name) != ".conf" || name == ".conf":
		return fmt.Errorf("drop-in name %q: the kubelet merges only files ending in .conf", name)
	case strings.ContainsRune(name, 0):
		return fmt.Errorf("drop-in name %q: contains a NUL byte", name)
	}
	return nil
}

func parseMode(s string) (os.FileMode, error) {
	n, err := strconv.ParseUint(s, 8, 32)
	if err != nil || n > 0o777 {
		return 0, fmt.Errorf("--mode %q: want octal permission bits such as 0644", s)
	}
	return os.FileMode(n), nil
}

func newDropinNewCommand() *cobra.Command {
	var (
		configFile, configDir, cgroup, mode, output string
		sets, gates                                 []string
		mf                                          minorsFlags
		dryRun, force, allowOverride                bool
	)
	cmd := &cobra.Command{
		Use:   "new NAME.conf --config-dir DIR --set PATH=VALUE... [--feature-gate NAME=BOOL...]",
		Short: "Write a minimal drop-in, refused unless every named kubelet applies all of it",
		Long: `Write a minimal drop-in into --config-dir: apiVersion, kind and only the keys asked
for, with the field names and value types of the kubelet's schema.

Before writing, the kubelet's start-up is evaluated with the new file in place
(after the main file and the drop-ins that sort before it, before those that sort
after it) at every kubelet minor named. Nothing is written, and the exit code is
1, if any minor would not start, would drop or ignore a key of the new file, or
would run with another value than the one written (a later drop-in overrides it;
--allow-override accepts that).

--set takes a dotted path, map keys in brackets and a YAML value:
  crashLoopBackOff.maxContainerRestartPeriod=30s
  evictionHard[memory.available]=200Mi
  clusterDNS=[10.0.0.10]          (lists are replaced whole)
  kubeReserved=null               (null deletes the key: kubelet 1.32+)

The file is written atomically (a temporary file in the same folder, fsync,
rename), with mode 0644 unless --mode, and never over an existing file without
--force. A symlink at the target is replaced, never followed.`,
		Example: `  # cap crash-loop backoff at 30s on kubelets 1.34 to 1.37
  kubeletcfg dropin new 50-crashloop.conf -d /etc/kubernetes/kubelet.conf.d -c /var/lib/kubelet/config.yaml \
    --set crashLoopBackOff.maxContainerRestartPeriod=30s --versions 1.34..1.37

  # see the file and the verdicts, write nothing
  kubeletcfg dropin new 60-eviction.conf -d conf.d --set 'evictionHard[memory.available]=200Mi' --dry-run`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			name := args[0]
			if err := checkDropInName(name); err != nil {
				return err
			}
			if err := outputFormat(output); err != nil {
				return err
			}
			if configDir == "" {
				return fmt.Errorf("--config-dir is required: the folder the drop-in goes into")
			}
			if len(sets) == 0 && len(gates) == 0 {
				return fmt.Errorf("nothing to write: give --set PATH=VALUE or --feature-gate NAME=BOOL")
			}
			perm, err := parseMode(mode)
			if err != nil {
				return err
			}
			minors, err := mf.minors()
			if err != nil {
				return err
			}
			fi, err := os.Stat(configDir)
			if err != nil {
				return fmt.Errorf("--config-dir %s: %w", configDir, unwrapPathError(err))
			}
			if !fi.IsDir() {
				return fmt.Errorf("--config-dir %s: not a folder", configDir)
			}
			target := filepath.Join(configDir, name)
			exists := false
			if fi, err := os.Lstat(target); err == nil {
				if fi.IsDir() {
					return fmt.Errorf("%s: is a folder", target)
				}
				exists = true
				if !force && !dryRun {
					return fmt.Errorf("%s: exists; use --force to replace it (kubeletcfg lint shows what it does now)", target)
				}
			}
			// Field names and types come from the newest minor named: an older
			// minor that lacks a field is then reported as dropping it.
			schema, err := author.SchemaOf(minors[len(minors)-1])
			if err != nil {
				return err
			}
			var settings []author.Setting
			for _, s := range sets {
				st, err := schema.ParseSet(s)
				if err != nil {
					return err
				}
				settings = append(settings, st)
			}
			for _, g := range gates {
				st, err := author.FeatureGate(g)
				if err != nil {
					return err
				}
				settings = append(settings, st)
			}
			if err := knownGates(settings); err != nil {
				return err
			}
			doc, err := author.NewDocument(settings)
			if err != nil {
				return err
			}
			doc.Header = []string{
				"Written by kubeletcfg dropin new; checked against kubelet " + checkedMinors(minors) + ".",
				"Drop-ins merge in lexical order of their paths: a later file overrides these keys.",
			}
			content, err := doc.YAML()
			if err != nil {
				return err
			}
			in := pipeline.Input{Config: configFile, ConfigDir: configDir, Virtual: map[string][]byte{target: content}}
			if in.CgroupVersion, err = parseCgroup(cgroup); err != nil {
				return err
			}
			verdicts, err := author.Check(in, target, doc, minors)
			if err != nil {
				return err
			}
			refused := refusedMinors(verdicts, allowOverride)
			if refused == nil {
				refused = []string{}
			}
			written := false
			if len(refused) == 0 && !dryRun {
				err := atomicfile.Write(target, content, atomicfile.Options{Mode: perm, Overwrite: force})
				if err != nil {
					return err
				}
				written = true
			}
			rep := newDropinReport{File: target, Content: string(content), Exists: exists, DryRun: dryRun, Written: written, Refused: refused, Verdicts: verdicts}
			for _, s := range settings {
				rep.Notes = append(rep.Notes, s.Notes...)
			}
			if len(verdicts) > 0 {
				rep.MergeOrder = mergeOrder(verdicts[len(verdicts)-1], configFile, target)
			}
			if output == "json" {
				if err := writeJSONValue(cmd.OutOrStdout(), rep); err != nil {
					return err
				}
			} else {
				rep.writeText(cmd.OutOrStdout(), cmd.ErrOrStderr())
			}
			if len(refused) > 0 {
				return &findingsError{n: len(refused)}
			}
			return nil
		},
	}
	fl := cmd.Flags()
	onceStringVarP(fl, &configDir, "config-dir", "d", "", "the kubelet's --config-dir folder the drop-in goes into (required)")
	onceStringVarP(fl, &configFile, "config", "c", "", "the kubelet's --config file, so the check sees what the node sees")
	fl.StringArrayVar(&sets, "set", nil, "PATH=VALUE to write (repeatable): a.b=v, map[key]=v, list=[a,b], path=null")
	fl.StringArrayVar(&gates, "feature-gate", nil, "NAME=true|false to write under featureGates (repeatable)")
	fl.BoolVar(&dryRun, "dry-run", false, "print the file and the verdicts, write nothing")
	fl.BoolVar(&force, "force", false, "replace an existing file of that name")
	fl.BoolVar(&allowOverride, "allow-override", false, "write even when a later drop-in overrides some of its keys")
	fl.StringVar(&mode, "mode", "0644", "permission bits of the new file (octal)")
	fl.StringVar(&cgroup, "cgroup-version", "v2", "cgroup version of the node, for host checks: v1 or v2")
	fl.StringVarP(&output, "output", "o", "text", "output format: json, text")
	mf.register(cmd)
	_ = cmd.MarkFlagDirname("config-dir")
	_ = cmd.RegisterFlagCompletionFunc("set", completeSetPath)
	_ = cmd.RegisterFlagCompletionFunc("output", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return []string{"json", "text"}, cobra.ShellCompDirectiveNoFileComp
	})
	return cmd
}

// completeSetPath completes field paths of the newest minor.
func completeSetPath(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	infos, err := skew.Newest().FieldInfos()
	if err != nil {
		return nil, cobra.ShellCompDirectiveError
	}
	var out []string
	for _, f := range infos {
		if strings.HasPrefix(f.Path, toComplete) && f.Path != "apiVersion" && f.Path != "kind" {
			out = append(out, f.Path+"=")
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
}

// refusedMinors lists the minors at which the new file does not do what it says.
func refusedMinors(vs []author.Verdict, allowOverride bool) []string {
	var out []string
	for _, v := range vs {
		bad := !v.Starts || len(v.Problems) > 0
		for _, a := range v.Applied {
			if a.OverriddenBy != "" {
				bad = bad || !allowOverride
			} else if !a.Holds() {
				bad = true
			}
		}
		if bad {
			out = append(out, v.Minor)
		}
	}
	return out
}

// mergeOrder lists the main file, then every merged drop-in, the new one included.
func mergeOrder(v author.Verdict, configFile, target string) []string {
	var out []string
	if configFile != "" {
		out = append(out, configFile)
	}
	out = append(out, v.Before...)
	out = append(out, target)
	return append(out, v.After...)
}

type newDropinReport struct {
	File       string           `json:"file"`
	Content    string           `json:"content"`
	Exists     bool             `json:"exists"`
	DryRun     bool             `json:"dryRun"`
	Written    bool             `json:"written"`
	Refused    []string         `json:"refusedBy"`
	Notes      []string         `json:"notes,omitempty"`
	MergeOrder []string         `json:"mergeOrder"`
	Verdicts   []author.Verdict `json:"verdicts"`
}

func (r *newDropinReport) writeText(w, errw io.Writer) {
	fmt.Fprintf(w, "--- %s\n%s", r.File, r.Content)
	fmt.Fprintln(w, "---")
	for _, n := range r.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	fmt.Fprintln(w, "merge order (main file, then drop-ins by path):")
	for _, f := range r.MergeOrder {
		mark := ""
		if f == r.File {
			mark = "   <- this file"
		}
		fmt.Fprintf(w, "  %s%s\n", f, mark)
	}
	// Minors that say the same thing are printed once.
	var prev, prevBody string
	var group []string
	flush := func() {
		if len(group) > 0 {
			fmt.Fprintf(w, "kubelet %s: %s", strings.Join(group, ", "), prevBody)
		}
	}
	for _, v := range r.Verdicts {
		var b strings.Builder
		writeVerdict(&b, v)
		if body := b.String(); body == prevBody && prev != "" {
			group = append(group, v.Minor)
			continue
		} else {
			flush()
			group, prevBody = []string{v.Minor}, body
		}
		prev = v.Minor
	}
	flush()
	switch {
	case len(r.Refused) > 0:
		fmt.Fprintf(w, "not written: kubelet %s would not do what the file says\n", strings.Join(r.Refused, ", "))
		if last := lastOverrider(r.Verdicts); last != "" {
			fmt.Fprintf(w, "hint: %s is merged after this file and sets the same keys: choose a name that sorts after %s, change that file, or pass --allow-override\n", last, filepath.Base(last))
		}
	case r.DryRun && r.Exists:
		fmt.Fprintf(w, "dry run: %s exists; --force would replace it\n", r.File)
	case r.DryRun:
		fmt.Fprintln(w, "dry run: nothing written")
	case r.Written:
		fmt.Fprintf(w, "wrote %s\n", r.File)
	}
}

// writeVerdict writes one minor's verdict; the caller prefixes "kubelet 1.xx: ".
func writeVerdict(w io.Writer, v author.Verdict) {
	status := "applies every key"
	switch {
	case v.Panics:
		status = "PANICS at startup"
	case !v.Starts && v.StartsWithout:
		status = "REFUSES to start because of this file"
	case !v.Starts:
		status = "REFUSES to start (already without this file)"
	case len(v.Problems) > 0:
		status = "starts, but not with this file as written"
	}
	if v.Starts && len(v.Problems) == 0 {
		for _, a := range v.Applied {
			switch {
			case a.OverriddenBy == "" && !a.Holds():
				status = "starts, but not with this file as written"
			case a.OverriddenBy != "" && status == "applies every key":
				status = "starts; a later drop-in overrides some of these keys"
			}
		}
	}
	fmt.Fprintf(w, "%s\n", status)
	for _, f := range v.Problems {
		fmt.Fprintf(w, "  %s %s %s: %s\n", f.Position, f.Severity, f.Rule, f.Message)
		if f.Hint != "" {
			fmt.Fprintf(w, "      hint: %s\n", f.Hint)
		}
	}
	if !v.Starts {
		return
	}
	for _, a := range v.Applied {
		switch {
		case a.OverriddenBy != "":
			fmt.Fprintf(w, "  %s = %s   overridden by %s (the kubelet runs with %s)\n", a.Path, matrix.Format(a.Want), a.OverriddenBy, matrix.Format(a.Got))
		case a.Delete && a.Got == nil:
			fmt.Fprintf(w, "  %s = null   removed\n", a.Path)
		case a.Delete:
			fmt.Fprintf(w, "  %s = null   the kubelet runs with %s\n", a.Path, matrix.Format(a.Got))
		case !a.Holds():
			fmt.Fprintf(w, "  %s = %s   NOT applied: the kubelet runs with %s\n", a.Path, matrix.Format(a.Want), matrix.Format(a.Got))
		default:
			fmt.Fprintf(w, "  %s = %s\n", a.Path, matrix.Format(a.Got))
		}
	}
}

func writeJSONValue(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// lastOverrider is the last-merged file that overrides a key of the new one.
func lastOverrider(vs []author.Verdict) string {
	last := ""
	for _, v := range vs {
		for _, a := range v.Overridden() {
			if a.OverriddenBy > last {
				last = a.OverriddenBy
			}
		}
	}
	return last
}

// knownGates refuses, as a usage error like an unknown field, a gate that no
// supported minor registers; a gate some minors lack is the check's to report.
func knownGates(settings []author.Setting) error {
	for _, st := range settings {
		name, ok := strings.CutPrefix(st.Path, "featureGates[")
		if !ok || registeredAnywhere(strings.TrimSuffix(name, "]")) {
			continue
		}
		name = strings.TrimSuffix(name, "]")
		msg := fmt.Sprintf("no feature gate %q at any kubelet minor kubeletcfg knows (%s)", name, minorRanges(skew.Supported()))
		if g, err := skew.Newest().Gates(); err == nil {
			if near := didyoumean.Nearest(name, g.Names()); near != "" {
				msg += fmt.Sprintf("; did you mean %q?", near)
			}
		}
		return fmt.Errorf("%s", msg)
	}
	return nil
}
