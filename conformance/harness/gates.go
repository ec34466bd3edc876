package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/component-base/featuregate"

	"github.com/kubeletcfg/kubeletcfg/internal/kubeletdata"
)

// The file's types are kubeletdata's, shared with kubelets, which reads it.
type (
	GateTable = kubeletdata.GateTable
	GateInfo  = kubeletdata.Gate
	GateSpec  = kubeletdata.GateSpec
)

func specOf(s featuregate.FeatureSpec) GateSpec {
	g := GateSpec{Default: s.Default, PreRelease: string(s.PreRelease), LockToDefault: s.LockToDefault}
	if s.Version != nil {
		g.Version = s.Version.String()
	}
	g.MinCompatibilityVersion = specMinCompatibilityVersion(s)
	return g
}

// buildGateTable reads the global gate after every init of the linked kubelet packages.
func buildGateTable() *GateTable {
	fg := utilfeature.DefaultMutableFeatureGate
	t := &GateTable{
		Generated:               fmt.Sprintf(generatedHeader, "gates", kubeletVersion()),
		Kubelet:                 kubeletVersion(),
		EmulationVersion:        fg.EmulationVersion().String(),
		MinCompatibilityVersion: gateMinCompatibilityVersion(fg),
		Gates:                   map[string]*GateInfo{},
	}
	deps := gateDependencies(fg)
	atEmu := fg.GetAll() // spec at emulation version; leaves out gates that are pre-alpha there
	for name, specs := range fg.GetAllVersioned() {
		info := &GateInfo{Dependencies: []string{}}
		info.Special = name == "AllAlpha" || name == "AllBeta"
		for _, s := range specs {
			info.Specs = append(info.Specs, specOf(s))
		}
		info.Dependencies = append(info.Dependencies, deps[string(name)]...)
		sort.Strings(info.Dependencies)
		if s, ok := atEmu[name]; ok {
			spec := specOf(s)
			info.AtEmulationVersion = &spec
		}
		t.Gates[string(name)] = info
	}
	t.Count = len(t.Gates)
	return t
}

func cmdGates(args []string) error {
	fs := flag.NewFlagSet("gates", flag.ContinueOnError)
	out := fs.String("out", "", "file to write (- for stdout)")
	if err := fs.Parse(args); err != nil || *out == "" || fs.NArg() != 0 {
		return errUsage
	}
	t := buildGateTable()
	help := len(utilfeature.DefaultMutableFeatureGate.KnownFeatures())
	fmt.Fprintf(os.Stderr, "%d gates (%d without AllAlpha/AllBeta, %d help lines), emulation %s, min compatibility %s\n",
		t.Count, t.Count-2, help, t.EmulationVersion, t.MinCompatibilityVersion)
	return writeJSON(*out, t)
}

// writeJSON writes v with 2-space indent and a trailing newline (- is stdout).
func writeJSON(path string, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	if path == "-" {
		_, err := os.Stdout.Write(buf.Bytes())
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}
