package main

import (
	"bytes"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/kubeletcfg/kubeletcfg/input/kubeletcmd"
	"github.com/kubeletcfg/kubeletcfg/internal/testonly/testkubelet"
	"github.com/kubeletcfg/kubeletcfg/report"
)

// The determinism inputs: a main file with findings and drop-ins that set many
// gates the kubelet does not register (the kubelet names one of them, picked by
// Go map order), locked gates and several files; nodes/ holds two nodes for
// lint --nodes, which evaluates them in parallel.
const det = "testdata/determinism"

// determinismRuns is how often each command runs (a two-way random choice slips
// through ten runs once in 512); map order differs from run to
// run (and from the first run of a process, which fills the caches, to the next).
const determinismRuns = 10

// determinismCommands is every command a user can run, with every output format
// it has, on inputs that exercise map order. TestDeterminismCoversCommands fails
// when a command is missing.
func determinismCommands() [][]string {
	lint := []string{"-c", det + "/config.yaml", "-d", det + "/conf.d"}
	var cmds [][]string
	for _, f := range report.Formats() {
		cmds = append(cmds,
			append([]string{"lint", "-o", f}, lint...),
			append([]string{"lint", "-o", f, "--kubelet-version", "1.31"}, lint...),
			append([]string{"lint", "-o", f, "--profile", "cis"}, lint...),
			append([]string{"skew", "-o", f, "--versions", "1.31..1.37"}, lint...),
		)
	}
	for _, f := range report.Formats() {
		cmds = append(cmds,
			[]string{"lint", "-o", f, "--nodes", det + "/nodes"},
			[]string{"lint", "-o", f, det + "/config.yaml", det + "/nodes/node-a/config.yaml"},
			[]string{"lint", "-o", f, inputs + "kind.yaml"}, // a kind cluster: a report per node
		)
	}
	for _, f := range []string{"text", "json"} {
		cmds = append(cmds,
			append([]string{"preflight", "-o", f, "--from", "1.31", "--to", "1.37"}, lint...),
			[]string{"backoff", "-o", f, "-c", det + "/nodes/node-a/config.yaml", "--compare", det + "/config.yaml"},
			[]string{"explain", "-o", f, "featureGates"},
			[]string{"explain", "-o", f, "evictionHard[memory.available]"},
			[]string{"version", "-o", f},
			[]string{"dropin", "new", "60-x.conf", "-o", f, "--dry-run", "--allow-override", "--config", det + "/nodes/node-a/config.yaml",
				"--config-dir", det + "/nodes/node-a", "--set", "maxPods=110", "--set", "evictionHard[memory.available]=200Mi",
				"--feature-gate", "KubeletCrashLoopBackOffMax=true", "--versions", "1.31..1.37"},
		)
	}
	for _, f := range []string{"yaml", "json"} {
		cmds = append(cmds,
			[]string{"effective", "-o", f, "-c", det + "/nodes/node-a/config.yaml"},
			[]string{"effective", "-o", f, "-c", det + "/config.yaml", "-d", det + "/conf.d", "--kubelet-version", "1.31"},
		)
	}
	for _, f := range []string{"text", "markdown"} {
		cmds = append(cmds, []string{"rules", "-o", f})
	}
	return append(cmds,
		append([]string{"fix", "--diff"}, lint...),
		[]string{"fix", "--diff", "-c", "../../testdata/fix/node/config.yaml", "-d", "../../testdata/fix/node/conf.d"},
		[]string{"effective", "--show-origin", "-c", det + "/config.yaml", "-d", det + "/conf.d", "--kubelet-version", "1.31"},
		[]string{"dropin", "diff", "--from", det + "/config.yaml", "--from", det + "/nodes/node-b/conf.d", "--to", det + "/nodes/node-a/config.yaml", "--versions", "1.32..1.37"},
		[]string{"dropin", "diff", "--from", "../../testdata/dropin/node/config.yaml", "--from", "../../testdata/dropin/node/conf.d", "--to", "../../testdata/dropin/golden.yaml", "--versions", "1.32..1.37"},
		[]string{"schema", "--kubelet-version", "1.34"},
		[]string{"versions"},
		[]string{"explain"},
	)
}

