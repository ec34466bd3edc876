// Package bootstrap is what every bootstrapper translator produces: the files
// and flags a tool (kubeadm, EKS nodeadm, Karpenter, Cluster API, Talos, k0s,
// k3s/RKE2, AKS) writes for the kubelet from the file the user keeps, with,
// for every value, where in that file it came from.
//
// A translator lives in a package of its own under input/ (input/nodeadm,
// input/talos, ...), ports the tool's own translation from its source at a
// named release, and imports this package, finding, skew and validate (its
// findings are the rules of rules.go), nothing above input's layer. Package
// input turns an Output into the Source the pipeline reads; the pipeline then
// runs on it at every minor as on any other input, and Source maps every
// position back to the user's file through Positions.
package bootstrap

import (
	"slices"
	"strings"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

// Tool names a bootstrapper and the release of its source that a translator
// ports, for messages and the docs' table.
type Tool struct {
	// Name as users know it: "EKS nodeadm", "Talos", "k0s".
	Name string
	// Release is the tool's release the translation was ported from
	// ("v1.11.5"), Source the file and function ("internal/kubelet/config.go
	// writeKubeletConfig").
	Release, Source string
}

func (t Tool) String() string { return t.Name }

// Who is the tool as a finding names the tool that reports it (finding.Finding.By).
func (t Tool) Who() *finding.Tool { return &finding.Tool{Name: t.Name, Release: t.Release} }

// File is a file the tool writes on the node.
type File struct {
	// Path is where the tool writes it (/etc/kubernetes/kubelet/config.json).
	Path string
	// Data is the KubeletConfiguration document (JSON or YAML) as written.
	Data []byte
}

// Options are what a translation may need beyond the file.
type Options struct {
	// Minor is the kubelet minor evaluated ("1.37"): tools that write
	// differently per kubelet version (nodeadm's withVersionToggles, kubeadm's
	// API versions) follow it. Empty: the translator's own default.
	Minor string
	// Set are values only the instance knows (maxPods, node IPs), given by
	// the user: field path -> value as YAML (--set maxPods=58).
	Set map[string]string
	// OS is the node's operating system when the user names it ("": the
	// file's own, else Linux): a tool that writes differently for Windows
	// nodes follows it.
	OS kubelets.OS
	// Object names the object of a file of several node groups to read (a
	// Cluster API manifest's "KubeadmConfigTemplate/name", a k0s
	// ClusterConfig's worker profile); "": the first.
	Object string
}

// Output is a translation: what the kubelet on the node is started with.
type Output struct {
	Tool Tool
	// Writer is the tool that writes the kubelet's files on the node when it
	// is not Tool itself (Karpenter's AL2023 nodes: EKS nodeadm, from the
	// AMI); nil for Tool. What it writes of its own accord is its to change.
	Writer *Tool
	// FlagWriters name, by flag name, the tool that writes a flag of its own
	// accord when it is neither Tool nor Writer (the EKS Windows AMI's
	// bootstrap script, under Karpenter's -KubeletExtraArgs).
	FlagWriters map[string]Tool
	// Config is the --config file the tool writes; nil when the kubelet runs
	// without one.
	Config *File
	// ConfigDir is the --config-dir the tool passes ("" for none) and DropIns
	// what it writes there, in any order (the kubelet sorts them); the folder
	// holds nothing else.
	ConfigDir string
	DropIns   []File
	// Flags are the kubelet's command-line arguments the tool writes, in the
	// order the kubelet receives them (later wins), each "--name=value";
	// FlagPositions are where the user wrote each (a zero Position: the tool
	// wrote it of its own accord; FlagNotes[i] then says why).
	Flags         []string
	FlagPositions []finding.Position
	FlagNotes     []string
	// Positions map a field path of the generated documents (Finding.Path
	// syntax: kubeReserved[cpu], featureGates[NodeSwap]) to where the user
	// wrote its value. A path not present falls back to its nearest ancestor's,
	// then to Anchor.
	Positions map[string]finding.Position
	Anchor    finding.Position
	// Notes say what set a path the user did not write ("set by nodeadm from
	// the instance type", "Talos default"), by path; the nearest ancestor's
	// note applies below it. Paths with neither a Position nor a Note are the
	// kubelet's defaults.
	Notes map[string]string
	// WrittenToo are the paths the user's file writes that the tool also
	// writes of its own accord in a file of its own (nodeadm's gate entries in
	// config.json, under the drop-in of the user's values), with what sets them:
	// taking the file's value out leaves the tool's.
	WrittenToo map[string]string
	// AtBoot are the paths whose value only the instance knows, with what sets
	// it ("nodeadm: from the instance type's ENI limits"); their value is not
	// invented: the generated documents leave them out unless Options.Set
	// gives them.
	AtBoot map[string]string
	// Findings are the tool's own verdicts on the file (a key it forbids,
	// overrides or drops; its validation), positioned in the user's file, with
	// rule IDs of the bootstrapper rules (rules.go).
	Findings []finding.Finding
	// KubeletVersion is the kubelet release the file names, when it names one.
	KubeletVersion string
	// Ships is, for a tool that ships its own kubelet (Train), the kubelet its
	// newest release ported ships: the minor a file that names none is checked
	// at. Release is the tool's release that runs with the kubelet minor
	// translated for ("v1.36.3+k0s.2"), "" when none ported does (Train.Pair).
	Ships, Release string
	// OS is the operating system of the node the tool writes for, when the
	// file says it (a Windows AMI family, an agent pool's osType); OSFrom
	// says where. "" leaves the node's OS to the user (Linux by default).
	OS     kubelets.OS
	OSFrom string
	// Note says, in a line, what was read ("EKS nodeadm NodeConfig: config.json
	// and 40-nodeadm.conf as nodeadm v1.11.5 writes them for kubelet 1.37").
	Note string
}

// PrependFlags puts before o's flags the flags ("--name=value") that w, a
// tool other than o.Tool and o.Writer, passes to the kubelet of its own
// accord (a node image's start script, a provider's service), each with
// note, and names w as their writer (FlagWriters).
func (o *Output) PrependFlags(w Tool, note string, flags ...string) {
	o.Flags = append(slices.Clone(flags), o.Flags...)
	o.FlagPositions = append(make([]finding.Position, len(flags)), o.FlagPositions...)
	notes := make([]string, len(flags))
	for i, f := range flags {
		notes[i] = note
		if o.FlagWriters == nil {
			o.FlagWriters = map[string]Tool{}
		}
		name, _, _ := strings.Cut(strings.TrimPrefix(f, "--"), "=")
		o.FlagWriters[name] = w
	}
	o.FlagNotes = append(notes, o.FlagNotes...)
}

// Claim names o.Tool as the tool that reports each of o's findings no tool
// is named for yet (a translation that runs another tool, Karpenter's nodeadm,
// claims that tool's findings first).
func (o *Output) Claim() {
	for i := range o.Findings {
		if o.Findings[i].By == nil {
			o.Findings[i].By = o.Tool.Who()
		}
	}
}

// First is the first of the tool's findings under the rule with that ID, nil
// when there is none.
func (o *Output) First(rule string) *finding.Finding {
	for i := range o.Findings {
		if o.Findings[i].Rule == rule {
			return &o.Findings[i]
		}
	}
	return nil
}
