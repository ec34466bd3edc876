package kubeadm

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

// kubeadmDefaultCRISocket is constants.DefaultCRISocket (unix), what the harness's
// kubeadm takes for an empty criSocket (CRI detection skipped).
const kubeadmDefaultCRISocket = "unix:///var/run/containerd/containerd.sock"

// TestKubeadmGoldens: the port of kubeadm's kubelet-start phase writes, for every case
// of testdata/kubeadm/cases and at every minor, the config.yaml, kubeadm-flags.env and
// instance-config.yaml kubeadm's own code wrote for it (the conformance harness's
// `kubeadm` subcommand, testdata/kubeadm/golden/<minor>), byte for byte; where kubeadm
// refuses the file, the port refuses it too.
func TestKubeadmGoldens(t *testing.T) {
	// The harness skips kubeadm's CRI detection: an empty criSocket is kubeadm's
	// DefaultCRISocket.
	kubeadmGoldens(t, "golden", Options{CRISocket: kubeadmDefaultCRISocket})
}

// TestKubeadmGoldensWindows is TestKubeadmGoldens against kubeadm's Windows build
// (the harness cross-built for Windows, run under Wine from drive Z:,
// testdata/kubeadm/golden-windows/<minor>): Mutate's paths and empty resolvConf,
// the npipe scheme and default socket, filepath.Join's backslashes.
func TestKubeadmGoldensWindows(t *testing.T) {
	kubeadmGoldens(t, "golden-windows", Options{CRISocket: kubeadmWindowsCRISocket, OS: kubelets.Windows, Drive: "Z:"})
}

// kubeadmWindowsCRISocket is constants.DefaultCRISocket on Windows.
const kubeadmWindowsCRISocket = "npipe:////./pipe/containerd-containerd"

func kubeadmGoldens(t *testing.T, folder string, base Options) {
	root, err := filepath.Abs(filepath.Join("..", "..", "testdata", "kubeadm"))
	if err != nil {
		t.Fatal(err)
	}
	cases, err := os.ReadDir(filepath.Join(root, "cases"))
	if err != nil {
		t.Fatal(err)
	}
	minors, err := os.ReadDir(filepath.Join(root, folder))
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
				want, err := os.ReadFile(filepath.Join(root, folder, m.Name(), c.Name()+".yaml"))
				if err != nil {
					t.Fatal(err)
				}
				opt := Reading{Options: base}
				if _, err := os.Stat(filepath.Join(dir, "systemd-resolved")); err == nil {
					opt.Options.SystemdResolved = true
				}
				minor, err := kubelets.Lookup(m.Name())
				if err != nil {
					t.Fatal(err)
				}
				// A relative patches folder is kubeadm's working folder's.
				t.Chdir(dir)
				if !IsConfig(data) {
					t.Fatal("not read as a kubeadm configuration file")
				}
				s, err := Convert("kubeadm.yaml", data, opt)
				if err != nil {
					t.Fatal(err)
				}
				if strings.HasPrefix(string(want), "# kubeadm: ") {
					// kubeadm refuses the file: so must the port, at this minor.
					said := strings.TrimSpace(strings.TrimPrefix(string(want), "# kubeadm: "))
					ref := s.Node.refusal(minor)
					switch {
					case ref == nil:
						t.Errorf("kubeadm %s refuses it (%s); the port does not", m.Name(), said)
					case !strings.HasPrefix(said, "no kind ") && ref.message != said:
						// The scheme's error is the harness's (it decodes without
						// validateSupportedVersion, which the port words as kubeadm does).
						t.Errorf("kubeadm %s says\n%s\nthe port says\n%s", m.Name(), said, ref.message)
					}
					return
				}
				// What the pipeline reads is the newest kubeadm's file.
				if minor == kubelets.Default() && string(s.Data) != string(want) {
					t.Errorf("kubeletcfg's port writes\n%s\nkubeadm %s writes\n%s", s.Data, m.Name(), want)
				}
				var kc, cluster *Doc
				docs := SplitDocs(data)
				for i := range docs {
					switch docs[i].Kind {
					case "KubeletConfiguration":
						kc = &docs[i]
					case "ClusterConfiguration":
						cluster = &docs[i]
					}
				}
				var doc []byte
				if kc != nil {
					doc = kc.Text
				}
				got, err := KubeletConfigAt(doc, clusterNetworking(cluster), opt.Options, minor)
				if err != nil {
					t.Fatal(err)
				}
				// kubeadm patches the bytes its own minor's types marshalled.
				if patches, err := patchesOf(docs, opt.Options); err != nil {
					t.Fatal(err)
				} else if patches != nil {
					if got, err = patches.Apply(got); err != nil {
						t.Fatal(err)
					}
				}
				// Then the instance configuration, where this minor writes it.
				node := NodeOf("kubeadm.yaml", docs)
				node.OS = opt.Options.OS
				w := node.Writes(minor, opt.Options.CRISocket)
				if w.Instance {
					if got, err = MergeInstanceConfig(got, w.Endpoint); err != nil {
						t.Fatal(err)
					}
				}
				if string(got) != string(want) {
					t.Errorf("kubeletcfg's port for %s writes\n%s\nkubeadm %s writes\n%s", m.Name(), got, m.Name(), want)
				}
				// kubeadm-flags.env and instance-config.yaml.
				golden := func(suffix string) string {
					b, err := os.ReadFile(filepath.Join(root, folder, m.Name(), c.Name()+suffix))
					if err != nil && !os.IsNotExist(err) {
						t.Fatal(err)
					}
					return string(b)
				}
				if got, want := string(flagsEnv(w.Flags)), golden(".flags.env"); got != want {
					t.Errorf("kubeletcfg's port of kubeadm %s writes kubeadm-flags.env\n%s\nkubeadm writes\n%s", m.Name(), got, want)
				}
				var inst string
				if w.Instance {
					inst = string(instanceConfig(w.Endpoint))
				}
				if want := golden(".instance-config.yaml"); inst != want {
					t.Errorf("kubeletcfg's port of kubeadm %s writes instance-config.yaml\n%q\nkubeadm writes\n%q", m.Name(), inst, want)
				}
			})
		}
	}
}
