package discover

import (
	"bytes"
	"context"
	"debug/buildinfo"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/kubeletcfg/kubeletcfg/input/kubeletcmd"
	"github.com/kubeletcfg/kubeletcfg/internal/optionerr"
)

// Options say where to look.
type Options struct {
	// HostRoot is where the host's / is mounted ("" or "/": this machine).
	HostRoot string
	// ProcRoot is the proc file system to scan; default <HostRoot>/proc.
	ProcRoot string
	// PID chooses one kubelet when several run (0: the only one).
	PID int
	// VersionTimeout bounds `kubelet --version` (default 5s).
	VersionTimeout time.Duration
	// Unit names the systemd unit; default: the service the process's cgroup
	// is in, else kubelet.service.
	Unit string
}

// Kubelet is what was found, with where each piece came from (paths are the
// host's; Read* paths are where they were read, under the host root). It is
// the JSON that `kubeletcfg discover -o json` prints.
type Kubelet struct {
	// PID is the kubelet's process id and Exe its binary (/proc/PID/exe).
	PID  int    `json:"pid"`
	Exe  string `json:"exe"`
	Proc string `json:"proc"` // the /proc/PID folder read
	// Cmdline is the process's arguments (argv[1:]) as read from /proc/PID/cmdline.
	Cmdline []string `json:"cmdline"`
	// Args are the arguments evaluated: the unit's expansion, with file:line
	// positions, when it gives exactly Cmdline; else Cmdline itself.
	Args []kubeletcmd.Arg `json:"-"`
	// ArgsFrom is "unit" or "cmdline".
	ArgsFrom string `json:"argsFrom"`
	// Flags are Args with their positions, for the report.
	Flags []Flag `json:"flags"`
	Unit  *Unit  `json:"unit,omitempty"`
	// UnitNote says why the unit was not used or how it was found.
	UnitNote string `json:"unitNote,omitempty"`
	// Config and ConfigDir are the files --config and --config-dir name (nil:
	// not given).
	Config    *File `json:"config,omitempty"`
	ConfigDir *File `json:"configDir,omitempty"`
	// Version is the kubelet's release ("v1.37.2") and Minor its minor
	// ("1.37", supported or not: --kubelet-version defaults to it); both empty
	// when the version could not be read.
	Version string `json:"version,omitempty"`
	Minor   string `json:"minor,omitempty"`
	// VersionFrom says how the version was read.
	VersionFrom string `json:"versionFrom"`
	// Cgroup is the host's cgroup version (1 or 2) and CgroupFrom how it was told.
	Cgroup     int    `json:"cgroup"`
	CgroupFrom string `json:"cgroupFrom"`
	// HostRoot is Options.HostRoot when it is not the machine's /.
	HostRoot string `json:"hostRoot,omitempty"`
}

// Flag is one argument and where it was written (file:line).
type Flag struct {
	Arg  string `json:"arg"`
	From string `json:"from"`
}

// Unit is the systemd unit the kubelet runs under.
type Unit struct {
	Name     string               `json:"name"`
	From     string               `json:"from"` // how the unit was named
	Files    []string             `json:"files"`
	EnvFiles []kubeletcmd.EnvFile `json:"envFiles,omitempty"`
}

// File is a file or folder the command line names.
type File struct {
	Path string `json:"path"` // as the kubelet sees it
	Read string `json:"read"` // where kubeletcfg reads it
	From string `json:"from"` // the argument's position
	// DropIns are a --config-dir's *.conf files, by name.
	DropIns []string `json:"dropIns,omitempty"`
}

// Error is a discovery failure: one line naming what was looked for and where.
type Error struct {
	msg string
	// err is, for a failure the options can fix, the OptionError naming them.
	err error
}

func (e *Error) Error() string { return e.msg }

// Unwrap is the OptionError of a failure the options can fix, else nil.
func (e *Error) Unwrap() error { return e.err }

func errorf(format string, a ...any) error { return &Error{msg: fmt.Sprintf(format, a...)} }

// optionErrorf is errorf for a failure Options can fix, naming its fields
// ({PID}) in the library's words; the command names its flags
// (kubeletcfg.CommandWords: --pid).
func optionErrorf(format string, a ...any) error {
	oe := optionerr.In("discover.Options").Errorf(format, a...)
	return &Error{msg: oe.Error(), err: oe}
}

