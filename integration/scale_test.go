package integration

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"
)

// scaleEnv opts in to TestScale: it starts 50 kubelet processes and creates
// 2,000 nodes, a few minutes of both cores with the setup.
const scaleEnv = "KUBELETCFG_IT_SCALE"

// TestScale: `cluster preflight` over 2,000 nodes with 50 distinct
// configurations (ten pools of 200 nodes, five configurations each, pools on
// 1.34, 1.36 and 1.37), default flags, must finish in under 60 s.
func TestScale(t *testing.T) {
	requireNamespace(t)
	if os.Getenv(scaleEnv) == "" {
		t.Skipf("set %s=1 to run (2,000 nodes, 50 kubelet processes)", scaleEnv)
	}
	const pools, perPool, configsPerPool = 10, 200, 5
	minors := []string{"1.34", "1.36", "1.37"}
	byMinor := map[string][]config{}
	for _, m := range minors {
		byMinor[m] = distinctConfigs(t, m, 4*configsPerPool)
	}

	start := time.Now()
	e := startEnv(t)
	var nodes []node
	used := map[string]int{}
	for p := 0; p < pools; p++ {
		minor := minors[p%len(minors)]
		pool := fmt.Sprintf("pool-%02d", p)
		for i := 0; i < perPool; i++ {
			c := byMinor[minor][used[minor]+i%configsPerPool]
			_, version := golden(t, c)
			var flags []string
			if flagzServed(minor) {
				flags = kubeadmFlags
			}
			nodes = append(nodes, node{
				Name:    fmt.Sprintf("%s-%03d", pool, i),
				Labels:  map[string]string{eksPool: pool},
				Version: version,
				IP:      nodeIP(len(nodes)),
				Config:  c,
				Flags:   flags,
			})
		}
		used[minor] += configsPerPool
	}
	e.addNodes(nodes)
	t.Logf("setup: API server, %d nodes, %d kubelet processes in %v", len(nodes), len(e.kubelets), time.Since(start).Round(time.Millisecond))

	admin := e.kubeconfig(userAdmin, e.tokens[userAdmin])
	res := runKubeletcfg(t, nil, "cluster", "preflight", "--to", "1.37", "-o", "json", "--kubeconfig", admin)
	if res.code != 0 && res.code != 1 {
		t.Fatalf("exit %d\nstderr: %s", res.code, res.stderr)
	}
	r := decodeReport(t, res)
	t.Logf("cluster preflight --to 1.37 over %d nodes, %d groups: %v", len(r.Nodes), len(r.Groups), res.took.Round(time.Millisecond))
	if res.took > 60*time.Second {
		t.Errorf("took %v, budget 60s", res.took)
	}
	if len(r.Nodes) != len(nodes) || len(r.Failures) != 0 {
		t.Errorf("%d nodes, %d failures (first: %+v), want %d and none", len(r.Nodes), len(r.Failures), first(r.Failures), len(nodes))
	}
	if len(r.Groups) != pools*configsPerPool {
		t.Errorf("%d groups, want %d", len(r.Groups), pools*configsPerPool)
	}
	for _, p := range r.Pools {
		if p.Nodes != perPool || p.Configurations != configsPerPool || !p.Drift {
			t.Errorf("pool %+v, want %d nodes, %d configurations, drift", p, perPool, configsPerPool)
		}
	}

	// What bounds it: one configz read per node and one flagz read per node
	// from 1.36, within the client's default --qps 100. The same run with the
	// rate limit lifted shows what is left.
	requests := len(nodes)
	for _, n := range nodes {
		if flagzServed(n.Config.Minor) {
			requests++
		}
	}
	t.Logf("%d proxied reads: %.1fs at the default 100 QPS", requests, float64(requests)/100)
	res = runKubeletcfg(t, nil, "cluster", "preflight", "--to", "1.37", "-o", "json", "--kubeconfig", admin, "--qps", "2000", "--burst", "4000")
	t.Logf("cluster preflight --to 1.37 --qps 2000 --burst 4000: exit %d in %v", res.code, res.took.Round(time.Millisecond))
	res = runKubeletcfg(t, nil, "cluster", "lint", "-o", "json", "--kubeconfig", admin)
	t.Logf("cluster lint over %d nodes: %v", len(nodes), res.took.Round(time.Millisecond))
}

func first[T any](s []T) any {
	if len(s) == 0 {
		return nil
	}
	return s[0]
}

// distinctConfigs picks n recorded configurations of a minor the real kubelet
// started with, all different, in case order.
func distinctConfigs(t testing.TB, minor string, n int) []config {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "testdata", "conformance", "golden", minor, "*.json"))
	check(t, err)
	sort.Strings(files)
	seen := map[string]bool{}
	var out []config
	for _, f := range files {
		data, err := os.ReadFile(f)
		check(t, err)
		var g struct {
			Starts    bool            `json:"starts"`
			Effective json.RawMessage `json:"effective"`
		}
		check(t, json.Unmarshal(data, &g))
		if !g.Starts || len(g.Effective) == 0 || seen[string(g.Effective)] {
			continue
		}
		seen[string(g.Effective)] = true
		out = append(out, config{Minor: minor, Case: filepath.Base(f[:len(f)-len(".json")])})
		if len(out) == n {
			return out
		}
	}
	t.Fatalf("only %d distinct configurations recorded at %s, want %d", len(out), minor, n)
	return nil
}
