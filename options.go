package kubeletcfg

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"strings"

	utilversion "k8s.io/apimachinery/pkg/util/version"

	"github.com/kubeletcfg/kubeletcfg/discover"
	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/input"
	"github.com/kubeletcfg/kubeletcfg/input/kubeletcmd"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
	"github.com/kubeletcfg/kubeletcfg/policy"
	"github.com/kubeletcfg/kubeletcfg/profile"
	"github.com/kubeletcfg/kubeletcfg/validate"
)

// Options say what to evaluate and how. The zero value of a field is the
// kubeletcfg command's default for the flag of the same name.
type Options struct {
	// Config is the kubelet's --config file; input.Stdin ("-") reads Stdin.
	Config string
	// ConfigData, when not nil, is the main file's content, read instead of
	// the disk; Config names it in findings (MemoryName when empty).
	ConfigData []byte
	// ConfigDir is the kubelet's --config-dir drop-in folder.
	ConfigDir string
	// DropIns are drop-ins held in memory, by file name: each joins
	// ConfigDir's walk where its name sorts, as if it were written there
	// (one with the name of a file on disk replaces it). ConfigDir is still
	// read from the disk, as the kubelet reads it: it must exist (it may be
	// empty).
	DropIns map[string][]byte
	// Stdin is what Config "-" reads.
	Stdin io.Reader

	// Format is what Config is (input.Auto when empty: by content), and Read
	// the options of its conversion (--as-written, --kind-node,
	// --systemd-resolved).
	Format input.Format
	Read   input.Options

	// The kubelet's own command line, applied in this order (later flags
	// win, as on one command line): the discovered kubelet's, the flags file
	// (an env file, a systemd unit or drop-in, a /proc/PID/cmdline copy, a
	// line from ps), the line, then Args one argument each. Its --config and
	// --config-dir name the files (under Host.HostRoot) when Config and
	// ConfigDir do not.
	KubeletFlagsFile string
	KubeletFlags     string
	KubeletArgs      []string
	// Discover evaluates the kubelet running on the host Host describes:
	// its command line, unit and files; KubeletVersion and CgroupVersion
	// default to what it runs with.
	Discover bool
	Host     discover.Options

	// Paths, for Lint, are several main files, each linted as its own node
	// (Config is then not read); Nodes is a folder of nodes (Nodes' layout),
	// linted at KubeletVersion or at each of Versions. `kubeletcfg lint`
	// takes them as its arguments and --nodes.
	Paths []string
	Nodes string

	// KubeletVersion is the minor of the one-minor verbs (1.37, v1.37.2);
	// default the discovered kubelet's, else the policy's, else the newest.
	KubeletVersion string
	// Versions are the minors of Skew and Nodes: a range (1.34..1.37) or a
	// list (1.33,1.37); ControlPlane (Skew) the minor whose skew window to
	// use. Skew's default is the default minor's window, Nodes' KubeletVersion.
	Versions, ControlPlane string
	// From and To are Preflight's minors: From defaults to the discovered
	// kubelet's, To to the newest.
	From, To string
	// CgroupVersion of the host: v1 or v2 (default the discovered host's, else v2).
	CgroupVersion string
	// OS is the node's operating system, linux (the default) or windows: the
	// Windows kubelet has its own OS checks and defaults, and no cgroups
	// (CgroupVersion does not apply).
	OS string

	// Profile names a security profile checked on the effective
	// configuration (validate.Profiles); empty for none.
	Profile string
	// Policy decides what is reported (nil: only the files' inline
	// kubeletcfg:ignore comments apply); its kubeletVersion and versions
	// are defaults of KubeletVersion and Versions.
	Policy *policy.Policy

	// Log receives the notes the command prints on standard error (the
	// discovered kubelet, files skipped, inputs that could not be read);
	// nil discards them.
	Log io.Writer
	// ErrorText writes an error a result keeps (a node or path that could
	// not be read) and Log prints; nil: its Error(), which names Options
	// fields. The command passes CommandWords, which names its flags.
	ErrorText func(error) string
}

// MemoryName names ConfigData in findings when Config is empty.
const MemoryName = "<memory>"

