package corpus

import (
	"fmt"
	"os"
	"path/filepath"

	"sigs.k8s.io/yaml"
)

// Case is one case folder: what the kubelet is started with.
type Case struct {
	Description string
	// Config and ConfigDir are the --config and --config-dir paths ("" when absent).
	Config, ConfigDir string
	// CgroupVersion is 1 or 2.
	CgroupVersion int
	// Flags are more kubelet arguments, after --config and --config-dir.
	Flags []string
}

// Read reads a case folder (see testdata/conformance/README.md): case.yaml's
// config and configDir, defaulting to kubelet.yaml and conf.d when they exist.
func Read(dir string) (Case, error) {
	var meta struct {
		Description string   `json:"description"`
		Config      *string  `json:"config"`
		ConfigDir   *string  `json:"configDir"`
		Cgroup      string   `json:"cgroup"`
		Flags       []string `json:"flags"`
	}
	if raw, err := os.ReadFile(filepath.Join(dir, "case.yaml")); err == nil {
		if err := yaml.Unmarshal(raw, &meta); err != nil {
			return Case{}, fmt.Errorf("%s/case.yaml: %w", dir, err)
		}
	}
	c := Case{Description: meta.Description, CgroupVersion: 2, Flags: meta.Flags}
	if meta.Cgroup == "v1" {
		c.CgroupVersion = 1
	}
	switch {
	case meta.Config != nil && *meta.Config != "":
		c.Config = filepath.Join(dir, *meta.Config)
	case meta.Config == nil:
		if _, err := os.Stat(filepath.Join(dir, "kubelet.yaml")); err == nil {
			c.Config = filepath.Join(dir, "kubelet.yaml")
		}
	}
	switch {
	case meta.ConfigDir != nil && *meta.ConfigDir != "":
		c.ConfigDir = filepath.Join(dir, *meta.ConfigDir)
	case meta.ConfigDir == nil:
		if fi, err := os.Stat(filepath.Join(dir, "conf.d")); err == nil && fi.IsDir() {
			c.ConfigDir = filepath.Join(dir, "conf.d")
		}
	}
	return c, nil
}
