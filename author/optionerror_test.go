package author_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg"
	"github.com/kubeletcfg/kubeletcfg/author"
	"github.com/kubeletcfg/kubeletcfg/internal/atomicfile"
)

// A drop-in that appeared after the request's check: the error names the
// request's Force, and the command's --force through kubeletcfg.CommandWords
// (beside the root's TestOptionErrorWords); it is still atomicfile.ErrExists.
func TestExistsWords(t *testing.T) {
	p := filepath.Join(t.TempDir(), "50-x.conf")
	if err := os.WriteFile(p, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		request string
		errorf  func(string, ...any) error
	}{{"NewRequest", author.NewRequestErrorf}, {"DiffRequest", author.DiffErrorf}} {
		err := author.WriteFile(p, []byte("{}"), atomicfile.Options{}, tt.errorf)
		if !errors.Is(err, atomicfile.ErrExists) {
			t.Fatalf("%s: %v, want atomicfile.ErrExists", tt.request, err)
		}
		if got, want := err.Error(), "write "+p+": file exists (use "+tt.request+".Force to overwrite)"; got != want {
			t.Errorf("library: %q, want %q", got, want)
		}
		if got, want := kubeletcfg.CommandWords(err), "write "+p+": file exists (use --force to overwrite)"; got != want {
			t.Errorf("command: %q, want %q", got, want)
		}
	}
}

// TestDiffFailureWords: a minor the desired files do not start at is a
// failure naming DiffRequest.To; Reword writes it with the command's --to.
func TestDiffFailureWords(t *testing.T) {
	node := filepath.Join("..", "testdata", "dropin", "node")
	want := filepath.Join("..", "testdata", "dropin", "golden.yaml")
	rep, err := kubeletcfg.DropInDiff(kubeletcfg.Options{Versions: "1.31,1.37"}, author.DiffRequest{From: []string{filepath.Join(node, "config.yaml"), filepath.Join(node, "conf.d")}, To: want})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Failures) == 0 {
		t.Fatal("no failure at 1.31")
	}
	const lib, cmd = "kubelet 1.31: DiffRequest.To: kubelet 1.31 would not start", "kubelet 1.31: --to: kubelet 1.31 would not start"
	if got := rep.Failures[0]; !strings.HasPrefix(got, lib) {
		t.Errorf("library: %q, want it to start %q", got, lib)
	}
	rep.Reword(kubeletcfg.CommandWords)
	if got := rep.Failures[0]; !strings.HasPrefix(got, cmd) {
		t.Errorf("command: %q, want it to start %q", got, cmd)
	}
}