// sourceKubelet is the kubelet version an input names, "" for none.
func sourceKubelet(s *input.Source) string {
	if s == nil {
		return ""
	}
	if s.KubeletVersion != "" {
		return s.KubeletVersion
	}
	return s.Ships
}

// Prepared is Options resolved into what the pipeline reads: the files (the
// options' or the kubelet command line's), the converted main file and the
// kubelet's arguments.
type Prepared struct {
	// Input is what pipeline.Evaluate reads.
	Input pipeline.Input
	// Source is the main file as recognised; nil without one.
	Source *input.Source
	// Discovered is the running kubelet found by Options.Discover.
	Discovered *discover.Kubelet
	// Config and ConfigDir are the files read: the options' or the
	// kubelet command line's.
	Config, ConfigDir string
	// KubeletVersion and CgroupVersion are the options' with the discovered
	// kubelet's and the policy's defaults applied (KubeletVersion may be
	// empty: the newest).
	KubeletVersion, CgroupVersion string

	// again are the options that prepared this (standard input kept), for a
	// translation at another minor (AtMinor).
	again Options
}

// AtMinor is p for kubelet minor m: p itself, unless its main file is the
// translation of a tool that ships its own kubelet (k0s, k3s, RKE2, a Talos
// image), which writes for the kubelet its release runs: then the file
// translated for m, with m's release of the tool (input.Source.Paired).
func (p *Prepared) AtMinor(m *kubelets.Minor) (*Prepared, error) {
	if p.Source == nil || !p.Source.Bundled() {
		return p, nil
	}
	o := p.again
	o.KubeletVersion, o.Versions, o.ControlPlane, o.From, o.To = m.Version, "", "", "", ""
	o.Read.Minor, o.Log = "", nil
	if o.Stdin != nil {
		if r, ok := o.Stdin.(*bytes.Reader); ok {
			r.Seek(0, io.SeekStart)
		}
	}
	return o.Prepare()
}

// objectsNote is, for a file of several node groups read without an object
// named (input.Source.Objects), the note that this evaluation is of the
// first: lint checks each, the verbs that evaluate one group do not; "" for
// any other file.
func (p *Prepared) objectsNote() string {
	if p == nil || p.Source == nil || len(p.Source.Objects) < 2 {
		return ""
	}
	o := p.Source.Objects
	return fmt.Sprintf("kubeletcfg: note: %s holds %d node groups (%s): this is the first, %s; --object names another (lint checks each)\n",
		p.Config, len(o), strings.Join(o, ", "), o[0])
}

// Settle maps what the pipeline reported for a converted input back to the
// file as written (input.Source.Settle); every result of Input needs it.
func (p *Prepared) Settle(res *pipeline.Result) error { return settle(p.Source, res) }

// applySource makes in read src as its --config file (input.Source.Apply,
// on the fields of in that a source sets).
func applySource(src *input.Source, in *pipeline.Input) {
	f := input.Files{Config: in.Config, ConfigDir: in.ConfigDir, ConfigDirInMemory: in.ConfigDirInMemory,
		Virtual: in.Virtual, Flags: in.Flags, FlagPositions: in.FlagPositions}
	src.Apply(&f)
	in.Config, in.ConfigDir, in.ConfigDirInMemory = f.Config, f.ConfigDir, f.ConfigDirInMemory
	in.Virtual, in.Flags, in.FlagPositions = f.Virtual, f.Flags, f.FlagPositions
}

// settle is input.Source.Settle on res (nil: nothing to settle), with the
// pipeline evaluating what the source needs evaluated (evaluateFile); the
// verdict is then the node's (a bootstrapper's refusal among the findings
// leaves it without a kubelet: pipeline.Result.Bootstrapped).
func settle(src *input.Source, res *pipeline.Result) error {
	if res == nil {
		return src.Settle(nil, evaluateFile)
	}
	r := inputResult(res)
	err := src.Settle(r, evaluateFile)
	res.Findings, res.Origins, res.OriginNotes, res.Dropped = r.Findings, r.Origins, r.OriginNotes, r.Dropped
	res.Bootstrapped()
	return err
}

// inputResult is the part of res an input settles (input.Result).
func inputResult(res *pipeline.Result) *input.Result {
	r := &input.Result{Minor: res.Minor, Findings: res.Findings, Origins: res.Origins, OriginNotes: res.OriginNotes, Dropped: res.Dropped}
	if res.Effective != nil {
		r.Object = res.EffectiveObject
	}
	return r
}

