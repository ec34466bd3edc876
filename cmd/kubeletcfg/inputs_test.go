package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/internal/testonly/testtree"
)

const inputs = "../../testdata/inputs/"

const talos = "../../testdata/bootstrappers/talos/"

// nodeadmExamples are the EKS nodeadm examples of docs/bootstrappers/nodeadm.md.
const nodeadmExamples = "../../testdata/bootstrappers/nodeadm/examples/"

// TestCLIInputs is TestCLI for the input formats (configz dumps, the kubeadm
// ConfigMap, standard input) and lint --nodes: go test ./cmd/kubeletcfg -run
// Inputs -update rewrites these goldens only.
func TestCLIInputs(t *testing.T) {
	tests := []struct {
		name string
		args []string
		exit int
	}{
		{"inputs-configz", []string{"lint", "-c", inputs + "configz.json"}, exitFindings},
		{"inputs-configz-1.33", []string{"lint", "-c", inputs + "configz.json", "--kubelet-version", "1.33"}, exitClean},
		{"inputs-configz-json", []string{"lint", "-c", inputs + "configz.json", "-o", "json"}, exitFindings},
		{"inputs-configz-config-dir", []string{"lint", "-c", inputs + "configz.json", "-d", inputs + "nodes/pool-a-1/conf.d"}, exitUsage},
		{"inputs-kubeadm", []string{"lint", "-c", inputs + "kubelet-config.yaml"}, exitFindings},
		{"inputs-kubeadm-json", []string{"lint", "-c", inputs + "kubelet-config.yaml", "-o", "json"}, exitFindings},
		{"inputs-kubeadm-quoted", []string{"lint", "-c", inputs + "kubelet-config.json"}, exitFindings},
		{"inputs-kubeadm-origin", []string{"effective", "-c", inputs + "kubelet-config.yaml", "--show-origin", "--kubelet-version", "1.33"}, exitFindings},
		{"inputs-kubeadm-skew", []string{"skew", "-c", inputs + "kubelet-config.yaml", "--versions", "1.31,1.37"}, exitFindings},
		{"inputs-kubeadm-fix", []string{"fix", "-c", inputs + "kubelet-config.yaml", "--diff"}, exitUsage},
		{"inputs-kubeadm-config", []string{"lint", "-c", inputs + "kubeadm.yaml"}, exitClean},
		{"inputs-kubeadm-config-as-written", []string{"lint", "-c", inputs + "kubeadm.yaml", "--as-written"}, exitClean},
		{"inputs-kubeadm-config-1.31-json", []string{"lint", "-c", inputs + "kubeadm.yaml", "--kubelet-version", "1.31", "-o", "json"}, exitClean},
		{"inputs-kubeadm-config-origin", []string{"effective", "-c", inputs + "kubeadm.yaml", "--show-origin", "--systemd-resolved"}, exitClean},
		{"inputs-kubeadm-config-preflight", []string{"preflight", "-c", inputs + "kubeadm.yaml", "--from", "1.31", "--to", "1.32"}, exitClean},
		{"inputs-kubeadm-config-skew", []string{"skew", "-c", inputs + "kubeadm.yaml", "--versions", "1.31,1.37"}, exitClean},
		// kubeadm's kubelet-start phase: kubeadm-flags.env from kubeletExtraArgs, criSocket's
		// instance configuration, the API versions each kubeadm minor reads.
		{"inputs-kubeadm-extra-args", []string{"lint", "-c", kubeadmCases + "extra-args-v1beta4/kubeadm.yaml"}, exitFindings},
		{"inputs-kubeadm-join-origin", []string{"effective", "-c", kubeadmCases + "join-worker/kubeadm.yaml", "--show-origin"}, exitClean},
		{"inputs-kubeadm-v1beta3", []string{"lint", "-c", kubeadmCases + "extra-args-v1beta3/kubeadm.yaml"}, exitFindings},
		{"inputs-kind", []string{"lint", "-c", inputs + "kind.yaml"}, exitFindings},
		{"inputs-kind-worker", []string{"lint", "-c", inputs + "kind.yaml", "--kind-node", "dev-worker"}, exitFindings},
		{"inputs-kind-worker-as-written", []string{"lint", "-c", inputs + "kind.yaml", "--kind-node", "dev-worker", "--as-written"}, exitFindings},
		{"inputs-kind-no-such-node", []string{"lint", "-c", inputs + "kind.yaml", "--kind-node", "kind-worker"}, exitUsage},
		// Several nodes with different settings: lint checks each, by kind's names.
		{"inputs-kind-nodes-json", []string{"lint", "-c", inputs + "kind.yaml", "-o", "json"}, exitFindings},
		{"inputs-kind-nodes-sarif", []string{"lint", inputs + "kind.yaml", "-o", "sarif"}, exitFindings},
		{"inputs-kind-nodes-junit", []string{"lint", inputs + "kind.yaml", "-o", "junit"}, exitFindings},
		{"inputs-kind-nodes-github", []string{"lint", inputs + "kind.yaml", "-o", "github"}, exitFindings},
		{"inputs-kind-nodes-quiet", []string{"lint", inputs + "kind.yaml", "-q"}, exitFindings},
		{"inputs-kind-nodes-as-written", []string{"lint", inputs + "kind.yaml", "--as-written", "-q"}, exitFindings},
		{"inputs-kind-nodes-among-paths", []string{"lint", inputs + "kubeadm.yaml", inputs + "kind.yaml"}, exitFindings},
		// The commands that check one kubelet need --kind-node to pick it.
		{"inputs-kind-nodes-skew", []string{"skew", "-c", inputs + "kind.yaml"}, exitUsage},
		{"inputs-kind-nodes-effective", []string{"effective", inputs + "kind.yaml"}, exitUsage},
		{"inputs-kind-worker-skew", []string{"skew", "-c", inputs + "kind.yaml", "--kind-node", "dev-worker2", "--versions", "1.33,1.37"}, exitClean},
		// k0s: a worker profile of k0s.yaml, as k0s v1.36.3+k0s.2 writes it
		// for the kubelet it ships (input/k0s), 1.36 by default; at 1.37, which
		// no k0s release ported ships, a note says so and the --containerd flag
		// k0s v1.36 passes (kubelet 1.37 has none) is left out, not an error.
		{"inputs-k0s", []string{"lint", inputs + "k0s.yaml"}, exitClean},
		{"inputs-k0s-1.37", []string{"lint", inputs + "k0s.yaml", "--kubelet-version", "1.37"}, exitClean},
		{"inputs-k0s-skew", []string{"skew", inputs + "k0s.yaml", "--versions", "1.35..1.38"}, exitClean},
		{"inputs-k0s-preflight", []string{"preflight", inputs + "k0s.yaml", "--from", "1.36", "--to", "1.37", "-o", "json"}, exitClean},
		{"inputs-k0s-origin", []string{"effective", inputs + "k0s.yaml", "--show-origin", "--kubelet-version", "1.36"}, exitClean},
		// k0s decodes the whole ClusterConfig strictly: a misspelled key of
		// spec refuses the file (KC9001, k0s's own error), one below spec.api,
		// which k0s decodes leniently, is dropped (KC9003).
		{"inputs-k0s-strict", []string{"lint", inputs + "k0s-strict.yaml"}, exitFindings},
		// A KubeadmControlPlane is two node groups, its first machine (kubeadm
		// init) and its joining ones (kubeadm join --control-plane): the
		// refusal is joinConfiguration's alone.
		{"inputs-capi-kcp-join", []string{"lint", inputs + "capi-kcp-join.yaml", "-q"}, exitFindings},
		{"inputs-capi-kcp-join-json", []string{"lint", inputs + "capi-kcp-join.yaml", "-o", "json"}, exitFindings},
		{"inputs-capi-kcp-join-object", []string{"lint", inputs + "capi-kcp-join.yaml", "--object", "KubeadmControlPlane/cp (join)", "-q"}, exitFindings},
		// Each worker profile is a node group, k0s's default one too: lint
		// checks each (the refusal is pool-b's alone); --object picks one.
		{"inputs-k0s-profiles", []string{"lint", inputs + "k0s-profiles.yaml", "-q"}, exitFindings},
		{"inputs-k0s-profiles-object", []string{"lint", inputs + "k0s-profiles.yaml", "--object", "WorkerProfile/pool-b", "-q"}, exitFindings},
		{"inputs-k0s-profiles-effective", []string{"effective", inputs + "k0s-profiles.yaml"}, exitClean},
		{"inputs-capi-kcp-join-skew", []string{"skew", inputs + "capi-kcp-join.yaml", "--versions", "1.35..1.36"}, exitClean},
		// k3s: /etc/rancher/k3s/config.yaml, detected by its path and keys.
		{"inputs-k3s", []string{"lint", inputs + "rancher/k3s/config.yaml"}, exitFindings},
		{"inputs-k3s-origin", []string{"effective", inputs + "rancher/k3s/config.yaml", "--show-origin", "--kubelet-version", "1.34"}, exitClean},
		// AKS: a kubeletConfig JSON (az aks nodepool add --kubelet-config), detected by its keys.
		{"inputs-aks", []string{"lint", inputs + "aks-kubeletconfig.json"}, exitClean},
		{"inputs-aks-origin", []string{"effective", inputs + "aks-kubeletconfig.json", "--show-origin"}, exitClean},
		{"inputs-forced-config", []string{"lint", "-c", inputs + "kubelet-config.yaml", "--input-format", "config", "-q"}, exitFindings},
		{"inputs-forced-mismatch", []string{"lint", "-c", inputs + "kubelet-config.yaml", "--input-format", "configz"}, exitUsage},
		{"inputs-bad-format", []string{"lint", "-c", inputs + "configz.json", "--input-format", "xml"}, exitUsage},
		{"inputs-format-without-config", []string{"lint", "-d", inputs + "nodes/pool-a-1/conf.d", "--input-format", "kubeadm"}, exitUsage},
		// EKS nodeadm (input/nodeadm): MIME user data, and a NodeConfig at 1.37 and at 1.38.
		{"inputs-nodeadm-userdata", []string{"lint", nodeadmExamples + "userdata.txt"}, exitFindings},
		{"inputs-nodeadm-swap", []string{"lint", nodeadmExamples + "nodeconfig-swap.yaml"}, exitClean},
		{"inputs-nodeadm-swap-1.38", []string{"lint", nodeadmExamples + "nodeconfig-swap.yaml", "--kubelet-version", "1.38"}, exitFindings},
		{"inputs-nodeadm-origin", []string{"effective", nodeadmExamples + "nodeconfig-swap.yaml", "--show-origin", "--set", "maxPods=58", "--set", "kubeReserved[cpu]=70m"}, exitClean},
		{"inputs-nodes", []string{"lint", "--nodes", inputs + "nodes"}, exitUsage},
		{"inputs-nodes-json", []string{"lint", "--nodes", inputs + "nodes", "-o", "json"}, exitUsage},
		{"inputs-nodes-1.31", []string{"lint", "--nodes", inputs + "nodes", "--kubelet-version", "1.31", "-q"}, exitUsage},
		{"inputs-nodes-with-config", []string{"lint", "--nodes", inputs + "nodes", "-c", inputs + "configz.json"}, exitUsage},
		{"inputs-nodes-missing", []string{"lint", "--nodes", inputs + "no-such-folder"}, exitUsage},
		// Talos (input/talos): a protected extraConfig key; Talos's own reference example; the
		// values only the node knows given with --set; forced format on a file of another kind
		{"inputs-talos", []string{"lint", talos + "worked-example.yaml"}, exitFindings},
		{"inputs-talos-origin", []string{"effective", "-c", talos + "worked-example.yaml", "--show-origin"}, exitFindings}, // Talos refuses it: no kubelet runs
		{"inputs-talos-docs-example", []string{"lint", "-c", talos + "docs/kubelet-example.yaml"}, exitFindings},
		{"inputs-talos-set", []string{"lint", "-c", talos + "worked-example.yaml", "--set", "hostname-override=worker-1",
			"--set", "node-ip=10.0.0.21", "--set", "staticPodURL=http://127.0.0.1:40000", "-o", "json"}, exitFindings},
		{"inputs-talos-forced-mismatch", []string{"lint", "-c", inputs + "kubelet-config.yaml", "--input-format", "talos"}, exitUsage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runGolden(t, tt.name, tt.args, tt.exit)
		})
	}
}

