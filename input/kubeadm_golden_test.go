package input

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/skew"
)

// TestKubeadmGoldens: the port of kubeadm's kubelet defaulting writes, for every case
// of testdata/kubeadm/cases, the config.yaml kubeadm's own code wrote for it (the
// conformance harness's `kubeadm` subcommand, testdata/kubeadm/golden/<minor>), byte
// for byte.
func TestKubeadmGoldens(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", "testdata", "kubeadm"))
	if err != nil {
		t.Fatal(err)
	}
	cases, err := os.ReadDir(filepath.Join(root, "cases"))
	if err != nil {
		t.Fatal(err)
	}
	minors, err := os.ReadDir(filepath.Join(root, "golden"))
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 || len(minors) == 0 {
		t.Fatal("no kubeadm cases or goldens")
	}
	for _, m := range minors {
		for _, c := range cases {
			t.Run(m.Name()+"/"+c.Name(), func(t *testing.T) {
				dir := filepath.Join(root, "cases", c.Name())
				data, err := os.ReadFile(filepath.Join(dir, "kubeadm.yaml"))
				if err != nil {
					t.Fatal(err)
				}
				want, err := os.ReadFile(filepath.Join(root, "golden", m.Name(), c.Name()+".yaml"))
				if err != nil {
					t.Fatal(err)
				}
				var opt Options
				if _, err := os.Stat(filepath.Join(dir, "systemd-resolved")); err == nil {
					opt.Kubeadm.SystemdResolved = true
				}
				minor, err := skew.Lookup(m.Name())
				if err != nil {
					t.Fatal(err)
				}
				// A relative patches folder is kubeadm's working folder's.
				t.Chdir(dir)
				s, err := ConvertOptions("kubeadm.yaml", data, Auto, opt)
				if err != nil {
					t.Fatal(err)
				}
				if s.Format != KubeadmConfig {
					t.Fatalf("format %s, want %s", s.Format, KubeadmConfig)
				}
				// What the pipeline reads is the newest kubeadm's file.
				if minor == skew.Default() && string(s.Data) != string(want) {
					t.Errorf("kubeletcfg's port writes\n%s\nkubeadm %s writes\n%s", s.Data, m.Name(), want)
				}
				var kc, cluster *yamlDoc
				docs := splitDocs(data)
				for i := range docs {
					switch docs[i].kind {
					case "KubeletConfiguration":
						kc = &docs[i]
					case "ClusterConfiguration":
						cluster = &docs[i]
					}
				}
				var doc []byte
				if kc != nil {
					doc = kc.text
				}
				got, err := KubeadmKubeletConfigAt(doc, clusterNetworking(cluster), opt.Kubeadm, minor)
				if err != nil {
					t.Fatal(err)
				}
				// kubeadm patches the bytes its own minor's types marshalled.
				if patches, err := kubeadmPatchesOf(docs, opt.Kubeadm); err != nil {
					t.Fatal(err)
				} else if patches != nil {
					if got, err = patches.Apply(got); err != nil {
						t.Fatal(err)
					}
				}
				if string(got) != string(want) {
					t.Errorf("kubeletcfg's port for %s writes\n%s\nkubeadm %s writes\n%s", m.Name(), got, m.Name(), want)
				}
			})
		}
	}
}