// evaluateFile is the input.Evaluator of the pipeline: one in-memory file
// at minor m.
func evaluateFile(m *kubelets.Minor, path string, data []byte) (*input.Result, error) {
	res, err := pipeline.Evaluate(m, pipeline.Input{Config: path, Virtual: map[string][]byte{path: data}})
	if err != nil {
		return nil, err
	}
	return inputResult(res), nil
}

// Prepare resolves the options: the kubelet's command line is read (and the
// running kubelet discovered), its --config/--config-dir honoured, the main
// file recognised and converted.
func (o Options) Prepare() (*Prepared, error) {
	// The kubelet walks a file given as --config-dir and merges it only when
	// it ends in .conf; named as the drop-in folder here, a file is a slip
	// (usually the main file), not a question about the kubelet.
	if o.ConfigDir != "" {
		if fi, err := os.Stat(o.ConfigDir); err == nil && !fi.IsDir() {
			return nil, optionErrorf("{ConfigDir} %s is a file, not a folder: the main file is {Config}, drop-ins are the .conf files of a folder", o.ConfigDir)
		}
	}
	p := &Prepared{Config: o.Config, ConfigDir: o.ConfigDir, KubeletVersion: o.KubeletVersion, CgroupVersion: o.CgroupVersion}
	args, err := o.kubeletArgs(p)
	if err != nil {
		return nil, err
	}
	if err := o.commandLineConfig(p, args); err != nil {
		return nil, err
	}
	// A command line without --config is a kubelet configured by flags alone.
	if p.Config == "" && p.ConfigDir == "" && len(args) == 0 && o.ConfigData == nil {
		return nil, &NothingToCheckError{Discover: true}
	}
	if p.CgroupVersion == "" {
		p.CgroupVersion = "v2"
	}
	in := pipeline.Input{Config: p.Config, ConfigDir: p.ConfigDir}
	if in.CgroupVersion, err = ParseCgroup(p.CgroupVersion); err != nil {
		return nil, err
	}
	if in.OS, err = o.nodeOS(); err != nil {
		return nil, err
	}
	if o.Read.Minor == "" {
		// A bootstrapper writes for the kubelet version it runs (nodeadm's
		// toggles): the one minor asked for, else the default.
		o.Read.Minor = kubelets.Default().Version
		if m, err := kubelets.Lookup(p.KubeletVersion); err == nil {
			o.Read.Minor = m.Version
		}
	}
	unconverted := in
	unconverted.Virtual = maps.Clone(in.Virtual)
	var raw []byte
	if p.Source, raw, err = o.convert(&in, p.Config); err != nil {
		return nil, err
	}
	if raw != nil {
		// Standard input is read once; a conversion at another minor reads it again.
		o.Stdin = bytes.NewReader(raw)
	}
	p.again = o
	// The input names the kubelet the node runs (a minikube profile, a Talos
	// image), or its tool ships one (k0s, k3s): it is the minor evaluated
	// unless the command names minors.
	minorsGiven := o.Versions != "" || o.ControlPlane != "" || o.From != "" || o.To != ""
	if v := sourceKubelet(p.Source); v != "" && p.KubeletVersion == "" && !minorsGiven {
		m, err := LookupMinor(v, "")
		if err != nil {
			return nil, optionErrorf("%s: the %s file names Kubernetes %s, a kubelet kubeletcfg does not know (%s): give the minor to check ({KubeletVersion}; skew {Versions}; preflight {From} and {To})", p.Config, inputName(p.Source), v, kubelets.Span(kubelets.Supported()))
		}
		p.KubeletVersion, in.Release = v, release(v)
		if p.Source.Translated() && m.Version != o.Read.Minor {
			// The tool writes for the kubelet it runs: translate again for it.
			o.Read.Minor, in = m.Version, unconverted
			if p.Source, _, err = o.convert(&in, p.Config); err != nil {
				return nil, err
			}
			in.Release = release(v)
		}
	} else if v := p.Source.KubeletVersionNamed(); v != "" && p.KubeletVersion != "" {
		named, okNamed := kubelets.ParseVersion(v)
		asked, okAsked := kubelets.ParseVersion(p.KubeletVersion)
		if okNamed && okAsked && named.Compare(asked) != 0 {
			p.Source.Note += fmt.Sprintf("; kubelet %s is evaluated, as --kubelet-version asks, not the file's %s", p.KubeletVersion, v)
		}
	}
	if p.KubeletVersion == "" && o.Policy != nil {
		if p.KubeletVersion, err = PolicyMinor(o.Policy); err != nil {
			return nil, err
		}
	}
	for name, data := range o.DropIns {
		if in.Virtual == nil {
			in.Virtual = map[string][]byte{}
		}
		in.Virtual[filepath.Join(p.ConfigDir, name)] = data
	}
	for _, a := range args {
		in.Flags = append(in.Flags, a.Text)
		in.FlagPositions = append(in.FlagPositions, a.Pos)
	}
	if p.Discovered != nil {
		in.Release = p.Discovered.Version
	}
	if r := release(o.KubeletVersion); r != "" {
		in.Release = r
	}
	p.Input = in
	return p, nil
}

