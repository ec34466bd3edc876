package verbtext

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/kubeletcfg/kubeletcfg/author"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/report"
)

// WriteDropInNew writes the report as `dropin new` prints it: the file, the
// notes, the merge order, each minor's verdict (minors that say the same once)
// and what was done.
func WriteDropInNew(w io.Writer, r *author.NewReport) {
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
			fmt.Fprintf(w, "  %s = %s   overridden by %s (the kubelet runs with %s)\n", a.Path, kubelets.Format(a.Want), a.OverriddenBy, kubelets.Format(a.Got))
		case a.AlsoSetBy != "":
			fmt.Fprintf(w, "  %s = %s   %s sets the same value later\n", a.Path, kubelets.Format(a.Got), a.AlsoSetBy)
		case a.Delete && a.Got == nil:
			fmt.Fprintf(w, "  %s = null   removed\n", a.Path)
		case a.Delete:
			fmt.Fprintf(w, "  %s = null   the kubelet runs with %s\n", a.Path, kubelets.Format(a.Got))
		case !a.Holds():
			fmt.Fprintf(w, "  %s = %s   NOT applied: the kubelet runs with %s\n", a.Path, kubelets.Format(a.Want), kubelets.Format(a.Got))
		default:
			fmt.Fprintf(w, "  %s = %s\n", a.Path, kubelets.Format(a.Got))
		}
	}
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

// WriteDropInDiff writes the report as `dropin diff` prints it: the drop-in
// (or the line saying where it was written), with a note on opt.Log when there
// is no difference and the failures when it does not give the desired
// configuration.
func WriteDropInDiff(w io.Writer, r *author.DiffReport, opt report.Options) error {
	switch {
	case r.Content == nil:
		opt.Logf("kubeletcfg: no difference at kubelet %s: the current effective configuration is the desired one; nothing written\n", r.Minor)
	case len(r.Failures) > 0:
		if _, err := w.Write(r.Content); err != nil {
			return err
		}
		opt.Logf("kubeletcfg: the drop-in does not give the desired configuration; nothing written:\n")
		for _, f := range r.Failures {
			opt.Logf("  %s\n", f)
		}
	case !r.Written:
		_, err := w.Write(r.Content)
		return err
	default:
		keys := "keys"
		if r.Keys == 1 {
			keys = "key"
		}
		_, err := fmt.Fprintf(w, "wrote %s (%d top-level %s; checked against kubelet %s)\n", r.File, r.Keys, keys, strings.Join(r.Checked, ", "))
		return err
	}
	return nil
}
