package kubeletcmd

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/kubeletcfg/kubeletcfg/finding"
)

// Arg is one argument of the kubelet's command line and where it was written.
type Arg struct {
	Text string
	Pos  finding.Position
}

// Texts is the arguments without their positions.
func Texts(args []Arg) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = a.Text
	}
	return out
}

// IsBinary reports whether a first word names the kubelet binary
// (/usr/bin/kubelet, kubelet, /usr/local/bin/kubelet-1.34) rather than a flag.
func IsBinary(word string) bool {
	return !strings.HasPrefix(word, "-") && strings.HasPrefix(filepath.Base(word), "kubelet")
}

// FromLine splits one command line (shell quoting) into arguments at pos; a
// leading kubelet binary, as ps prints it, is dropped.
func FromLine(line string, pos finding.Position) ([]Arg, error) {
	words, err := Split(line)
	if err != nil {
		return nil, err
	}
	if len(words) > 0 && IsBinary(words[0]) {
		words = words[1:]
	}
	out := make([]Arg, len(words))
	for i, w := range words {
		out[i] = Arg{Text: w, Pos: pos}
	}
	return out, nil
}

// FromProcCmdline reads a /proc/PID/cmdline file: NUL-terminated arguments,
// argv[0] first (dropped). Each argument's column is its byte offset + 1.
func FromProcCmdline(path string, data []byte) []Arg {
	data = bytes.TrimRight(data, "\x00")
	var out []Arg
	off := 0
	for i, w := range strings.Split(string(data), "\x00") {
		if i > 0 {
			out = append(out, Arg{Text: w, Pos: finding.Position{File: path, Line: 1, Column: off + 1}})
		}
		off += len(w) + 1
	}
	return out
}

// ReadFile reads a file holding the kubelet's flags: a systemd unit or drop-in
// (it has ExecStart=; a unit named *.service also gets its *.service.d/*.conf
// drop-ins next to it), a /proc/PID/cmdline copy (NUL-separated), an env file
// (KUBELET_KUBEADM_ARGS="..." and the other kubelet variables), a saved ps
// listing (its header, then the processes; the kubelet's line is read), or
// one command line (as ps prints its command), possibly one flag a line with
// # comments (microk8s's args/kubelet). Environment files a unit names are read under root
// ("" is /); a relative one is also looked for next to the unit.
func ReadFile(root, path string) ([]Arg, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if bytes.IndexByte(data, 0) >= 0 {
		return FromProcCmdline(path, data), nil
	}
	lines := logicalLines(data)
	for _, l := range lines {
		if k, _, ok := strings.Cut(l.text, "="); ok && strings.TrimSpace(k) == "ExecStart" || l.text == "[Service]" {
			files := []string{path}
			if strings.HasSuffix(path, ".service") {
				files = append(files, localDropIns(path)...)
			}
			u, err := parseUnit(root, files, true)
			if err != nil {
				return nil, err
			}
			return u.Args, nil
		}
	}
	vars := envFile(path, data)
	var out []Arg
	found := false
	for _, name := range EnvFileVars {
		v, ok := vars[name]
		if !ok {
			continue
		}
		found = true
		for _, w := range splitRelaxed(v.value) {
			out = append(out, Arg{Text: w, Pos: v.pos})
		}
	}
	if found {
		return out, nil
	}
	if args, ok, err := fromPS(path, data); ok {
		return args, err
	}
	if args, ok := fromFlagLines(path, lines); ok {
		return args, nil
	}
	return nil, fmt.Errorf("%s: neither an ExecStart= line, a kubelet command line, a ps listing, flags one per line nor any of %s", path, strings.Join(EnvFileVars, ", "))
}

// fromFlagLines reads one command line, or flags spread over lines with #
// comments between them (microk8s's args/kubelet: one flag a line): the first
// line may start with the kubelet binary, every other line with a flag. A
// ${SNAP_DATA} in a value stays as written: what it expands to is the
// node's.
func fromFlagLines(path string, lines []logicalLine) ([]Arg, bool) {
	var out []Arg
	for i, l := range lines {
		words, err := Split(l.text)
		if err != nil || len(words) == 0 || !strings.HasPrefix(words[0], "-") && (i > 0 || !IsBinary(words[0])) {
			return nil, false
		}
		args, err := FromLine(l.text, finding.Position{File: path, Line: l.line, Column: 1})
		if err != nil {
			return nil, false
		}
		out = append(out, args...)
	}
	return out, len(lines) > 0
}

