package verbtext

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/kubeletcfg/kubeletcfg/discover"
)

// WriteKubelet writes what kubeletcfg discover found and where each piece
// came from.
func WriteKubelet(w io.Writer, k *discover.Kubelet) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	row := func(k, v string) { fmt.Fprintf(tw, "%s\t%s\n", k, v) }
	if k.HostRoot != "" {
		row("host root", k.HostRoot)
	}
	row("kubelet", fmt.Sprintf("pid %d, %s (%s)", k.PID, k.Exe, k.Proc))
	if k.Version != "" {
		row("version", fmt.Sprintf("%s, minor %s, from %s", k.Version, orUnknown(k.Minor), k.VersionFrom))
	} else {
		row("version", k.VersionFrom)
	}
	row("cgroup", fmt.Sprintf("v%d (%s)", k.Cgroup, k.CgroupFrom))
	if k.Unit != nil {
		row("unit", fmt.Sprintf("%s (%s)", k.Unit.Name, k.Unit.From))
		for _, f := range k.Unit.Files {
			row("", f)
		}
		for _, e := range k.Unit.EnvFiles {
			s := e.Path
			switch {
			case e.Missing && e.Optional:
				s += " (optional, missing)"
			case e.Missing:
				s += " (missing)"
			}
			row("env file", s)
		}
	}
	if k.UnitNote != "" {
		row("note", k.UnitNote)
	}
	row("command line", fmt.Sprintf("%d arguments, positions from the %s", len(k.Args), map[string]string{"unit": "unit", "cmdline": "process's cmdline"}[k.ArgsFrom]))
	file := func(name string, f *discover.File) {
		if f == nil {
			row(name, "not given")
			return
		}
		s := f.Path
		if f.Read != f.Path {
			s += " (read at " + f.Read + ")"
		}
		s += ", from " + f.From
		row(name, s)
		if f.DropIns != nil {
			row("", "drop-ins: "+strings.Join(f.DropIns, ", "))
		}
	}
	file("config", k.Config)
	file("config-dir", k.ConfigDir)
	if k.Config == nil && k.ConfigDir == nil {
		row("", "no --config or --config-dir: the kubelet is configured by its flags alone")
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "flags:")
	tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, f := range k.Flags {
		fmt.Fprintf(tw, "  %s\t%s\n", f.Arg, f.From)
	}
	return tw.Flush()
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}