// release is the kubelet binary's version that --kubelet-version names with
// its patch (1.37.3, v1.37.3-eks-1), as its --version flag checks it; "" for a
// minor alone.
func release(kubeletVersion string) string {
	v := strings.TrimPrefix(strings.TrimSpace(kubeletVersion), "v")
	if _, err := utilversion.ParseSemantic(v); err != nil {
		return ""
	}
	return "v" + v
}

// NothingToCheckError is Prepare's error when the options name no file and
// no command line.
type NothingToCheckError struct {
	// Discover adds --discover to what may be given.
	Discover bool
}

func (e *NothingToCheckError) Error() string {
	or := ""
	if e.Discover {
		or = " or --discover"
	}
	return fmt.Sprintf("nothing to check: give --config and/or --config-dir, the kubelet's command line (--kubelet-flags, --kubelet-flags-file)%s", or)
}

// PolicyMinor is the one minor a policy names: its kubeletVersion, else the
// newest of its versions window.
func PolicyMinor(p *policy.Policy) (string, error) {
	switch {
	case p.KubeletVersion != "":
		return p.KubeletVersion, nil
	case p.Versions != "":
		minors, err := kubelets.Window(p.Versions, "")
		if err != nil {
			return "", err
		}
		return minors[len(minors)-1].Version, nil
	}
	return "", nil
}

// kubeletArgs reads the kubelet's command line: the discovered kubelet's, then
// the flags file's, then the line's, then Args.
func (o Options) kubeletArgs(p *Prepared) ([]kubeletcmd.Arg, error) {
	var args []kubeletcmd.Arg
	if o.Discover {
		d, err := discover.Discover(o.Host)
		if err != nil {
			return nil, err
		}
		p.Discovered = d
		args = append(args, d.Args...)
		if d.Minor != "" && o.KubeletVersion == "" {
			p.KubeletVersion = d.Minor
		}
		if o.CgroupVersion == "" {
			p.CgroupVersion = fmt.Sprintf("v%d", d.Cgroup)
		}
		if o.Log != nil {
			v := d.Version
			if v == "" {
				v = "version unknown"
			}
			fmt.Fprintf(o.Log, "kubeletcfg: discovered kubelet pid %d (%s, cgroup v%d); kubeletcfg discover shows where each piece came from\n", d.PID, v, d.Cgroup)
		}
	} else if o.Host.PID != 0 || o.Host.Unit != "" {
		return nil, optionErrorf("{Host.PID} and {Host.Unit} choose what {Discover} reads; add {Discover}")
	}
	if o.KubeletFlagsFile != "" {
		a, err := kubeletcmd.ReadFile(o.hostRoot(), o.KubeletFlagsFile)
		if err != nil {
			return nil, optionErrorf("{KubeletFlagsFile}: %w", unwrapPath(err, o.KubeletFlagsFile))
		}
		args = append(args, a...)
	}
	if o.KubeletFlags != "" {
		a, err := kubeletcmd.FromLine(o.KubeletFlags, finding.Position{File: pipeline.CommandLine})
		if err != nil {
			return nil, optionErrorf("{KubeletFlags}: %w", err)
		}
		args = append(args, a...)
	}
	for _, a := range o.KubeletArgs {
		args = append(args, kubeletcmd.Arg{Text: a, Pos: finding.Position{File: pipeline.CommandLine}})
	}
	return args, nil
}

