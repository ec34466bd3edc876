package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

// fakeCluster is an API server on loopback with a node list and the node
// proxy's configz and flagz of each node (what the kubelet would serve).
type fakeCluster struct {
	nodes   []corev1.Node
	configz map[string][]byte
	flagz   map[string]string
	deny    map[string]bool // 403 on nodes/proxy
	denyAll bool            // 403 on listing nodes
}

func (c *fakeCluster) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	status := func(code int, reason, msg string) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		fmt.Fprintf(w, `{"kind":"Status","apiVersion":"v1","status":"Failure","message":%q,"reason":%q,"code":%d}`, msg, reason, code)
	}
	if r.Header.Get("Authorization") != "Bearer t0ken" {
		status(401, "Unauthorized", "Unauthorized")
		return
	}
	if r.URL.Path == "/api/v1/nodes" {
		if c.denyAll {
			status(403, "Forbidden", `nodes is forbidden: User "ci" cannot list resource "nodes"`)
			return
		}
		sel, err := labels.Parse(r.URL.Query().Get("labelSelector"))
		if err != nil {
			status(400, "BadRequest", err.Error())
			return
		}
		list := corev1.NodeList{TypeMeta: metav1.TypeMeta{Kind: "NodeList", APIVersion: "v1"}}
		for _, n := range c.nodes {
			if sel.Matches(labels.Set(n.Labels)) {
				list.Items = append(list.Items, n)
			}
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(list)
		return
	}
	rest, _ := strings.CutPrefix(r.URL.Path, "/api/v1/nodes/")
	name, path, proxied := strings.Cut(rest, "/proxy/")
	if !proxied {
		for _, n := range c.nodes {
			if n.Name == name {
				w.Header().Set("Content-Type", "application/json")
				_ = json.NewEncoder(w).Encode(n)
				return
			}
		}
		status(404, "NotFound", fmt.Sprintf("nodes %q not found", name))
		return
	}
	switch {
	case c.deny[name]:
		status(403, "Forbidden", fmt.Sprintf(`nodes %q is forbidden: User "ci" cannot get resource "nodes/proxy" in API group "" at the cluster scope`, name))
	case path == "configz" && c.configz[name] != nil:
		_, _ = w.Write(c.configz[name])
	case path == "flagz" && c.flagz[name] != "":
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprint(w, c.flagz[name])
	default:
		http.NotFound(w, r)
	}
}

func apiNode(name, pool, version string) corev1.Node {
	n := corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{}}}
	if pool != "" {
		n.Labels["eks.amazonaws.com/nodegroup"] = pool
	}
	n.Status.NodeInfo.KubeletVersion = version
	return n
}

func newFakeCluster(t *testing.T) *fakeCluster {
	t.Helper()
	data, err := os.ReadFile("../../testdata/dropin/configz.json")
	if err != nil {
		t.Fatal(err)
	}
	variant := func(maxPods int) []byte {
		return bytes.Replace(data, []byte(`"maxPods":110,`), fmt.Appendf(nil, `"maxPods":%d,`, maxPods), 1)
	}
	// A value every minor's validation refuses.
	refused := bytes.Replace(data, []byte(`"maxPods":110,`), []byte(`"maxPods":-5,`), 1)
	return &fakeCluster{
		nodes: []corev1.Node{
			apiNode("gpu-b", "gpu", "v1.35.4-eks-4a3c1b2"),
			apiNode("gpu-a", "gpu", "v1.35.4-eks-4a3c1b2"),
			apiNode("gpu-c", "gpu", "v1.35.2-eks-4a3c1b2"),
			apiNode("gpu-d", "gpu", "v1.35.2-eks-4a3c1b2"),
			apiNode("cpu-a", "cpu", "v1.36.1"),
			apiNode("cpu-b", "cpu", "v1.36.1"),
			apiNode("cpu-old", "cpu", "v1.29.0"),
			apiNode("cpu-denied", "cpu", "v1.36.1"),
			apiNode("cpu-nodebug", "cpu", "v1.36.1"),
		},
		configz: map[string][]byte{
			"gpu-a": variant(110), "gpu-b": variant(110), "gpu-c": variant(120), "gpu-d": refused,
			"cpu-a": variant(110), "cpu-b": variant(110), "cpu-denied": variant(110),
		},
		flagz: map[string]string{
			"cpu-a": "\nkubelet flagz\nWarning: not machine parseable\n\ncert-dir=/var/lib/kubelet/pki\nnode-ip=10.0.0.1\nmax-pods=110\n",
		},
		deny: map[string]bool{"cpu-denied": true},
	}
}

