package karpenter

import (
	"reflect"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/input/bootstrap"
)

// TestBottlerocketDocsExample: the spec.userData example of Karpenter's
// nodeclasses docs sets kube-api-qps, the shutdown grace periods and
// eviction-hard's memory.available: the kubelet runs with them, each at its
// line and column inside the block scalar, not with the kubelet's defaults.
func TestBottlerocketDocsExample(t *testing.T) {
	name := "nodeclasses-doc-bottlerocket.yaml"
	out, err := Translate(name, []byte(read(t, name)), suiteSet)
	if err != nil {
		t.Fatal(err)
	}
	cfg := jsonOf(t, out.Config.Data)
	for path, want := range map[string]struct {
		value     any
		line, col int
	}{
		"kubeAPIQPS":                      {float64(30), 18, 5},
		"shutdownGracePeriod":             {"30s", 19, 5},
		"shutdownGracePeriodCriticalPods": {"30s", 20, 5},
		"evictionHard[memory.available]":  {"20%", 22, 5},
	} {
		field, key, inMap := strings.Cut(strings.TrimSuffix(path, "]"), "[")
		got := cfg[field]
		if inMap {
			got = sub(cfg, field, key)
		}
		if got != want.value {
			t.Errorf("%s = %v, want %v", path, got, want.value)
		}
		if p := out.Positions[path]; p != (finding.Position{File: name, Line: want.line, Column: want.col}) {
			t.Errorf("%s at %s, want %d:%d", path, p, want.line, want.col)
		}
		if n := out.Notes[path]; n != "" {
			t.Errorf("%s has the note %q: the user's TOML sets it", path, n)
		}
	}
	// Bottlerocket's own values have notes naming their source.
	for path, src := range map[string]string{
		"clusterDomain":        "sources/shared-defaults/kubernetes-aws.toml",
		"cgroupDriver":         "packages/kubernetes-1.31/kubelet-config",
		"podPidsLimit":         "packages/kubernetes-1.31/kubelet-config",
		"seccompDefault":       "kubernetes-seccomp-default-false.toml",
		"kubeReserved[memory]": "kube_reserve_memory",
	} {
		if n := out.Notes[path]; !strings.Contains(n, src) {
			t.Errorf("%s: note %q, want one naming %s", path, n, src)
		}
	}
	if got := sub(cfg, "kubeReserved", "memory"); got != "1465Mi" { // 110 pods * 11Mi + 255Mi
		t.Errorf("kubeReserved[memory] = %v", got)
	}
	if _, ok := out.AtBoot["kubeReserved[cpu]"]; !ok || out.First(bootstrap.AtBoot.ID) == nil {
		t.Errorf("kubeReserved[cpu] should be at boot (the instance's cores): %v", out.AtBoot)
	}
	if len(out.Findings) != 1 {
		t.Errorf("findings %v, want only kubeReserved[cpu]'s KC9004", out.Findings)
	}
}