// unwrapPath makes "open x: no such file" errors name the file once.
func unwrapPath(err error, path string) error {
	if strings.Contains(err.Error(), path) {
		return err
	}
	return fmt.Errorf("%s: %w", path, err)
}

// hostRoot is Host.HostRoot, "" for this machine's /.
func (o Options) hostRoot() string {
	if o.Host.HostRoot == "/" {
		return ""
	}
	return o.Host.HostRoot
}

// hostPath is a path of the kubelet's under the host root (a relative one is
// relative to /, systemd's working folder for services).
func (o Options) hostPath(path string) string {
	if o.hostRoot() == "" || path == "" {
		return path
	}
	return filepath.Join(o.hostRoot(), "/", path)
}

// commandLineConfig honours --config and --config-dir on the kubelet's command
// line: the files it names are read (under the host root), unless Config or
// ConfigDir name files too, which is a usage error naming both.
func (o Options) commandLineConfig(p *Prepared, args []kubeletcmd.Arg) error {
	cfg, dir := kubeletcmd.ConfigFlags(args)
	if cfg == nil && dir == nil {
		return nil
	}
	if p.Config != "" || p.ConfigDir != "" {
		given := "--config " + p.Config
		if p.Config == "" {
			given = "--config-dir " + p.ConfigDir
		}
		theirs, flag := cfg, "--config"
		if theirs == nil {
			theirs, flag = dir, "--config-dir"
		}
		at := theirs.Pos.String()
		if theirs.Pos.File == pipeline.CommandLine {
			at = "in --kubelet-flags"
		}
		return fmt.Errorf("%s and the kubelet's own %s=%s (%s) both name the kubelet's files: give one of them", given, flag, theirs.Text, at)
	}
	// discover resolved them against the process's working folder and checked them.
	if d := p.Discovered; d != nil && (d.Config != nil || d.ConfigDir != nil) {
		if d.Config != nil {
			p.Config = d.Config.Read
		}
		if d.ConfigDir != nil {
			p.ConfigDir = d.ConfigDir.Read
		}
		return nil
	}
	if cfg != nil {
		p.Config = o.hostPath(cfg.Text)
	}
	if dir != nil {
		p.ConfigDir = o.hostPath(dir.Text)
	}
	return nil
}

// convert recognises the main file (a file, `-` or ConfigData), converts it
// and makes in read the result under its own name.
func (o Options) convert(in *pipeline.Input, config string) (*input.Source, []byte, error) {
	src, stdin, err := o.convertRead(in, config)
	if err != nil {
		return nil, nil, err
	}
	if src == nil || src.Path != input.StdinName {
		stdin = nil
	}
	return src, stdin, nil
}

// convertRead is convert, with what it read from standard input.
func (o Options) convertRead(in *pipeline.Input, config string) (*input.Source, []byte, error) {
	format, err := input.ParseFormat(string(o.Format))
	if err != nil {
		return nil, nil, err
	}
	if config == "" && o.ConfigData == nil {
		if format != input.Auto && format != input.Config {
			return nil, nil, optionErrorf("{Format} %s needs {Config}", format)
		}
		return nil, nil, nil
	}
	var src *input.Source
	if o.Read.Minikube.CgroupVersion == 0 {
		// A minikube container driver's cgroup driver follows the host's cgroups.
		o.Read.Minikube.CgroupVersion = in.CgroupVersion
	}
	nodeOS, err := o.nodeOS()
	if err != nil {
		return nil, nil, err
	}
	if o.OS != "" {
		// Unnamed, the OS is the input's own (a named-pipe criSocket, a Windows AMI family).
		o.Read.OS = nodeOS
	}
	var stdin bytes.Buffer // what standard input held, for a kind cluster of several nodes
	if o.ConfigData != nil {
		if config == "" {
			config = MemoryName
		}
		if src, err = input.ConvertOptions(config, o.ConfigData, format, o.Read); err != nil {
			return nil, nil, err
		}
		if src.Data == nil {
			src.Data = o.ConfigData
		}
	} else if src, err = input.OpenOptions(config, tee(o.Stdin, &stdin), format, o.Read); err != nil {
		return nil, nil, err
	}
	if err := o.kindNodes(config, src, stdin.Bytes()); err != nil {
		return nil, nil, err
	}
	if src.Format == input.Configz && in.ConfigDir != "" {
		return nil, nil, optionErrorf("{ConfigDir} %s: %s is a configz dump: a configz dump is already merged; drop-ins do not apply", in.ConfigDir, src.Path)
	}
	applySource(src, in)
	if o.OS == "" && src.OS != "" {
		in.OS = src.OS
		src.Note += fmt.Sprintf("; evaluated as a %s node, as the file says (%s)", src.OS, src.OSFrom)
	}
	return src, stdin.Bytes(), nil
}