// fromPS reads a saved ps listing (ps -f, ps -ef, ps aux, ps -o pid,args): a
// header line whose last column is CMD, COMMAND or ARGS, then one process a
// line, the command after as many columns as the header has before it. The
// one process whose command is the kubelet's is read (a "grep kubelet" line
// is not); ok reports that the file is a ps listing.
func fromPS(path string, data []byte) (args []Arg, ok bool, err error) {
	rows := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	header := strings.Fields(rows[0])
	if len(header) < 2 || !slices.Contains(header, "PID") || !slices.Contains([]string{"CMD", "COMMAND", "ARGS"}, header[len(header)-1]) {
		return nil, false, nil
	}
	var found []int
	for i, row := range rows[1:] {
		cmd, col := afterFields(row, len(header)-1)
		words, err := Split(cmd)
		if err != nil || len(words) == 0 || !IsBinary(words[0]) {
			continue
		}
		found = append(found, i+2)
		if args, err = FromLine(cmd, finding.Position{File: path, Line: i + 2, Column: col}); err != nil {
			return nil, true, fmt.Errorf("%s:%d: %v", path, i+2, err)
		}
	}
	switch len(found) {
	case 0:
		return nil, true, fmt.Errorf("%s: a ps listing without a kubelet process: no command under %s starts with the kubelet binary", path, header[len(header)-1])
	case 1:
		return args, true, nil
	}
	lines := make([]string, len(found))
	for i, n := range found {
		lines[i] = strconv.Itoa(n)
	}
	return nil, true, fmt.Errorf("%s: a ps listing with %d kubelet processes (lines %s): keep the line of the one to check", path, len(found), strings.Join(lines, ", "))
}

// afterFields is what follows the first n whitespace-separated fields of
// row, and its column (1-based).
func afterFields(row string, n int) (string, int) {
	i := 0
	for range n {
		for i < len(row) && (row[i] == ' ' || row[i] == '\t') {
			i++
		}
		for i < len(row) && row[i] != ' ' && row[i] != '\t' {
			i++
		}
	}
	for i < len(row) && (row[i] == ' ' || row[i] == '\t') {
		i++
	}
	return row[i:], i + 1
}

// EnvFileVars are the variables of kubelet env files, in the order kubeadm's
// systemd drop-in (10-kubeadm.conf) puts them on ExecStart; NODEADM_KUBELET_ARGS
// is EKS nodeadm's (/etc/eks/kubelet/environment), KUBELET_ARGS and KUBELET_OPTS
// are other distributions' names.
var EnvFileVars = []string{"KUBELET_KUBECONFIG_ARGS", "KUBELET_CONFIG_ARGS", "KUBELET_KUBEADM_ARGS", "KUBELET_EXTRA_ARGS", "NODEADM_KUBELET_ARGS", "KUBELET_ARGS", "KUBELET_OPTS"}

// ReadDropIns reads the *.conf files of a unit's .d folder (kubelet.service.d
// saved without its unit) as one unit, in name order, as systemd applies them;
// the environment files they name are read under root.
func ReadDropIns(root, dir string) ([]Arg, error) {
	files, _ := filepath.Glob(filepath.Join(dir, "*.conf")) // Glob sorts
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: no *.conf drop-ins", dir)
	}
	u, err := parseUnit(root, files, true)
	if err != nil {
		return nil, err
	}
	return u.Args, nil
}

// localDropIns are the *.conf files of the unit's .d folder, by name.
func localDropIns(unit string) []string {
	m, _ := filepath.Glob(filepath.Join(unit+".d", "*.conf"))
	return m // Glob sorts
}

// ConfigFlags finds --config and --config-dir on a command line as the
// kubelet's pflag parse sees them (--config=X or --config X; the last one
// wins; nothing after "--").
func ConfigFlags(args []Arg) (config, configDir *Arg) {
	for i := 0; i < len(args); i++ {
		a := args[i].Text
		if a == "--" {
			break
		}
		if !strings.HasPrefix(a, "--") {
			continue
		}
		name, value, hasValue := strings.Cut(a[2:], "=")
		name = strings.ReplaceAll(name, "_", "-") // cliflag.WordSepNormalizeFunc
		if name != "config" && name != "config-dir" {
			continue
		}
		v := Arg{Text: value, Pos: args[i].Pos}
		if !hasValue {
			if i+1 >= len(args) {
				continue // pflag: "flag needs an argument"; the pipeline reports it
			}
			i++
			v = Arg{Text: args[i].Text, Pos: args[i].Pos}
		}
		if name == "config" {
			config = &v
		} else {
			configDir = &v
		}
	}
	return config, configDir
}

// Split splits a command line into words: whitespace separates, single quotes
// keep everything, double quotes keep everything but \" and \\, a backslash
// outside quotes escapes the next character.
func Split(s string) ([]string, error) {
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

// splitRelaxed is Split that accepts an unterminated quote, as systemd's
// EXTRACT_RELAX does when it splits a $VAR value into words.
func splitRelaxed(s string) []string {
	if w, err := Split(s); err == nil {
		return w
	}
	for _, q := range []string{`"`, `'`} {
		if w, err := Split(s + q); err == nil {
			return w
		}
	}
	return strings.Fields(s)
}
