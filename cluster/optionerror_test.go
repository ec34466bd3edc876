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
}