// TestBottlerocketMappings: each setting of the user's TOML reaches the
// kubelet field Bottlerocket's kubelet-config template writes it to (or
// not, with the finding that says why), at the TOML's position.
func TestBottlerocketMappings(t *testing.T) {
	for _, tt := range []struct {
		name, toml string
		path       string // "" for no field
		want       any
		rule       string // the finding expected, "" for none
	}{
		{"kube-api-qps", "[settings.kubernetes]\nkube-api-qps = 30", "kubeAPIQPS", float64(30), ""},
		{"kube-api-qps zero (includeZero)", "[settings.kubernetes]\nkube-api-qps = 0", "kubeAPIQPS", float64(0), ""},
		{"kube-api-burst", "[settings.kubernetes]\nkube-api-burst = 20", "kubeAPIBurst", float64(20), ""},
		{"registry-qps", "[settings.kubernetes]\nregistry-qps = 7", "registryPullQPS", float64(7), ""},
		{"event-burst", "[settings.kubernetes]\nevent-burst = 9", "eventBurst", float64(9), ""},
		{"shutdown-grace-period", "[settings.kubernetes]\nshutdown-grace-period = \"45s\"", "shutdownGracePeriod", "45s", ""},
		{"eviction-hard table", "[settings.kubernetes.eviction-hard]\n\"memory.available\" = \"20%\"", "evictionHard", map[string]any{"memory.available": "20%"}, ""},
		{"eviction-hard inline", "[settings.kubernetes]\neviction-hard = { \"nodefs.available\" = \"7%\" }", "evictionHard", map[string]any{"nodefs.available": "7%"}, ""},
		{"eviction-max-pod-grace-period zero is not written", "[settings.kubernetes]\neviction-max-pod-grace-period = 0", "evictionMaxPodGracePeriod", nil, ""},
		{"cpu-manager-policy", "[settings.kubernetes]\ncpu-manager-policy = \"static\"", "cpuManagerPolicy", "static", ""},
		{"cpu-manager-policy-options", "[settings.kubernetes]\ncpu-manager-policy-options = [\"full-pcpus-only\"]", "cpuManagerPolicyOptions", map[string]any{"full-pcpus-only": "true"}, ""},
		{"topology-manager-policy", "[settings.kubernetes]\ntopology-manager-policy = \"single-numa-node\"", "topologyManagerPolicy", "single-numa-node", ""},
		{"image-gc-high-threshold-percent", "[settings.kubernetes]\nimage-gc-high-threshold-percent = \"90\"", "imageGCHighThresholdPercent", float64(90), ""},
		{"container-log-max-files", "[settings.kubernetes]\ncontainer-log-max-files = 3", "containerLogMaxFiles", float64(3), ""},
		{"seccomp-default", "[settings.kubernetes]\nseccomp-default = true", "seccompDefault", true, ""},
		{"pod-pids-limit", "[settings.kubernetes]\npod-pids-limit = 4096", "podPidsLimit", float64(4096), ""},
		{"cluster-domain", "[settings.kubernetes]\ncluster-domain = \"corp.local\"", "clusterDomain", "corp.local", ""},
		{"system-reserved", "[settings.kubernetes.system-reserved]\ncpu = \"100m\"", "systemReserved", map[string]any{"cpu": "100m"}, ""},
		{"allowed-unsafe-sysctls", "[settings.kubernetes]\nallowed-unsafe-sysctls = [\"net.core.somaxconn\"]", "allowedUnsafeSysctls", []any{"net.core.somaxconn"}, ""},
		{"memory manager", "[settings.kubernetes]\nmemory-manager-policy = \"Static\"\n[settings.kubernetes.memory-manager-reserved-memory.0]\nenabled = true\nmemory = \"1Gi\"", "memoryManagerPolicy", "Static", ""},
		// Karpenter's typed decoding refuses a value of another type: no node.
		{"kube-api-qps as a string", "[settings.kubernetes]\nkube-api-qps = \"30\"", "kubeAPIQPS", nil, bootstrap.Refuses.ID},
		{"not TOML", "#!/bin/bash\necho hi", "", nil, bootstrap.Refuses.ID},
		// A key Karpenter's settings lack is dropped.
		{"misspelled", "[settings.kubernetes]\nkube-api-qs = 30", "kubeAPIQPS", nil, bootstrap.Drops.ID},
		// A key the template of core-kit v3.1.1 does not read.
		{"not in the template", "[settings.kubernetes]\nsingle-process-oom-kill = true", "singleProcessOOMKill", nil, bootstrap.Drops.ID},
		// Karpenter writes max-pods and node-taints over the user's.
		{"max-pods", "[settings.kubernetes]\nmax-pods = 20", "maxPods", float64(110), bootstrap.Overrides.ID},
		{"node-taints", "[settings.kubernetes.node-taints]\ndedicated = [\"gpu:NoSchedule\"]", "", nil, bootstrap.Overrides.ID},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out := translate(t, nodeClassYAML("bottlerocket@latest", "", tt.toml), suiteSet)
			cfg := jsonOf(t, out.Config.Data)
			if tt.path != "" && !reflect.DeepEqual(cfg[tt.path], tt.want) {
				t.Errorf("%s = %#v, want %#v", tt.path, cfg[tt.path], tt.want)
			}
			var rules []string
			for _, f := range out.Findings {
				if f.Rule != bootstrap.AtBoot.ID {
					rules = append(rules, f.Rule)
				}
			}
			if tt.rule == "" && len(rules) > 0 || tt.rule != "" && !reflect.DeepEqual(rules, []string{tt.rule}) {
				t.Errorf("findings %v, want %q", out.Findings, tt.rule)
			}
			// The TOML's second line is the file's line 10, its column 1 the file's 5.
			if f := out.First(tt.rule); tt.rule != "" && tt.rule != bootstrap.Refuses.ID && (f.Line < 9 || f.Column < 5) {
				t.Errorf("finding at %d:%d, want inside the userData block", f.Line, f.Column)
			}
			if tt.rule == "" && tt.want != nil {
				if p := out.Positions[tt.path]; p.Line < 9 || p.Column < 5 {
					t.Errorf("%s at %s, want inside the userData block (9:5 on)", tt.path, p)
				}
			}
		})
	}
}

