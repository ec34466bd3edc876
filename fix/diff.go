package fix

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/kubeletcfg/kubeletcfg/internal/udiff"
)

// Diff is the unified diff of every file the repairs change, with the paths
// as given prefixed by a/ and b/ (patch -p1 and git apply read it).
func (p *Plan) Diff() string {
	var sb strings.Builder
	for _, f := range p.Changed() {
		name := strings.TrimLeft(strings.TrimPrefix(filepath.ToSlash(f.Path), "./"), "/")
		sb.WriteString(udiff.Unified("a/"+name, "b/"+name, f.Original, f.Fixed))
	}
	return sb.String()
}

// String prints a count as "starts, 0 errors, 1 warning".
func (c Count) String() string {
	start := "starts"
	if !c.Starts {
		start = "does NOT start"
	}
	return fmt.Sprintf("%s, %s, %s", start, plural(c.Errors, "error"), plural(c.Warnings, "warning"))
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
