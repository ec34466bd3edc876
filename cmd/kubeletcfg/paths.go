package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kubeletcfg/kubeletcfg/pipeline"
	"github.com/kubeletcfg/kubeletcfg/report"
	"github.com/kubeletcfg/kubeletcfg/validate"
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

// pathsJSON is lint's JSON for several paths: one lint document per path, in
// the order given, each with its path; the paths that could not be read.
type pathsJSON struct {
	Reports []pathReport `json:"reports"`
	Errors  []pathError  `json:"errors"`
}

type pathReport struct {
	Path string `json:"path"`
	lintDocument
}

type pathError struct {
	Path  string `json:"path"`
	Error string `json:"error"`
}

// lintPaths lints each path as its own node (its own --config, the same
// other flags): text is each report as lint -c PATH prints it under a
// ==> PATH <== line (head's), then a summary
// line; JSON is pathsJSON; SARIF, JUnit and GitHub get one document per path.
// The exit code is the worst: 2 when a path could not be read, else 1 when
// findings reach --fail-on.
func lintPaths(cmd *cobra.Command, f *inputFlags, paths []string, w report.Writer, output string, threshold validate.Severity, opt report.Options, post func(*pipeline.Result, string)) error {
	out := cmd.OutOrStdout()
	all := pathsJSON{Reports: []pathReport{}, Errors: []pathError{}}
	var docs []report.Document
	fails, refused := 0, 0
	var b strings.Builder
	for _, p := range paths {
		one := *f // a fresh input per path: its own --config and source
		one.config, one.src = p, nil
		one.kc.done, one.kc.args, one.kc.discovered, one.kc.fromCmdline = false, nil, nil, false
		res, err := one.evaluate()
		if err != nil {
			fmt.Fprintf(cmd.ErrOrStderr(), "kubeletcfg: %v\n", err)
			all.Errors = append(all.Errors, pathError{Path: p, Error: err.Error()})
			continue
		}
		post(res, one.config)
		doc := report.FromResult(res)
		fails += countAtLeast(doc.Findings, threshold)
		if !doc.Starts {
			refused++
		}
		switch output {
		case "text":
			if len(all.Reports) > 0 {
				b.WriteString("\n")
			}
			fmt.Fprintf(&b, "==> %s <==\n", p) // as head and tail name each file
			if err := one.writeLint(&b, w, output, doc, opt); err != nil {
				return err
			}
		case "json":
		default:
			doc.Subject = p
			docs = append(docs, doc)
		}
		all.Reports = append(all.Reports, pathReport{Path: p, lintDocument: lintDocument{Document: doc, Input: inputName(one.src)}})
	}
	var err error
	switch output {
	case "text":
		if !opt.Quiet {
			if b.Len() > 0 {
				b.WriteString("\n")
			}
			fmt.Fprintf(&b, "%d %s: %d %s, %d would not start", len(paths), plural(len(paths), "file", "files"),
				len(all.Reports)-refused, plural(len(all.Reports)-refused, "starts", "start"), refused)
			if len(all.Errors) > 0 {
				fmt.Fprintf(&b, ", %d could not be read", len(all.Errors))
			}
			b.WriteString("\n")
		}
		_, err = out.Write([]byte(b.String()))
	case "json":
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		err = enc.Encode(all)
	default:
		err = w.Write(out, docs, opt)
	}
	if err != nil {
		return err
	}
	if len(all.Errors) > 0 {
		return fmt.Errorf("%d of %d files could not be read (above)", len(all.Errors), len(paths))
	}
	if fails > 0 {
		return &findingsError{n: fails}
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