func runFakeCluster(t *testing.T, c *fakeCluster, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	// TLS: clientcmd sends credentials to https servers only.
	srv := httptest.NewTLSServer(c)
	t.Cleanup(srv.Close)
	var out, errb bytes.Buffer
	code = run(append(args, "--server", srv.URL, "--token", "t0ken", "--insecure-skip-tls-verify", "--kubeconfig", os.DevNull), &out, &errb)
	return out.String(), errb.String(), code
}

type clusterJSON struct {
	Nodes []struct {
		Name, Pool, KubeletVersion, Minor, Group, Flags string
	}
	Groups []struct {
		ID, Pool, Minor, Flags string
		Nodes                  []string
		Starts                 bool
		Findings               []struct{ Rule string }
		Blockers               []struct{ Rule string }
		Changes                []struct{ Path string }
		From, To, Error        string
	}
	Pools []struct {
		Name           string
		Nodes          int
		Configurations int
		Drift          bool
	}
	Results []struct {
		Pool, Minor string
		Starts      bool
		Refusing    []string
	}
	Failures []struct{ Node, Reason, Message string }
}

func TestClusterLint(t *testing.T) {
	out, stderr, code := runFakeCluster(t, newFakeCluster(t), "cluster", "lint", "-o", "json")
	if code != exitFindings {
		t.Errorf("exit %d, want 1 (gpu-d's kubelet refuses maxPods -5); stderr %s", code, stderr)
	}
	var doc clusterJSON
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var names []string
	for _, n := range doc.Nodes {
		names = append(names, n.Name)
	}
	if !slices.IsSorted(names) || len(names) != 9 {
		t.Errorf("nodes %v: want all 9, sorted", names)
	}
	byName := map[string]int{}
	for i, n := range doc.Nodes {
		byName[n.Name] = i
	}
	gpuA, gpuB, gpuC := doc.Nodes[byName["gpu-a"]], doc.Nodes[byName["gpu-b"]], doc.Nodes[byName["gpu-c"]]
	if gpuA.Group == "" || gpuA.Group != gpuB.Group || gpuA.Group == gpuC.Group || gpuA.Minor != "1.35" || gpuA.Pool != "gpu" {
		t.Errorf("gpu-a %+v, gpu-b %+v, gpu-c %+v: a and b share a group, c has its own", gpuA, gpuB, gpuC)
	}
	if n := doc.Nodes[byName["cpu-a"]]; n.Flags != "known" || n.Minor != "1.36" {
		t.Errorf("cpu-a %+v: flagz is served at 1.36", n)
	}
	if n := doc.Nodes[byName["gpu-a"]]; n.Flags != "unknown" {
		t.Errorf("gpu-a %+v: 1.35 is not asked for flagz", n)
	}
	if n := doc.Nodes[byName["cpu-old"]]; n.Minor != "" || n.Group != "" {
		t.Errorf("cpu-old %+v: an unknown minor has no group", n)
	}
	wantFailures := map[string]string{"cpu-denied": "forbidden", "cpu-nodebug": "configz-not-served", "cpu-old": "unknown-minor"}
	if len(doc.Failures) != len(wantFailures) {
		t.Errorf("failures %+v", doc.Failures)
	}
	for _, f := range doc.Failures {
		if wantFailures[f.Node] != f.Reason {
			t.Errorf("failure %+v, want reason %q", f, wantFailures[f.Node])
		}
	}
	pools := map[string]int{}
	for _, p := range doc.Pools {
		pools[p.Name] = p.Configurations
		if p.Drift != (p.Configurations > 1) {
			t.Errorf("pool %+v", p)
		}
	}
	// gpu: 110, 120, -5; cpu: cpu-a has flags (node-ip), cpu-b none, so two.
	if pools["gpu"] != 3 || pools["cpu"] != 2 {
		t.Errorf("pools %+v", doc.Pools)
	}
	for _, g := range doc.Groups {
		if g.Pool == "gpu" && slices.Contains(g.Nodes, "gpu-d") && (g.Starts || len(g.Findings) == 0) {
			t.Errorf("gpu-d's group %+v: maxPods -5 is refused", g)
		}
	}
	for _, r := range doc.Results {
		if r.Pool == "gpu" && (r.Starts || !slices.Equal(r.Refusing, []string{"gpu-d"})) {
			t.Errorf("result %+v: gpu-d refuses", r)
		}
	}
	// Deterministic: a second run prints the same bytes.
	server := regexp.MustCompile(`"server": "[^"]*"`) // each run has its own port
	if again, _, _ := runFakeCluster(t, newFakeCluster(t), "cluster", "lint", "-o", "json"); server.ReplaceAllString(again, "") != server.ReplaceAllString(out, "") {
		t.Error("two runs differ")
	}
	if strings.Contains(out, "t0ken") || strings.Contains(stderr, "t0ken") {
		t.Error("the token is printed")
	}
}

