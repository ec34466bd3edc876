package integration

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// eksPool is the test cluster's pool label (kubeletcfg takes the first of
// its known pool labels present in the cluster).
const eksPool = "eks.amazonaws.com/nodegroup"

// kubeadmFlags is a kubelet command line as kubeadm's systemd drop-in writes it.
var kubeadmFlags = []string{
	"--bootstrap-kubeconfig=/etc/kubernetes/bootstrap-kubelet.conf",
	"--kubeconfig=/etc/kubernetes/kubelet.conf",
	"--config=/var/lib/kubelet/config.yaml",
	"--container-runtime-endpoint=unix:///run/containerd/containerd.sock",
}

// clusterNodes is the functional test cluster:
//   - ng-134: two 1.34 nodes (EKS's recorded configuration);
//   - ng-136: three 1.36 nodes, one drifted (the EKS configuration with a
//     drop-in setting enforceNodeAllocatable: one value differs);
//   - pool-137: two 1.37 nodes (GKE's) and one whose kubelet does not answer
//     (its address refuses connections);
//   - legacy: one node on 1.29, a minor kubeletcfg does not know (its kubelet
//     serves the oldest recorded configuration, 1.31's AKS one);
//   - win-137: two Windows 1.37 nodes (operatingSystem windows) serving what
//     the Windows kubelet ran with (recorded under Wine: no QoS cgroups,
//     nothing enforced, its evictionHard defaults);
//   - mixed-137: a Linux and a Windows 1.37 node whose kubelets serve the same
//     configz and flags, a configuration the Linux kubelet started with and the
//     Windows kubelet refuses (a non-empty defaultPodSysctls): only the OS tells
//     the two apart.
func clusterNodes(t testing.TB) []node {
	eks134, eks136, drift136 := config{"1.34", "396-real-eks", false}, config{"1.36", "396-real-eks", false}, config{"1.36", "398-real-eks-dropin-enforce-kube-reserved", false}
	gke137, aks131 := config{"1.37", "399-real-gke", false}, config{"1.31", "402-real-aks", false}
	win137 := config{"1.37", "303-val-enforce-none-cgroupsperqos-false", true}
	sysctls137 := config{"1.37", "262-val-defaultpodsysctls-valid", false}
	version := func(c config) string { _, v := golden(t, c); return v }
	nodes := []node{
		{Name: "ng-134-a", Labels: map[string]string{eksPool: "ng-134"}, Config: eks134},
		{Name: "ng-134-b", Labels: map[string]string{eksPool: "ng-134"}, Config: eks134},
		{Name: "ng-136-a", Labels: map[string]string{eksPool: "ng-136"}, Config: eks136},
		{Name: "ng-136-b", Labels: map[string]string{eksPool: "ng-136"}, Config: eks136},
		{Name: "ng-136-c", Labels: map[string]string{eksPool: "ng-136"}, Config: drift136},
		{Name: "pool-137-a", Labels: map[string]string{eksPool: "pool-137"}, Config: gke137},
		{Name: "pool-137-b", Labels: map[string]string{eksPool: "pool-137"}, Config: gke137},
		{Name: "pool-137-down", Labels: map[string]string{eksPool: "pool-137"}, Config: gke137, Down: true},
		{Name: "legacy-1", Labels: map[string]string{eksPool: "legacy"}, Config: aks131, Version: "v1.29.15"},
		{Name: "win-137-a", Labels: map[string]string{eksPool: "win-137"}, Config: win137, OS: "windows"},
		{Name: "win-137-b", Labels: map[string]string{eksPool: "win-137"}, Config: win137, OS: "windows"},
		{Name: "mixed-137-linux", Labels: map[string]string{eksPool: "mixed-137"}, Config: sysctls137, OS: "linux"},
		{Name: "mixed-137-windows", Labels: map[string]string{eksPool: "mixed-137"}, Config: sysctls137, OS: "windows"},
	}
	for i := range nodes {
		nodes[i].IP = nodeIP(i)
		nodes[i].Flags = kubeadmFlags
		if nodes[i].Version == "" {
			nodes[i].Version = version(nodes[i].Config)
		}
	}
	return nodes
}