// ParseCgroup reads a cgroup version: v1, v2, 1 or 2.
func ParseCgroup(s string) (int, error) {
	switch s {
	case "v1", "1":
		return 1, nil
	case "v2", "2":
		return 2, nil
	}
	return 0, optionErrorf("{CgroupVersion} must be v1 or v2, not %q", s)
}

// nodeOS is Options.OS parsed ("": Linux).
func (o Options) nodeOS() (kubelets.OS, error) {
	os, err := kubelets.ParseOS(o.OS)
	if err != nil {
		return "", optionErrorf("{OS}: %w", err)
	}
	return os, nil
}

// LookupMinor parses a --kubelet-version where one minor is expected: 1.37,
// v1.37, 1.37.2 or v1.37.2. A list or range gets hint, which names what takes
// several ("%s" is replaced by the value).
func LookupMinor(v, hint string) (*kubelets.Minor, error) {
	m, err := kubelets.Lookup(v)
	switch {
	case err != nil && (strings.Contains(v, ",") || strings.Contains(v, "..")):
		return nil, optionErrorf("{KubeletVersion} takes one minor, not %q: %s", v, strings.ReplaceAll(hint, "%s", v))
	case err != nil:
		return nil, optionErrorf("{KubeletVersion}: %w", err)
	}
	return m, nil
}

// minor is the one minor the prepared options evaluate at.
func (p *Prepared) minor(hint string) (*kubelets.Minor, error) {
	v := p.KubeletVersion
	if v == "" {
		v = kubelets.Default().Version
	}
	return LookupMinor(v, hint)
}

// CountAtLeast counts the findings at or above threshold (negative: none),
// a folded summary as every finding it stands for: the --fail-on count.
func CountAtLeast(fs []finding.Finding, threshold finding.Severity) int {
	return finding.CountAtLeast(fs, threshold)
}

// checkProfile validates Options.Profile (lower-cased, as --profile CIS is cis).
func (o *Options) checkProfile() error {
	if o.Profile == "" {
		return nil
	}
	o.Profile = strings.ToLower(o.Profile)
	if _, ok := validate.ProfileRules(o.Profile); !ok {
		return fmt.Errorf("unknown profile %q (want one of %s)", o.Profile, strings.Join(validate.Profiles(), ", "))
	}
	return nil
}

// report runs the steps after the pipeline on one result: the profile's
// findings first, so that the policy covers them too, then the policy.
func (o Options) report(res *pipeline.Result, mainFile string) {
	if o.Profile != "" {
		// The name was checked (checkProfile): another error is a build defect.
		if err := profile.Apply(o.Profile, res, mainFile); err != nil {
			panic(err)
		}
	}
	res.Findings = policy.Apply(o.Policy, []*pipeline.Result{res}, policy.Options{})[0]
}

// reportMatrix is report for every minor of a comparison; severities stay
// the rules' own, since a matrix reads an error as "this minor does not start".
func (o Options) reportMatrix(results []*pipeline.Result, mainFile string) {
	if o.Profile != "" {
		for _, res := range results {
			if err := profile.Apply(o.Profile, res, mainFile); err != nil {
				panic(err)
			}
		}
	}
	for i, fs := range policy.Apply(o.Policy, results, policy.Options{KeepSeverity: true}) {
		results[i].Findings = fs
	}
}

// errorText is err as o.ErrorText writes it.
func (o Options) errorText(err error) string {
	if o.ErrorText == nil {
		return err.Error()
	}
	return o.ErrorText(err)
}