// TestCLIInputsStdin runs `-c -` with standard input replaced: read once,
// named <stdin>, converted like a file, refused past the file size limit.
func TestCLIInputsStdin(t *testing.T) {
	cm, err := os.ReadFile(inputs + "kubelet-config.yaml")
	if err != nil {
		t.Fatal(err)
	}
	kind, err := os.ReadFile(inputs + "kind.yaml")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		args  []string
		stdin []byte
		exit  int
	}{
		{"inputs-stdin-kubeadm", []string{"lint", "-c", "-"}, cm, exitFindings},
		{"inputs-stdin-config", []string{"effective", "-c", "-", "-o", "json"}, []byte("apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nmaxPods: 7\n"), exitClean},
		{"inputs-stdin-too-large", []string{"lint", "-c", "-"}, make([]byte, 4<<20+1), exitUsage},
		{"inputs-stdin-fix", []string{"fix", "-c", "-", "--diff"}, cm, exitUsage},
		{"inputs-stdin-kind-nodes", []string{"lint", "-c", "-", "-q"}, kind, exitFindings},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			withStdin(t, tt.stdin)
			runGolden(t, tt.name, tt.args, tt.exit)
		})
	}
}

// withStdin makes os.Stdin (cobra's InOrStdin) read data for the test.
func withStdin(t *testing.T, data []byte) {
	t.Helper()
	f, err := os.CreateTemp(t.TempDir(), "stdin")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(data); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Seek(0, 0); err != nil {
		t.Fatal(err)
	}
	old := os.Stdin
	os.Stdin = f
	t.Cleanup(func() {
		os.Stdin = old
		f.Close()
	})
}

