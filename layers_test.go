package kubeletcfg_test

import (
	"os/exec"
	"sort"
	"strings"
	"testing"
)

// layers is the direction of the module's imports, lowest first: a package may
// import its own layer's and the lower layers' packages, never a higher layer's.
// The data flows read -> translate -> merge -> default -> validate -> report, and
// the front ends sit on top of the library (ARCHITECTURE.md).
var layers = [][]string{
	// leaves: the finding types, the copied upstream types, small helpers
	{"finding", "engine", "upstream/kubelet/config/v1beta1", "internal/kubeletdata", "internal/jsonscan", "internal/didyoumean",
		"internal/fserr", "internal/taints", "internal/optionerr", "internal/atomicfile", "internal/manpage", "internal/udiff", "internal/oneshotgc", "internal/testonly/testtree",
		"internal/testonly/testkubelet", "internal/testonly/schemacheck"},
	{"kubelets"},             // what each minor knows
	{"rule"},                 // the rule framework: Rule, Context, Run, the registry
	{"validate", "defaults"}, // the rules and the defaulting
	{"source", "input/kubeletcmd", "input/nodedir", "input/bootstrap", "input/k0s", "input/k3s", "input/aks", "input/talos", "input/karpenter", "input/nodeadm", "input/nodeadm/internal/v1alpha1", "input/internal/yamlmap", "input/posmap", "input/kubeadm", "input/capi", "input/kind", "input/minikube", "input"}, // read and translate (bootstrapper translators: input/TOOL)
	{"drop-in"},                             // merge
	{"pipeline"},                            // the kubelet's start-up, in order
	{"report", "policy", "profile", "skew"}, // after the pipeline
	{"backoff", "explain", "fix", "author", "fleet", "discover"}, // the verbs' packages
	{"report/verbtext", "report/verbtext/clustertext"},           // the verbs' text, beside report (clustertext: cluster's, apart as cluster is)
	{"."},                    // the library
	{"cluster", "admission"}, // the cluster verbs, apart so that the library links no client-go; the admission webhook's decisions
	{"cmd/kubeletcfg", "cmd/kubeletcfg/internal/flags", "examples/lintdir", "internal/rulesdoc", "internal/rulesdoc/cmd", "internal/fuzzcase",
		"internal/fuzzcase/cmd", "internal/floor", "kubelets/internal/gen", "internal/corpus", "internal/rulesgen", "internal/ruleset", "internal/ruleset/cmd", "internal/k0skeys"}, // front ends and tools
}

// debts are the upward imports that exist today (issue 20 names them), each to
// go: the test fails when a new one appears and when one of these is gone, so
// that the list only shrinks.
var debts = map[string]bool{}

func TestImportLayers(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	const module = "github.com/kubeletcfg/kubeletcfg"
	layerOf := map[string]int{}
	for i, l := range layers {
		for _, p := range l {
			layerOf[p] = i
		}
	}
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	rel := func(p string) string {
		if p == module {
			return "."
		}
		return strings.TrimPrefix(p, module+"/")
	}
	seen := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		from := rel(f[0])
		lf, ok := layerOf[from]
		if !ok {
			t.Errorf("package %s is in no layer: add it to layers", from)
			continue
		}
		for _, imp := range f[1:] {
			if imp != module && !strings.HasPrefix(imp, module+"/") {
				continue
			}
			to := rel(imp)
			if strings.HasPrefix(to, "internal/testonly/") && !strings.HasPrefix(from, "internal/testonly/") {
				t.Errorf("%s imports %s, which only tests may", from, to)
			}
			lt, ok := layerOf[to]
			if !ok || lt <= lf {
				continue
			}
			edge := from + " -> " + to
			seen[edge] = true
			if !debts[edge] {
				t.Errorf("%s imports a higher layer", edge)
			}
		}
	}
	var paid []string
	for e := range debts {
		if !seen[e] {
			paid = append(paid, e)
		}
	}
	sort.Strings(paid)
	for _, e := range paid {
		t.Errorf("%s is gone: remove it from debts", e)
	}
}

// TestLibraryLinksNoClientGo: a program that embeds the library (the root
// package) links no client-go; the cluster verbs that need it are package
// cluster's.
func TestLibraryLinksNoClientGo(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if strings.HasPrefix(pkg, "k8s.io/client-go/") {
			t.Errorf("the library links %s", pkg)
		}
	}
}
