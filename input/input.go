package input

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/input/bootstrap"
	"github.com/kubeletcfg/kubeletcfg/input/kind"
	"github.com/kubeletcfg/kubeletcfg/input/kubeadm"
	"github.com/kubeletcfg/kubeletcfg/input/minikube"
	"github.com/kubeletcfg/kubeletcfg/input/posmap"
	"github.com/kubeletcfg/kubeletcfg/internal/optionerr"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/source"
)

// Format is the form of a --config input.
type Format string

// The formats; Auto detects one of the others from the content.
const (
	Auto    Format = "auto"
	Config  Format = "config"
	Configz Format = "configz"
	Kubeadm Format = "kubeadm"
	// KubeadmConfig is a kubeadm configuration file (kubeadm init --config).
	KubeadmConfig Format = "kubeadm-config"
	// Kind is a kind cluster configuration (kind create cluster --config).
	Kind Format = "kind"
	// Minikube is a minikube profile (~/.minikube/profiles/NAME/config.json).
	Minikube Format = "minikube"
)

// Formats lists the names --input-format takes: the formats above, then the
// bootstrappers' (translators).
func Formats() []string {
	names := []string{string(Auto), string(Config), string(Configz), string(Kubeadm), string(KubeadmConfig), string(Kind), string(Minikube)}
	for _, t := range translators {
		names = append(names, string(t.format))
	}
	return names
}

// ParseFormat parses an --input-format value.
func ParseFormat(s string) (Format, error) {
	if s == "" {
		return Auto, nil
	}
	names := Formats()
	if slices.Contains(names, s) {
		return Format(s), nil
	}
	return "", optionerr.Errorf("{Format} must be one of %s or %s, not %q", strings.Join(names[:len(names)-1], ", "), names[len(names)-1], s)
}

// Stdin is the --config value that reads standard input; StdinName is how
// findings name it.
const (
	Stdin     = "-"
	StdinName = "<stdin>"
)

// Source is one --config input, recognised and converted.
type Source struct {
	// Path names the input in findings: the path given, or StdinName.
	Path string
	// Format is what the input is (never Auto).
	Format Format
	// Data is the KubeletConfiguration document the pipeline reads in place
	// of Path; nil when the file on disk is read as it is.
	Data []byte
	// Note says, for the report, what was read and how positions relate to
	// the file; empty for a plain config file.
	Note string
	// pos maps positions in Data back to Path; nil when they are the same.
	pos *posmap.Map
	// written is, when Data is what kubeadm writes to the node, the
	// KubeletConfiguration as written in Path (laid out at its lines): the keys
	// kubeadm drops in decoding are reported from it (Settle).
	written []byte
	// nodeFile: Data is what kubeadm writes to the node, not the file as written.
	nodeFile bool
	// KubeletVersion is the kubelet release the input says the node runs (a
	// minikube profile's KubernetesVersion, v1.34.1); empty when it names none.
	KubeletVersion string
	// Ships is, for a tool that ships its own kubelet (k0s, k3s, RKE2), the
	// kubelet its newest release ported ships: the minor checked when the
	// file names none. Paired is the tool's release that runs at the minor
	// translated for ("v1.36.3+k0s.2"), "" when none ported does
	// (bootstrap.Train.Pair).
	Ships, Paired string
	// Objects are, for a file of several node groups read without
	// Options.Object (a Cluster API cluster template: its control plane and
	// worker templates; a k0s ClusterConfig: its worker profiles,
	// "WorkerProfile/NAME"), each group's object name; Lint checks each.
	Objects []string
	// OS is the node's operating system as the input says it (Windows: a
	// named-pipe criSocket, a Windows AMI family or agent pool), "" when it
	// says none; OSFrom says where, for the report's note.
	OS     kubelets.OS
	OSFrom string
	// KindNodes are, for a kind cluster configuration, its nodes by kind's
	// names, grouped by the kubelet configuration they get (input/kind).
	KindNodes [][]string
	// Flags are kubelet command-line arguments the input names (minikube's
	// 10-kubeadm.conf), with their positions in Path; Apply puts them first.
	Flags         []string
	FlagPositions []finding.Position
	// node is the node's kubeadm documents (a kubeadm config file, a Cluster
	// API manifest): what each kubeadm minor refuses or takes from the node
	// (input/kubeadm, Node.Settle).
	node *kubeadm.Node

	// A bootstrapper's translation (bootstrappers.go): noConfig, its kubelet
	// runs without --config; configDir and dropIns, the drop-in folder it
	// writes, held in memory; toolFindings, the tool's own verdicts.
	noConfig     bool
	configDir    string
	dropIns      map[string][]byte
	toolFindings []finding.Finding
	// tool names the bootstrapper whose translation this is ("" otherwise),
	// writer the tool that writes the kubelet's files and flags on the node
	// (bootstrap.Output.Writer, else the tool), and ownFlags the flags it
	// writes of its own accord (no position in the file).
	tool     string
	writer   bootstrap.Tool
	ownFlags map[string]bool
	// flagWriters: bootstrap.Output.FlagWriters.
	flagWriters map[string]bootstrap.Tool
}

