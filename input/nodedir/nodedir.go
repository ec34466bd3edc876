// Package nodedir finds the nodes of a pool folder for lint --nodes: each
// folder is a node, whose main file, drop-in folder and flags files are found by
// the names in use; each configuration file is a node without drop-ins.
package nodedir

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/kubeletcfg/kubeletcfg/internal/fserr"
	"github.com/kubeletcfg/kubeletcfg/internal/optionerr"
	"github.com/kubeletcfg/kubeletcfg/source"
)

// Layout is one node's files, as found.
type Layout struct {
	Name string
	// Base is what paths in the node's report are relative to: the node's
	// folder, or the nodes folder for a single file.
	Base string
	// Config and ConfigDir as --config and --config-dir would name them.
	Config, ConfigDir string
	// Flags are the node's files with the kubelet's own flags (FlagsNames).
	Flags []string
	// Single is a node that is one file (its name is the file's).
	Single bool
	// Err is why the node's files cannot be told apart; it is reported with the others.
	Err error
}

// Find lists the nodes of dir, sorted by name: each folder is a node
// (Files), each configuration file (ConfigExts) a node without drop-ins.
// Hidden entries are skipped, and so are other files (a README, notes), which
// skipped lists. A node whose files cannot be told apart gets its error here
// and is reported with the others.
func Find(dir string) (nodes []Layout, skipped []string, err error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, &source.InputError{Path: dir, Err: fserr.Unwrap(err)}
	}
	taken := map[string]bool{}
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), ".") {
			taken[e.Name()] = true
		}
	}
	for _, e := range entries {
		if e.IsDir() && slices.Contains(DropInNames, e.Name()) {
			// DIR is one node's folder, not a pool: its drop-ins would be a node.
			return nil, nil, optionerr.Errorf("{Nodes} %s: this is one node's folder (it has %s/): lint its config file with {ConfigDir} %s, or give {Nodes} the folder that holds it", dir, e.Name(), filepath.Join(dir, e.Name()))
		}
	}
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		path := filepath.Join(dir, name)
		fi, err := os.Stat(path)
		if err != nil {
			nodes = append(nodes, Layout{Name: name, Base: dir, Err: &source.InputError{Path: path, Err: fserr.Unwrap(err)}})
			continue
		}
		if !fi.IsDir() {
			if !configFile(name) {
				skipped = append(skipped, name)
				continue
			}
			// node-1.json is node-1, unless a folder node-1 is there too.
			short := strings.TrimSuffix(name, filepath.Ext(name))
			if taken[short] || short == "" {
				short = name
			}
			nodes = append(nodes, Layout{Name: short, Base: dir, Config: path, Single: true})
			continue
		}
		n := Layout{Name: name, Base: path}
		n.Config, n.ConfigDir, n.Flags, n.Err = Files(path)
		nodes = append(nodes, n)
	}
	if len(nodes) == 0 {
		return nil, skipped, optionerr.Errorf("{Nodes} %s: no nodes (a folder per node with its config file and drop-in folder, or a configz dump per node)%s", dir, SkippedNote(skipped))
	}
	sort.Slice(nodes, func(i, j int) bool { return nodes[i].Name < nodes[j].Name })
	return nodes, skipped, nil
}

// SkippedNote says how many files Find skipped, for its "no nodes" error.
func SkippedNote(skipped []string) string {
	if len(skipped) == 0 {
		return ""
	}
	return fmt.Sprintf("; %d %s skipped, not configuration (%s)", len(skipped), plural(len(skipped)), strings.Join(ConfigExts, ", "))
}

// ConfigExts are the names of configuration files: KubeletConfiguration YAML
// or JSON, configz dumps (saved as .json, or .configz), kubeadm ConfigMaps.
var ConfigExts = []string{".yaml", ".yml", ".json", ".configz"}

func configFile(name string) bool {
	return slices.Contains(ConfigExts, filepath.Ext(name))
}