func TestClusterLintText(t *testing.T) {
	out, _, _ := runFakeCluster(t, newFakeCluster(t), "cluster", "lint")
	for _, want := range []string{
		"pool gpu: 4 nodes, drift: 3 configurations among 4 nodes",
		"pool cpu: 5 nodes, drift: 2 configurations among 5 nodes",
		"cpu-denied: forbidden: the API server refused GET nodes/cpu-denied/proxy/configz: the user needs get on nodes/proxy",
		"cpu-old: unknown-minor:",
		"9 nodes in 2 pools (5 configuration groups); at the minor each runs: 1 node would not start, 3 nodes could not be read",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text output lacks %q:\n%s", want, out)
		}
	}
}

func TestClusterPreflight(t *testing.T) {
	out, stderr, code := runFakeCluster(t, newFakeCluster(t), "cluster", "preflight", "--to", "1.37", "-o", "json", "-l", "eks.amazonaws.com/nodegroup=gpu")
	if code != exitFindings {
		t.Errorf("exit %d, want 1: gpu-d's target refuses; %s", code, stderr)
	}
	var doc clusterJSON
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, g := range doc.Groups {
		if g.From != "1.35" || g.To != "1.37" {
			t.Errorf("group %s: from %q to %q", g.ID, g.From, g.To)
		}
		if slices.Contains(g.Nodes, "gpu-d") == (g.Starts || len(g.Blockers) == 0) {
			t.Errorf("group %+v: only gpu-d's has blockers", g)
		}
	}
	if len(doc.Groups) != 3 {
		t.Errorf("%d groups, want 3", len(doc.Groups))
	}

	// Nodes newer than --to: their groups say so, they are not "refusing".
	out, _, _ = runFakeCluster(t, newFakeCluster(t), "cluster", "preflight", "--to", "1.35", "-o", "json", "-l", "eks.amazonaws.com/nodegroup=cpu")
	doc = clusterJSON{}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, g := range doc.Groups {
		if !strings.Contains(g.Error, "newer than --to 1.35") {
			t.Errorf("group %+v: 1.36 nodes are newer than 1.35", g)
		}
	}
	for _, r := range doc.Results {
		if len(r.Refusing) != 0 {
			t.Errorf("result %+v", r)
		}
	}
}