// Tool names the bootstrapper whose translation s is ("k0s"), "" for none.
func (s *Source) Tool() string {
	if s == nil {
		return ""
	}
	return s.tool
}

// Translated reports whether s is a bootstrapper's translation.
func (s *Source) Translated() bool { return s != nil && s.tool != "" }

// Bundled reports whether s is the translation of a tool that ships its own
// kubelet (Ships), or names the kubelet it runs (a Talos image): what it
// writes follows that kubelet's minor.
func (s *Source) Bundled() bool { return s.Translated() && (s.Ships != "" || s.KubeletVersion != "") }

// KubeletVersionNamed is the kubelet the file itself names, "" for none
// (a tool's default, Ships, is not the file's).
func (s *Source) KubeletVersionNamed() string {
	if s == nil {
		return ""
	}
	return s.KubeletVersion
}

// Open reads path (Stdin: r, once, within source.MaxFileSize) and converts it
// as format f says. A plain config file on disk is not kept in memory: the
// pipeline reads it itself, exactly as without this package.
func Open(path string, r io.Reader, f Format) (*Source, error) {
	return OpenOptions(path, r, f, Options{})
}

// OpenOptions is Open with reading options.
func OpenOptions(path string, r io.Reader, f Format, opt Options) (*Source, error) {
	if path == Stdin {
		data, err := ReadLimited(r, StdinName)
		if err != nil {
			return nil, err
		}
		s, err := ConvertOptions(StdinName, data, f, opt)
		if err == nil && s.Data == nil {
			s.Data = data
		}
		return s, err
	}
	if f == Config {
		return &Source{Path: path, Format: Config}, nil
	}
	data, err := source.ReadBytes(path)
	if err != nil {
		return nil, err
	}
	return ConvertOptions(path, data, f, opt)
}

// ReadLimited reads r to the end, refusing more than source.MaxFileSize bytes
// as source.ReadFile refuses a larger file.
func ReadLimited(r io.Reader, name string) ([]byte, error) {
	if r == nil {
		return nil, &source.InputError{Path: name, Err: fmt.Errorf("nothing to read")}
	}
	data, err := io.ReadAll(io.LimitReader(r, source.MaxFileSize+1))
	if err != nil {
		return nil, &source.InputError{Path: name, Err: err}
	}
	if len(data) > source.MaxFileSize {
		return nil, &source.InputError{Path: name, Err: fmt.Errorf("is more than %d bytes; kubeletcfg reads at most %d bytes per file", source.MaxFileSize, source.MaxFileSize)}
	}
	return data, nil
}

// Detect tells which format data is in: a configz dump, a kubeadm ConfigMap,
// a kubeadm configuration file, a kind cluster configuration, or else a config
// file (whatever is wrong with it is the pipeline's to say).
func Detect(data []byte) Format {
	return DetectPath("", data)
}

// DetectPath is Detect for a file read from path: some bootstrappers' files
// (k3s's config.yaml) are told apart by their name too.
func DetectPath(path string, data []byte) Format {
	if _, ok, _ := FromConfigz(data); ok {
		return Configz
	}
	if kubeadm.IsConfigMap(data) {
		return Kubeadm
	}
	if kubeadm.IsConfig(data) {
		return KubeadmConfig
	}
	if kind.Detect(data) {
		return Kind
	}
	if minikube.Detect(data) {
		return Minikube
	}
	if f, ok := detectTranslator(path, data); ok {
		return f
	}
	return Config
}

