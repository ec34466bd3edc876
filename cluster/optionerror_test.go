package cluster_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"k8s.io/client-go/tools/clientcmd"

	"github.com/kubeletcfg/kubeletcfg"
	"github.com/kubeletcfg/kubeletcfg/cluster"
	"github.com/kubeletcfg/kubeletcfg/fleet"
)

// TestRequestErrorWords: the request's errors name Request's fields, and the
// command's flags through kubeletcfg.CommandWords (beside the root's
// TestOptionErrorWords).
func TestRequestErrorWords(t *testing.T) {
	empty := filepath.Join(t.TempDir(), "kubeconfig")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	bounds := cluster.Request{QPS: fleet.DefaultQPS, Burst: fleet.DefaultBurst, Fetch: fleet.FetchOptions{NodeTimeout: fleet.DefaultNodeTimeout}}
	run := func(req cluster.Request) error {
		_, err := cluster.Run(context.Background(), req)
		return err
	}
	// A node newer than preflight's target: the group's error, reworded by
	// the command (Fleet.Reword).
	configz, err := os.ReadFile("../testdata/inputs/configz.json")
	if err != nil {
		t.Fatal(err)
	}
	running, _ := kubeletcfg.LookupMinor("1.34", "")
	target, _ := kubeletcfg.LookupMinor("1.33", "")
	newer := cluster.EvaluateNode(&fleet.Node{Name: "node-1", Kubelet: running, Configz: configz}, target, 2)
	for _, tt := range []struct {
		name             string
		err              error
		library, command string
	}{
		{"bounds", bounds.Validate(),
			"Request.Fetch.Concurrency, Request.QPS, Request.Burst and Request.Fetch.NodeTimeout must be positive",
			"--concurrency, --qps, --burst and --node-timeout must be positive"},
		{"all and some contexts", run(cluster.Request{Contexts: []string{"prod"}, AllContexts: true}),
			"Request.AllContexts reads every context: leave out Request.Contexts",
			"--all-contexts reads every context: leave out --context"},
		{"no contexts", run(cluster.Request{Kubeconfig: &clientcmd.ClientConfigLoadingRules{ExplicitPath: empty}, AllContexts: true}),
			"Request.AllContexts: the kubeconfig has no contexts",
			"--all-contexts: the kubeconfig has no contexts"},
		{"node newer than the target", newer.Err,
			"the nodes run kubelet 1.34, newer than Request.Target 1.33",
			"the nodes run kubelet 1.34, newer than --to 1.33"},
	} {
		if tt.err == nil {
			t.Errorf("%s: no error", tt.name)
			continue
		}
		if got := tt.err.Error(); got != tt.library {
			t.Errorf("%s, library: %q, want %q", tt.name, got, tt.library)
		}
		if got := kubeletcfg.CommandWords(tt.err); got != tt.command {
			t.Errorf("%s, command: %q, want %q", tt.name, got, tt.command)
		}
	}
	f := &fleet.Fleet{Contexts: map[string]*fleet.Report{"": {Groups: []fleet.Group{{Eval: newer, Error: newer.Err.Error()}}}}}
	f.Reword(kubeletcfg.CommandWords)
	if got, want := f.Contexts[""].Groups[0].Error, "the nodes run kubelet 1.34, newer than --to 1.33"; got != want {
		t.Errorf("Reword: %q, want %q", got, want)
	}
}
