// Package k3s translates the k3s and RKE2 configuration file
// (/etc/rancher/k3s/config.yaml or /etc/rancher/rke2/config.yaml, and the
// files of config.yaml.d) into what the kubelet on that node is started with:
// k3s's own flags, its 00-k3s-defaults.conf drop-in, and the user's
// kubelet-arg values, ported from k3s's source (main at 2a1e2e8cf41b, the k3s
// RKE2 v1.36.3+rke2r1's go.mod follows, built against Kubernetes
// v1.36.3-k3s1; stable channel v1.36.3+k3s1).
package k3s

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kubeletcfg/kubeletcfg/input/bootstrap"
)

// Release is the k3s source the translation is ported from.
const Release = "main@2a1e2e8cf41b"

// Tool is k3s; RKE2 files are translated with the same code (RKE2 runs k3s's
// agent) and named RKE2 in messages.
var Tool = bootstrap.Tool{
	Name:    "k3s",
	Release: Release,
	Source:  "pkg/configfilearg/parser.go readConfigFile; pkg/daemons/agent/agent.go startKubelet, extractConfigArgs, defaultKubeletConfig; pkg/daemons/agent/agent_linux.go kubeletArgsAndConfig; pkg/util/args.go GetArgs",
}

// RKE2 is the RKE2 release whose additions (pkg/cli/defaults/defaults.go Set,
// pkg/cli/cmds flag sets) are ported.
var RKE2 = bootstrap.Tool{
	Name:    "RKE2",
	Release: "v1.36.3+rke2r1",
	Source:  "pkg/cli/defaults/defaults.go Set; pkg/cli/cmds/agent.go, server.go (flag sets); k3s " + Release + " for the rest",
}

// Trains are the k3s and RKE2 releases ported, by the kubelet each ships:
// a k3s or RKE2 node runs the kubelet its release bundles (k3s's translation
// is main's at the commit v1.36.3+k3s1's kubelet code matches).
var Trains = map[string]bootstrap.Train{
	"k3s":  {Tool: "k3s", Releases: []bootstrap.Shipped{{Release: "v1.36.3+k3s1", Kubelet: "v1.36.3"}}},
	"rke2": {Tool: "RKE2", Releases: []bootstrap.Shipped{{Release: RKE2.Release, Kubelet: "v1.36.3"}}},
}

type fileData struct {
	path string
	data []byte
}

// readKeys are the keys a k3s or RKE2 configuration file may hold: the flag
// names of their server and agent commands (flags.go), which
// configfilearg.Parser keeps.
var readKeys = func() map[string]bool {
	keys := map[string]bool{}
	for _, program := range []string{"k3s", "rke2"} {
		for _, command := range []string{"server", "agent"} {
			for k := range flagSet(program, command) {
				keys[k] = true
			}
		}
	}
	return keys
}()

// program names the tool: RKE2 under a rancher/rke2 folder, or where a key is
// a flag RKE2 has and k3s does not (cloud-provider-name, profile, cni, ...).
func program(path string, files []fileData) string {
	p := filepath.ToSlash(path)
	if strings.Contains(p, "rancher/rke2") || strings.Contains(filepath.Base(filepath.Dir(p)), "rke2") {
		return "rke2"
	}
	k3s := flagSet("k3s", "server")
	for k := range flagSet("k3s", "agent") {
		k3s[k] = true
	}
	for _, f := range files {
		for _, k := range topKeys(f.data) {
			if readKeys[k] && !k3s[k] {
				return "rke2"
			}
		}
	}
	return "k3s"
}

// topKeys returns the top-level keys of a YAML map, nil when data is not one.
func topKeys(data []byte) []string {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil || len(root.Content) != 1 || root.Content[0].Kind != yaml.MappingNode {
		return nil
	}
	var keys []string
	for i := 0; i+1 < len(root.Content[0].Content); i += 2 {
		keys = append(keys, strings.TrimSuffix(root.Content[0].Content[i].Value, "+"))
	}
	return keys
}