// cluster preflight --to defaults as preflight --to does: the default minor.
func TestClusterPreflightDefaultTo(t *testing.T) {
	def, defErr, defCode := runFakeCluster(t, newFakeCluster(t), "cluster", "preflight", "-o", "json")
	named, namedErr, namedCode := runFakeCluster(t, newFakeCluster(t), "cluster", "preflight", "--to", kubelets.Default().Version, "-o", "json")
	server := regexp.MustCompile(`https://127\.0\.0\.1:[0-9]+`) // each fake cluster its own port
	def, named = server.ReplaceAllString(def, "SERVER"), server.ReplaceAllString(named, "SERVER")
	if def != named || defErr != namedErr || defCode != namedCode {
		t.Errorf("without --to (exit %d):\n%s%s\nwith --to %s (exit %d):\n%s%s", defCode, def, defErr, kubelets.Default().Version, namedCode, named, namedErr)
	}
	if def == "" {
		t.Error("no output")
	}
}

// TestClusterGoldens: the output of one cluster, every format, with the fake
// API server's address (a new port each run) replaced.
func TestClusterGoldens(t *testing.T) {
	for _, tt := range []struct {
		golden string
		args   []string
	}{
		{"cluster-lint", []string{"cluster", "lint"}},
		{"cluster-lint-json", []string{"cluster", "lint", "-o", "json"}},
		{"cluster-preflight", []string{"cluster", "preflight", "--to", "1.37"}},
		{"cluster-preflight-json", []string{"cluster", "preflight", "--to", "1.37", "-o", "json"}},
	} {
		t.Run(tt.golden, func(t *testing.T) {
			c := newFakeCluster(t)
			srv := httptest.NewTLSServer(c)
			t.Cleanup(srv.Close)
			var out, errb bytes.Buffer
			code := run(append(tt.args, "--server", srv.URL, "--token", "t0ken", "--insecure-skip-tls-verify", "--kubeconfig", os.DevNull), &out, &errb)
			got := fmt.Sprintf("exit %d\n%s--- stderr\n%s", code, out.String(), errb.String())
			checkGolden(t, tt.golden, strings.ReplaceAll(got, srv.URL, "https://SERVER"))
		})
	}
}

