package kubeletcmd

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/kubeletcfg/kubeletcfg/finding"
)

// UnitDirs is systemd's search path for system units, most important first
// (systemd.unit(5), "Unit File Load Path"; /lib/systemd/system is the
// pre-merged-/usr Debian location kubeadm's deb packages used).
var UnitDirs = []string{
	"/etc/systemd/system.control", "/run/systemd/system.control", "/run/systemd/transient",
	"/etc/systemd/system", "/run/systemd/system", "/usr/local/lib/systemd/system",
	"/usr/lib/systemd/system", "/lib/systemd/system",
}

// Unit is a systemd service as systemd loads it: the unit file, its drop-ins
// in order, the environment files its EnvironmentFile= lines name, and the
// kubelet's arguments of the resulting ExecStart=.
type Unit struct {
	Name string
	// Files are the unit file and its drop-ins in the order systemd applies
	// them (host paths, without the root).
	Files []string
	// EnvFiles are the EnvironmentFile= files, read or not.
	EnvFiles []EnvFile
	// Binary is the ExecStart= program.
	Binary string
	Args   []Arg
}

// EnvFile is one EnvironmentFile= entry.
type EnvFile struct {
	Path     string           `json:"path"`
	Optional bool             `json:"optional"`
	Missing  bool             `json:"missing"`
	At       finding.Position `json:"-"`
}

// LoadUnit loads a system unit (kubelet.service) under root as systemd does:
// the first unit file on the search path, then every drop-in
// (<name>.d/*.conf and service.d/*.conf in any unit directory; a file name in a
// more important directory hides the same name in a less important one),
// applied in the lexical order of their file names.
func LoadUnit(root, name string) (*Unit, error) {
	var unit string
	for _, d := range UnitDirs {
		p := filepath.Join(d, name)
		if fi, err := os.Stat(filepath.Join(root, p)); err == nil && fi.Mode().IsRegular() {
			unit = p
			break
		}
	}
	if unit == "" {
		return nil, fmt.Errorf("no %s under %s", name, strings.Join(rooted(root, UnitDirs), ", "))
	}
	files := []string{unit}
	seen := map[string]string{}
	for _, d := range UnitDirs {
		for _, sub := range []string{name + ".d", "service.d"} {
			m, _ := filepath.Glob(filepath.Join(root, d, sub, "*.conf"))
			for _, f := range m {
				base := filepath.Base(f)
				if _, ok := seen[base]; !ok {
					seen[base] = filepath.Join(d, sub, base)
				}
			}
		}
	}
	names := make([]string, 0, len(seen))
	for n := range seen {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		files = append(files, seen[n])
	}
	u, err := parseUnit(root, files, false)
	if err != nil {
		return nil, err
	}
	u.Name = name
	return u, nil
}

func rooted(root string, dirs []string) []string {
	out := make([]string, len(dirs))
	for i, d := range dirs {
		out[i] = filepath.Join(root, d)
	}
	return out
}

type assignment struct {
	value string
	pos   finding.Position
}