// Convert converts data, read from path, as format f says (Auto: as detected).
// A forced format the data is not in is an error naming what was expected.
func Convert(path string, data []byte, f Format) (*Source, error) {
	return ConvertOptions(path, data, f, Options{})
}

// ConvertOptions is Convert with reading options.
func ConvertOptions(path string, data []byte, f Format, opt Options) (*Source, error) {
	if f == Auto {
		f = DetectPath(path, data)
	}
	switch f {
	case Configz:
		doc, ok, err := FromConfigz(data)
		if err != nil {
			return nil, &source.InputError{Path: path, Err: err}
		}
		if !ok {
			return nil, &source.InputError{Path: path, Err: fmt.Errorf(`is not a configz dump ({"kubeletconfig": {...}} as kubectl get --raw /api/v1/nodes/NODE/proxy/configz prints it)`)}
		}
		return &Source{Path: path, Format: Configz, Data: doc,
			Note: "configz dump: already merged and defaulted by the running kubelet, so drop-in checks do not apply"}, nil
	case Kubeadm:
		c, err := kubeadm.ConvertConfigMap(path, data)
		if err != nil {
			return nil, err
		}
		return fromConversion(path, Kubeadm, c), nil
	case KubeadmConfig:
		if !kubeadm.IsConfig(data) {
			return nil, &source.InputError{Path: path, Err: fmt.Errorf("is not a kubeadm configuration file (no kubeadm.k8s.io document)")}
		}
		c, err := kubeadm.Convert(path, data, opt.reading())
		if err != nil {
			return nil, err
		}
		return fromConversion(path, KubeadmConfig, c), nil
	case Kind:
		c, err := kind.Convert(path, data, opt.reading(), opt.KindNode)
		if err != nil {
			return nil, err
		}
		return fromConversion(path, Kind, c), nil
	case Minikube:
		c, err := minikube.Convert(path, data, opt.reading(), opt.Minikube)
		if err != nil {
			return nil, err
		}
		return fromConversion(path, Minikube, c), nil
	case Config:
		return &Source{Path: path, Format: Config}, nil
	}
	if t, ok := translatorOf(f); ok {
		accepts := t.detect
		if t.accepts != nil {
			accepts = t.accepts
		}
		if !accepts(path, data) {
			return nil, &source.InputError{Path: path, Err: optionerr.Errorf("is not a file %s reads ({Format} %s)", t.tool.Name, f)}
		}
		return convertBootstrapper(t, path, data, opt)
	}
	return nil, fmt.Errorf("unknown input format %q", f)
}

// Options are the --config reading options beyond the format.
type Options struct {
	// AsWritten reads the KubeletConfiguration document of a kubeadm or kind
	// file as it is written, without kubeadm's (or kind's) defaulting.
	AsWritten bool
	Kubeadm   KubeadmOptions
	// KindNode names the node of a kind file to read (kind's container name,
	// e.g. kind-worker2); empty: the first.
	KindNode string
	Minikube MinikubeOptions
	// Minor is the kubelet minor evaluated ("1.37"; empty: the default), for
	// the bootstrappers that write differently per kubelet version; Set are
	// values only the instance knows (field path -> YAML value: maxPods=58).
	Minor string
	Set   map[string]string
	// OS is the node's operating system the user names ("": the file's own,
	// else Linux); translations that differ on Windows follow it.
	OS kubelets.OS
	// Object names the object of a file of several node groups to read (a
	// Cluster API manifest's "KubeadmConfigTemplate/name", a k0s
	// ClusterConfig's worker profile "WorkerProfile/pool-b" or "pool-b");
	// "": the first, and Source.Objects lists them all.
	Object string
}

// MinikubeOptions are what minikube reads from the host (input/minikube).
type MinikubeOptions = minikube.Options

// KubeadmOptions are what kubeletcfg cannot see of a kubeadm node (input/kubeadm).
type KubeadmOptions = kubeadm.Options