func (o *Options) root() string {
	if o.HostRoot == "/" {
		return ""
	}
	return o.HostRoot
}

func (o *Options) procRoot() string {
	if o.ProcRoot != "" {
		return o.ProcRoot
	}
	if o.root() == "" {
		return "/proc"
	}
	return filepath.Join(o.root(), "proc")
}

// host puts a host path under the host root.
func (o *Options) host(p string) string {
	if o.root() == "" {
		return p
	}
	return filepath.Join(o.root(), p)
}

// Process is a candidate kubelet process.
type Process struct {
	PID int
	Exe string // empty when the link cannot be read
}

// Find lists the processes named kubelet (by /proc/PID/comm or the base name of
// /proc/PID/exe), by PID.
func Find(procRoot string) ([]Process, error) {
	ents, err := os.ReadDir(procRoot)
	if err != nil {
		return nil, errorf("discover: cannot list processes in %s: %v", procRoot, unwrap(err))
	}
	var out []Process
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid <= 0 {
			continue
		}
		dir := filepath.Join(procRoot, e.Name())
		if comm, exe := names(dir); isKubelet(comm, exe, "") {
			out = append(out, Process{PID: pid, Exe: exe})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].PID < out[j].PID })
	return out, nil
}

// names reads a process's comm and executable (empty when unreadable).
func names(dir string) (comm, exe string) {
	c, _ := os.ReadFile(filepath.Join(dir, "comm"))
	exe, _ = os.Readlink(filepath.Join(dir, "exe"))
	return strings.TrimSpace(string(c)), strings.TrimSuffix(exe, " (deleted)")
}

// isKubelet is how a process is recognised as a kubelet: its comm or the base
// name of its executable or, when known, of argv[0] is kubelet.
func isKubelet(comm, exe, argv0 string) bool {
	return comm == "kubelet" || exe != "" && filepath.Base(exe) == "kubelet" || argv0 != "" && filepath.Base(argv0) == "kubelet"
}

// Discover finds the kubelet and reads everything it starts from.
func Discover(o Options) (*Kubelet, error) {
	proc := o.procRoot()
	pid := o.PID
	if pid == 0 {
		ps, err := Find(proc)
		if err != nil {
			return nil, err
		}
		switch len(ps) {
		case 0:
			return nil, errorf("discover: no kubelet process in %s (looked for a process whose comm or executable is named kubelet); start it, or give the files with --config/--kubelet-flags-file", proc)
		case 1:
			pid = ps[0].PID
		default:
			var list []string
			for _, p := range ps {
				s := strconv.Itoa(p.PID)
				if p.Exe != "" {
					s += " (" + p.Exe + ")"
				}
				list = append(list, s)
			}
			return nil, optionErrorf("discover: %d kubelet processes in %s: %s; choose one with {PID}", len(ps), proc, strings.Join(list, ", "))
		}
	}
	dir := filepath.Join(proc, strconv.Itoa(pid))
	k := &Kubelet{PID: pid, Proc: dir, HostRoot: o.root()}
	cmdFile := filepath.Join(dir, "cmdline")
	data, err := os.ReadFile(cmdFile)
	if err != nil {
		return nil, errorf("discover: kubelet %d: cannot read its command line %s: %v", pid, cmdFile, unwrap(err))
	}
	if len(bytes.TrimRight(data, "\x00")) == 0 {
		return nil, errorf("discover: kubelet %d: %s is empty (a zombie or kernel thread?)", pid, cmdFile)
	}
	argv0, _, _ := strings.Cut(string(data), "\x00")
	// --pid names the process; it must still be a kubelet, or every later
	// step reads a stranger's command line as the kubelet's.
	if comm, exe := names(dir); o.PID != 0 && !isKubelet(comm, exe, argv0) {
		name := comm
		if name == "" {
			name = filepath.Base(argv0)
		}
		return nil, optionErrorf("discover: process %d (%s) is not a kubelet: neither its name nor its executable is kubelet; leave out {PID} to find the kubelet in %s", pid, name, proc)
	}
	procArgs := kubeletcmd.FromProcCmdline(cmdFile, data)
	k.Cmdline = kubeletcmd.Texts(procArgs)
	k.Args, k.ArgsFrom = procArgs, "cmdline"
	if exe, err := os.Readlink(filepath.Join(dir, "exe")); err == nil {
		k.Exe = strings.TrimSuffix(exe, " (deleted)")
	} else {
		k.Exe = argv0
	}

	k.unit(o, dir)
	if err := k.files(o, dir); err != nil {
		return nil, err
	}
	k.version(o, dir)
	if err := k.cgroup(o); err != nil {
		return nil, err
	}
	k.Flags = []Flag{}
	for _, a := range k.Args {
		k.Flags = append(k.Flags, Flag{Arg: a.Text, From: a.Pos.String()})
	}
	return k, nil
}