// Detect reports whether the file is a k3s or RKE2 configuration file: a YAML
// map with no apiVersion or kind, and
//   - named config.yaml under a rancher/k3s or rancher/rke2 folder, or kept in
//     a config.yaml.d folder, with a key k3s or RKE2 reads; or
//   - every key one k3s or RKE2 reads (readKeys), lower-case and dashed as
//     their flags are, one at least with a dash, which no KubeletConfiguration
//     field has (cloud-provider-name: aws alone is an RKE2 file); or
//   - two keys or more they read, every key lower-case and dashed, at least half
//     of them theirs (a misspelled one is then reported, not a reason to read
//     the file as something else).
//
// --input-format k3s reads any YAML map (Accepts), as k3s does.
func Detect(path string, data []byte) bool {
	keys := topKeys(data)
	if len(keys) == 0 {
		return false
	}
	read, dashes := 0, 0
	dashed := true
	for _, k := range keys {
		if k == "apiVersion" || k == "kind" {
			return false
		}
		if readKeys[k] {
			read++
		}
		if strings.Contains(k, "-") {
			dashes++
		}
		if k != strings.ToLower(k) || strings.ContainsAny(k, " _.") {
			dashed = false
		}
	}
	p := filepath.ToSlash(path)
	base, dir := filepath.Base(p), filepath.Base(filepath.Dir(p))
	named := (base == "config.yaml" || base == "config.yml") &&
		(strings.Contains(p, "rancher/k3s/") || strings.Contains(p, "rancher/rke2/"))
	if dir == "config.yaml.d" && hasSuffixI(base, ".yaml", ".yml") {
		named = true
	}
	switch {
	case named && read > 0:
		return true
	case read == len(keys) && dashed && dashes > 0:
		return true
	case read >= 2 && dashed && 2*read >= len(keys):
		return true
	}
	return false
}

// Accepts reports whether k3s reads the file at all: a YAML map (configfilearg
// strips the keys that are not flags), for --input-format k3s.
func Accepts(_ string, data []byte) bool {
	return topKeys(data) != nil
}

// configFiles ports the file list of pkg/configfilearg/parser.go
// readConfigFile (k3s 2a1e2e8cf41b): file (when it exists) then the .yaml/.yml
// files of file+".d"; file may be missing when there are drop-ins.
func configFiles(file string) ([]string, error) {
	files, err := dotDFiles(file)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(file); err != nil {
		if !(os.IsNotExist(err) && len(files) > 0) {
			return nil, err
		}
		return files, nil
	}
	return append([]string{file}, files...), nil
}

// files returns the files k3s reads for path, in its order. path may be the
// base file (config.yaml) or one of its drop-ins (config.yaml.d/NAME.yaml);
// data stands for path's content, whether or not path is on disk.
func files(path string, data []byte) ([]fileData, error) {
	base := path
	if d := filepath.Dir(path); strings.HasSuffix(d, ".yaml.d") || strings.HasSuffix(d, ".yml.d") {
		base = strings.TrimSuffix(d, ".d")
	}
	names, err := configFiles(base)
	if err != nil && !os.IsNotExist(err) {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if !contains(names, path) {
		// not on disk (standard input, a test): read where k3s would
		if base == path {
			names = append([]string{path}, names...)
		} else {
			names = append(names, path)
		}
	}
	out := make([]fileData, 0, len(names))
	for _, n := range names {
		if filepath.Clean(n) == filepath.Clean(path) {
			out = append(out, fileData{path, data})
			continue
		}
		b, err := os.ReadFile(n)
		if err != nil {
			return nil, fmt.Errorf("%s: k3s reads %s too and it cannot be read: %v", path, n, err)
		}
		out = append(out, fileData{n, b})
	}
	return out, nil
}

func contains(list []string, s string) bool {
	for _, l := range list {
		if filepath.Clean(l) == filepath.Clean(s) {
			return true
		}
	}
	return false
}

// Translate reads a k3s/RKE2 configuration file (and the other files of its
// config.yaml/config.yaml.d pair on disk) as k3s does and returns the
// kubelet's command line and k3s's drop-in.
func Translate(path string, data []byte, opt bootstrap.Options) (*bootstrap.Output, error) {
	fs, err := files(path, data)
	if err != nil {
		return nil, err
	}
	args, err := readConfigFiles(fs)
	if err != nil {
		return nil, err
	}
	t := &translation{path: path, program: program(path, fs), opt: opt}
	return t.run(args)
}