// TestLintNodesExitCode checks --fail-on over all nodes on a folder where
// every node can be read: one node that would not start fails the run.
func TestLintNodesExitCode(t *testing.T) {
	good := "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nmaxPod: 1\n"
	dir := testtree.Write(t, map[string]string{
		"a/config.yaml": good,
		"b/config.yaml": "# another comment\n" + good,
		"c.json":        `{"kubeletconfig":{"maxPods":110}}`,
	})
	for _, tt := range []struct {
		failOn string
		exit   int
		want   string
	}{
		{"error", exitClean, "3 nodes in 2 groups at kubelet 1.37: 0 would not start (0 groups)\n"},
		{"warning", exitFindings, "2 nodes: a, b\n"},
		{"none", exitClean, "1 node: c\n"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run([]string{"lint", "--nodes", dir, "--fail-on", tt.failOn}, &stdout, &stderr); code != tt.exit {
			t.Errorf("--fail-on %s: exit %d, want %d\n%s%s", tt.failOn, code, tt.exit, stdout.String(), stderr.String())
		}
		if !strings.Contains(stdout.String(), tt.want) {
			t.Errorf("--fail-on %s: no %q in\n%s", tt.failOn, tt.want, stdout.String())
		}
	}
}

// A gate the NodeConfig sets that nodeadm writes too (its config.json and the
// drop-in of the user's values both hold it): one finding at the user's line,
// the same count in every format.
func TestNodeadmGateOnceInEveryFormat(t *testing.T) {
	file := filepath.Join(t.TempDir(), "nodeconfig.yaml")
	data := "apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  cluster:\n    name: my-cluster\n    apiServerEndpoint: https://example.com\n" +
		"    certificateAuthority: Y2VydGlmaWNhdGVBdXRob3JpdHk=\n    cidr: 10.100.0.0/16\n  kubelet:\n    config:\n      featureGates:\n        DynamicResourceAllocation: true\n"
	if err := os.WriteFile(file, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	const at, gate = ":12:9:", "DynamicResourceAllocation"
	count := map[string]int{}
	for _, format := range []string{"text", "json", "sarif", "github"} {
		_, out, errOut := runCLI("lint", file, "--kubelet-version", "1.37", "-o", format)
		switch format {
		case "text":
			count[format] = strings.Count(out, at+" warning: feature gate "+gate)
		case "json":
			var doc struct{ Findings []struct{ Rule, Path string } }
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatalf("%v: %s", err, errOut)
			}
			for _, f := range doc.Findings {
				if f.Rule == "KC3005" && f.Path == "featureGates["+gate+"]" {
					count[format]++
				}
			}
		case "sarif":
			count[format] = strings.Count(out, `"field": "featureGates[`+gate+`]"`)
		case "github":
			count[format] = strings.Count(out, "line=12,col=9,title=KC3005")
		}
	}
	for format, n := range count {
		if n != 1 {
			t.Errorf("-o %s: %d KC3005 findings on the user's %s entry, want 1 (every format: %v)", format, n, gate, count)
		}
	}
}
