package author_test

import (
	"errors"
	"os"
	"path/filepath"
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
