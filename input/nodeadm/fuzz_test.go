package nodeadm

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/input/bootstrap"
)

// FuzzTranslate: no input makes the translation panic, and an error is one
// line naming the file.
func FuzzTranslate(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(casesDir, "*", "config*.yaml"))
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(userData("Content-Type: application/node.eks.aws\n\n" + nodeConfigYAML("  kubelet:\n    config: {maxPods: 3}\n"))))
	f.Fuzz(func(t *testing.T, data []byte) {
		out, err := Translate("f", data, bootstrap.Options{Minor: "1.37", Set: map[string]string{"maxPods": "58"}})
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f: ") || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q", err)
			}
			return
		}
		for _, fi := range out.Findings {
			if fi.File != "f" || fi.Line < 1 {
				t.Errorf("finding outside the file: %+v", fi)
			}
		}
	})
}