// report is the JSON contract of `kubeletcfg cluster lint|preflight -o json`.
type report struct {
	Nodes []struct {
		Name           string `json:"name"`
		Pool           string `json:"pool"`
		OS             string `json:"os"`
		KubeletVersion string `json:"kubeletVersion"`
		Minor          string `json:"minor"`
		Group          string `json:"group"`
		Flags          string `json:"flags"`
	} `json:"nodes"`
	Groups []struct {
		ID       string   `json:"id"`
		Pool     string   `json:"pool"`
		OS       string   `json:"os"`
		Minor    string   `json:"minor"`
		Nodes    []string `json:"nodes"`
		Starts   *bool    `json:"starts"`
		Findings []struct {
			Rule string `json:"rule"`
		} `json:"findings"`
		Blockers []struct {
			Rule string `json:"rule"`
		} `json:"blockers"`
		Changes []struct {
			Path string `json:"path"`
		} `json:"changes"`
	} `json:"groups"`
	Pools []struct {
		Name           string `json:"name"`
		OS             string `json:"os"`
		Nodes          int    `json:"nodes"`
		Configurations int    `json:"configurations"`
		Drift          bool   `json:"drift"`
	} `json:"pools"`
	Results  json.RawMessage `json:"results"`
	Failures []struct {
		Node    string `json:"node"`
		Reason  string `json:"reason"`
		Message string `json:"message"`
	} `json:"failures"`
}