// TestClusterUnreadableNodes: a node that answers something other than a
// configz (not JSON, or JSON without the kubeletconfig wrapper) or more than
// 4 MiB is listed with the nodes that could not be read, never counted as one
// of its pool's configurations; each such node counts as an error toward
// --fail-on, so a fleet that could not be checked does not exit 0.
func TestClusterUnreadableNodes(t *testing.T) {
	data, err := os.ReadFile("../../testdata/dropin/configz.json")
	if err != nil {
		t.Fatal(err)
	}
	big := append([]byte(`{"kubeletconfig":{"x":"`), bytes.Repeat([]byte("a"), 5<<20)...)
	big = append(big, `"}}`...)
	cluster := func(broken map[string][]byte) *fakeCluster {
		c := &fakeCluster{configz: map[string][]byte{"ok-a": data, "ok-b": data}}
		for _, name := range []string{"ok-a", "ok-b"} {
			c.nodes = append(c.nodes, apiNode(name, "", "v1.35.1"))
		}
		for name, body := range broken {
			c.nodes = append(c.nodes, apiNode(name, "", "v1.35.1"))
			c.configz[name] = body
		}
		return c
	}
	broken := map[string][]byte{
		"truncated": data[:len(data)/2],
		"unwrapped": []byte(`{"maxPods":110}`),
		"big":       big,
	}
	for _, tt := range []struct {
		name    string
		broken  map[string][]byte
		failOn  string
		code    int
		summary string
	}{
		{"clean", nil, "error", exitClean, "2 nodes in 1 pool (1 configuration group); at the minor each runs: 0 nodes would not start, 0 nodes could not be read"},
		{"broken nodes", broken, "error", exitFindings, "5 nodes in 1 pool (1 configuration group); at the minor each runs: 0 nodes would not start, 3 nodes could not be read"},
		{"broken nodes, --fail-on info", broken, "info", exitFindings, "3 nodes could not be read"},
		{"broken nodes, --fail-on none", broken, "none", exitClean, "3 nodes could not be read"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, stderr, code := runFakeCluster(t, cluster(tt.broken), "cluster", "lint", "--fail-on", tt.failOn)
			if code != tt.code {
				t.Errorf("exit %d, want %d; stderr %s", code, tt.code, stderr)
			}
			if !strings.Contains(out, tt.summary) || strings.Contains(out, "drift") {
				t.Errorf("want %q and no drift:\n%s", tt.summary, out)
			}
		})
	}

	out, _, _ := runFakeCluster(t, cluster(broken), "cluster", "lint", "-o", "json")
	var doc clusterJSON
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	want := map[string]string{
		"big":       "too-large: configz larger than 4 MiB",
		"truncated": "malformed: configz is not JSON: unexpected end of JSON input",
		"unwrapped": `malformed: configz has no kubeletconfig: the body is an object with the key "maxPods"`,
	}
	for _, f := range doc.Failures {
		if w, ok := want[f.Node]; !ok || !strings.HasPrefix(f.Reason+": "+f.Message, w) {
			t.Errorf("failure %+v, want %q", f, w)
		}
		delete(want, f.Node)
	}
	for node, w := range want {
		t.Errorf("%s: not among the failures, want %q", node, w)
	}
	if len(doc.Pools) != 1 || doc.Pools[0].Nodes != 5 || doc.Pools[0].Configurations != 1 || len(doc.Groups) != 1 || len(doc.Groups[0].Nodes) != 2 {
		t.Errorf("pools %+v, groups %+v: want the two readable nodes, one configuration", doc.Pools, doc.Groups)
	}
}

// TestClusterNoKubeconfig: with no configuration anywhere, the error names
// what kubectl's loading order tried and why each gave nothing, on one line
// (exit 2), instead of client-go's advice to set KUBERNETES_MASTER.
func TestClusterNoKubeconfig(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, kubeconfigEnv, serviceHost string
		args                             []string
		exit                             int
	}{
		{"cluster-no-kubeconfig-env-missing", filepath.Join(dir, "none"), "", []string{"cluster", "lint"}, exitUsage},
		{"cluster-no-kubeconfig-env-two", empty + string(os.PathListSeparator) + filepath.Join(dir, "none"), "", []string{"cluster", "preflight"}, exitUsage},
		{"cluster-no-kubeconfig-flag-empty", "", "", []string{"cluster", "lint", "--kubeconfig", empty}, exitUsage},
		{"cluster-no-kubeconfig-no-token", filepath.Join(dir, "none"), "10.96.0.1", []string{"cluster", "lint"}, exitUsage},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("KUBECONFIG", tt.kubeconfigEnv)
			t.Setenv("KUBERNETES_SERVICE_HOST", tt.serviceHost)
			t.Setenv("KUBERNETES_SERVICE_PORT", "443")
			if _, err := os.Stat("/var/run/secrets/kubernetes.io/serviceaccount/token"); err == nil && tt.serviceHost != "" {
				t.Skip("running in a pod: the in-cluster configuration exists")
			}
			var out, errb bytes.Buffer
			code := run(tt.args, &out, &errb)
			if code != tt.exit || strings.Count(errb.String(), "\n") != 1 || strings.Contains(errb.String(), "KUBERNETES_MASTER") {
				t.Errorf("exit %d, want %d; stderr %q", code, tt.exit, errb.String())
			}
			got := "$ kubeletcfg " + strings.Join(tt.args, " ") + "\n" + out.String() + "--- stderr\n" + errb.String()
			checkGolden(t, tt.name, strings.ReplaceAll(got, dir, "DIR"))
		})
	}
	// Nothing in KUBECONFIG's place: ~/.kube/config is named (when it is absent here).
	t.Setenv("KUBECONFIG", "")
	t.Setenv("KUBERNETES_SERVICE_HOST", "")
	var out, errb bytes.Buffer
	code := run([]string{"cluster", "lint"}, &out, &errb)
	if code == exitUsage && !strings.Contains(errb.String(), "KUBECONFIG (not set), ~/.kube/config (") {
		t.Errorf("exit %d: %q", code, errb.String())
	}
}

