package main

import (
	"crypto/sha256"
	"encoding/hex"
	"go/printer"
	"slices"
	"strings"
	"testing"
)

// runStagePorts are the upstream functions whose checks the main module ports for
// the run stage (validate/runstage.go), with the SHA-256 of their source as
// go/printer writes it, at each text seen in 1.31..1.38. The harness links these
// functions, so its goldens follow any change, but kubeletcfg's port would not:
// a hash not listed here means the function changed in the linked minor, and the
// port must be read again (then add the new hash).
var runStagePorts = []struct {
	pkg, fn string
	hashes  []string
}{
	{"k8s.io/kubernetes/cmd/kubelet/app", "parseResourceList", []string{"e8204563d90a3f74", "5f7feb3f79f63d12", "b07d682082320fa4"}}, // 1.37, 1.38: cpu rounding only
	{"k8s.io/kubernetes/pkg/kubelet/eviction", "ParseThresholdConfig", []string{"22e8261d45828084"}},
	{"k8s.io/kubernetes/pkg/kubelet/eviction", "parseThresholdStatement", []string{"a71423ab642a27be"}},
	{"k8s.io/kubernetes/pkg/kubelet/eviction", "parsePercentage", []string{"836ea6f34e823443"}},
	{"k8s.io/kubernetes/pkg/kubelet/eviction", "parseGracePeriods", []string{"13a68ca8e19dbb3b"}},
	{"k8s.io/kubernetes/pkg/kubelet/eviction", "parseMinimumReclaims", []string{"059639ec5fec48ac"}},
	{"k8s.io/kubernetes/pkg/kubelet/eviction", "validSignal", []string{"91c1c172dafeae52"}},
	{"k8s.io/kubernetes/pkg/kubelet/eviction", "init", []string{"c675ea71fb2479ed"}}, // the signals validSignal accepts
	{"k8s.io/kubernetes/pkg/kubelet/cm", "ParseQOSReserved", []string{"2d76ae1c9e6775a2"}},
	{"k8s.io/kubernetes/pkg/kubelet/cm", "parsePercentage", []string{"e5b6f34ae62980a3"}},
	{"k8s.io/kubernetes/pkg/kubelet/logs", "parseMaxSize", []string{"e2d4e3d3255da6a3"}},
	{"k8s.io/kubernetes/pkg/kubelet/sysctl", "NewAllowlist", []string{"410ee35287c174de"}},
}

// funcSource is the go/printer text of a package's top-level function name (the
// non-test, Linux files); several (init) are joined in order.
func funcSource(t *testing.T, w *astWalker, pkg, name string) string {
	t.Helper()
	linux := func(file string) bool {
		return !strings.Contains(file, "_windows") && !strings.Contains(file, "_unsupported") && !strings.Contains(file, "_others")
	}
	decls, fset := upstreamFuncs(t, w, pkg, name, linux)
	if len(decls) == 0 {
		t.Fatalf("no func %s in %s", name, pkg)
	}
	var texts []string
	for _, fd := range decls {
		fd.Doc = nil
		var b strings.Builder
		if err := printer.Fprint(&b, fset, fd); err != nil {
			t.Fatal(err)
		}
		texts = append(texts, b.String())
	}
	slices.Sort(texts)
	return strings.Join(texts, "\n")
}

func TestRunStagePorts(t *testing.T) {
	w := newAstWalker()
	for _, p := range runStagePorts {
		sum := sha256.Sum256([]byte(funcSource(t, w, p.pkg, p.fn)))
		got := hex.EncodeToString(sum[:8])
		if !slices.Contains(p.hashes, got) {
			t.Errorf("%s.%s has changed (%s, not one of %v): read it again and port the change to validate/runstage.go, then add the hash",
				p.pkg, p.fn, got, p.hashes)
		}
	}
}