var serviceRe = regexp.MustCompile(`([^/]+\.service)(/|$)`)

// unit finds the systemd unit of the process (the service its cgroup is in;
// kubelet.service when the cgroup names none) and uses its arguments when they
// are exactly the process's.
func (k *Kubelet) unit(o Options, dir string) {
	name, from := o.Unit, "--unit"
	if cg, err := os.ReadFile(filepath.Join(dir, "cgroup")); err == nil {
		for _, line := range strings.Split(string(cg), "\n") {
			// "0::/system.slice/kubelet.service" (v2), "1:name=systemd:/system.slice/kubelet.service" (v1)
			parts := strings.SplitN(line, ":", 3)
			if len(parts) == 3 && o.Unit == "" {
				if m := serviceRe.FindAllStringSubmatch(parts[2], -1); len(m) > 0 {
					name, from = m[len(m)-1][1], filepath.Join(dir, "cgroup")
				}
			}
		}
	}
	if name == "" {
		name, from = "kubelet.service", "by name: "+filepath.Join(dir, "cgroup")+" names no service"
	}
	u, err := kubeletcmd.LoadUnit(o.root(), name)
	if err != nil {
		k.UnitNote = fmt.Sprintf("%s not used: %v", name, err)
		return
	}
	k.Unit = &Unit{Name: name, From: from, Files: u.Files, EnvFiles: u.EnvFiles}
	if got := kubeletcmd.Texts(u.Args); equal(got, k.Cmdline) {
		k.Args, k.ArgsFrom = u.Args, "unit"
		return
	}
	k.UnitNote = fmt.Sprintf("the running kubelet's command line differs from what %s gives now (changed since the kubelet started, or not its unit); the command line of %s is used", name, filepath.Join(dir, "cmdline"))
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// files resolves --config and --config-dir (relative to the process's working
// folder, as the kubelet opens them) and checks they are there.
func (k *Kubelet) files(o Options, dir string) error {
	cfg, cdir := kubeletcmd.ConfigFlags(k.Args)
	cwd, _ := os.Readlink(filepath.Join(dir, "cwd"))
	resolve := func(a *kubeletcmd.Arg, flag string, wantDir bool) (*File, error) {
		if a == nil || a.Text == "" {
			return nil, nil
		}
		p := a.Text
		if !filepath.IsAbs(p) {
			if cwd == "" {
				cwd = "/"
			}
			p = filepath.Join(cwd, p)
		}
		f := &File{Path: p, Read: o.host(p), From: a.Pos.String()}
		fi, err := os.Stat(f.Read)
		if err != nil {
			return nil, errorf("discover: kubelet %d: %s (its %s, %s): %v", k.PID, f.Read, flag, f.From, unwrap(err))
		}
		if wantDir {
			if !fi.IsDir() {
				return nil, errorf("discover: kubelet %d: %s (its %s, %s) is not a folder", k.PID, f.Read, flag, f.From)
			}
			ents, err := os.ReadDir(f.Read)
			if err != nil {
				return nil, errorf("discover: kubelet %d: %s (its %s, %s): %v", k.PID, f.Read, flag, f.From, unwrap(err))
			}
			for _, e := range ents {
				if !e.IsDir() && strings.HasSuffix(e.Name(), ".conf") {
					f.DropIns = append(f.DropIns, e.Name())
				}
			}
		} else if _, err := os.ReadFile(f.Read); err != nil {
			return nil, errorf("discover: kubelet %d: %s (its %s, %s): %v", k.PID, f.Read, flag, f.From, unwrap(err))
		}
		return f, nil
	}
	var err error
	if k.Config, err = resolve(cfg, "--config", false); err != nil {
		return err
	}
	k.ConfigDir, err = resolve(cdir, "--config-dir", true)
	return err
}

var (
	ldflagsVersion = regexp.MustCompile(`k8s\.io/(?:component-base|client-go/pkg)/version\.gitVersion=['"]?(v[0-9]+\.[0-9]+\.[0-9]+[^\s'"]*)`)
	versionOutput  = regexp.MustCompile(`Kubernetes (v[0-9]+\.[0-9]+\.[0-9]+\S*)`)
	minorRe        = regexp.MustCompile(`^v([0-9]+\.[0-9]+)\.`)
)

// version reads the release stamp the build put in the binary (-X
// k8s.io/component-base/version.gitVersion=..., recorded in the Go build
// information unless built with -trimpath), else runs `kubelet --version`.
func (k *Kubelet) version(o Options, dir string) {
	// /proc/PID/exe opens the binary even from another mount namespace; without
	// the right to follow it (another user's process), the binary the link
	// names, under the host root.
	exe := filepath.Join(dir, "exe")
	if _, err := os.Stat(exe); err != nil && filepath.IsAbs(k.Exe) {
		exe = o.host(k.Exe)
	}
	if bi, err := buildinfo.ReadFile(exe); err == nil {
		for _, s := range bi.Settings {
			if s.Key == "-ldflags" {
				if m := ldflagsVersion.FindStringSubmatch(s.Value); m != nil {
					k.setVersion(m[1], "the release stamp in the binary's build information ("+exe+": -X k8s.io/component-base/version.gitVersion)")
					return
				}
			}
		}
	}
	timeout := o.VersionTimeout
	if timeout == 0 {
		timeout = 5 * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, exe, "--version").Output()
	if m := versionOutput.FindSubmatch(out); err == nil && m != nil {
		k.setVersion(string(m[1]), "`"+exe+" --version`")
		return
	}
	if ctx.Err() != nil {
		err = fmt.Errorf("no answer within %s", timeout)
	} else if err == nil {
		err = fmt.Errorf("no version in its output %q", strings.TrimSpace(string(out)))
	}
	k.VersionFrom = fmt.Sprintf("unknown: no release stamp in %s's build information, and `%s --version`: %v", exe, exe, err)
}

func (k *Kubelet) setVersion(v, from string) {
	k.Version, k.VersionFrom = v, from
	if m := minorRe.FindStringSubmatch(v); m != nil {
		k.Minor = m[1]
	}
}

// cgroup2Magic is CGROUP2_SUPER_MAGIC, the f_type of a cgroup v2 mount.
const cgroup2Magic = 0x63677270

// cgroup reads the host's cgroup version from the file system type of
// <root>/sys/fs/cgroup (cgroup2fs: v2; tmpfs holding v1 hierarchies: v1), or
// this machine's /sys/fs/cgroup when the host's is not mounted: a container
// sees the cgroup version of the host it runs on.
func (k *Kubelet) cgroup(o Options) error {
	p := o.host("/sys/fs/cgroup")
	var st syscall.Statfs_t
	if err := syscall.Statfs(p, &st); err != nil {
		if o.root() == "" {
			return errorf("discover: cannot read the cgroup version: %s: %v", p, unwrap(err))
		}
		p = "/sys/fs/cgroup"
		if err := syscall.Statfs(p, &st); err != nil {
			return errorf("discover: cannot read the cgroup version: neither %s nor %s: %v", o.host("/sys/fs/cgroup"), p, unwrap(err))
		}
	}
	if int64(st.Type) == cgroup2Magic {
		k.Cgroup, k.CgroupFrom = 2, p+" is cgroup2fs"
	} else {
		k.Cgroup, k.CgroupFrom = 1, fmt.Sprintf("%s is not cgroup2fs (file system type 0x%x)", p, st.Type)
	}
	return nil
}

// unwrap drops the path from a *fs.PathError: messages name the path themselves.
func unwrap(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