func TestClusterAPIServerUnreachable(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"cluster", "lint", "--server", "https://admin:s3cret@127.0.0.1:1", "--token", "t0ken", "--kubeconfig", os.DevNull}, &out, &errb)
	if code != exitUsage || !strings.Contains(errb.String(), "cannot reach the API server at https://127.0.0.1:1") {
		t.Errorf("exit %d: %s", code, errb.String())
	}
	if strings.Contains(errb.String(), "s3cret") || strings.Contains(errb.String(), "t0ken") {
		t.Errorf("credentials printed: %s", errb.String())
	}
	c := newFakeCluster(t)
	c.denyAll = true
	_, stderr, code := runFakeCluster(t, c, "cluster", "lint")
	if code != exitUsage || !strings.Contains(stderr, "list and get on nodes") {
		t.Errorf("exit %d: %s", code, stderr)
	}
}

// BenchmarkClusterPreflight is cluster preflight --to 1.37 over 2,000 nodes
// (kubelet 1.36: configz and flagz each) with 50 distinct configurations,
// against the fake API server on loopback: listing, 4,000 proxied reads, 50
// preflights, the JSON report. The client's rate limit is lifted (--qps) so
// that the figure is kubeletcfg's own cost; with the default --qps 100 the
// 4,000 requests alone take 40 s, which is what bounds a real run.
func BenchmarkClusterPreflight(b *testing.B) {
	data, err := os.ReadFile("../../testdata/dropin/configz.json")
	if err != nil {
		b.Fatal(err)
	}
	c := &fakeCluster{configz: map[string][]byte{}, flagz: map[string]string{}}
	for i := range 2000 {
		name := fmt.Sprintf("node-%04d", i)
		c.nodes = append(c.nodes, apiNode(name, fmt.Sprint("pool-", i%4), "v1.36.2"))
		c.configz[name] = bytes.Replace(data, []byte(`"maxPods":110,`), fmt.Appendf(nil, `"maxPods":%d,`, 100+i%50), 1)
		c.flagz[name] = "\nkubelet flagz\nWarning: not machine parseable\n\nnode-ip:10.0.0.1\nroot-dir:/var/lib/kubelet\n"
	}
	srv := httptest.NewTLSServer(c)
	b.Cleanup(srv.Close)
	args := []string{"cluster", "preflight", "--to", "1.37", "-o", "json", "--qps", "100000", "--burst", "100000",
		"--server", srv.URL, "--token", "t0ken", "--insecure-skip-tls-verify", "--kubeconfig", os.DevNull}
	for b.Loop() {
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != exitClean {
			b.Fatalf("exit %d: %s", code, errb.String())
		}
		var doc clusterJSON
		if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
			b.Fatal(err)
		}
		// 50 configurations in each of 4 pools (i%4 and i%50 cover all pairs with the same parity).
		if len(doc.Nodes) != 2000 || len(doc.Failures) != 0 || len(doc.Groups) != 100 {
			b.Fatalf("%d nodes, %d groups, %d failures", len(doc.Nodes), len(doc.Groups), len(doc.Failures))
		}
	}
}

