package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"
)

// checkPaths validates lint's positional paths: `lint PATH` is `lint -c PATH`;
// several paths are several nodes (lintPaths). A folder is not a path: it is a
// pool (--nodes) or drop-ins (-d), and which one is the user's to say.
func checkPaths(f *inputFlags, paths []string) error {
	if len(paths) == 0 {
		return nil
	}
	if f.nodes != "" {
		return fmt.Errorf("%s and --nodes %s: give files to lint, or a folder of nodes, not both", paths[0], f.nodes)
	}
	if f.config != "" {
		return fmt.Errorf("%s and --config %s both name the main file: give one of them", paths[0], f.config)
	}
	if len(paths) > 1 && f.configDir != "" {
		return fmt.Errorf("--config-dir %s with %d paths: the drop-ins belong to one main file; lint each node with its own -d, or a pool of node folders with --nodes", f.configDir, len(paths))
	}
	if len(paths) > 1 && (f.kc.discover || f.versions != "") {
		return fmt.Errorf("%d paths: --discover and --versions check one kubelet; give one path", len(paths))
	}
	stdin := 0
	for _, p := range paths {
		if p == "-" {
			if stdin++; stdin > 1 {
				return fmt.Errorf("- (standard input) given twice: it can be read once")
			}
			continue
		}
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			name := "lint"
			if f.cmd != nil {
				name = f.cmd.Name()
			}
			return fmt.Errorf("%s is a folder: %s takes files; drop-ins of a main file are %s CONFIG -d %s, a folder of nodes is lint --nodes %s", p, name, name, p, p)
		}
	}
	return nil
}

// onePath is the positional argument of the commands that read one node's
// files (effective, skew, preflight, backoff): `CMD PATH` is `CMD -c PATH`.
func onePath(cmd *cobra.Command, args []string) error {
	if len(args) > 1 {
		return fmt.Errorf("%s reads one node's files: give one path (%d given; lint takes several)", cmd.Name(), len(args))
	}
	return nil
}

// takePath makes the one positional path --config, with lint's checks.
func (f *inputFlags) takePath(args []string) error {
	if err := checkPaths(f, args); err != nil {
		return err
	}
	if len(args) == 1 {
		f.config = args[0]
	}
	return nil
}
