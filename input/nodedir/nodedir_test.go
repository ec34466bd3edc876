package nodedir

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/internal/testonly/testtree"
)

// TestNodeFiles: the main file, drop-in folder and flags files of a node
// folder, by the names in use; the ambiguous layouts are errors.
func TestNodeFiles(t *testing.T) {
	for _, tt := range []struct {
		name      string
		files     map[string]string
		config    string // base names; "" none
		configDir string
		flags     []string
		err       string
	}{
		{"conf.d", map[string]string{"config.yaml": testtree.GoodConfig, "conf.d/10.conf": testtree.BadDropin}, "config.yaml", "conf.d", nil, ""},
		{"config.d", map[string]string{"config.yaml": testtree.GoodConfig, "config.d/10.conf": testtree.BadDropin}, "config.yaml", "config.d", nil, ""},
		{"kubelet.conf.d", map[string]string{"config.yaml": testtree.GoodConfig, "kubelet.conf.d/10.conf": testtree.BadDropin}, "config.yaml", "kubelet.conf.d", nil, ""},
		{"nodeadm config.json.d", map[string]string{"config.json": "{}", "config.json.d/10.conf": testtree.BadDropin}, "config.json", "config.json.d", nil, ""},
		{"named after the main file", map[string]string{"kubelet-config.yaml": testtree.GoodConfig, "kubelet-config.yaml.d/10.conf": testtree.BadDropin}, "kubelet-config.yaml", "kubelet-config.yaml.d", nil, ""},
		{"another folder is not drop-ins", map[string]string{"config.yaml": testtree.GoodConfig, "backup/10.conf": testtree.BadDropin}, "config.yaml", "", nil, ""},
		{"two drop-in folders", map[string]string{"config.yaml": testtree.GoodConfig, "conf.d/10.conf": "", "config.d/10.conf": ""}, "", "", nil, "2 drop-in folders (conf.d, config.d)"},
		{"preferred main file", map[string]string{"config.json": "{}", "config.yaml": testtree.GoodConfig, "kubelet-config.yaml": testtree.GoodConfig}, "config.yaml", "", nil, ""},
		{"two main files", map[string]string{"a.yaml": testtree.GoodConfig, "b.yaml": testtree.GoodConfig}, "", "", nil, "2 config files (a.yaml, b.yaml)"},
		{"README is not the main file", map[string]string{"config.yaml": testtree.GoodConfig, "README.md": "# notes", "notes.txt": "x"}, "config.yaml", "", nil, ""},
		{"flags files in order", map[string]string{"config.yaml": testtree.GoodConfig, "cmdline": "--max-pods=3", "kubeadm-flags.env": "KUBELET_KUBEADM_ARGS=\"--max-pods=2\"", "kubelet.service": "[Service]\nExecStart=/usr/bin/kubelet\n"}, "config.yaml", "", []string{"kubelet.service", "kubeadm-flags.env", "cmdline"}, ""},
		{"unit drop-ins alone", map[string]string{"config.yaml": testtree.GoodConfig, "kubelet.service.d/10-kubeadm.conf": "[Service]\n", "kubeadm-flags.env": "KUBELET_KUBEADM_ARGS=\"\"\n"}, "config.yaml", "", []string{"kubelet.service.d", "kubeadm-flags.env"}, ""},
		{"unit with its drop-ins", map[string]string{"config.yaml": testtree.GoodConfig, "kubelet.service": "[Service]\n", "kubelet.service.d/10-kubeadm.conf": "[Service]\n"}, "config.yaml", "", []string{"kubelet.service"}, ""},
		{"nothing", map[string]string{"README.md": "# notes"}, "", "", nil, "no config file"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := testtree.Write(t, tt.files)
			config, configDir, flags, err := Files(dir)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			base := func(p string) string {
				if p == "" {
					return ""
				}
				return filepath.Base(p)
			}
			var got []string
			for _, f := range flags {
				got = append(got, base(f))
			}
			if base(config) != tt.config || base(configDir) != tt.configDir || strings.Join(got, ",") != strings.Join(tt.flags, ",") {
				t.Errorf("got %q %q %v, want %q %q %v", base(config), base(configDir), got, tt.config, tt.configDir, tt.flags)
			}
		})
	}
}
