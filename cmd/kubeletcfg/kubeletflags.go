package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kubeletcfg/kubeletcfg/pipeline"
	"github.com/kubeletcfg/kubeletcfg/validate"
)

// registerKubeletFlags adds --kubelet-flags and --kubelet-flags-file: the
// kubelet's own command line, which most nodes use besides the files (kubeadm's
// kubeadm-flags.env, a systemd unit's ExecStart, KUBELET_EXTRA_ARGS).
func (f *inputFlags) registerKubeletFlags(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.kubeletFlags, "kubelet-flags", "", "the kubelet's own command-line flags, one shell-quoted string ('--max-pods=50 --feature-gates=A=true'); they win over the files as the kubelet applies them")
	fl.StringVar(&f.kubeletFlagsFile, "kubelet-flags-file", "", "a file with the kubelet's flags: an env file (kubeadm-flags.env: KUBELET_KUBEADM_ARGS=\"...\") or a systemd unit or drop-in (ExecStart=, Environment=, EnvironmentFile=)")
}

// applyKubeletFlags puts the flags of --kubelet-flags-file, then --kubelet-flags,
// into the pipeline input, each with where it was written.
func (f *inputFlags) applyKubeletFlags(in *pipeline.Input) error {
	if f.kubeletFlagsFile != "" {
		args, err := readKubeletFlagsFile(f.kubeletFlagsFile)
		if err != nil {
			return err
		}
		for _, a := range args {
			in.Flags = append(in.Flags, a.text)
			in.FlagPositions = append(in.FlagPositions, a.pos)
		}
	}
	if f.kubeletFlags != "" {
		words, err := splitCommandLine(f.kubeletFlags)
		if err != nil {
			return fmt.Errorf("--kubelet-flags: %w", err)
		}
		for _, w := range words {
			in.Flags = append(in.Flags, w)
			in.FlagPositions = append(in.FlagPositions, validate.Position{File: pipeline.CommandLine})
		}
	}
	return nil
}

type flagArg struct {
	text string
	pos  validate.Position
}

// envFileVars are the variables of kubelet env files, in the order the kubeadm
// systemd drop-in (10-kubeadm.conf) puts them on ExecStart; KUBELET_ARGS and
// KUBELET_OPTS are other distributions' names.
var envFileVars = []string{"KUBELET_KUBECONFIG_ARGS", "KUBELET_CONFIG_ARGS", "KUBELET_KUBEADM_ARGS", "KUBELET_EXTRA_ARGS", "KUBELET_ARGS", "KUBELET_OPTS"}

// readKubeletFlagsFile reads a systemd unit (it has an ExecStart= line) or an env
// file (KEY="..." lines).
func readKubeletFlagsFile(path string) ([]flagArg, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--kubelet-flags-file: %w", err)
	}
	lines := logicalLines(data)
	for _, l := range lines {
		if k, _, ok := strings.Cut(l.text, "="); ok && strings.TrimSpace(k) == "ExecStart" {
			return unitFlags(path, lines)
		}
	}
	vars := envVars(path, lines)
	var out []flagArg
	found := false
	for _, name := range envFileVars {
		v, ok := vars[name]
		if !ok {
			continue
		}
		found = true
		for _, w := range strings.Fields(v.value) {
			out = append(out, flagArg{text: w, pos: v.pos})
		}
	}
	if !found {
		return nil, fmt.Errorf("--kubelet-flags-file %s: neither an ExecStart= line nor any of %s", path, strings.Join(envFileVars, ", "))
	}
	return out, nil
}

type logicalLine struct {
	text string
	line int // first physical line
}

// logicalLines joins lines ending in a backslash with the next (systemd.syntax(7)),
// and drops comments and blank lines.
func logicalLines(data []byte) []logicalLine {
	var out []logicalLine
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	var cur strings.Builder
	start, n := 0, 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if cur.Len() == 0 {
			start = n
			if t := strings.TrimSpace(line); t == "" || t[0] == '#' || t[0] == ';' {
				continue
			}
		}
		if strings.HasSuffix(line, "\\") {
			cur.WriteString(strings.TrimSuffix(line, "\\"))
			cur.WriteString(" ")
			continue
		}
		cur.WriteString(line)
		out = append(out, logicalLine{text: strings.TrimSpace(cur.String()), line: start})
		cur.Reset()
	}
	if cur.Len() > 0 {
		out = append(out, logicalLine{text: strings.TrimSpace(cur.String()), line: start})
	}
	return out
}

type envValue struct {
	value string
	pos   validate.Position
}

// envVars parses KEY=VALUE lines as systemd's EnvironmentFile= does: an optional
// "export ", the value's surrounding quotes removed.
func envVars(path string, lines []logicalLine) map[string]envValue {
	vars := map[string]envValue{}
	for _, l := range lines {
		k, v, ok := strings.Cut(strings.TrimPrefix(l.text, "export "), "=")
		if !ok {
			continue
		}
		vars[strings.TrimSpace(k)] = envValue{value: unquote(strings.TrimSpace(v)), pos: validate.Position{File: path, Line: l.line, Column: 1}}
	}
	return vars
}

