package minikube

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/input/kubeadm"
)

var minikubeRoot = filepath.Join("..", "..", "testdata", "minikube")

// kubeletDocOf is the KubeletConfiguration document of a kubeadm.yaml, as written.
func kubeletDocOf(t *testing.T, yaml []byte) []byte {
	t.Helper()
	for _, d := range bytes.Split(yaml, []byte("---\n")) {
		if bytes.Contains(d, []byte("\nkind: KubeletConfiguration\n")) {
			return d
		}
	}
	t.Fatal("no KubeletConfiguration document")
	return nil
}

// profileAt is a profile fixture with its KubernetesVersion set to version.
func profileAt(t *testing.T, name, version string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(minikubeRoot, "profiles", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	return regexp.MustCompile(`"KubernetesVersion": "v[^"]*"`).ReplaceAll(data, []byte(`"KubernetesVersion": "`+version+`"`))
}

// TestMinikubeKubeadmYAML: for every profile of minikube's GenerateKubeadmYAML test
// table and every version it keeps a golden for (testdata/minikube/kubeadm, copied
// from minikube), the port writes the same KubeletConfiguration document byte for
// byte, and reading the whole kubeadm.yaml as kubeadm-config (what the node holds in
// /var/tmp/minikube/kubeadm.yaml) gives the same node file as reading the profile.
func TestMinikubeKubeadmYAML(t *testing.T) {
	versions, err := os.ReadDir(filepath.Join(minikubeRoot, "kubeadm"))
	if err != nil {
		t.Fatal(err)
	}
	if len(versions) < 6 {
		t.Fatalf("%d versions of minikube's goldens, want 1.31..1.36", len(versions))
	}
	kv := regexp.MustCompile(`(?m)^kubernetesVersion: (\S+)$`)
	for _, v := range versions {
		goldens, err := os.ReadDir(filepath.Join(minikubeRoot, "kubeadm", v.Name()))
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range goldens {
			name := strings.TrimSuffix(g.Name(), ".yaml")
			t.Run(v.Name()+"/"+name, func(t *testing.T) {
				want, err := os.ReadFile(filepath.Join(minikubeRoot, "kubeadm", v.Name(), g.Name()))
				if err != nil {
					t.Fatal(err)
				}
				m := kv.FindSubmatch(want)
				if m == nil {
					t.Fatal("golden without kubernetesVersion")
				}
				data := profileAt(t, name, string(m[1]))
				if !Detect(data) {
					t.Fatal("Detect = false")
				}
				p, err := readMinikubeProfile("config.json", data, "")
				if err != nil {
					t.Fatal(err)
				}
				cg := p.cgroupDriver(Options{})
				opts, _ := p.kubeletOpts(cg)
				if got, w := p.kubeletDocument(cg, opts), kubeletDocOf(t, want); !bytes.Equal(got, w) {
					t.Errorf("the port writes\n%s\nminikube writes\n%s", got, w)
				}

				if !kubeadm.IsConfig(want) {
					t.Fatal("minikube's kubeadm.yaml is not read as kubeadm-config")
				}
				node, err := kubeadm.Convert("kubeadm.yaml", want, kubeadm.Reading{})
				if err != nil {
					t.Fatal(err)
				}
				s, err := Convert("config.json", data, kubeadm.Reading{}, Options{})
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(s.Data, node.Data) {
					t.Errorf("the profile gives\n%s\nits kubeadm.yaml gives\n%s", s.Data, node.Data)
				}
			})
		}
	}
}

// TestMinikubeKubeletFlags: the kubelet command line is what minikube's
// TestGenerateKubeletConfig expects of NewKubeletConfig (testdata/minikube/kubelet)
// for its cases at a supported version, but for --container-runtime: that test builds
// the runtime without a Kubernetes version, so cruntime's KubeletOptions take it for
// one before 1.24; minikube's start passes the version (node/node.go), which drops it.
func TestMinikubeKubeletFlags(t *testing.T) {
	dir := filepath.Join(minikubeRoot, "kubelet")
	profiles, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(profiles) == 0 {
		t.Fatal("no kubelet fixtures")
	}
	execStart := regexp.MustCompile(`(?m)^ExecStart=\S+/kubelet (.*)$`)
	for _, f := range profiles {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			conf, err := os.ReadFile(filepath.Join(dir, name+".conf"))
			if err != nil {
				t.Fatal(err)
			}
			m := execStart.FindSubmatch(conf)
			if m == nil {
				t.Fatal("no ExecStart with the kubelet")
			}
			want := regexp.MustCompile(` --container-runtime=\S+`).ReplaceAllString(string(m[1]), "")
			p, err := readMinikubeProfile("config.json", data, "")
			if err != nil {
				t.Fatal(err)
			}
			flags, err := p.kubeletFlags()
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, fl := range flags {
				got = append(got, "--"+fl.name+"="+fl.value)
			}
			if strings.Join(got, " ") != want {
				t.Errorf("the port's kubelet flags\n%s\nminikube's\n%s", strings.Join(got, " "), want)
			}
		})
	}
}

// TestMinikubeKubeletConfigOpts is minikube's TestKubeletConfig: of the kubelet's
// extra-config keys only kubeletConfigParams go into the KubeletConfiguration.
func TestMinikubeKubeletConfigOpts(t *testing.T) {
	p := &mkProfile{at: map[string]finding.Position{}, minor: 36, extra: []mkOption{
		{component: "apiserver", key: "fail-no-swap", value: "true"},
		{component: "kubelet", key: "unsupported-config-option", value: "any"},
		{component: "kubelet", key: "localStorageCapacityIsolation", value: "false"},
		{component: "kubelet", key: "kubelet.cgroups-per-qos", value: "false"},
	}}
	opts, _ := p.kubeletOpts("systemd")
	for k, want := range map[string]string{"localStorageCapacityIsolation": "false", "hairpinMode": "hairpin-veth", "runtimeRequestTimeout": "15m", "containerRuntimeEndpoint": "unix:///var/run/cri-dockerd.sock"} {
		if opts[k] != want {
			t.Errorf("%s = %q, want %q", k, opts[k], want)
		}
	}
	if len(opts) != 4 {
		t.Errorf("KubeletConfigOpts %v, want 4 keys", opts)
	}
	// cgroupfs at 1.35+: minikube turns failCgroupV1 off.
	if opts, _ := p.kubeletOpts("cgroupfs"); opts["failCgroupV1"] != "false" {
		t.Errorf("cgroupfs at 1.36: failCgroupV1 %q, want false", opts["failCgroupV1"])
	}
	p.minor = 34
	if opts, _ := p.kubeletOpts("cgroupfs"); opts["failCgroupV1"] != "" {
		t.Errorf("cgroupfs at 1.34: failCgroupV1 %q, want unset", opts["failCgroupV1"])
	}
}