// reading is opt as package kubeadm takes it.
func (opt Options) reading() kubeadm.Reading {
	k := opt.Kubeadm
	if opt.OS != "" {
		k.OS = opt.OS
	}
	return kubeadm.Reading{AsWritten: opt.AsWritten, Minor: opt.Minor, Set: opt.Set, Options: k}
}

// fromConversion is the Source of what a tool built on kubeadm writes for the
// node (input/kubeadm.Conversion), read from path as format f.
func fromConversion(path string, f Format, c *kubeadm.Conversion) *Source {
	if c.Pos != nil && c.Pos.Path == "" {
		c.Pos.Path = path
	}
	return &Source{Path: path, Format: f, Data: c.Data, Note: c.Note, pos: c.Pos, written: c.Written, nodeFile: c.NodeFile,
		node: c.Node, Flags: c.Flags, FlagPositions: c.FlagPositions, KindNodes: c.KindNodes, KubeletVersion: c.KubeletVersion,
		OS: c.OS, OSFrom: c.OSFrom}
}

// Files are the fields of the pipeline's input (pipeline.Input's of the same
// names) that a source sets: input does not import pipeline, so the module
// root copies them in and out.
type Files struct {
	Config, ConfigDir string
	ConfigDirInMemory bool
	Virtual           map[string][]byte
	Flags             []string
	FlagPositions     []finding.Position
}

// Apply makes in read the source as its --config file (a bootstrapper's
// translation: the files and flags its tool writes).
func (s *Source) Apply(in *Files) {
	in.Config = s.Path
	if s.noConfig {
		in.Config = ""
	}
	if s.configDir != "" {
		in.ConfigDir, in.ConfigDirInMemory = s.configDir, true
		if in.Virtual == nil {
			in.Virtual = map[string][]byte{}
		}
		for p, d := range s.dropIns {
			in.Virtual[p] = d
		}
	}
	if len(s.Flags) > 0 {
		pos := append(slices.Clone(s.FlagPositions), make([]finding.Position, len(s.Flags)-len(s.FlagPositions))...)
		pos = append(pos, in.FlagPositions...)
		pos = append(pos, make([]finding.Position, max(0, len(in.Flags)-len(in.FlagPositions)))...)
		in.Flags = append(slices.Clone(s.Flags), in.Flags...)
		in.FlagPositions = pos
	}
	if s.Data == nil {
		return
	}
	if in.Virtual == nil {
		in.Virtual = map[string][]byte{}
	}
	in.Virtual[s.Path] = s.Data
}

// blank returns b with every byte but line breaks replaced by a space, so
// that what follows keeps its line and column.
func blank(b []byte) []byte {
	out := bytes.Clone(b)
	for i, c := range out {
		if c != '\n' {
			out[i] = ' '
		}
	}
	return out
}

// KindNodeGroups returns, when data read from path is a kind cluster
// configuration of several nodes (f is Kind, or Auto and Detect says Kind),
// its nodes by kind's names, grouped by the kubelet configuration they get
// (Source.KindNodes); nil for anything else, a one-node cluster, or a file
// that does not convert (reading it as one node reports why).
func KindNodeGroups(path string, data []byte, f Format, opt Options) [][]string {
	if f != Kind && (f != Auto || !kind.Detect(data) || Detect(data) != Kind) {
		return nil
	}
	src, err := ConvertOptions(path, data, Kind, opt)
	if err != nil {
		return nil
	}
	n := 0
	for _, g := range src.KindNodes {
		n += len(g)
	}
	if n < 2 {
		return nil
	}
	return src.KindNodes
}

// MinikubeNodes returns, when data read from path is a minikube profile of
// several nodes (f is Minikube, or Auto and Detect says Minikube), its nodes by
// minikube's machine names (minikube, minikube-m02, ...); nil for anything
// else, a one-node profile, or a profile that does not read (reading it as one
// node reports why).
func MinikubeNodes(path string, data []byte, f Format) []string {
	if f != Minikube && (f != Auto || !minikube.Detect(data) || Detect(data) != Minikube) {
		return nil
	}
	if nodes := minikube.Nodes(path, data); len(nodes) >= 2 {
		return nodes
	}
	return nil
}