func TestCluster(t *testing.T) {
	e := startEnv(t)
	nodes := clusterNodes(t)
	e.addNodes(nodes)

	// The environment itself, through the API server as kubeletcfg sees it.
	t.Run("environment", func(t *testing.T) { testEnvironment(t, e, nodes) })

	admin := e.kubeconfig(userAdmin, e.tokens[userAdmin])
	var adminOut []byte
	t.Run("lint", func(t *testing.T) {
		res := runKubeletcfg(t, nil, "cluster", "lint", "-o", "json", "--kubeconfig", admin)
		adminOut = res.stdout
		checkLintReport(t, res, nodes)
	})

	t.Run("least-privilege-user", func(t *testing.T) {
		// get/list nodes and get nodes/proxy are all kubeletcfg needs.
		res := runKubeletcfg(t, nil, "cluster", "lint", "-o", "json", "--kubeconfig", e.kubeconfig(userReader, e.tokens[userReader]))
		sameOutput(t, res, adminOut, "the admin's")
	})

	t.Run("forbidden", func(t *testing.T) {
		res := runKubeletcfg(t, nil, "cluster", "lint", "-o", "json", "--kubeconfig", e.kubeconfig(userNodesOnly, e.tokens[userNodesOnly]))
		r := decodeReport(t, res)
		if len(r.Nodes) != len(nodes) {
			t.Errorf("nodes: %d, want %d (listing nodes is allowed)", len(r.Nodes), len(nodes))
		}
		failed := map[string]string{}
		for _, f := range r.Failures {
			failed[f.Node] = f.Reason
			if f.Reason == "forbidden" && !strings.Contains(f.Message, "nodes/proxy") {
				t.Errorf("%s: message %q should name the missing nodes/proxy permission", f.Node, f.Message)
			}
		}
		for _, n := range nodes {
			want := expectedFailure(n, "forbidden")
			// A node on an unknown minor may be reported as such before or
			// instead of the refused proxy request.
			if failed[n.Name] != want && !(want == "unknown-minor" && failed[n.Name] == "forbidden") {
				t.Errorf("%s: failure %q, want %q", n.Name, failed[n.Name], want)
			}
		}
	})

	t.Run("api-server-unreachable", func(t *testing.T) {
		// Nothing listens on port 1 in the namespace: exit 2, one message, no JSON.
		dead := e.kubeconfigFor("dead", "https://127.0.0.1:1", e.tokens[userAdmin])
		res := runKubeletcfg(t, nil, "cluster", "lint", "-o", "json", "--kubeconfig", dead)
		if res.code != 2 {
			t.Fatalf("exit %d, want 2\nstderr: %s", res.code, res.stderr)
		}
		if !bytes.Contains(res.stderr, []byte("127.0.0.1:1")) || bytes.Contains(res.stderr, []byte("goroutine ")) {
			t.Errorf("stderr should be one clear error naming the API server, got %q", res.stderr)
		}
	})

	t.Run("in-cluster", func(t *testing.T) {
		res := e.runInCluster(t, "cluster", "lint", "-o", "json")
		sameOutput(t, res, adminOut, "the admin's")
	})

	t.Run("kubelet-hangs", func(t *testing.T) {
		// A kubelet that accepts connections and never answers: the node's
		// reads run out of --node-timeout.
		hung := node{Name: "pool-137-hung", Labels: map[string]string{eksPool: "pool-137"}, Version: "v1.37.2", IP: nodeIP(len(nodes))}
		ln, err := net.Listen("tcp", net.JoinHostPort(hung.IP, fmt.Sprint(kubeletPort)))
		check(t, err)
		defer ln.Close()
		go func() {
			var held []net.Conn
			defer func() {
				for _, c := range held {
					c.Close()
				}
			}()
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				held = append(held, c)
			}
		}()
		check(t, e.createNode(context.Background(), hung))
		defer func() { _ = e.client.CoreV1().Nodes().Delete(context.Background(), hung.Name, metav1.DeleteOptions{}) }()
		res := runKubeletcfg(t, nil, "cluster", "lint", "-o", "json", "--kubeconfig", admin, "--node", hung.Name, "--node-timeout", "3s")
		r := decodeReport(t, res)
		if len(r.Failures) != 1 || r.Failures[0].Node != hung.Name || r.Failures[0].Reason != "timeout" {
			t.Errorf("failures %+v, want %s: timeout", r.Failures, hung.Name)
		}
		if res.took > 30*time.Second {
			t.Errorf("took %v with --node-timeout 3s", res.took)
		}
	})

	t.Run("broken-kubelets", func(t *testing.T) {
		// Kubelets that answer what no kubelet should, through the real API
		// server's proxy: a truncated configz, a configz without its
		// kubeletconfig wrapper, one of 5 MiB. Each is a failure with its
		// reason; the pool keeps one configuration; exit 1.
		broken := map[string][]byte{
			"pool-137-truncated": []byte(`{"kubeletconfig":{"maxPods":110`),
			"pool-137-unwrapped": []byte(`{"maxPods":110}`),
			"pool-137-big":       append(append([]byte(`{"kubeletconfig":{"x":"`), bytes.Repeat([]byte("a"), 5<<20)...), `"}}`...),
		}
		want := map[string]string{
			"pool-137-truncated": "malformed: configz is not JSON: unexpected end of JSON input",
			"pool-137-unwrapped": "malformed: configz has no kubeletconfig",
			"pool-137-big":       "too-large: configz larger than 4 MiB",
		}
		args := []string{"cluster", "lint", "-o", "json", "--kubeconfig", admin, "--node", "pool-137-a", "--node", "pool-137-b"}
		i := len(nodes) + 1 // kubelet-hangs took len(nodes)
		for _, name := range []string{"pool-137-big", "pool-137-truncated", "pool-137-unwrapped"} {
			n := node{Name: name, Labels: map[string]string{eksPool: "pool-137"}, Version: "v1.37.2", IP: nodeIP(i)}
			i++
			e.serveBrokenKubelet(t, n, broken[name])
			check(t, e.createNode(context.Background(), n))
			defer func() { _ = e.client.CoreV1().Nodes().Delete(context.Background(), n.Name, metav1.DeleteOptions{}) }()
			args = append(args, "--node", n.Name)
		}
		res := runKubeletcfg(t, nil, args...)
		if res.code != 1 {
			t.Errorf("exit %d, want 1 (3 nodes could not be checked)\nstderr: %s", res.code, res.stderr)
		}
		r := decodeReport(t, res)
		for _, f := range r.Failures {
			if w := want[f.Node]; w == "" || !strings.HasPrefix(f.Reason+": "+f.Message, w) {
				t.Errorf("failure %+v, want %q", f, w)
			}
			delete(want, f.Node)
		}
		for node, w := range want {
			t.Errorf("%s: not among the failures, want %q", node, w)
		}
		if len(r.Pools) != 1 || r.Pools[0].Nodes != 5 || r.Pools[0].Configurations != 1 || r.Pools[0].Drift {
			t.Errorf("pools %+v: want pool-137 with 5 nodes, one configuration (the two readable nodes'), no drift", r.Pools)
		}
	})

	t.Run("preflight", func(t *testing.T) {
		res := runKubeletcfg(t, nil, "cluster", "preflight", "--to", "1.37", "-o", "json", "--kubeconfig", admin)
		r := decodeReport(t, res)
		byNode := map[string]node{}
		for _, n := range nodes {
			byNode[n.Name] = n
		}
		for _, g := range r.Groups {
			if g.Starts == nil {
				t.Errorf("group %s: no starts", g.ID)
				continue
			}
			// The 1.37 kubelet of the node's OS started with the 1.37 pools'
			// configurations (their goldens say so): upgrading to 1.37 changes
			// nothing. The Windows node serving a Linux kubelet's
			// configuration is refused (defaultPodSysctls).
			if len(g.Nodes) == 0 {
				t.Errorf("group %s: no nodes", g.ID)
				continue
			}
			n := byNode[g.Nodes[0]]
			if n.Config.Minor == "1.37" && n.Config.Windows == (n.os() == "windows") && !*g.Starts {
				t.Errorf("group %s (%v): starts false at 1.37, but the 1.37 kubelet started with this configuration", g.ID, g.Nodes)
			}
			if n.Name == "mixed-137-windows" && (*g.Starts || len(g.Blockers) == 0 || g.Blockers[0].Rule != "KC5105") {
				t.Errorf("group %s (%v): starts %v, blockers %+v; want KC5105", g.ID, g.Nodes, *g.Starts, g.Blockers)
			}
		}
		checkFailures(t, r, nodes, "")
	})

	t.Run("windows", func(t *testing.T) {
		// The text names the Windows pools and groups.
		res := runKubeletcfg(t, nil, "cluster", "lint", "--kubeconfig", admin, "-l", eksPool+" in (mixed-137,win-137)")
		for _, want := range []string{
			"pool mixed-137: 1 node\n", "pool mixed-137 (windows): 1 node\n", "pool win-137 (windows): 2 nodes\n",
			"kubelet 1.37 (windows): does NOT start", "4 nodes in 2 pools (3 configuration groups)",
		} {
			if !bytes.Contains(res.stdout, []byte(want)) {
				t.Errorf("text lacks %q:\n%s", want, res.stdout)
			}
		}
		// To 1.38 (recorded under Wine too): the Windows pool starts, and
		// what the Windows kubelet defaults (its evictionHard) or needs
		// (cgroupsPerQOS false) is no change.
		res = runKubeletcfg(t, nil, "cluster", "preflight", "--to", "1.38", "-o", "json", "--kubeconfig", admin, "-l", eksPool+"=win-137")
		r := decodeReport(t, res)
		if len(r.Groups) != 1 || r.Groups[0].OS != "windows" || r.Groups[0].Starts == nil || !*r.Groups[0].Starts || len(r.Groups[0].Blockers) != 0 {
			t.Fatalf("groups %+v: want win-137's one group, starting at 1.38\nstderr: %s", r.Groups, res.stderr)
		}
		for _, c := range r.Groups[0].Changes {
			if strings.HasPrefix(c.Path, "evictionHard") || c.Path == "cgroupsPerQOS" || c.Path == "enforceNodeAllocatable" {
				t.Errorf("change of %s from 1.37 to 1.38 on Windows", c.Path)
			}
		}
	})
}