// TestBottlerocketTOMLPositions: a key's position is its first character in
// the block scalar (line after the indicator, the block's indentation);
// another style of scalar has every position at the scalar.
func TestBottlerocketTOMLPositions(t *testing.T) {
	out := translate(t, nodeClassYAML("bottlerocket@latest", "", "[settings.kubernetes]\n  kube-api-burst = 20\n[settings.kubernetes.eviction-soft]\n\"memory.available\" = \"10%\""), suiteSet)
	for path, want := range map[string]finding.Position{
		"kubeAPIBurst":                   {File: "nc.yaml", Line: 10, Column: 7},
		"evictionSoft":                   {File: "nc.yaml", Line: 11, Column: 6},
		"evictionSoft[memory.available]": {File: "nc.yaml", Line: 12, Column: 5},
	} {
		if got := out.Positions[path]; got != want {
			t.Errorf("%s at %s, want %s", path, got, want)
		}
	}
	quoted := "apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\nmetadata:\n  name: test\nspec:\n  amiSelectorTerms:\n  - alias: bottlerocket@latest\n  userData: \"[settings.kubernetes]\\nkube-api-qps = 30\\n\"\n"
	out = translate(t, quoted, suiteSet)
	if got := out.Positions["kubeAPIQPS"]; got != (finding.Position{File: "nc.yaml", Line: 8, Column: 13}) {
		t.Errorf("kubeAPIQPS of a quoted userData at %s, want the scalar's 8:13", got)
	}
}

// TestBottlerocketSpecKubeletWins: spec.kubelet's evictionHard replaces the
// user's eviction-hard (Script), and its position is spec.kubelet's.
func TestBottlerocketSpecKubeletWins(t *testing.T) {
	out := translate(t, nodeClassYAML("bottlerocket@latest", "    evictionHard:\n      memory.available: 5%\n", "[settings.kubernetes.eviction-hard]\n\"nodefs.available\" = \"20%\""), suiteSet)
	cfg := jsonOf(t, out.Config.Data)
	if got := cfg["evictionHard"]; !reflect.DeepEqual(got, map[string]any{"memory.available": "5%"}) {
		t.Errorf("evictionHard %v", got)
	}
	if p := out.Positions["evictionHard[memory.available]"]; p.Line != 10 || p.Column != 7 {
		t.Errorf("evictionHard[memory.available] at %s, want spec.kubelet's 10:7", p)
	}
	if f := out.First(bootstrap.Overrides.ID); f == nil || f.Line != 12 || f.Path != "evictionHard" {
		t.Errorf("want KC9002 at the user's [settings.kubernetes.eviction-hard] (12), have %v", out.Findings)
	}
}

// TestBottlerocketTemplatePairing: a kubelet newer than the newest template
// of core-kit v3.1.1 (kubernetes-1.31) is paired with it, and the note says so.
func TestBottlerocketTemplatePairing(t *testing.T) {
	for minor, newest := range map[string]bool{"1.31": false, "1.38": true} {
		out := translate(t, nodeClassYAML("bottlerocket@latest", "", ""), bootstrap.Options{Minor: minor, Set: suiteSet.Set})
		if got := strings.Contains(out.Note, "the newest in "+brCoreKit+", for kubelet "+minor); got != newest || !strings.Contains(out.Note, "packages/kubernetes-1.31/kubelet-config") {
			t.Errorf("%s: note %q", minor, out.Note)
		}
	}
}