// parseUnit applies the [Service] section of each file in order. files are
// host paths read under root; when local, they are paths on this machine and
// a relative EnvironmentFile= is also looked for next to the unit.
func parseUnit(root string, files []string, local bool) (*Unit, error) {
	u := &Unit{Files: files}
	var env, envFiles, exec []assignment
	for _, f := range files {
		data, err := os.ReadFile(join(root, f, local))
		if err != nil {
			return nil, err
		}
		section := ""
		for _, l := range logicalLines(data) {
			if strings.HasPrefix(l.text, "[") && strings.HasSuffix(l.text, "]") {
				section = l.text
				continue
			}
			if section != "[Service]" && section != "" {
				continue
			}
			k, v, ok := strings.Cut(l.text, "=")
			if !ok {
				continue
			}
			a := assignment{value: strings.TrimSpace(v), pos: finding.Position{File: f, Line: l.line, Column: 1}}
			// An empty assignment resets the list (systemd.exec(5), systemd.service(5)).
			switch strings.TrimSpace(k) {
			case "Environment":
				env = resetOrAppend(env, a)
			case "EnvironmentFile":
				envFiles = resetOrAppend(envFiles, a)
			case "ExecStart":
				exec = resetOrAppend(exec, a)
			}
		}
	}
	switch len(exec) {
	case 0:
		return nil, fmt.Errorf("%s: no ExecStart= (or it is reset and never set again)", strings.Join(files, ", "))
	case 1:
	default:
		// service_verify: only Type=oneshot may have several.
		return nil, fmt.Errorf("%s and %s: more than one ExecStart=: systemd refuses to start a service that is not Type=oneshot with several (reset it with an empty ExecStart= first)", exec[0].pos, exec[len(exec)-1].pos)
	}

	// Environment= first, then the files in order override it (systemd.exec(5):
	// "Settings from these files override settings made with Environment=").
	vars := map[string]assignment{}
	for _, a := range env {
		words, err := Split(a.value)
		if err != nil {
			return nil, fmt.Errorf("%s: Environment=: %w", a.pos, err)
		}
		for _, w := range words {
			if name, val, ok := strings.Cut(w, "="); ok && validEnvName(name) {
				vars[name] = assignment{value: val, pos: a.pos}
			}
		}
	}
	var missing []string
	for _, a := range globEnvFiles(root, envFiles) {
		ef := EnvFile{Path: strings.TrimPrefix(a.value, "-"), Optional: strings.HasPrefix(a.value, "-"), At: a.pos}
		file := ef.Path
		data, err := os.ReadFile(join(root, file, false))
		if err != nil && local && !filepath.IsAbs(file) {
			// Not systemd (it wants absolute paths): a file named next to the unit.
			file = filepath.Join(filepath.Dir(a.pos.File), file)
			data, err = os.ReadFile(file)
		}
		if err != nil {
			ef.Missing = true
			u.EnvFiles = append(u.EnvFiles, ef)
			if !errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("%s: EnvironmentFile=%s: %w", a.pos, ef.Path, err)
			}
			if !ef.Optional {
				missing = append(missing, fmt.Sprintf("%s (%s)", join(root, ef.Path, false), a.pos))
			}
			continue
		}
		if file != ef.Path {
			ef.Path = file
		}
		u.EnvFiles = append(u.EnvFiles, ef)
		for name, ev := range envFile(file, data) {
			vars[name] = ev
		}
	}
	if len(missing) > 0 {
		// systemd does not start the service: "Failed to load environment files".
		return nil, fmt.Errorf("EnvironmentFile= without a - prefix cannot be read: %s; systemd would not start the unit", strings.Join(missing, ", "))
	}

	e := exec[0]
	cmd := e.value
	expand := true
	argv0 := false
	for len(cmd) > 0 && strings.ContainsRune("@-:+!|", rune(cmd[0])) {
		switch cmd[0] {
		case '@':
			argv0 = true
		case ':':
			expand = false
		}
		cmd = cmd[1:]
	}
	words, err := Split(cmd)
	if err != nil {
		return nil, fmt.Errorf("%s: ExecStart=: %w", e.pos, err)
	}
	if len(words) == 0 {
		return nil, fmt.Errorf("%s: ExecStart= names no program", e.pos)
	}
	u.Binary = words[0]
	words = words[1:]
	if argv0 && len(words) > 0 {
		words = words[1:] // "@": the second word is argv[0], not an argument
	}
	for _, w := range words {
		if !expand {
			u.Args = append(u.Args, Arg{Text: w, Pos: e.pos})
			continue
		}
		u.Args = append(u.Args, expandWord(w, vars, e.pos)...)
	}
	return u, nil
}

// globEnvFiles expands EnvironmentFile= wildcards (systemd.exec(5): "an
// absolute filename or wildcard expression"), each match in lexical order; a
// pattern without a match stays, to be reported missing.
func globEnvFiles(root string, list []assignment) []assignment {
	var out []assignment
	for _, a := range list {
		pattern := strings.TrimPrefix(a.value, "-")
		if !strings.ContainsAny(pattern, "*?[") {
			out = append(out, a)
			continue
		}
		matches, _ := filepath.Glob(join(root, pattern, false))
		if len(matches) == 0 {
			out = append(out, a)
			continue
		}
		prefix := a.value[:len(a.value)-len(pattern)]
		for _, m := range matches {
			if root != "" { // env files are host paths read under root
				m = "/" + strings.TrimPrefix(strings.TrimPrefix(m, filepath.Clean(root)), "/")
			}
			out = append(out, assignment{value: prefix + m, pos: a.pos})
		}
	}
	return out
}

