package kubeletcfg

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/input"
	"github.com/kubeletcfg/kubeletcfg/internal/testonly/testtree"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
	"github.com/kubeletcfg/kubeletcfg/pipeline"
	"github.com/kubeletcfg/kubeletcfg/report"
)

// configzVariant is the testdata configz dump of a kubelet that starts, with
// maxPods set to 100+i: one distinct configuration per i.
func configzVariant(t testing.TB, i int) []byte {
	t.Helper()
	data, err := os.ReadFile("testdata/dropin/configz.json")
	if err != nil {
		t.Fatal(err)
	}
	out := bytes.Replace(data, []byte(`"maxPods":110,`), fmt.Appendf(nil, `"maxPods":%d,`, 100+i), 1)
	if bytes.Equal(out, data) && i != 10 {
		t.Fatal(`configz example has no "maxPods":110 to vary`)
	}
	return out
}

func write(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestEvaluateNodesSameAsEachNode: the fleet engine gives every node exactly
// the report, key and count that evaluating it alone gives, for duplicated
// dumps, node folders with the same files, a relative path the kubelet
// resolves against the node's folder (the node's name ends up in its
// effective configuration: no merge), files that do not parse, and a node that
// cannot be read.
func TestEvaluateNodesSameAsEachNode(t *testing.T) {
	dir := t.TempDir()
	for i := range 12 {
		write(t, filepath.Join(dir, fmt.Sprintf("dump-%02d.json", i)), configzVariant(t, i%3))
	}
	cfg := "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nmaxPods: 50\n"
	rel := "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nstaticPodPath: manifests\n"
	for i := range 4 {
		write(t, filepath.Join(dir, fmt.Sprintf("folder-%d", i), "config.yaml"), []byte(cfg))
		write(t, filepath.Join(dir, fmt.Sprintf("folder-%d", i), "conf.d", "10-a.conf"), []byte("apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nmaxPods: 60\n"))
		write(t, filepath.Join(dir, fmt.Sprintf("rel-%d", i), "config.yaml"), []byte(rel))
		write(t, filepath.Join(dir, fmt.Sprintf("bad-%d.yaml", i)), []byte("apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nmaxPods: [\n"))
		// The same config file, two different kubeadm-flags.env: two groups.
		write(t, filepath.Join(dir, fmt.Sprintf("flags-%d", i), "config.yaml"), []byte(cfg))
		write(t, filepath.Join(dir, fmt.Sprintf("flags-%d", i), "kubeadm-flags.env"), fmt.Appendf(nil, "KUBELET_KUBEADM_ARGS=\"--max-pods=%d\"\n", 70+10*(i/2)))
	}
	write(t, filepath.Join(dir, "empty", "readme.txt"), []byte("no config"))

	m := kubelets.Default()
	post := func(*pipeline.Result, string) {}
	run := func(pathDependent bool) []*node {
		nodes, _, err := findNodes(dir)
		if err != nil {
			t.Fatal(err)
		}
		return evaluateNodes(nodes, []*kubelets.Minor{m}, input.Auto, input.Options{}, 2, post, pathDependent)[0]
	}
	merged, alone := run(false), run(true)
	if len(merged) != len(alone) {
		t.Fatalf("%d nodes vs %d", len(merged), len(alone))
	}
	keys := map[string]bool{}
	for i := range merged {
		a, b := merged[i], alone[i]
		af, bf := CountAtLeast(a.doc.Findings, finding.Warning), CountAtLeast(b.doc.Findings, finding.Warning)
		if fmt.Sprint(a.err) != fmt.Sprint(b.err) || a.key != b.key || af != bf || a.note != b.note {
			t.Errorf("node %s: merged (%v, %s, %d) vs alone (%v, %s, %d)", a.name, a.err, a.key, af, b.err, b.key, bf)
		}
		if a.err == nil {
			keys[a.key] = true
		}
	}
	// What is printed is each group's first node's report: the same both ways.
	render := func(nodes []*node) string {
		groups, failed := groupNodes(nodes)
		errs := nodeErrors(nodes, error.Error)
		var b strings.Builder
		if err := writeNodes(&b, m, groups, errs, len(nodes), 0, failed, report.Options{}); err != nil {
			t.Fatal(err)
		}
		raw, err := json.Marshal(groups)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(raw)
		return b.String()
	}
	if a, b := render(merged), render(alone); a != b {
		t.Errorf("output differs:\n%s\nvs\n%s", a, b)
	}
	// 3 dump variants, 1 group of folders, each rel-N folder its own group, the
	// bad files one group (the YAML error does not name the file), the flags-N
	// folders two (their flags files differ; the config files do not).
	if len(keys) != 3+1+4+1+2 {
		t.Errorf("%d groups; want 11:\n%s", len(keys), render(merged))
	}
	for _, n := range merged {
		if strings.HasPrefix(n.name, "rel-") && n.err == nil && !strings.Contains(n.effective, n.name) {
			t.Errorf("%s: the relative staticPodPath is not resolved against the node's folder: %s", n.name, n.effective)
		}
	}
}

// BenchmarkLintNodes is lint --nodes --versions 1.31..1.37 over 10,000 configz
// dumps with 50 distinct configurations: each file read and hashed once, 50
// evaluations per minor.
func BenchmarkLintNodes(b *testing.B) {
	dir := b.TempDir()
	for i := range 10000 {
		write(b, filepath.Join(dir, fmt.Sprintf("node-%05d.json", i)), configzVariant(b, i%50))
	}
	post := func(*pipeline.Result, string) {}
	var minors []*kubelets.Minor
	for _, v := range kubelets.Supported() {
		m, _ := kubelets.Lookup(v)
		minors = append(minors, m)
	}
	b.ResetTimer()
	for b.Loop() {
		nodes, _, err := findNodes(dir)
		if err != nil {
			b.Fatal(err)
		}
		for k, nodes := range evaluateNodes(nodes, minors, input.Auto, input.Options{}, 2, post, false) {
			if groups, _ := groupNodes(nodes); len(groups) != 50 {
				b.Fatalf("%s: %d groups, want 50", minors[k].Version, len(groups))
			}
		}
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.HeapSys)/(1<<20), "heap-MB")
}