// TestDeterminism runs every command with every output format many times and
// requires byte-identical stdout, stderr and exit code each time.
func TestDeterminism(t *testing.T) {
	runs := determinismRuns
	if testing.Short() {
		runs = 3
	}
	for _, args := range determinismCommands() {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var first string
			for i := 0; i < runs; i++ {
				var stdout, stderr bytes.Buffer
				code := run(args, &stdout, &stderr)
				got := fmt.Sprintf("exit %d\n%s\n--- stderr\n%s", code, stdout.String(), stderr.String())
				if i == 0 {
					first = got
					continue
				}
				if got != first {
					t.Fatalf("run %d differs from run 1:\n--- run 1\n%s\n--- run %d\n%s", i+1, first, i+1, got)
				}
			}
		})
	}
}

// TestDeterminismCoversCommands: every runnable command is in the determinism
// table, so a new command cannot skip it.
func TestDeterminismCoversCommands(t *testing.T) {
	covered := map[string]bool{}
	root := newRootCommand()
	for _, args := range append(determinismCommands(), liveDeterminismCommands...) {
		c, _, err := root.Find(args)
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		covered[c.CommandPath()] = true
	}
	var missing []string
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			// webhook is a server: admission's TestReviewDeterministic checks its answers.
			if sub.Hidden || sub.Name() == "help" || sub.Name() == "completion" || sub.Name() == "webhook" {
				continue
			}
			if sub.Runnable() && !covered[sub.CommandPath()] {
				missing = append(missing, sub.CommandPath())
			}
			walk(sub)
		}
	}
	walk(root)
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("commands not run by TestDeterminism: %s", strings.Join(missing, ", "))
	}
}

// The determinism inputs must make the kubelet pick at random, or the test
// proves nothing: several unknown gates in one featureGates map.
func TestDeterminismInputsAreRandomForTheKubelet(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(det, "conf.d", "10-gates.conf"))
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	run([]string{"lint", "-o", "json", "-c", det + "/config.yaml", "-d", det + "/conf.d"}, &stdout, &stderr)
	if n := strings.Count(stdout.String(), "chosen at random"); n < 5 {
		t.Errorf("%d findings say the kubelet picks at random; want the gates of 10-gates.conf (%d bytes)", n, len(raw))
	}
}

// liveDeterminismCommands need a live peer (an API server, a running kubelet),
// started once by TestDeterminismLive so that every run sees the same peer.
var liveDeterminismCommands = [][]string{
	{"cluster", "lint"}, {"cluster", "preflight"}, {"discover"},
}

// TestDeterminismLive: cluster lint and preflight against one fake API server
// (nodes fetched concurrently), and discover of one running kubelet, give the
// same bytes run after run, in every output format.
func TestDeterminismLive(t *testing.T) {
	runs := determinismRuns
	if testing.Short() {
		runs = 3
	}
	same := func(t *testing.T, do func() string) {
		first := do()
		for i := 1; i < runs; i++ {
			if got := do(); got != first {
				t.Fatalf("run %d differs from run 1:\n--- run 1\n%s\n--- run %d\n%s", i+1, first, i+1, got)
			}
		}
	}
	c := newFakeCluster(t)
	srv := httptest.NewTLSServer(c)
	t.Cleanup(srv.Close)
	for _, f := range []string{"text", "json"} {
		for _, args := range [][]string{{"cluster", "lint", "-o", f}, {"cluster", "preflight", "--to", "1.37", "-o", f}} {
			t.Run(strings.Join(args, " "), func(t *testing.T) {
				same(t, func() string {
					var out, errb bytes.Buffer
					code := run(append(args, "--server", srv.URL, "--token", "t0ken", "--insecure-skip-tls-verify", "--kubeconfig", os.DevNull), &out, &errb)
					return fmt.Sprintf("exit %d\n%s\n--- stderr\n%s", code, out.String(), errb.String())
				})
			})
		}
	}

	const host = "../../testdata/hosts/eks-al2023"
	u, err := kubeletcmd.LoadUnit(host, "kubelet.service")
	if err != nil {
		t.Fatal(err)
	}
	bin := testkubelet.Build(t, "-ldflags=-X k8s.io/component-base/version.gitVersion=v1.34.2")
	pid, _ := testkubelet.Start(t, bin, kubeletcmd.Texts(u.Args))
	at := []string{"--pid", strconv.Itoa(pid), "--host-root", host, "--proc-root", "/proc", "--unit", "kubelet.service"}
	for _, f := range []string{"text", "json"} {
		t.Run("discover -o "+f, func(t *testing.T) {
			same(t, func() string {
				var out, errb bytes.Buffer
				code := run(append([]string{"discover", "-o", f}, at...), &out, &errb)
				return fmt.Sprintf("exit %d\n%s\n--- stderr\n%s", code, out.String(), errb.String())
			})
		})
	}
}