func resetOrAppend(list []assignment, a assignment) []assignment {
	if a.value == "" {
		return nil
	}
	return append(list, a)
}

// join puts a host path under root; local paths are this machine's.
func join(root, p string, local bool) string {
	if local || root == "" {
		return p
	}
	return filepath.Join(root, p)
}

func validEnvName(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// expandWord is systemd's replace_env_argv for one word: "$VAR" alone becomes
// the variable's value split into words (none when unset or empty); elsewhere
// "${VAR}" (also ${VAR:-default} and ${VAR:+alternative}) is replaced by the
// value, the word staying one word, and "$$" is a "$". A word whose text comes
// from one variable carries that variable's position.
func expandWord(w string, vars map[string]assignment, at finding.Position) []Arg {
	if len(w) > 1 && w[0] == '$' && w[1] != '{' && w[1] != '$' {
		v, ok := vars[w[1:]]
		if !ok {
			return nil
		}
		var out []Arg
		for _, f := range splitRelaxed(v.value) {
			out = append(out, Arg{Text: f, Pos: v.pos})
		}
		return out
	}
	var b strings.Builder
	pos := at
	for i := 0; i < len(w); i++ {
		switch {
		case w[i] == '$' && i+1 < len(w) && w[i+1] == '$':
			b.WriteByte('$')
			i++
		case w[i] == '$' && i+1 < len(w) && w[i+1] == '{':
			end := strings.IndexByte(w[i:], '}')
			if end < 0 {
				b.WriteString(w[i:])
				i = len(w)
				continue
			}
			expr := w[i+2 : i+end]
			name, op, arg := expr, "", ""
			if j := strings.Index(expr, ":-"); j >= 0 {
				name, op, arg = expr[:j], ":-", expr[j+2:]
			} else if j := strings.Index(expr, ":+"); j >= 0 {
				name, op, arg = expr[:j], ":+", expr[j+2:]
			}
			v, ok := vars[name]
			set := ok && v.value != ""
			switch {
			case op == ":-" && !set:
				b.WriteString(arg)
			case op == ":+":
				if set {
					b.WriteString(arg)
				}
			case ok:
				b.WriteString(v.value)
				if w == "${"+expr+"}" {
					pos = v.pos
				}
			}
			i += end
		default:
			b.WriteByte(w[i])
		}
	}
	return []Arg{{Text: b.String(), Pos: pos}}
}

type logicalLine struct {
	text string
	line int // first physical line
}

// logicalLines joins lines ending in a backslash with the next (systemd.syntax(7)),
// and drops comments and blank lines (a comment inside a continuation too).
func logicalLines(data []byte) []logicalLine {
	var out []logicalLine
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	var cur strings.Builder
	start, n := 0, 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if t := strings.TrimSpace(line); t == "" && cur.Len() == 0 || t != "" && (t[0] == '#' || t[0] == ';') {
			continue
		}
		if cur.Len() == 0 {
			start = n
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

// envFile parses an environment file as systemd's EnvironmentFile= does
// (load_env_file): KEY=VALUE lines, # and ; comments, an optional "export ",
// whitespace around the key and an unquoted value trimmed, "..." with \", \\,
// \$ and \` escapes, '...' literal, a backslash-newline joining lines.
func envFile(path string, data []byte) map[string]assignment {
	vars := map[string]assignment{}
	for _, l := range logicalLines(data) {
		k, v, ok := strings.Cut(strings.TrimPrefix(l.text, "export "), "=")
		k = strings.TrimSpace(k)
		if !ok || !validEnvName(k) {
			continue
		}
		vars[k] = assignment{value: unquoteEnv(strings.TrimSpace(v)), pos: finding.Position{File: path, Line: l.line, Column: 1}}
	}
	return vars
}

func unquoteEnv(v string) string {
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c == '\'':
			j := strings.IndexByte(v[i+1:], '\'')
			if j < 0 {
				b.WriteString(v[i+1:])
				return b.String()
			}
			b.WriteString(v[i+1 : i+1+j])
			i += j + 1
		case c == '"':
			for i++; i < len(v) && v[i] != '"'; i++ {
				if v[i] == '\\' && i+1 < len(v) && strings.IndexByte("\"\\`$", v[i+1]) >= 0 {
					i++
				}
				b.WriteByte(v[i])
			}
		case c == '\\' && i+1 < len(v):
			i++
			b.WriteByte(v[i])
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
