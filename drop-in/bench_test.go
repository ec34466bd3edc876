package dropin

import (
	"testing"

	"github.com/kubeletcfg/kubeletcfg/defaults"
	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

// BenchmarkMerge finds and merges five drop-ins of the usual kinds (scalars, a
// map, a list, a case-folded key, a nested object) over a base config.
func BenchmarkMerge(b *testing.B) {
	dir := tree(b, map[string]string{
		"10-pods.conf":     hdr + "maxPods: 250\npodPidsLimit: 4096\n",
		"20-eviction.conf": hdr + "evictionHard:\n  memory.available: 200Mi\n  imagefs.available: 15%\nevictionSoft:\n  memory.available: 500Mi\nevictionSoftGracePeriod:\n  memory.available: 1m30s\n",
		"30-dns.conf":      hdr + "clusterDNS:\n- 169.254.20.10\nclusterDomain: cluster.local\n",
		"40-gates.conf":    hdr + "featureGates:\n  KubeletTracing: true\nStaticPodPath: /etc/kubernetes/manifests\n",
		"50-crashloop.conf": hdr + "crashLoopBackOff:\n  maxContainerRestartPeriod: 30s\nlogging:\n  format: json\n  verbosity: 2\n" +
			"authentication:\n  webhook:\n    enabled: true\n    cacheTTL: 2m\n",
	})
	base := baseConfig(b)
	tree := kubelets.Tree()
	b.ReportAllocs()
	for b.Loop() {
		entries, err := Find(dir)
		if err != nil {
			b.Fatal(err)
		}
		res, err := Merge(base, entries, Options{Tree: tree, PathFields: defaults.PathFields, Origins: map[string]finding.Position{}})
		if err != nil || res.Refused || len(res.Patches) != 5 {
			b.Fatalf("merge: %v %+v", err, res)
		}
	}
}