// MainNames are the main file's names in use, preferred in this order when a
// node folder holds several configuration files: kubeadm's and kind's
// config.yaml, EKS nodeadm's config.json, and common renames.
var MainNames = []string{"config.yaml", "config.yml", "config.json", "kubelet-config.yaml", "kubelet-config.yml", "kubelet-config.json"}

// DropInNames are the drop-in folders' names in use: conf.d (the kubelet's
// documentation), config.d, kubeadm's kubelet.conf.d (/etc/kubernetes/kubelet.conf.d)
// and EKS nodeadm's config.json.d; a folder named after the main file plus .d
// counts too (found by Files).
var DropInNames = []string{"conf.d", "config.d", "kubelet.conf.d", "config.json.d"}

// FlagsNames are the files that hold the kubelet's own flags, in the order
// they are applied (later flags win, as on one command line): the systemd unit
// (kubelet.service with its kubelet.service.d/*.conf), the env files
// (kubeadm's kubeadm-flags.env, kubelet.env, /etc/default/kubelet saved as
// kubelet, EKS's /etc/eks/kubelet/environment saved as environment), then a
// saved command line (a /proc/PID/cmdline copy or a line from ps).
// kubelet.service.d alone (kubeadm's 10-kubeadm.conf saved without the unit)
// is read as the unit.
var FlagsNames = []string{"kubelet.service", UnitDropIns, "kubeadm-flags.env", "kubelet.env", "kubelet", "environment", "cmdline", "kubelet.cmdline", "kubelet-flags.txt"}

const UnitDropIns = "kubelet.service.d"

// Files finds a node folder's config file (the one configuration file, or
// the first of MainNames among several), its drop-in folder (the one of
// DropInNames or <main file>.d; several are ambiguous: the kubelet reads one
// --config-dir) and its flags files (FlagsNames).
func Files(dir string) (config, configDir string, flags []string, err error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", "", nil, &source.InputError{Path: dir, Err: fserr.Unwrap(err)}
	}
	var candidates, dirs []string
	for _, e := range entries {
		name := e.Name()
		switch {
		case strings.HasPrefix(name, "."):
		case e.IsDir():
			dirs = append(dirs, name)
			if name == UnitDropIns && !slices.ContainsFunc(entries, func(e fs.DirEntry) bool { return e.Name() == "kubelet.service" }) {
				flags = append(flags, filepath.Join(dir, name))
			}
		case slices.Contains(FlagsNames, name):
			flags = append(flags, filepath.Join(dir, name))
		case configFile(name):
			candidates = append(candidates, name)
		}
	}
	switch i := slices.IndexFunc(MainNames, func(n string) bool { return slices.Contains(candidates, n) }); {
	case len(candidates) == 1:
		config = filepath.Join(dir, candidates[0])
	case i >= 0:
		config = filepath.Join(dir, MainNames[i])
	case len(candidates) > 1:
		return "", "", nil, &source.InputError{Path: dir, Err: fmt.Errorf("%d config files (%s): name the one the kubelet reads config.yaml", len(candidates), strings.Join(candidates, ", "))}
	}
	var found []string
	for _, d := range dirs {
		if slices.Contains(DropInNames, d) || config != "" && d == filepath.Base(config)+".d" {
			found = append(found, d)
		}
	}
	switch {
	case len(found) > 1:
		return "", "", nil, &source.InputError{Path: dir, Err: fmt.Errorf("%d drop-in folders (%s): the kubelet reads one --config-dir; keep the one it is given", len(found), strings.Join(found, ", "))}
	case len(found) == 1:
		configDir = filepath.Join(dir, found[0])
	case config == "":
		return "", "", nil, &source.InputError{Path: dir, Err: fmt.Errorf("no config file (%s) and no drop-in folder (%s or <config file>.d)", strings.Join(ConfigExts, ", "), strings.Join(DropInNames, ", "))}
	}
	slices.SortFunc(flags, func(a, b string) int {
		return slices.Index(FlagsNames, filepath.Base(a)) - slices.Index(FlagsNames, filepath.Base(b))
	})
	return config, configDir, flags, nil
}

func plural(n int) string {
	if n == 1 {
		return "file"
	}
	return "files"
}