// TestNodesKindCluster: a kind cluster configuration of several nodes in a
// --nodes folder is one node per kind node, each with exactly the report that
// `lint --kind-node NODE` gives it; --kind-node, a one-node cluster and a
// forced format other than kind keep one node per file.
func TestNodesKindCluster(t *testing.T) {
	dir := t.TempDir()
	kind, err := os.ReadFile("testdata/inputs/kind.yaml")
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "dev.yaml"), kind)
	write(t, filepath.Join(dir, "one.yaml"), []byte("kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\n"))
	write(t, filepath.Join(dir, "plain.yaml"), []byte("apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nmaxPods: 50\n"))

	names := func(r NodesReport) (out []string) {
		for _, g := range r.Groups {
			out = append(out, strings.Join(g.Nodes, "+"))
		}
		for _, e := range r.Errors {
			out = append(out, "error:"+e.Node)
		}
		return out
	}
	for _, tc := range []struct {
		name string
		opt  Options
		want string
	}{
		{"each kind node", Options{}, "dev/dev-control-plane dev/dev-worker dev/dev-worker2 one plain"},
		{"--kind-node", Options{Read: input.Options{KindNode: "dev-worker2"}}, "dev one plain"},
		{"forced config format", Options{Format: "config"}, "dev one plain"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := Nodes(dir, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			var all []string
			for _, n := range l.perMinor[0] {
				all = append(all, n.name)
			}
			if got := strings.Join(all, " "); got != tc.want {
				t.Fatalf("nodes %q, want %q (groups %q)", got, tc.want, names(l.Reports[0]))
			}
		})
	}

	l, err := Nodes(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range l.perMinor[0] {
		kindNode, ok := strings.CutPrefix(n.name, "dev/")
		if !ok {
			continue
		}
		alone, err := Lint(Options{Config: filepath.Join(dir, "dev.yaml"), Read: input.Options{KindNode: kindNode}})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := CountAtLeast(n.doc.Findings, finding.Info), CountAtLeast(alone.Report.Findings, finding.Info); got != want || n.doc.Starts != alone.Report.Starts {
			t.Errorf("%s: %d findings, starts %v; lint --kind-node %s: %d, %v", n.name, got, n.doc.Starts, kindNode, want, alone.Report.Starts)
		}
		for i, f := range n.doc.Findings {
			if w := alone.Report.Findings[i]; f.Rule != w.Rule || f.Path != w.Path || f.Line != w.Line {
				t.Errorf("%s finding %d: %s %s:%d; alone %s %s:%d", n.name, i, f.Rule, f.Path, f.Line, w.Rule, w.Path, w.Line)
			}
		}
	}
	if g := names(l.Reports[0]); len(g) != 5 || !strings.Contains(strings.Join(g, " "), "dev/dev-control-plane") {
		t.Errorf("groups %q", g)
	}
}

// TestNodesMinikubeProfile: a minikube profile of several machines in a
// --nodes folder (a profile folder, as ~/.minikube/profiles holds them) is one
// node per machine, each with its own kubelet flags, exactly as `lint
// --minikube-node MACHINE` reads it; --minikube-node keeps one node.
func TestNodesMinikubeProfile(t *testing.T) {
	profile := `{"Name": "dev", "Driver": "kvm2",
	"KubernetesConfig": {"KubernetesVersion": "v1.35.0", "ContainerRuntime": "crio"},
	"Nodes": [
		{"Name": "", "IP": "192.168.39.10", "ControlPlane": true, "Worker": true},
		{"Name": "m02", "IP": "192.168.39.11", "ControlPlane": false, "Worker": true}
	]}
`
	dir := testtree.Write(t, map[string]string{"dev/config.json": profile, "plain.yaml": testtree.GoodConfig})
	for _, tc := range []struct {
		name string
		opt  Options
		want string
	}{
		{"each machine", Options{}, "dev/dev dev/dev-m02 plain"},
		{"--minikube-node", Options{Read: input.Options{Minikube: input.MinikubeOptions{Node: "dev-m02"}}}, "dev plain"},
	} {
		l, err := Nodes(dir, tc.opt)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, n := range l.perMinor[0] {
			names = append(names, n.name)
			if n.err != nil {
				t.Errorf("%s: %s: %v", tc.name, n.name, n.err)
			}
		}
		if got := strings.Join(names, " "); got != tc.want {
			t.Errorf("%s: nodes %q, want %q", tc.name, got, tc.want)
		}
	}
	l, err := Nodes(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range l.perMinor[0] {
		machine, ok := strings.CutPrefix(n.name, "dev/")
		if !ok {
			continue
		}
		alone, err := Lint(Options{Config: filepath.Join(dir, "dev", "config.json"), KubeletVersion: "1.35", Read: input.Options{Minikube: input.MinikubeOptions{Node: machine}}})
		if err != nil {
			t.Fatal(err)
		}
		if n.minor.Version == "1.35" && (len(n.doc.Findings) != len(alone.Report.Findings) || n.doc.Starts != alone.Report.Starts) {
			t.Errorf("%s: %d findings, starts %v; lint --minikube-node %s: %d, %v", n.name, len(n.doc.Findings), n.doc.Starts, machine, len(alone.Report.Findings), alone.Report.Starts)
		}
	}
}