func unquote(v string) string {
	if len(v) >= 2 && (v[0] == '"' && v[len(v)-1] == '"' || v[0] == '\'' && v[len(v)-1] == '\'') {
		q := v[0]
		v = v[1 : len(v)-1]
		if q == '"' {
			v = strings.NewReplacer(`\"`, `"`, `\\`, `\`, `\$`, `$`).Replace(v)
		}
	}
	return v
}

// unitFlags is the kubelet's command line of a systemd unit: the last ExecStart=
// (an empty one resets the list, as drop-ins do), its words split with systemd's
// quoting, "$VAR" words replaced by the variable split at whitespace and "${VAR}"
// by its value as one word (systemd.service(5), "Command lines"), from the unit's
// Environment= and EnvironmentFile= lines.
func unitFlags(path string, lines []logicalLine) ([]flagArg, error) {
	vars := map[string]envValue{}
	var exec *logicalLine
	var missing []string
	for i := range lines {
		l := &lines[i]
		k, v, ok := strings.Cut(l.text, "=")
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		pos := validate.Position{File: path, Line: l.line, Column: 1}
		switch strings.TrimSpace(k) {
		case "Environment":
			words, err := splitCommandLine(v)
			if err != nil {
				return nil, fmt.Errorf("--kubelet-flags-file %s:%d: %w", path, l.line, err)
			}
			for _, w := range words {
				if name, val, ok := strings.Cut(w, "="); ok {
					vars[name] = envValue{value: val, pos: pos}
				}
			}
		case "EnvironmentFile":
			optional := strings.HasPrefix(v, "-")
			file := strings.TrimPrefix(v, "-")
			data, err := os.ReadFile(file)
			if err != nil && !filepath.IsAbs(file) {
				// Not systemd (it wants absolute paths): a file named next to the unit.
				file = filepath.Join(filepath.Dir(path), file)
				data, err = os.ReadFile(file)
			}
			if err != nil {
				if !optional {
					missing = append(missing, fmt.Sprintf("%s (%s:%d)", file, path, l.line))
				}
				continue
			}
			for name, ev := range envVars(file, logicalLines(data)) {
				vars[name] = ev
			}
		case "ExecStart":
			if v == "" {
				exec = nil
			} else {
				exec = l
			}
		}
	}
	if exec == nil {
		return nil, fmt.Errorf("--kubelet-flags-file %s: ExecStart= is reset and never set again", path)
	}
	_, cmdline, _ := strings.Cut(exec.text, "=")
	cmdline = strings.TrimLeft(strings.TrimSpace(cmdline), "@-+!:")
	words, err := splitCommandLine(cmdline)
	if err != nil {
		return nil, fmt.Errorf("--kubelet-flags-file %s:%d: %w", path, exec.line, err)
	}
	at := validate.Position{File: path, Line: exec.line, Column: 1}
	var out []flagArg
	for i, w := range words {
		if i == 0 {
			continue // the kubelet binary
		}
		name, split := unitVar(w)
		if name == "" {
			out = append(out, flagArg{text: w, pos: at})
			continue
		}
		ev, ok := vars[name]
		if !ok {
			if len(missing) > 0 {
				return nil, fmt.Errorf("--kubelet-flags-file %s:%d: $%s may come from an EnvironmentFile= that cannot be read here: %s; give that file's flags with --kubelet-flags", path, exec.line, name, strings.Join(missing, ", "))
			}
			continue // systemd expands an unset variable to nothing
		}
		if split {
			for _, f := range strings.Fields(ev.value) {
				out = append(out, flagArg{text: f, pos: ev.pos})
			}
		} else {
			out = append(out, flagArg{text: ev.value, pos: ev.pos})
		}
	}
	return out, nil
}

// unitVar names the variable of a word that is exactly "$VAR" (split at
// whitespace) or "${VAR}" (one word).
func unitVar(w string) (name string, split bool) {
	switch {
	case strings.HasPrefix(w, "${") && strings.HasSuffix(w, "}"):
		return w[2 : len(w)-1], false
	case strings.HasPrefix(w, "$") && len(w) > 1 && !strings.ContainsAny(w[1:], "${}"):
		return w[1:], true
	}
	return "", false
}

// splitCommandLine splits a command line into words: whitespace separates, single
// quotes keep everything, double quotes keep everything but \" and \\, a
// backslash outside quotes escapes the next character.
func splitCommandLine(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\'':
			inWord = true
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("unterminated ' in %q", s)
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
		case c == '"':
			inWord = true
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, fmt.Errorf("unterminated \" in %q", s)
			}
		case c == '\\' && i+1 < len(s):
			inWord = true
			i++
			cur.WriteByte(s[i])
		default:
			inWord = true
			cur.WriteByte(c)
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}