// flagzLine is the command line's runtime endpoint in flagz's text form (its
// separator is picked at random per response, against machine parsing).
var flagzLine = regexp.MustCompile(`(?m)^container-runtime-endpoint(:|: |=| )unix:///run/containerd/containerd\.sock$`)

// testEnvironment checks the test cluster itself: the API server proxies to
// each node's kubelet, which serves the recorded configuration at /configz and
// its flags at /flagz (1.36 and later); a user without nodes/proxy gets 403; the
// down node does not answer.
func testEnvironment(t *testing.T, e *env, nodes []node) {
	ctx := context.Background()
	rc := e.client.CoreV1().RESTClient()
	for _, n := range nodes {
		body, err := rc.Get().AbsPath("/api/v1/nodes", n.Name, "proxy", "configz").DoRaw(ctx)
		if n.Down {
			if err == nil {
				t.Errorf("%s: configz answered, the node should be down", n.Name)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: configz through the API server: %v", n.Name, err)
			continue
		}
		var served struct {
			KubeletConfig map[string]any `json:"kubeletconfig"`
		}
		if err := json.Unmarshal(body, &served); err != nil {
			t.Errorf("%s: configz: %v", n.Name, err)
			continue
		}
		raw, _ := golden(t, n.Config)
		var want map[string]any
		check(t, json.Unmarshal(raw, &want))
		if !reflect.DeepEqual(served.KubeletConfig, want) {
			t.Errorf("%s: configz serves\n%s\nwant the recorded %s/%s configuration", n.Name, body, n.Config.Minor, n.Config.Case)
		}

		flags, err := rc.Get().AbsPath("/api/v1/nodes", n.Name, "proxy", "flagz").DoRaw(ctx)
		switch {
		case flagzServed(n.Config.Minor) && err != nil:
			t.Errorf("%s: flagz: %v", n.Name, err)
		case flagzServed(n.Config.Minor) && !flagzLine.Match(flags):
			t.Errorf("%s: flagz does not report the command line:\n%s", n.Name, flags)
		case !flagzServed(n.Config.Minor) && !apierrors.IsNotFound(err):
			t.Errorf("%s: flagz on a %s kubelet: %v, want 404", n.Name, n.Config.Minor, err)
		}
	}

	limited, err := kubernetes.NewForConfig(e.restConfig(e.tokens[userNodesOnly]))
	check(t, err)
	if _, err := limited.CoreV1().Nodes().List(ctx, metav1.ListOptions{}); err != nil {
		t.Errorf("%s: listing nodes: %v", userNodesOnly, err)
	}
	_, err = limited.CoreV1().RESTClient().Get().AbsPath("/api/v1/nodes", nodes[0].Name, "proxy", "configz").DoRaw(ctx)
	if !apierrors.IsForbidden(err) {
		t.Errorf("%s: configz through the API server: %v, want 403", userNodesOnly, err)
	}
}

// checkLintReport checks an administrator's `cluster lint` of clusterNodes.
func checkLintReport(t *testing.T, res cmdResult, nodes []node) {
	t.Helper()
	if res.code != 0 && res.code != 1 {
		t.Fatalf("exit %d, want 0 or 1 (findings)\nstderr: %s", res.code, res.stderr)
	}
	r := decodeReport(t, res)
	if len(r.Nodes) != len(nodes) {
		t.Fatalf("%d nodes, want %d", len(r.Nodes), len(nodes))
	}
	sorted := append([]node(nil), nodes...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	for i, n := range sorted {
		got := r.Nodes[i]
		wantMinor := n.Config.Minor
		if !knownMinor(n.Version) {
			wantMinor = ""
		}
		wantFlags := "unknown"
		if !n.Down && knownMinor(n.Version) && flagzServed(n.Config.Minor) {
			wantFlags = "known"
		}
		wantPool := ""
		for _, v := range n.Labels {
			wantPool = v
		}
		if got.Name != n.Name || got.Pool != wantPool || got.OS != n.os() || got.KubeletVersion != n.Version || got.Minor != wantMinor {
			t.Errorf("node %d: %+v, want name %s pool %s os %s kubeletVersion %s minor %q", i, got, n.Name, wantPool, n.os(), n.Version, wantMinor)
		}
		if !n.Down && wantMinor != "" && got.Flags != wantFlags {
			t.Errorf("%s: flags %q, want %q", n.Name, got.Flags, wantFlags)
		}
	}

	// Drift in ng-136 only; one configuration per other pool, mixed-137's
	// Linux and Windows nodes each a pool entry of their own.
	wantPools := map[string]struct{ nodes, configurations int }{
		"ng-134/linux": {2, 1}, "ng-136/linux": {3, 2}, "pool-137/linux": {3, 1}, "legacy/linux": {1, 0},
		"win-137/windows": {2, 1}, "mixed-137/linux": {1, 1}, "mixed-137/windows": {1, 1},
	}
	for _, p := range r.Pools {
		w, ok := wantPools[p.Name+"/"+p.OS]
		if !ok {
			t.Errorf("unexpected pool %q (%s)", p.Name, p.OS)
			continue
		}
		delete(wantPools, p.Name+"/"+p.OS)
		if p.Nodes != w.nodes || (p.Name != "legacy" && p.Configurations != w.configurations) || p.Drift != (p.Name == "ng-136") {
			t.Errorf("pool %s: %+v, want %d nodes, %d configurations, drift %v", p.Name, p, w.nodes, w.configurations, p.Name == "ng-136")
		}
	}
	for name := range wantPools {
		t.Errorf("pool %s missing", name)
	}

	// The drifted node is in a group of its own; its pool mates share one.
	groupOf := map[string]string{}
	for _, n := range r.Nodes {
		groupOf[n.Name] = n.Group
	}
	if groupOf["ng-136-a"] == "" || groupOf["ng-136-a"] != groupOf["ng-136-b"] || groupOf["ng-136-c"] == groupOf["ng-136-a"] {
		t.Errorf("ng-136 groups: a=%q b=%q c=%q, want a and b together, c apart", groupOf["ng-136-a"], groupOf["ng-136-b"], groupOf["ng-136-c"])
	}
	if groupOf["ng-134-a"] == groupOf["ng-136-a"] {
		t.Errorf("ng-134 and ng-136 share group %q: different minors and pools", groupOf["ng-134-a"])
	}

	// The Windows nodes are checked as the Windows kubelet: mixed-137's two
	// nodes serve the same configz and flags and are two groups, the Linux
	// one starting, the Windows one refused (defaultPodSysctls, KC5105); the
	// Windows pool starts without the Windows kubelet's warnings.
	if groupOf["mixed-137-linux"] == "" || groupOf["mixed-137-linux"] == groupOf["mixed-137-windows"] {
		t.Errorf("mixed-137 groups: linux %q, windows %q: want two", groupOf["mixed-137-linux"], groupOf["mixed-137-windows"])
	}
	for _, tt := range []struct {
		node, os string
		starts   bool
		rules    []string // among the findings
		without  []string // not among them
	}{
		{"mixed-137-linux", "linux", true, nil, []string{"KC5101", "KC5103", "KC5105"}},
		{"mixed-137-windows", "windows", false, []string{"KC5101", "KC5105"}, nil},
		{"win-137-a", "windows", true, nil, []string{"KC5101", "KC5103", "KC5105", "KC2508"}},
	} {
		found := false
		for _, g := range r.Groups {
			if !slices.Contains(g.Nodes, tt.node) {
				continue
			}
			found = true
			var rules []string
			for _, f := range g.Findings {
				rules = append(rules, f.Rule)
			}
			if g.OS != tt.os || g.Starts == nil || *g.Starts != tt.starts {
				t.Errorf("%s's group %s: os %q, starts %v; want %s, %v (findings %v)", tt.node, g.ID, g.OS, g.Starts, tt.os, tt.starts, rules)
			}
			for _, rule := range tt.rules {
				if !slices.Contains(rules, rule) {
					t.Errorf("%s's group: findings %v lack %s", tt.node, rules, rule)
				}
			}
			for _, rule := range tt.without {
				if slices.Contains(rules, rule) {
					t.Errorf("%s's group: findings %v have %s", tt.node, rules, rule)
				}
			}
		}
		if !found {
			t.Errorf("%s: in no group", tt.node)
		}
	}
	checkFailures(t, r, nodes, "")
	if len(r.Results) == 0 || string(r.Results) == "null" {
		t.Errorf("no results")
	}
}

// expectedFailure is the reason a node fails for (given the run's general
// reason, "" when the user may reach kubelets).
func expectedFailure(n node, general string) string {
	switch {
	case !knownMinor(n.Version):
		return "unknown-minor"
	case general != "":
		return general
	case n.Down:
		return "unreachable"
	}
	return ""
}

func checkFailures(t *testing.T, r report, nodes []node, general string) {
	t.Helper()
	got := map[string]string{}
	var order []string
	for _, f := range r.Failures {
		got[f.Node] = f.Reason
		order = append(order, f.Node)
		if f.Message == "" {
			t.Errorf("%s: failure %s without a message", f.Node, f.Reason)
		}
	}
	for i := 1; i < len(order); i++ {
		if order[i-1] > order[i] {
			t.Errorf("failures not sorted by node: %v", order)
			break
		}
	}
	for _, n := range nodes {
		if want := expectedFailure(n, general); got[n.Name] != want {
			t.Errorf("%s: failure %q, want %q", n.Name, got[n.Name], want)
		}
	}
}

// os is the node's status.nodeInfo.operatingSystem.
func (n node) os() string {
	if n.OS == "" {
		return "linux"
	}
	return n.OS
}

// knownMinor: kubeletcfg knows 1.31 to 1.37.
func knownMinor(version string) bool {
	for m := 31; m <= 37; m++ {
		if strings.HasPrefix(version, fmt.Sprintf("v1.%d.", m)) {
			return true
		}
	}
	return false
}

type cmdResult struct {
	stdout, stderr []byte
	code           int
	took           time.Duration
}

// runKubeletcfg runs the binary TestMain built, with HOME empty so that no
// ~/.kube/config is read.
func runKubeletcfg(t testing.TB, env []string, args ...string) cmdResult {
	t.Helper()
	return runCommand(t, env, os.Getenv(binEnv), args...)
}

func runCommand(t testing.TB, env []string, name string, args ...string) cmdResult {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = append([]string{"HOME=" + t.TempDir(), "PATH=" + os.Getenv("PATH")}, env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	res := cmdResult{stdout: stdout.Bytes(), stderr: stderr.Bytes(), took: time.Since(start)}
	if ee, ok := err.(*exec.ExitError); ok {
		res.code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	t.Logf("%s %s: exit %d in %v", filepath.Base(name), strings.Join(args, " "), res.code, res.took.Round(time.Millisecond))
	return res
}

func decodeReport(t testing.TB, res cmdResult) report {
	t.Helper()
	var r report
	if err := json.Unmarshal(res.stdout, &r); err != nil {
		t.Fatalf("output is not the JSON report: %v\nstdout: %s\nstderr: %s", err, res.stdout, res.stderr)
	}
	return r
}

func sameOutput(t *testing.T, res cmdResult, want []byte, what string) {
	t.Helper()
	if res.code != 0 && res.code != 1 {
		t.Fatalf("exit %d\nstderr: %s", res.code, res.stderr)
	}
	if len(want) == 0 {
		t.Skip("no reference output (lint failed)")
	}
	if !bytes.Equal(res.stdout, want) {
		t.Errorf("output differs from %s:\n%s\nwant\n%s", what, res.stdout, want)
	}
}

func (e *env) restConfig(token string) *rest.Config {
	return &rest.Config{Host: e.host, BearerToken: token, TLSClientConfig: rest.TLSClientConfig{CAData: e.caPEM}}
}

func (e *env) kubeconfigFor(name, server, token string) string {
	path := e.kubeconfig(name, token)
	data, err := os.ReadFile(path)
	check(e.t, err)
	check(e.t, os.WriteFile(path, bytes.Replace(data, []byte(e.host), []byte(server), 1), 0o600))
	return path
}

// runInCluster runs kubeletcfg as a pod would: deploy/rbac.yaml's
// ServiceAccount, its token (TokenRequest) and the cluster CA at
// /var/run/secrets/kubernetes.io/serviceaccount, KUBERNETES_SERVICE_HOST and
// _PORT set, no kubeconfig. client-go reads that fixed path, so the command
// runs in a mount namespace of its own (unshare --mount) with a tmpfs on /run
// (/var/run's target) holding the files; the machine's /run is untouched.
func (e *env) runInCluster(t *testing.T, args ...string) cmdResult {
	tr, err := e.client.CoreV1().ServiceAccounts("kubeletcfg").CreateToken(context.Background(), "kubeletcfg", &authenticationv1.TokenRequest{
		Spec: authenticationv1.TokenRequestSpec{ExpirationSeconds: ptr(int64(3600))},
	}, metav1.CreateOptions{})
	check(t, err)

	src := t.TempDir()
	check(t, os.WriteFile(filepath.Join(src, "token"), []byte(tr.Status.Token), 0o600))
	check(t, os.WriteFile(filepath.Join(src, "ca.crt"), e.caPEM, 0o644))
	check(t, os.WriteFile(filepath.Join(src, "namespace"), []byte("kubeletcfg"), 0o644))
	hostPort := strings.TrimPrefix(e.host, "https://")
	i := strings.LastIndex(hostPort, ":")
	script := `set -e
mount -t tmpfs tmpfs /run
mkdir -p /run/secrets/kubernetes.io/serviceaccount
cp "$SRC"/token "$SRC"/ca.crt "$SRC"/namespace /run/secrets/kubernetes.io/serviceaccount/
exec "$@"`
	return runCommand(t, []string{"SRC=" + src, "KUBERNETES_SERVICE_HOST=" + hostPort[:i], "KUBERNETES_SERVICE_PORT=" + hostPort[i+1:]},
		"unshare", append([]string{"--mount", "--propagation", "private", "sh", "-c", script, "sh", os.Getenv(binEnv)}, args...)...)
}

func ptr[T any](v T) *T { return &v }

// serveBrokenKubelet serves body at every path of n's kubelet address, with a
// serving certificate the API server trusts: a kubelet that answers what no
// kubelet should. It stops at t's cleanup.
func (e *env) serveBrokenKubelet(t *testing.T, n node, body []byte) {
	t.Helper()
	ca, err := loadCA(e.servingCACert, e.servingCAKey)
	check(t, err)
	certPEM, keyPEM, err := ca.issue(n.Name, []net.IP{net.ParseIP(n.IP)}, false)
	check(t, err)
	cert, err := tls.X509KeyPair(certPEM, keyPEM)
	check(t, err)
	ln, err := net.Listen("tcp", net.JoinHostPort(n.IP, fmt.Sprint(kubeletPort)))
	check(t, err)
	srv := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(body)
		}),
		TLSConfig:         &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12},
		ReadHeaderTimeout: 30 * time.Second,
	}
	go func() { _ = srv.ServeTLS(ln, "", "") }()
	t.Cleanup(func() { _ = srv.Close() })
}

