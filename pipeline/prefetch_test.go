package pipeline

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/internal/testonly/testtree"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

// TestPrefetchSameResult: reading and decoding the files on every core first
// (many drop-ins, or megabytes) gives exactly the result of reading them as
// the merge needs them, at every minor, for drop-ins that merge, refuse,
// are empty, lack their kind, are too large, are folders or are not .conf.
func TestPrefetchSameResult(t *testing.T) {
	head := "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n"
	files := map[string]string{
		"kubelet.yaml":                 head + "maxPods: 50\nstaticPodPath: /etc/kubernetes/manifests\n",
		"conf.d/15-empty.conf":         "",
		"conf.d/16-nokind.conf":        "maxPods: 5\n",
		"conf.d/17-dup.conf":           head + "maxPods: 1\nmaxPods: 2\n",
		"conf.d/18-json.conf":          `{"apiVersion":"kubelet.config.k8s.io/v1beta1","kind":"KubeletConfiguration","podPidsLimit":100}`,
		"conf.d/19-notes.txt":          "not merged",
		"conf.d/20-sub/01-nested.conf": head + "registryPullQPS: 7\n",
		"conf.d/21-folder.conf/x":      "a folder named like a drop-in",
		"big.d/19-big.conf":            head + "# " + strings.Repeat("x", 5<<20) + "\n",
	}
	for i := range 40 {
		files[fmt.Sprintf("conf.d/%02d-set.conf", i)] = fmt.Sprintf("%smaxPods: %d\nevictionHard: {memory.available: %dMi}\nMaxPods: 3\nunknown%d: x\n", head, 100+i, 100+i, i)
	}
	for i := range 30 {
		files[fmt.Sprintf("ok.d/%02d.conf", i)] = fmt.Sprintf("%smaxPods: %d\nsystemReserved: {cpu: %dm}\nFeatureGates: {KubeletTracing: true}\nunknown%d: x\n", head, 100+i, 100+i, i)
	}
	for i := range 19 {
		files[fmt.Sprintf("big.d/%02d.conf", i)] = head + "maxPods: 7\n"
	}
	dir := testtree.Write(t, files)
	conf, main := filepath.Join(dir, "conf.d"), filepath.Join(dir, "kubelet.yaml")

	evaluate := func(files int) ([]*Result, []error) {
		old := prefetchFiles
		prefetchFiles = files
		defer func() { prefetchFiles = old }()
		var rs []*Result
		var errs []error
		for _, d := range []string{conf, filepath.Join(conf, "20-sub"), filepath.Join(dir, "ok.d"), filepath.Join(dir, "big.d")} {
			for _, v := range kubelets.Supported() {
				m, _ := kubelets.Lookup(v)
				r, err := Evaluate(m, Input{Config: main, ConfigDir: d})
				rs, errs = append(rs, r), append(errs, err)
			}
		}
		return rs, errs
	}
	prefetched, perrs := evaluate(2)
	alone, aerrs := evaluate(1 << 30)
	for i := range prefetched {
		if fmt.Sprint(perrs[i]) != fmt.Sprint(aerrs[i]) {
			t.Errorf("evaluation %d: error %v prefetched, %v alone", i, perrs[i], aerrs[i])
			continue
		}
		p, a := prefetched[i], alone[i]
		if p == nil || a == nil {
			continue
		}
		if p.Starts != a.Starts || p.Panics != a.Panics || !reflect.DeepEqual(p.Findings, a.Findings) || !reflect.DeepEqual(p.Effective, a.Effective) ||
			!reflect.DeepEqual(p.Origins, a.Origins) || !reflect.DeepEqual(p.Files, a.Files) || !reflect.DeepEqual(p.Dropped, a.Dropped) {
			t.Errorf("evaluation %d differs prefetched:\n%+v\nalone:\n%+v", i, p.Findings, a.Findings)
		}
	}
	minors := len(kubelets.Supported())
	if n := len(perrs); perrs[0] != nil || perrs[n-1] == nil || prefetched[0].Starts || !prefetched[2*minors].Starts {
		t.Errorf("want conf.d refused (the empty drop-in), ok.d starting, big.d an input error: %v, %v", perrs[0], perrs[n-1])
	}
}