// multiKubeconfig writes a kubeconfig with a context per fake cluster (its
// name: the map key) and the contexts "dead" and "dead2", whose API server is
// a loopback port nothing listens on; it returns the file and a replacer of each
// server's address (a new port per run) by its context's name.
func multiKubeconfig(t *testing.T, clusters map[string]*fakeCluster) (string, *strings.Replacer) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "https://" + ln.Addr().String()
	ln.Close() // closed: connections are refused
	servers := map[string]string{"dead": dead, "dead2": dead}
	for name, c := range clusters {
		srv := httptest.NewTLSServer(c)
		t.Cleanup(srv.Close)
		servers[name] = srv.URL
	}
	var b strings.Builder
	var pairs []string
	b.WriteString("apiVersion: v1\nkind: Config\nusers:\n- name: ci\n  user:\n    token: t0ken\nclusters:\n")
	for name, url := range servers {
		fmt.Fprintf(&b, "- name: %s\n  cluster:\n    server: %s\n    insecure-skip-tls-verify: true\n", name, url)
		if name != "dead2" { // dead's address
			pairs = append(pairs, url, "https://"+strings.ToUpper(name), strings.TrimPrefix(url, "https://"), strings.ToUpper(name))
		}
	}
	b.WriteString("contexts:\n")
	for name := range servers {
		fmt.Fprintf(&b, "- name: %s\n  context:\n    cluster: %s\n    user: ci\n", name, name)
	}
	b.WriteString("current-context: a\n")
	path := filepath.Join(t.TempDir(), "kubeconfig")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return path, strings.NewReplacer(pairs...)
}

// cleanCluster is a fake cluster whose nodes all start clean: pools gpu and
// cpu, or only gpu.
func cleanCluster(t *testing.T, pools ...string) *fakeCluster {
	t.Helper()
	data, err := os.ReadFile("../../testdata/dropin/configz.json")
	if err != nil {
		t.Fatal(err)
	}
	c := &fakeCluster{configz: map[string][]byte{}}
	for _, pool := range pools {
		for _, name := range []string{pool + "-a", pool + "-b"} {
			c.nodes = append(c.nodes, apiNode(name, pool, "v1.35.2"))
			c.configz[name] = data
		}
	}
	return c
}