// TestClusterContexts: one run over two real clusters (each its own etcd and
// kube-apiserver, nodes and kubelets) and a context whose API server does not
// answer: --context repeated and --all-contexts report each cluster under its
// context, the dead one with its reason, without stopping the others.
func TestClusterContexts(t *testing.T) {
	a := startEnvAt(t, 2379)
	b := startEnvAt(t, 2479)
	eks136, gke137 := config{"1.36", "396-real-eks", false}, config{"1.37", "399-real-gke", false}
	poolNodes := func(first int, pool string, c config) []node {
		_, version := golden(t, c)
		var nodes []node
		for i, name := range []string{pool + "-a", pool + "-b"} {
			nodes = append(nodes, node{Name: name, Labels: map[string]string{eksPool: pool}, Version: version, IP: nodeIP(first + i), Config: c, Flags: kubeadmFlags})
		}
		return nodes
	}
	a.addNodes(poolNodes(20, "ng-136", eks136))
	b.addNodes(poolNodes(30, "pool-137", gke137))

	cfg := clientcmdapi.NewConfig()
	for name, e := range map[string]*env{"a": a, "b": b, "dead": a, "dead2": a} {
		server := e.host
		if strings.HasPrefix(name, "dead") {
			server = "https://127.0.0.1:1" // nothing listens in the namespace
		}
		cfg.Clusters[name] = &clientcmdapi.Cluster{Server: server, CertificateAuthorityData: e.caPEM}
		cfg.AuthInfos[name] = &clientcmdapi.AuthInfo{Token: e.tokens[userReader]}
		cfg.Contexts[name] = &clientcmdapi.Context{Cluster: name, AuthInfo: name}
	}
	cfg.CurrentContext = "b"
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	check(t, clientcmd.WriteToFile(*cfg, kubeconfig))

	type multi struct {
		Contexts map[string]report `json:"contexts"`
		Errors   map[string]string `json:"errors"`
	}
	decode := func(t *testing.T, res cmdResult) multi {
		t.Helper()
		var m multi
		if err := json.Unmarshal(res.stdout, &m); err != nil {
			t.Fatalf("output is not the JSON of several contexts: %v\nstdout: %s\nstderr: %s", err, res.stdout, res.stderr)
		}
		return m
	}
	checkClusters := func(t *testing.T, m multi) {
		t.Helper()
		for name, pool := range map[string]string{"a": "ng-136", "b": "pool-137"} {
			r, ok := m.Contexts[name]
			if !ok {
				t.Errorf("context %s: no report", name)
				continue
			}
			if len(r.Nodes) != 2 || len(r.Failures) != 0 || len(r.Pools) != 1 || r.Pools[0].Name != pool {
				t.Errorf("context %s: nodes %+v, pools %+v, failures %+v: want pool %s's two nodes, read", name, r.Nodes, r.Pools, r.Failures, pool)
			}
		}
	}

	t.Run("two-clusters", func(t *testing.T) {
		res := runKubeletcfg(t, nil, "cluster", "preflight", "--to", "1.37", "-o", "json", "--kubeconfig", kubeconfig, "--context", "a", "--context", "b")
		m := decode(t, res)
		checkClusters(t, m)
		if len(m.Errors) != 0 || len(m.Contexts) != 2 {
			t.Errorf("contexts %v, errors %v: want a and b", len(m.Contexts), m.Errors)
		}
		// Both configurations start at 1.37 (the real kubelet started with
		// the 1.37 one; the 1.36 one has no finding at error).
		if res.code != 0 {
			t.Errorf("exit %d, want 0\nstderr: %s", res.code, res.stderr)
		}
	})

	t.Run("one-dead", func(t *testing.T) {
		res := runKubeletcfg(t, nil, "cluster", "preflight", "--to", "1.37", "-o", "json", "--kubeconfig", kubeconfig, "--context", "a", "--context", "b", "--context", "dead")
		if res.code != 1 {
			t.Errorf("exit %d, want 1: the dead cluster counts as an error\nstderr: %s", res.code, res.stderr)
		}
		m := decode(t, res)
		checkClusters(t, m)
		if len(m.Errors) != 1 || !strings.HasPrefix(m.Errors["dead"], "cannot reach the API server at https://127.0.0.1:1") {
			t.Errorf("errors %v: want dead's", m.Errors)
		}
		if res.took > 60*time.Second {
			t.Errorf("took %v", res.took)
		}
	})

	t.Run("all-contexts", func(t *testing.T) {
		res := runKubeletcfg(t, nil, "cluster", "preflight", "--to", "1.37", "--kubeconfig", kubeconfig, "--all-contexts")
		if res.code != 1 {
			t.Errorf("exit %d, want 1\nstderr: %s", res.code, res.stderr)
		}
		out := string(res.stdout)
		var order []string
		for _, line := range strings.Split(out, "\n") {
			if name, ok := strings.CutPrefix(line, "=== context "); ok {
				order = append(order, name)
			}
		}
		if len(order) != 4 || !strings.HasPrefix(order[0], "a: "+a.host) || !strings.HasPrefix(order[1], "b: "+b.host) ||
			!strings.HasPrefix(order[2], "dead: could not be read: cannot reach the API server at https://127.0.0.1:1") || !strings.HasPrefix(order[3], "dead2: could not be read:") {
			t.Errorf("sections %q: want a, b, dead, dead2 in that order", order)
		}
		for _, want := range []string{"pool ng-136: 2 nodes", "pool pool-137: 2 nodes", "4 contexts: 2 read, 2 could not be read\n"} {
			if !strings.Contains(out, want) {
				t.Errorf("output lacks %q:\n%s", want, out)
			}
		}
	})

	t.Run("current-context", func(t *testing.T) {
		// One context: the report of one cluster, as before.
		res := runKubeletcfg(t, nil, "cluster", "preflight", "--to", "1.37", "-o", "json", "--kubeconfig", kubeconfig)
		r := decodeReport(t, res)
		if len(r.Nodes) != 2 || r.Nodes[0].Name != "pool-137-a" {
			t.Errorf("nodes %+v: want b's", r.Nodes)
		}
	})

	t.Run("none-reachable", func(t *testing.T) {
		res := runKubeletcfg(t, nil, "cluster", "lint", "--kubeconfig", kubeconfig, "--context", "dead", "--context", "dead2", "-o", "json")
		if res.code != 2 || len(res.stdout) != 0 || !bytes.HasPrefix(res.stderr, []byte("kubeletcfg: no context could be read: dead: cannot reach the API server at https://127.0.0.1:1")) ||
			!bytes.Contains(res.stderr, []byte("; dead2: ")) || bytes.Count(res.stderr, []byte("\n")) != 1 {
			t.Errorf("exit %d, stdout %q, stderr %q: want exit 2 and one line naming each API server", res.code, res.stdout, res.stderr)
		}
	})
}
