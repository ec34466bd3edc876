package main

import (
	"errors"
	"fmt"

	"github.com/kubeletcfg/kubeletcfg"
	"github.com/kubeletcfg/kubeletcfg/cmd/kubeletcfg/internal/flags"
	"github.com/spf13/cobra"
)

// onePath is the positional argument of the commands that read one node's
// files (effective, skew, preflight, backoff): `CMD PATH` is `CMD -c PATH`.
func onePath(cmd *cobra.Command, args []string) error {
	if len(args) > 1 {
		return fmt.Errorf("%s reads one node's files: give one path (%d given; lint takes several)", cmd.Name(), len(args))
	}
	return nil
}

// takePath makes the one positional path --config, with lint's checks
// (kubeletcfg.Options.CheckPaths), and checks that every --set is PATH=VALUE.
func (f *inputFlags) takePath(args []string) error {
	if _, err := flags.ParseSets(f.atBoot); err != nil {
		return err
	}
	opt, name := f.options(), "lint"
	if f.cmd != nil {
		name = f.cmd.Name()
	}
	opt.Versions = f.versions
	if err := opt.CheckPaths(name, args, f.nodes); err != nil {
		if fe := (*kubeletcfg.FolderPathError)(nil); errors.As(err, &fe) { // the lines that take a folder
			return fmt.Errorf("%s is a folder: %s takes files; drop-ins of a main file are %s CONFIG -d %s, a folder of nodes is lint --nodes %s", fe.Path, name, name, fe.Path, fe.Path)
		}
		return err
	}
	if len(args) == 1 {
		f.config = args[0]
	}
	return nil
}
