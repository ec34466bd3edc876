package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/kubeletcfg/kubeletcfg/input"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
	"github.com/kubeletcfg/kubeletcfg/report"
)

// registerInput registers --input-format and remembers the command, whose
// standard input `-c -` reads and whose name decides what it may convert.
func (f *inputFlags) registerInput(cmd *cobra.Command) {
	f.cmd = cmd
	cmd.Flags().StringVar(&f.inputFormat, "input-format", "auto", "what --config is: auto (by content), config, configz (a configz dump), kubeadm (the kubelet-config ConfigMap), kubeadm-config (a kubeadm init --config file) or kind (a kind cluster config); -c - reads standard input")
	cmd.Flags().BoolVar(&f.read.AsWritten, "as-written", false, "kubeadm-config and kind: check the KubeletConfiguration as written, not what kubeadm (and kind) write to the node")
	cmd.Flags().StringVar(&f.read.KindNode, "kind-node", "", "kind: the node to check, by kind's name (kind-control-plane, kind-worker2, ...); default the first")
	cmd.Flags().BoolVar(&f.read.Kubeadm.SystemdResolved, "systemd-resolved", false, "kubeadm-config and kind: the node runs systemd-resolved, so kubeadm sets resolvConf: /run/systemd/resolve/resolv.conf")
	_ = cmd.RegisterFlagCompletionFunc("input-format", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return input.Formats(), cobra.ShellCompDirectiveNoFileComp
	})
}

// convert recognises --config (a file or `-`), converts it and makes in read
// the result under its own name. Standard input is read once, however often
// the command asks for its input.
func (f *inputFlags) convert(in *pipeline.Input) error {
	format, err := input.ParseFormat(f.inputFormat)
	if err != nil {
		return err
	}
	if f.config == "" {
		if format != input.Auto && format != input.Config {
			return fmt.Errorf("--input-format %s needs --config", format)
		}
		return nil
	}
	if f.src == nil {
		var r io.Reader = os.Stdin
		if f.cmd != nil {
			r = f.cmd.InOrStdin()
		}
		if f.src, err = input.OpenOptions(f.config, r, format, f.read); err != nil {
			return err
		}
	}
	if f.src.Format == input.Configz && f.configDir != "" {
		return fmt.Errorf("--config-dir %s: %s is a configz dump: a configz dump is already merged; drop-ins do not apply", f.configDir, f.src.Path)
	}
	// fix writes back what it read: never a conversion over the original.
	if f.src.Data != nil && f.cmd != nil && f.cmd.Name() == "fix" {
		return fmt.Errorf("--config %s: fix edits KubeletConfiguration files in place; this is %s", f.src.Path, describeSource(f.src))
	}
	f.src.Apply(in)
	return nil
}

func describeSource(s *input.Source) string {
	switch s.Format {
	case input.Configz:
		return "a configz dump"
	case input.Kubeadm:
		return "a kubeadm ConfigMap"
	case input.KubeadmConfig:
		return "a kubeadm configuration file"
	case input.Kind:
		return "a kind cluster configuration"
	}
	return "standard input"
}

// lintDocument is lint's JSON document with the input format added when
// --config was not a plain config file; the existing names stay as they are.
type lintDocument struct {
	report.Document
	Input string `json:"input,omitempty"`
}

// inputName is the "input" JSON value of s: empty for a plain config file.
func inputName(s *input.Source) string {
	if s == nil || s.Format == input.Config {
		return ""
	}
	return string(s.Format)
}

// writeLint writes lint's report of doc: with a note line saying what was
// read (text) or the input field (JSON) when --config was converted; the
// JSON encoding is report's (indented, one document).
func (f *inputFlags) writeLint(out io.Writer, w report.Writer, output string, doc report.Document, opt report.Options) error {
	// Other formats (SARIF, JUnit, ...) have schemas of their own: unchanged.
	switch name := inputName(f.src); {
	case name == "":
	case output == "json":
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(lintDocument{Document: doc, Input: name})
	case output == "text":
		if _, err := fmt.Fprintf(out, "%s: note: %s\n", f.src.Path, f.src.Note); err != nil {
			return err
		}
	}
	return w.Write(out, []report.Document{doc}, opt)
}