// TestClusterContexts: several clusters in one run (--context repeated,
// --all-contexts): each reported under its context, one that cannot be
// reached listed with why without stopping the others, and counted as an
// error toward --fail-on as an unreadable node is; exit 2 only when no
// cluster could be read, or for a context the kubeconfig does not have.
func TestClusterContexts(t *testing.T) {
	kubeconfig, servers := multiKubeconfig(t, map[string]*fakeCluster{"a": cleanCluster(t, "cpu", "gpu"), "b": cleanCluster(t, "gpu")})
	runArgs := func(args ...string) (string, string, int) {
		var out, errb bytes.Buffer
		code := run(append(args, "--kubeconfig", kubeconfig), &out, &errb)
		return servers.Replace(out.String()), servers.Replace(errb.String()), code
	}
	for _, tt := range []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"two clusters", []string{"--context", "a", "--context", "b"}, exitClean, ""},
		{"one unreachable", []string{"--context", "a", "--context", "b", "--context", "dead"}, exitFindings, ""},
		{"one unreachable, --fail-on none", []string{"--context", "a", "--context", "dead", "--fail-on", "none"}, exitClean, ""},
		{"all contexts", []string{"--all-contexts"}, exitFindings, ""},
		{"no node selected, one unreachable", []string{"--context", "b", "--context", "dead", "-l", "no=such"}, exitFindings, ""},
		{"none reachable", []string{"--context", "dead", "--context", "dead2"}, exitUsage, "kubeletcfg: no context could be read: dead: cannot reach the API server at https://DEAD"},
		{"the one context unreachable", []string{"--context", "dead", "--context", "dead"}, exitUsage, "kubeletcfg: cannot reach the API server at https://DEAD"},
		{"no such context", []string{"--context", "a", "--context", "nope"}, exitUsage, `kubeletcfg: kubeconfig: no context "nope" (it has a, b, dead, dead2)`},
		{"both --all-contexts and --context", []string{"--all-contexts", "--context", "a"}, exitUsage, "kubeletcfg: --all-contexts reads every context: leave out --context"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, stderr, code := runArgs(append([]string{"cluster", "lint"}, tt.args...)...)
			if code != tt.code || !strings.HasPrefix(stderr, tt.stderr) || (tt.stderr == "" && stderr != "") || strings.Count(stderr, "\n") > 1 {
				t.Errorf("exit %d, stderr %q; want exit %d, stderr %q", code, stderr, tt.code, tt.stderr)
			}
		})
	}

	// The output: goldens of each format, and the JSON's shape.
	for _, tt := range []struct {
		golden string
		args   []string
	}{
		{"cluster-contexts", []string{"cluster", "preflight", "--to", "1.37", "--context", "b", "--context", "a", "--context", "dead"}},
		{"cluster-contexts-json", []string{"cluster", "preflight", "--to", "1.37", "--context", "b", "--context", "a", "--context", "dead", "-o", "json"}},
	} {
		t.Run(tt.golden, func(t *testing.T) {
			out, stderr, code := runArgs(tt.args...)
			checkGolden(t, tt.golden, fmt.Sprintf("exit %d\n%s--- stderr\n%s", code, out, stderr))
		})
	}
	out, _, _ := runArgs("cluster", "lint", "--all-contexts", "-o", "json")
	var doc struct {
		Contexts map[string]clusterJSON
		Errors   map[string]string
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(doc.Contexts) != 2 || len(doc.Contexts["a"].Nodes) != 4 || len(doc.Contexts["b"].Nodes) != 2 {
		t.Errorf("contexts %+v: want a (4 nodes) and b (2 nodes)", doc.Contexts)
	}
	if len(doc.Errors) != 2 || !strings.HasPrefix(doc.Errors["dead"], "cannot reach the API server at https://DEAD") {
		t.Errorf("errors %+v: want dead's", doc.Errors)
	}
	// One context asked: today's report, not the contexts object.
	one, _, _ := runArgs("cluster", "lint", "--context", "b", "-o", "json")
	current, _, _ := runArgs("cluster", "lint", "-o", "json")
	if !strings.HasPrefix(one, "{\n  \"server\": \"https://B\"") || !strings.HasPrefix(current, "{\n  \"server\": \"https://A\"") {
		t.Errorf("one context: want its report alone\n%s\ncurrent context:\n%s", one, current)
	}
}

// TestClusterFlagsFirst: every flag and the request's bounds are checked
// before the kubeconfig is read, so a wrong one is a usage error naming it,
// without a connection (the kubeconfig here does not exist); with all flags
// right, the kubeconfig is what fails.
func TestClusterFlagsFirst(t *testing.T) {
	noCluster := filepath.Join(t.TempDir(), "no-such-kubeconfig")
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--concurrency", "0"}, "--concurrency, --qps, --burst and --node-timeout must be positive"},
		{[]string{"--node-timeout", "0s"}, "--concurrency, --qps, --burst and --node-timeout must be positive"},
		{[]string{"-o", "sarif"}, `unknown output format "sarif" (want json or text)`},
		{[]string{"--fail-on", "warnings"}, `--fail-on: unknown severity "warnings" (want error, warning, info or none)`},
		{[]string{"--cgroup-version", "cgroup2"}, `--cgroup-version must be v1 or v2, not "cgroup2"`},
		{nil, "kubeconfig: stat " + noCluster + ": no such file or directory"},
	} {
		args := append([]string{"cluster", "lint", "--kubeconfig", noCluster}, tt.args...)
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != exitUsage || !strings.Contains(errb.String(), tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tt.args, code, errb.String(), exitUsage, tt.want)
		}
	}
	var out, errb bytes.Buffer
	if code := run([]string{"cluster", "preflight", "--kubeconfig", noCluster, "--to", "1.29"}, &out, &errb); code != exitUsage || !strings.Contains(errb.String(), "--to: ") {
		t.Errorf("--to 1.29: exit %d, stderr %q", code, errb.String())
	}
}
